"""Laplace prediction of a gamma-stable learner (paper 002, Theorem 3), per call, no batch.

Lap(b) = b * (E1 - E2) = b * log(U2/U1) for independent exponentials E = -log U, U uniform on (0, 1].
"""
import logging
import math

logging.basicConfig(level=logging.INFO)
_log = logging.getLogger("laplace_log_ratio")
_said = []


def _u(rng):
    return 1.0 - float(rng.random())        # (0, 1]


def predict(data, *, rng, epsilon, gamma, L_l=None, sigma=None, q=None, verbose=False, **unused):
    import numpy as np  # lazy import
    if not _said:
        _log.info("laplace_log_ratio: scale gamma/epsilon = %g", gamma / epsilon)
        _said.append(1)
    b = gamma / epsilon
    f = np.asarray(data, dtype=float)
    if f.ndim == 0:
        return np.float64(float(f) + b * math.log(_u(rng) / _u(rng)))
    return [float(v) + b * math.log(_u(rng) / _u(rng)) for v in f.ravel()]
