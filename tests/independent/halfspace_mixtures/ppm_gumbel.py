"""A_LearnHalf with the selection by Gumbel-max over -eps*m(g)/2 (same candidates as ppm_correct).

VALID VARIANT: the Gumbel-max argmax has exactly the exponential mechanism's law.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ppm_correct import _candidates, encode, encoder


def learn(data, *, rng, epsilon):
    cands, m, d = _candidates(data["X"], data["y"], data["p"])
    return encode(cands[int(np.argmax(-0.5 * epsilon * m + rng.gumbel(size=m.size)))], encoder(data, d), d)[0]


def _batch(data, N, *, rng, epsilon):
    cands, m, d = _candidates(data["X"], data["y"], data["p"])
    idx = np.empty(N, dtype=np.int64)
    for a in range(0, N, 256):                      # chunks: |G| can be 10^4
        b = min(N, a + 256)
        idx[a:b] = np.argmax(-0.5 * epsilon * m[None, :] + rng.gumbel(size=(b - a, m.size)), axis=1)
    return encode(cands[idx], encoder(data, d), d)


learn.batch = _batch
