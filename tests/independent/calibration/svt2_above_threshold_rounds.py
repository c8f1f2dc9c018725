"""Sparse vector, Lyu-Su-Li Algorithm 2 (Dwork-Roth Sparse) -- VALID VARIANT: c sequential AboveThreshold
rounds at epsilon/c each, strict comparison `>`.

Dwork and Roth's Sparse is c runs of AboveThreshold, each with budget eps' = epsilon/c: threshold noise
Lap(2/eps') = Lap(2c/epsilon) = Lap(c/eps1), query noise Lap(4/eps') = Lap(2c/eps1), a fresh threshold
noise per round (= the re-draw after each top, Lap(c/eps2) = Lap(c/eps1) since eps1 = eps2).  The
comparison is q + nu > T + rho instead of >=: equality has probability 0 (continuous noise), so the law
is the spec's.  The re-draw after the c-th top is not made (nothing uses it).  With a vectorised .batch.

TRUTH: same transcript law as the spec's Algorithm 2 (a round's transcript probability is the same 1-D
integral); exact losses = the spec's (0.991 on rest_up_last_down_m10 at the default), epsilon-DP.
"""
import numpy as np


def _above_threshold(q, start, rng, eps_round, threshold):
    """Index of the first query from `start` above the noisy threshold, or None."""
    rho = rng.laplace(0.0, 2.0 / eps_round)
    for i in range(start, q.shape[0]):
        if q[i] + rng.laplace(0.0, 4.0 / eps_round) > threshold + rho:
            return i
    return None


def svt(data, *, rng, epsilon, threshold, c):
    q = np.asarray(data, dtype=float).ravel()
    m = q.shape[0]
    out = np.full(m, -1, dtype=np.int8)
    start = 0
    for _ in range(int(c)):
        if start >= m:
            break
        j = _above_threshold(q, start, rng, epsilon / c, threshold)
        if j is None:
            out[start:] = 0
            break
        out[start:j] = 0
        out[j] = 1
        start = j + 1
    return out


def svt_batch(data, n, *, rng, epsilon, threshold, c):
    q = np.asarray(data, dtype=float).ravel()
    m = q.shape[0]
    eps_round = epsilon / c
    out = np.full((n, m), -1, dtype=np.int8)
    rho = rng.laplace(0.0, 2.0 / eps_round, size=n)
    rounds_done = np.zeros(n, dtype=np.int64)
    for i in range(m):
        alive = rounds_done < c
        if not alive.any():
            break
        nu = rng.laplace(0.0, 4.0 / eps_round, size=n)
        top = alive & (q[i] + nu > threshold + rho)
        out[alive, i] = 0
        out[top, i] = 1
        k = int(top.sum())
        if k:
            rounds_done[top] += 1
            rho[top] = rng.laplace(0.0, 2.0 / eps_round, size=k)
    return out


svt.batch = svt_batch
