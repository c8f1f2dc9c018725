"""Report noisy max (Lap(2/epsilon)) as a callable object: a class with __call__ and a batch method, the
module-level name `rnm` an instance; the data parameter is called `answers`. Noise rng.laplace; argmax
(first index on ties, probability 0). Returns a Python int; batch int64 (N,). Law: the spec's."""
import numpy as np


class ReportNoisyMax:
    def __call__(self, answers, *, rng, epsilon):
        q = np.asarray(answers, dtype=np.float64).reshape(-1)
        return int(np.argmax(q + rng.laplace(0.0, 2.0 / epsilon, size=q.size)))

    def batch(self, answers, n, *, rng, epsilon):
        q = np.asarray(answers, dtype=np.float64).reshape(-1)
        return np.argmax(q[None, :] + rng.laplace(0.0, 2.0 / epsilon, size=(n, q.size)), axis=1).astype(np.int64)


rnm = ReportNoisyMax()
