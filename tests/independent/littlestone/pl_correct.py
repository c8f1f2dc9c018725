"""Private learner M (seed 003 Section 5.2, Theorem 17 with the pruning step of its proof):
k batches of m = N + n_aux examples (by position) -> G at accuracy alpha/2 on each; Hist at (eps/2, delta)
on the k outputs (Fail has its own id); prune released items with a_h < 3 eta/4 and Fail; GenericLearner
at eps/2 over the pruned list on S' = the last n' positions; the constant -1 function if the list is empty.
Dense or sparse ('fill_x', 'fill_y', 'idx') input."""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gsl_correct import Klass, run_G


def sizes(d, alpha, c):
    n_aux = math.ceil(2 ** (d + 3) / alpha)          # G at accuracy alpha/2
    N = math.floor(c * 4 ** (d + 1) * n_aux)
    return n_aux, N, N + n_aux


def dense(data, total):
    if "fill_x" not in data:
        xs = np.asarray(data["x"]).reshape(-1).astype(np.int64)
        ys = np.asarray(data["y"]).reshape(-1).astype(np.int64)
        return xs[:total], ys[:total]
    fx = np.atleast_1d(np.asarray(data["fill_x"])).astype(np.int64)
    fy = np.atleast_1d(np.asarray(data["fill_y"])).astype(np.int64)
    reps = np.arange(total) % fx.size
    xs, ys = fx[reps].copy(), fy[reps].copy()
    idx = np.rint(np.asarray(data.get("idx", []), dtype=np.float64)).astype(np.int64).reshape(-1)
    if idx.size:
        xs[idx] = np.asarray(data["x"]).reshape(-1).astype(np.int64)
        ys[idx] = np.asarray(data["y"]).reshape(-1).astype(np.int64)
    return xs, ys


def table_id(h):
    if h is None:
        return 0                                   # Fail
    return 1 + sum(1 << i for i, v in enumerate(h) if v == 1)


def hist(items, rng, eps_h, delta):
    ids, counts = np.unique(np.asarray(items, dtype=object).astype(np.int64) if all(
        i < 2 ** 62 for i in items) else np.asarray(items), return_counts=True)
    noisy = counts + rng.laplace(0.0, 2.0 / eps_h, size=ids.size)
    tau = 1.0 + (2.0 / eps_h) * math.log(1.0 / delta)
    keep = noisy >= tau
    k = len(items)
    return [(int(i), min(1.0, v / k)) for i, v in zip(ids[keep], noisy[keep])]


def generic(cands, xs, ys, rng, eps_g):
    H = np.asarray(cands, dtype=np.int64)
    err = (H[:, xs] != ys[None, :]).sum(axis=1).astype(np.float64)
    s = -0.5 * eps_g * err
    w = np.exp(s - s.max())
    c = np.cumsum(w / w.sum())
    return int(min(np.searchsorted(c, rng.random() * c[-1], side="right"), len(cands) - 1))


def prepare(data, d, alpha, c, k, n_prime):
    """Everything that depends on the data only (built once per call or per batch call)."""
    K = Klass(data["H"])
    n_aux, N, m = sizes(d, alpha, c)
    total = k * m + n_prime
    xs, ys = dense(data, total)
    return K, xs, ys, n_aux, N, m, total


def run_M(data, rng, epsilon, delta, alpha, d, eta, c, k, n_prime, *, G=run_G, generic_positions=None,
          empty_fallback=None, prepared=None):
    K, xs, ys, n_aux, N, m, total = prepared or prepare(data, d, alpha, c, k, n_prime)
    hs = [G(K, xs, ys, i * m, (i + 1) * m, rng, d, n_aux, N) for i in range(k)]
    by_id = {table_id(h): h for h in hs}
    released = hist([table_id(h) for h in hs], rng, epsilon / 2.0, delta)
    L = [i for i, a in released if i != 0 and a >= 0.75 * eta]
    if not L:
        if empty_fallback is not None:
            return empty_fallback(hs, K)
        return np.full(K.nx, -1, dtype=np.int8)
    a, b = (k * m, total) if generic_positions is None else generic_positions(k, m, total)
    j = generic([by_id[i] for i in L], xs[a:b], ys[a:b], rng, epsilon / 2.0)
    return np.asarray(by_id[L[j]], dtype=np.int8)


def learn(data, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
    return run_M(data, rng, epsilon, delta, alpha, d, eta, c, k, n_prime)


def _batch(data, N, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
    prep = prepare(data, d, alpha, c, k, n_prime)
    return np.stack([run_M(data, rng, epsilon, delta, alpha, d, eta, c, k, n_prime, prepared=prep)
                     for _ in range(N)])


learn.batch = _batch
