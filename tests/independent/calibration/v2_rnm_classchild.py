"""Report noisy max as a callable class instance: lazy scipy import on first call, and per call a
child generator derived from rng (np.random.default_rng(rng.integers(2**63))) that draws the noise
with scipy.stats.laplace.rvs. Same law: argmax_i (q_i + Lap(2/epsilon))."""
import numpy as np


class NoisyMax:
    def __init__(self):
        self._laplace = None

    def __call__(self, data, *, rng, epsilon, **_unused):
        if self._laplace is None:
            from scipy.stats import laplace as _lap
            self._laplace = _lap
        child = np.random.default_rng(int(rng.integers(2 ** 63)))
        q = np.asarray(data, dtype=float).reshape(-1)
        noise = self._laplace.rvs(loc=0.0, scale=2.0 / epsilon, size=q.size, random_state=child)
        return int(np.argmax(q + noise))


rnm = NoisyMax()
