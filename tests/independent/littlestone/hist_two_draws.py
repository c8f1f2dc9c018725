"""stable_histogram, privacy bug: one Laplace draw for the release test, a second, fresh one for the estimate.

The engineer treats "is the item heavy?" and "how heavy?" as two separate Laplace queries, each with
Lap(2/epsilon) ("each is a Laplace mechanism of the counts"), so the budget is spent twice on every
released item.  Estimates are clipped to [0, 1] (the spec's range).

Truth (epsilon = 1, delta = 1e-6, n = 500, tau = 28.631, b = 2): D = 28 x item 1, 28 x item 2,
444 x item 3; D' = one record of item 1 replaced by item 2 (counts 27 / 29).  Event E = {item 1
released with a_1 >= 34/500, item 2 not released}:
  P_D(E)  = P[N >= tau-28] P[N' >= 6] P[N < tau-28]   = 0.36463 * 0.024894 * 0.63537 = 5.767e-3
  P_D'(E) = P[N >= tau-27] P[N' >= 7] P[N < tau-29]   = 0.22116 * 0.015099 * 0.41578 = 1.388e-3
  loss = ln(5.767e-3 / 1.388e-3) = 1.424 > epsilon = 1 (delta = 1e-6 negligible).  The spec's Hist
  (one draw) on the same pair and the analogous event: at most e^(1/2 + 1/2), loss <= 1.
"""
import numpy as np


def _one(items, counts, n, rng, epsilon, delta):
    b = 2.0 / epsilon
    tau = 1.0 - b * np.log(delta)
    k = items.size
    rel = counts + rng.laplace(0.0, b, size=k) >= tau
    est = np.clip((counts + rng.laplace(0.0, b, size=k)) / n, 0.0, 1.0)
    out = np.zeros((n, 2))
    out[:, 0] = -1.0
    r = np.flatnonzero(rel)
    out[: r.size, 0] = items[r]
    out[: r.size, 1] = est[r]
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
