"""stable_histogram, privacy bug: a branch on the largest true count (a supermajority shortcut).

Inside Algorithm M the histogram is used to find the frequent hypothesis; the engineer shortcuts
"if one item holds more than 60% of the list it is the answer": only that item is considered
(with its usual noisy test and estimate), the others are skipped.  Otherwise the spec's Hist exactly
(one Lap(2/epsilon) draw per present item, released iff c~ >= tau, a = min(1, c~/n)).

Truth (epsilon = 1, delta = 1e-6, n = 500): D = 300 x item 0 + 200 x item 1 (max count 300, not
> 0.6 n = 300: the normal path), D' = one record of item 1 replaced by item 0 (301 / 199: the
shortcut).  Event 'item 1 released': P_D = P[200 + Lap(2) >= 28.63] = 1 - 0.5 e^-85.7 = 1,
P_D' = 0.  Infinite loss against (1, 1e-6) (the spec's Hist: both ~1, loss ~0).
"""
import numpy as np

SUPER = 0.6


def _one(items, counts, n, rng, epsilon, delta):
    b = 2.0 / epsilon
    tau = 1.0 - b * np.log(delta)
    if counts.max() > SUPER * n:                      # the bug: a branch on the true counts
        j = int(np.argmax(counts))
        items, counts = items[j:j + 1], counts[j:j + 1]
    noisy = counts + rng.laplace(0.0, b, size=counts.size)
    rel = noisy >= tau
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    r = np.flatnonzero(rel)
    out[: r.size, 0] = items[r]
    out[: r.size, 1] = np.minimum(1.0, noisy[r] / n)
    return out


def hist(data, *, rng, epsilon, delta, n=None, **unused):
    s = np.asarray(data, dtype=np.int64)
    items, counts = np.unique(s, return_counts=True)
    return _one(items, counts.astype(float), s.size, rng, epsilon, delta)


def _batch(data, N, *, rng, epsilon, delta, n=None, **unused):
    s = np.asarray(data, dtype=np.int64)
    items, counts = np.unique(s, return_counts=True)
    counts = counts.astype(float)
    return np.stack([_one(items, counts, s.size, rng, epsilon, delta) for _ in range(N)])


hist.batch = _batch
