"""A_subSamp (000 Algorithm 4) with the corrected distance dist* = max(0, ceil(gap/2) - 1).

The comparison dist + Lap(2 lam) > w + Lap(lam) only depends on the noise
difference Lap(lam) - Lap(2 lam); it is drawn together with the threshold,
and re-drawn with it after every bottom.
"""
import numpy as np


def _run(votes, n, rng, epsilon, delta, T, m):
    v = np.asarray(votes, dtype=np.int64)
    if v.ndim == 1:
        v = v[None, :]
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * np.log(2.0 * m / delta)
    mode = np.argmax(v, axis=1)
    s = np.sort(v, axis=1)
    gap = s[:, -1] - s[:, -2]
    dist = np.maximum(0, -(-gap // 2) - 1).astype(float)
    q = v.shape[0]
    out = np.full((n, q), -2, dtype=np.int64)

    def seg_threshold():
        return w + rng.laplace(0.0, lam, size=n) - rng.laplace(0.0, 2.0 * lam, size=n)

    z = seg_threshold()
    c = np.zeros(n, dtype=np.int64)
    for i in range(q):
        active = c <= T
        hit = dist[i] > z
        out[active & hit, i] = mode[i]
        bot = active & ~hit
        out[bot, i] = -1
        c[bot] += 1
        z = np.where(bot, seg_threshold(), z)
    return out


def subsamp(data, *, rng, epsilon, delta, T, m, beta=None):
    return _run(data, 1, rng, epsilon, delta, T, m)[0]


def _batch(data, n, *, rng, epsilon, delta, T, m, beta=None):
    return _run(data, n, rng, epsilon, delta, T, m)


subsamp.batch = _batch
