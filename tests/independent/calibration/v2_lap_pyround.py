"""Laplace mechanism, per call only, returning a Python list of Python floats, each noisy coordinate
rounded with Python's round(y, 3) (decimal grid 0.001, ties by the float's exact value): a fixed
function of the noisy value, applied whatever f is, so post-processing of the Laplace release."""
import numpy as np


def laplace(data, *, rng, epsilon, gamma, **_unused):
    f = np.asarray(data, dtype=float).reshape(-1)
    y = f + rng.laplace(0.0, gamma / epsilon, size=f.shape)
    return [round(float(v), 3) for v in y]
