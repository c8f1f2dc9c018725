"""A_stab with the old-style 'cond and x or y' conditional.

`released and label or BOTTOM` returns BOTTOM when the label is 0 even if the
noisy distance passed the threshold: label 0 is never released. A deterministic
function of (label, released decision): the privacy claim still holds, the law differs.
"""
import numpy as np

BOTTOM = -1


def a_stab(data, *, rng, epsilon, delta, **_):
    label, dist = (int(v) for v in np.asarray(data).ravel()[:2])
    gamma = np.log(1.0 / delta) / epsilon
    released = dist + rng.laplace(0.0, 1.0 / epsilon) > gamma
    return int(released and label or BOTTOM)


def _batch(data, n, *, rng, epsilon, delta, **_):
    label, dist = (int(v) for v in np.asarray(data).ravel()[:2])
    gamma = np.log(1.0 / delta) / epsilon
    rel = dist + rng.laplace(0.0, 1.0 / epsilon, size=n) > gamma
    return np.where(rel & (label != 0), label, BOTTOM).astype(np.int64)


a_stab.batch = _batch
