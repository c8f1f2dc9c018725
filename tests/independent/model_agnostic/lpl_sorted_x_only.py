"""label_private_learner (000 Alg 5, A_Priv) -- BUG (what Claim 4.5 / Theorems 4.6-4.7 test: the
accuracy of h_hat), input-property triggered (public points not given in sorted order).

Kind: "sorted one array, not its partner".  The labelling run (h_priv, the Sec. 4.1 instance of
Alg 4: mode, ties to 0, printed dist, A_OQR with cutoff T, fair coins for bottoms and unanswered
points) is exact.  For the final ERM over 1-D thresholds the public points are sorted
(xs = np.sort(x)) but the label vector is NOT permuted with them, so D_tilde pairs the t-th
smallest point with the label of the t-th point in the caller's order.  When x arrives sorted
(or the labels are constant) nothing is wrong.  Privacy is intact (post-processing of the
(eps, delta)-DP labels; x is public).

TRUTH (../mc_f6.py): defaults eps=8, delta=1e-3, T=1; m = 200 points x ~ U[0, 1] in random order,
target t* = 0.5 (realizable), K = 454 chunk votes, every row unanimous for the true label
(labels released correctly w.p. ~1).  err(h_hat; D) = |t_hat - t*| under uniform D_X.
  spec's algorithm (same labels, ERM on the right pairs): mean error 0.0051 (max 0.036) over 2,000 runs;
  this file: mean error 0.3165 over 2,000 runs (P[err > 0.1] = 0.870, P[err > 0.3] = 0.579).
  Theorem 4.6 (err <= 15 alpha w.p. >= 1 - 3 beta) fails at e.g. alpha = 0.01, beta = 0.01
  (bound 0.15 w.p. >= 0.97): P[err > 0.15] = 0.805 here.  With sorted x: identical to the spec.
"""
import math

import numpy as np


def _label_run(votes, rng, epsilon, delta, T, m):
    v = np.asarray(votes, dtype=np.int64)
    if v.ndim == 1:
        v = v[None, :]
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    modes = np.argmax(v, axis=1)
    rest = v.copy()
    rest[np.arange(v.shape[0]), modes] = -1
    runner = np.maximum(rest.max(axis=1), 0)
    top = v[np.arange(v.shape[0]), modes]
    dist = np.maximum(0, top - runner - 1).astype(float)
    out = np.full(v.shape[0], -2, dtype=np.int64)
    c = 0
    what = w + rng.laplace(0.0, lam)
    for i in range(v.shape[0]):
        if c > T:
            break
        if dist[i] + rng.laplace(0.0, 2.0 * lam) > what:
            out[i] = modes[i]
        else:
            out[i] = -1
            c += 1
            what = w + rng.laplace(0.0, lam)
    bad = out < 0
    out[bad] = rng.integers(0, 2, size=int(bad.sum()))
    return out


def _erm(x, y):
    # thresholds h_t(x) = 1[x >= t], t over the distinct points and +inf; ties -> smallest t
    u = np.unique(x)
    ones_below = np.array([y[x < t].sum() for t in u], dtype=float)
    zeros_above = np.array([(1 - y[x >= t]).sum() for t in u], dtype=float)
    errs = np.append(ones_below + zeros_above, y.sum())
    cands = np.append(u, np.inf)
    return float(cands[int(np.argmin(errs))])


def label_private_learner(data, *, rng, epsilon, delta, T, m, **theorem_params):
    x = np.asarray(data["x"], dtype=float)
    y_hat = _label_run(data["votes"], rng, epsilon, delta, T, m)
    xs = np.sort(x)          # BUG: y_hat is not permuted with x
    return _erm(xs, y_hat)
