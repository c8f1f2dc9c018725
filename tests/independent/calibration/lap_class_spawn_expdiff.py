"""Laplace mechanism (paper 000, Lemma 2.6), written unusually but with exactly the spec's law.

* a callable class instance (the tool gets `mech`, an instance, with a .batch method);
* every call works on a child generator from rng.spawn(1) (randomness still comes from rng);
* Laplace(b) noise drawn as the difference of two independent Exponential(b) variables
  (E1 - E2 has density exp(-|x|/b)/(2b): the characteristic function is 1/(1 + b^2 t^2));
* the per-call output is a Python list of floats; a line of logging goes to stderr.
"""
import logging
import sys

import numpy as np

_log = logging.getLogger("lap_class_spawn")
if not _log.handlers:
    _h = logging.StreamHandler(sys.stderr)
    _log.addHandler(_h)
    _log.setLevel(logging.INFO)


class LaplaceViaExponentials:
    def __init__(self):
        self.calls = 0

    def _noise(self, rng, b, size):
        (child,) = rng.spawn(1)
        return child.exponential(b, size=size) - child.exponential(b, size=size)

    def __call__(self, data, *, rng, epsilon, gamma, p=1, beta=0.05, **unused):
        f = np.asarray(data, dtype=float).reshape(-1)
        self.calls += 1
        if self.calls == 1:
            _log.info("laplace via exponentials: b = %g", gamma / epsilon)
        return [float(v) for v in f + self._noise(rng, gamma / epsilon, f.shape)]

    def batch(self, data, n, *, rng, epsilon, gamma, p=1, beta=0.05, **unused):
        f = np.asarray(data, dtype=float).reshape(-1)
        print(f"batch of {n}", file=sys.stderr)
        return f + self._noise(rng, gamma / epsilon, (n, *f.shape))


mech = LaplaceViaExponentials()
