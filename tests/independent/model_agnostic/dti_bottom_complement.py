"""A_stab (distance to instability) with bottom written as the bitwise complement of the label.

Bottom must be -1. The code writes ~label (= -1 - label) 'so that the logs still
show which label was withheld'. For label 0 this is exactly -1, so every run on
label-0 inputs looks right; for any other label the refusal carries the label.
"""
import numpy as np


def a_stab(data, *, rng, epsilon, delta, **_):
    label, dist = (int(v) for v in np.asarray(data).ravel()[:2])
    gamma = np.log(1.0 / delta) / epsilon
    if dist + rng.laplace(0.0, 1.0 / epsilon) > gamma:
        return label
    return ~label


def _batch(data, n, *, rng, epsilon, delta, **_):
    label, dist = (int(v) for v in np.asarray(data).ravel()[:2])
    gamma = np.log(1.0 / delta) / epsilon
    rel = dist + rng.laplace(0.0, 1.0 / epsilon, size=n) > gamma
    return np.where(rel, label, ~label).astype(np.int64)


a_stab.batch = _batch
