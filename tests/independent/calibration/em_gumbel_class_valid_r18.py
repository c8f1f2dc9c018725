"""exponential_mechanism, valid variant: Gumbel-max trick in a callable class with extra kwargs.

argmax_i (-eps l_i / (2 Delta) + G_i), G_i i.i.d. standard Gumbel, selects i with probability
exactly softmax(-eps l / (2 Delta)): the spec's law, computed without any normalisation.
"""
import numpy as np


class GumbelEM:
    def __init__(self, verbose=False):
        self.verbose = verbose

    def _scores(self, data, epsilon, sensitivity):
        return -epsilon * np.asarray(data, dtype=float) / (2.0 * sensitivity)

    def __call__(self, data, *, rng, epsilon, sensitivity, num_candidates=None, beta=None, gap=None, **extra):
        s = self._scores(data, epsilon, sensitivity)
        return int(np.argmax(s + rng.gumbel(size=s.shape)))

    def batch(self, data, n, *, rng, epsilon, sensitivity, **extra):
        s = self._scores(data, epsilon, sensitivity)
        return np.argmax(s[None, :] + rng.gumbel(size=(n, s.size)), axis=1).astype(np.int64)


em = GumbelEM()
