"""A_Priv (Alg 5 of paper 000) -- BUG: confidence-weighted ERM.

The labels y_hat come from the Sec. 4.1 mechanism (A_subSamp / A_OQR with cutoff T,
printed dist, ties to 0, bottoms and unanswered points -> fair coins), but the final ERM
over 1-D thresholds weights each public point by its vote margin |ct0 - ct1| + 1
("trust confident labels more").  The margins are private statistics, so the final
'post-processing' reads the private votes directly."""
import math

import numpy as np


def _labels(votes, rng, epsilon, delta, T, m):
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    w_hat = w + rng.laplace(0.0, lam)
    c = 0
    y = np.empty(len(votes), dtype=np.int64)
    for t, (c0, c1) in enumerate(votes):
        if c > T:
            y[t] = rng.integers(2)
            continue
        mode = 0 if c0 >= c1 else 1
        dist = max(0, abs(int(c0) - int(c1)) - 1)
        if dist + rng.laplace(0.0, 2.0 * lam) > w_hat:
            y[t] = mode
        else:
            y[t] = rng.integers(2)
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    return y


def _weighted_erm(x, y, wt):
    cand = np.concatenate([np.sort(np.unique(x)), [np.inf]])
    pred = (x[None, :] >= cand[:, None]).astype(np.int64)
    err = ((pred != y[None, :]) * wt[None, :]).sum(axis=1)
    return float(cand[int(np.argmin(err))])          # first minimum = smallest t


def label_private(data, *, rng, epsilon, delta, T, m, beta, alpha, gamma, V):
    x = np.asarray(data["x"], dtype=float)
    votes = np.asarray(data["votes"], dtype=np.int64)
    y = _labels(votes, rng, epsilon, delta, int(T), int(m))
    wt = np.abs(votes[:, 0] - votes[:, 1]).astype(float) + 1.0   # BUG: private margins
    return _weighted_erm(x, y, wt)
