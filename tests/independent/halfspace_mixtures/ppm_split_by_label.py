"""A_LearnHalf that takes the public sample to be the rows with label 0 (the label-determined model
'pub iff y = 0' used as the rule) instead of the rows with status bit 0.

PRIVACY BUG: a private record whose label flips 1 -> 0 becomes a public point, so C~_pub (and the
support of the output J) changes: N1_label_flip_deep_private (record (6, 1) -> (6, 0)) adds the
halfspaces supported by 6, output indices 6..7 have probability 0 on D and positive on D':
infinite loss. Identical to the spec when p = 1 - y.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ppm_correct import _candidates, _probs


def learn(data, *, rng, epsilon):
    y = np.asarray(data["y"]).reshape(-1)
    cands, m, d = _candidates(data["X"], y, (y != 0).astype(np.int64))
    c = np.cumsum(_probs(m, epsilon))
    i = int(min(np.searchsorted(c, rng.random() * c[-1], side="right"), len(cands) - 1))
    return cands[i].copy()


def _batch(data, N, *, rng, epsilon):
    y = np.asarray(data["y"]).reshape(-1)
    cands, m, d = _candidates(data["X"], y, (y != 0).astype(np.int64))
    c = np.cumsum(_probs(m, epsilon))
    idx = np.minimum(np.searchsorted(c, rng.random(N) * c[-1], side="right"), len(cands) - 1)
    return cands[idx]


learn.batch = _batch
