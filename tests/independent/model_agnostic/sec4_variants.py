"""The seed 000 Sec. 4 mechanisms written from the paper (Algorithms 3, 4 and 5) and the specs' contracts:
private classification queries (Sec. 4.1: Algorithm 4 with f_i(D_j) = h_j(x_i), run on the chunk votes) and
A_Priv, the label-private learner (Sec. 4.2, Algorithm 5), which labels its public points with one run of the
former. Per vote row: mode = argmax with ties to the smallest label, printed dist = max(0, top - runner-up - 1),
then A_OQR with lam = sqrt(32 T ln(2/delta))/eps, w = 2 lam ln(2m/delta), w_hat = w + Lap(lam); while c <= T a
row is released as its mode if dist + Lap(2 lam) > w_hat, else it is a bottom (-1), c += 1 and w_hat is
re-drawn; rows after the halt are -2. A_Priv gives every bottom and unanswered point an independent fair coin
and returns the threshold of ERM over 1-D thresholds on the relabelled points; the spec defines that output as
the return value of dptestbed.impl.learners.threshold_erm, so the final step calls it (only its signature and
return value were looked at). One correct function per spec and three wrong ones, each with its truth."""
import math

import numpy as np

from dptestbed.impl.learners import threshold_erm


def _mode_dist(votes):
    v = np.asarray(votes, dtype=np.int64)
    v = v.reshape(-1, v.shape[-1])
    mode = np.argmax(v, axis=1)
    top = v[np.arange(v.shape[0]), mode]
    rest = v.copy()
    rest[np.arange(v.shape[0]), mode] = -1
    runner = rest.max(axis=1) if v.shape[1] > 1 else np.zeros(v.shape[0], dtype=np.int64)
    return mode, np.maximum(0, top - runner - 1).astype(np.float64)


def _runs(votes, N, rng, eps_used, delta, T, m):
    """N independent runs of the mechanism calibrated with ``eps_used``: shape (N, rows)."""
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
    return out


def pcq_correct(data, *, rng, epsilon, delta, T, m, **_):
    """The mechanism as the paper states it. Truth: correct."""
    return _runs(data, 1, rng, epsilon, delta, T, m)[0]


def pcq_eps_third(data, *, rng, epsilon, delta, T, m, **_):
    """Calibrated with epsilon/3: the implementer splits the budget in three equal parts (initial
    threshold, query noise, threshold refreshes) and computes lam with eps/3. lam and w are 3 times
    the spec's, so the mechanism is (eps/3, delta)-DP (the claim holds) but the band of queries near
    the decision boundary that get a bottom is about 3 times wider: where the chunk majority is right
    (chunk learners symmetric about the target) its misclassification is about 3 times the
    reference's. Truth: utility bug, about 3x the reference's misclassification."""
    return _runs(data, 1, rng, epsilon / 3.0, delta, T, m)[0]


def pcq_constant_label(data, *, rng, epsilon, delta, T, m, **_):
    """Label 1 for every query, whatever the votes. Truth: utility bug (misclassification 1/2 at a
    target threshold in the middle of the query law); 0-DP."""
    v = np.asarray(data).reshape(-1, np.asarray(data).shape[-1])
    return np.ones(v.shape[0], dtype=np.int64)


def pcq_no_noise(data, *, rng, epsilon, delta, T, m, **_):
    """Releases the chunk majority (mode) of every row, no sparse vector. Truth: privacy bug:
    a row with gap 1 whose mode flips under one vote move releases D's mode with probability 1 and
    never on D' (infinite loss)."""
    return _mode_dist(data)[0].astype(np.int64)


def _b_correct(data, N, *, rng, epsilon, delta, T, m, **_):
    return _runs(data, N, rng, epsilon, delta, T, m)


def _b_eps_third(data, N, *, rng, epsilon, delta, T, m, **_):
    return _runs(data, N, rng, epsilon / 3.0, delta, T, m)


def _b_constant_label(data, N, *, rng, epsilon, delta, T, m, **_):
    return np.tile(pcq_constant_label(data, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m), (N, 1))


def _b_no_noise(data, N, *, rng, epsilon, delta, T, m, **_):
    return np.tile(pcq_no_noise(data, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m), (N, 1))


pcq_correct.batch = _b_correct
pcq_eps_third.batch = _b_eps_third
pcq_constant_label.batch = _b_constant_label
pcq_no_noise.batch = _b_no_noise


def _erm(x, labels):
    X = np.broadcast_to(np.asarray(x, dtype=np.float64).reshape(1, -1), labels.shape)
    return np.asarray(threshold_erm(np.ascontiguousarray(X), labels), dtype=np.float64)


def _apriv(data, N, rng, eps_used, delta, T, m):
    """N runs of A_Priv: the labelling run, coins for bottoms and unanswered points, ERM: (N,) thresholds."""
    out = _runs(data["votes"], N, rng, eps_used, delta, T, m)
    return _erm(data["x"], np.where(out >= 0, out, rng.integers(0, 2, size=out.shape)))


def lpl_correct(data, *, rng, epsilon, delta, T, m, **_):
    """A_Priv as the paper states it. Truth: correct."""
    return float(_apriv(data, 1, rng, epsilon, delta, T, m)[0])


def lpl_eps_third(data, *, rng, epsilon, delta, T, m, **_):
    """The labelling run calibrated with epsilon/3 (the budget split in three equal parts): lam and
    w 3 times the spec's, (eps/3, delta)-DP, but about 3 times as many points near the boundary get
    a coin label, which moves the ERM threshold further from the target. Truth: utility bug, its
    err(h_hat) is a multiple of the reference's (measured by the competitive checks)."""
    return float(_apriv(data, 1, rng, epsilon / 3.0, delta, T, m)[0])


def lpl_constant_threshold(data, *, rng, epsilon, delta, T, m, **_):
    """Returns the threshold 0.5 whatever the data. Truth: utility bug (0-DP): on a query law whose
    target is far from 0.5 it errs on most of the mass."""
    return 0.5


def lpl_no_noise(data, *, rng, epsilon, delta, T, m, **_):
    """ERM on the chunk majority labels, no sparse vector. Truth: privacy bug: one vote move that
    flips the majority of every public point changes t_hat deterministically (infinite loss)."""
    mode, _ = _mode_dist(data["votes"])
    return float(_erm(data["x"], mode.reshape(1, -1).astype(np.int64))[0])


def _b_correct(data, N, *, rng, epsilon, delta, T, m, **_):
    return _apriv(data, N, rng, epsilon, delta, T, m)


def _b_eps_third(data, N, *, rng, epsilon, delta, T, m, **_):
    return _apriv(data, N, rng, epsilon / 3.0, delta, T, m)


def _b_constant_threshold(data, N, *, rng, epsilon, delta, T, m, **_):
    return np.full(N, 0.5)


def _b_no_noise(data, N, *, rng, epsilon, delta, T, m, **_):
    return np.full(N, lpl_no_noise(data, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m))


lpl_correct.batch = _b_correct
lpl_eps_third.batch = _b_eps_third
lpl_constant_threshold.batch = _b_constant_threshold
lpl_no_noise.batch = _b_no_noise
