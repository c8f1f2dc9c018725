"""Report noisy max (Lap(2/epsilon)) as a callable class instance, with an
all-equal shortcut: when every answer is the same, argmax of i.i.d. noise is
uniform by exchangeability, so the index is drawn uniformly (exactly the spec's law;
ties among noisy values have probability 0)."""
import numpy as np


class ReportNoisyMax:
    def __call__(self, data, *, rng, epsilon, **_):
        q = np.asarray(data, dtype=float).ravel()
        if np.all(q == q[0]):
            return int(rng.integers(q.size))
        return int(np.argmax(q + rng.laplace(0.0, 2.0 / epsilon, size=q.size)))

    def batch(self, data, n, *, rng, epsilon, **_):
        q = np.asarray(data, dtype=float).ravel()
        if np.all(q == q[0]):
            return rng.integers(q.size, size=n).astype(np.int64)
        noisy = q[None, :] + rng.laplace(0.0, 2.0 / epsilon, size=(n, q.size))
        return np.argmax(noisy, axis=1).astype(np.int64)


rnm = ReportNoisyMax()
