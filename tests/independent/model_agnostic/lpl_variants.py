"""A_Priv, the label-private learner of seed 000 Sec. 4.2 (Algorithm 5), on the spec's input
{x, votes}: label the public points in order with one run of the Sec. 4.1 classification
mechanism (mode with ties to the smallest label, printed dist = max(0, top - runner-up - 1),
A_OQR with lam = sqrt(32 T ln(2/delta))/eps, w = 2 lam ln(2m/delta), threshold re-drawn after each
bottom, halt after the (T+1)-th bottom), give every bottom and every unanswered point an
independent fair coin, and return the threshold of ERM over 1-D thresholds on the relabelled
points. The spec defines the output encoding as the return value of
dptestbed.impl.learners.threshold_erm, so the final step calls it (only its signature and return
value were looked at). One correct function and three wrong ones, each with its truth."""
import math

import numpy as np

from dptestbed.impl.learners import threshold_erm


def _mode_dist(votes):
    v = np.asarray(votes, dtype=np.int64).reshape(-1, 2)
    mode = (v[:, 1] > v[:, 0]).astype(np.int64)          # ties -> label 0
    return mode, np.maximum(0, np.abs(v[:, 1] - v[:, 0]) - 1).astype(np.float64)


def _labels(votes, N, rng, eps_used, delta, T, m):
    """N runs of the labelling step (bottom / not answered -> coin): (N, rows) labels in {0, 1}."""
    mode, dist = _mode_dist(votes)
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / eps_used
    w = 2.0 * lam * math.log(2.0 * m / delta)
    out = np.full((N, mode.size), -2, dtype=np.int64)
    c = np.zeros(N, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam, size=N)
    for i in range(mode.size):
        live = c <= T
        if not live.any():
            break
        top = live & (dist[i] + rng.laplace(0.0, 2.0 * lam, size=N) > w_hat)
        bottom = live & ~top
        out[top, i] = mode[i]
        out[bottom, i] = -1
        if bottom.any():
            w_hat[bottom] = w + rng.laplace(0.0, lam, size=int(bottom.sum()))
            c[bottom] += 1
    coins = rng.integers(0, 2, size=out.shape)
    return np.where(out >= 0, out, coins)


def _erm(x, labels):
    X = np.broadcast_to(np.asarray(x, dtype=np.float64).reshape(1, -1), labels.shape)
    return np.asarray(threshold_erm(np.ascontiguousarray(X), labels), dtype=np.float64)


def _runs(data, N, rng, eps_used, delta, T, m):
    return _erm(data["x"], _labels(data["votes"], N, rng, eps_used, delta, T, m))


def lpl_correct(data, *, rng, epsilon, delta, T, m, **_):
    """A_Priv as the paper states it. Truth: correct."""
    return float(_runs(data, 1, rng, epsilon, delta, T, m)[0])


def lpl_eps_third(data, *, rng, epsilon, delta, T, m, **_):
    """The labelling run calibrated with epsilon/3 (the budget split in three equal parts): lam and
    w 3 times the spec's, (eps/3, delta)-DP, but about 3 times as many points near the boundary get
    a coin label, which moves the ERM threshold further from the target. Truth: utility bug, its
    err(h_hat) is a multiple of the reference's (measured by the competitive checks)."""
    return float(_runs(data, 1, rng, epsilon / 3.0, delta, T, m)[0])


def lpl_constant_threshold(data, *, rng, epsilon, delta, T, m, **_):
    """Returns the threshold 0.5 whatever the data. Truth: utility bug (0-DP): on a query law whose
    target is far from 0.5 it errs on most of the mass."""
    return 0.5


def lpl_no_noise(data, *, rng, epsilon, delta, T, m, **_):
    """ERM on the chunk majority labels, no sparse vector. Truth: privacy bug: one vote move that
    flips the majority of every public point changes t_hat deterministically (infinite loss)."""
    mode, _ = _mode_dist(data["votes"])
    return float(_erm(data["x"], mode.reshape(1, -1))[0])


def _b_correct(data, N, *, rng, epsilon, delta, T, m, **_):
    return _runs(data, N, rng, epsilon, delta, T, m)


def _b_eps_third(data, N, *, rng, epsilon, delta, T, m, **_):
    return _runs(data, N, rng, epsilon / 3.0, delta, T, m)


def _b_constant_threshold(data, N, *, rng, epsilon, delta, T, m, **_):
    return np.full(N, 0.5)


def _b_no_noise(data, N, *, rng, epsilon, delta, T, m, **_):
    return np.full(N, lpl_no_noise(data, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m))


lpl_correct.batch = _b_correct
lpl_eps_third.batch = _b_eps_third
lpl_constant_threshold.batch = _b_constant_threshold
lpl_no_noise.batch = _b_no_noise
