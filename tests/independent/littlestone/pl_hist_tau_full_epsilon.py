"""Private learner M (seed 003 Section 5.2, Theorem 17 with G = Algorithm G) whose histogram threshold is
computed with M's epsilon instead of Hist's epsilon/2.

k batches of m = N + n_aux examples by position (n_aux = ceil(2^(d+3)/alpha), N = floor(c 4^(d+1) n_aux));
G at accuracy alpha/2 on each batch (its exact law per batch from gsl_exact_law, one draw per batch);
Hist at (epsilon/2, delta) on the k outputs (Fail is an item): every item with count >= 1 gets
c + Lap(2/(epsilon/2)); released if the noisy count is >= tau; a_h = noisy count / k; prune a_h < 3 eta/4
and Fail; GenericLearner at epsilon/2 on S' (the last n' positions): P[h] proportional to
exp(-(epsilon/2) err_S'(h)/2) over the pruned list in canonical (truth-table) order; the constant -1
function if the list is empty. Dense and sparse ('fill_x', 'fill_y', 'idx') input. With a batch sampler.
The bug: tau = 1 + (2/epsilon) ln(1/delta) (the epsilon passed to M) where Hist runs at epsilon/2 and
needs 1 + (2/(epsilon/2)) ln(1/delta) = 1 + (4/epsilon) ln(1/delta): 28.63 instead of 56.26 at the
default point, with noise Lap(4).

TRUTH (privacy-bug, default point epsilon = 1, delta = 1e-6, alpha = 0.4, d = 1, eta = 0.25, c = 4,
k = 128, n' = 2200; m = 2600): an item of count 1 is released with probability
(1/2) exp(-(tau - 1)/4) = (1/2) sqrt(delta) = 5.0e-4 (the spec's Hist: 5.0e-7 = delta/2), and kept by
the pruning (a_h >= 28.63/128 = 0.224 >= 0.1875). Pair: H = [[1, 1], [-1, 1], [-1, -1]] (Ldim 1),
D = every position (x, y) = (0, +1) except S' = (1, -1) at every position; D' = D with position 0
(batch 1) replaced by (1, -1). On D every batch's G outputs [1, 1] or Fail (1/2 each); on D' batch 1's
G outputs [1, -1] with probability 3/4 (level 0, and level 1 with y = -1) and [1, 1] with 1/4
(exact enumeration). [1, -1] is never an item on D; on D' it is released w.p. 3/4 x 5.0e-4 and then
output by GenericLearner with probability 1 - e^(-550) (it makes 0 errors on S', [1, 1] makes 2200):
P_D'[output [1, -1]] = 3.75e-4 against P_D = 0: infinite loss, hockey-stick delta needed 3.75e-4 =
375 x delta (exact up to the 1 - e^(-550)).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gsl_exact_law import g_law, law_cached, params


def _dense(data, total):
    if "fill_x" not in data:
        xs = np.asarray(data["x"]).reshape(-1).astype(np.int64)[:total]
        ys = np.asarray(data["y"]).reshape(-1).astype(np.int64)[:total]
        return xs, ys
    fx = np.atleast_1d(np.asarray(data["fill_x"])).astype(np.int64)
    fy = np.atleast_1d(np.asarray(data["fill_y"])).astype(np.int64)
    j = np.arange(total) % fx.size
    xs, ys = fx[j], fy[j]
    idx = np.atleast_1d(np.asarray(data.get("idx", []), dtype=np.float64)).astype(np.int64)
    if idx.size:
        ok = (idx >= 0) & (idx < total)
        xs[idx[ok]] = np.atleast_1d(np.asarray(data["x"])).astype(np.int64).reshape(-1)[ok]
        ys[idx[ok]] = np.atleast_1d(np.asarray(data["y"])).astype(np.int64).reshape(-1)[ok]
    return xs, ys


def _prepare(data, alpha, d, c, k, n_prime, rng):
    H = np.asarray(data["H"], dtype=np.int8)
    n_aux, N = params(d, alpha / 2.0, c)     # G at accuracy alpha/2
    m = N + n_aux
    xs, ys = _dense(data, k * m + n_prime)
    laws = []
    for i in range(k):
        bx, by = xs[i * m:(i + 1) * m], ys[i * m:(i + 1) * m]
        K, law = law_cached(H, bx, by, d, n_aux, N)
        if law is None:
            law = g_law(K, bx.tolist(), by.tolist(), d, n_aux, N, rng)
        laws.append(law)
    return H, laws, xs[k * m:], ys[k * m:]


def _universe(H, laws, sx, sy):
    items = sorted({o for law in laws for o in law}, key=lambda o: (o is not None, o or ()))
    pos = {o: j for j, o in enumerate(items)}
    err = np.array([np.inf if o is None else float(np.count_nonzero(np.array(o)[sx] != sy)) for o in items])
    return items, pos, err


def learn(data, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
    out = learn.batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, alpha=alpha, d=d, eta=eta, c=c,
                      k=k, n_prime=n_prime)
    return out[0]


def _batch(data, N, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
    H, laws, sx, sy = _prepare(data, alpha, d, c, k, n_prime, rng)
    items, pos, err = _universe(H, laws, sx, sy)
    U = len(items)
    counts = np.zeros((N, U), dtype=np.int64)
    for law in laws:
        outs = list(law.keys())
        pr = np.array([law[o] for o in outs])
        pick = rng.choice(len(outs), size=N, p=pr / pr.sum())
        ids = np.array([pos[o] for o in outs])[pick]
        counts[np.arange(N), ids] += 1
    eps_h = epsilon / 2.0
    noisy = counts + rng.laplace(0.0, 2.0 / eps_h, size=(N, U))
    tau = 1.0 + (2.0 / epsilon) * math.log(1.0 / delta)
    keep = (counts >= 1) & (noisy >= tau) & (noisy / k >= 0.75 * eta)
    if items and items[0] is None:
        keep[:, 0] = False                     # Fail never reaches GenericLearner
    logits = np.where(keep, -(epsilon / 2.0) * np.where(np.isfinite(err), err, 0.0)[None, :] / 2.0, -np.inf)
    g = logits + rng.gumbel(size=(N, U))
    choice = np.argmax(g, axis=1)
    any_kept = keep.any(axis=1)
    table = np.array([np.zeros(H.shape[1]) if o is None else np.array(o) for o in items],
                     dtype=np.int8).reshape(U, H.shape[1])
    res = np.full((N, H.shape[1]), -1, dtype=np.int8)
    res[any_kept] = table[choice[any_kept]]
    return res


learn.batch = _batch
