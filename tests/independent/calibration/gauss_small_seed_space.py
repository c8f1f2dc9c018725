"""Gaussian mechanism (exact privacy profile spec) with a replayable per-call child generator.

Each call draws a 20-bit seed from rng, logs nothing but keeps it "so a release can be replayed
from its seed", and draws the noise from np.random.default_rng(seed): all randomness still comes
from rng, and for one call the noise is N(0, sigma^2 I) to within the resolution of the seed
space. But there are only 2^20 seeds, so the release f(D) + z_seed takes at most 2^20 values
for a given f(D), and the value sets of two neighbouring answers are disjoint: any observed
output names its input. (The batch path looks the noise up in a table of the same 2^20
streams, so fn and fn.batch have one law.)
"""
import numpy as np

_BITS = 20
_S = 1 << _BITS
_TAB = {}


def _table(p):
    t = _TAB.get(p)
    if t is None:
        t = np.empty((_S, p))
        for s in range(_S):
            t[s] = np.random.default_rng(s).standard_normal(p)
        _TAB[p] = t
    return t


def gauss(data, *, rng, sigma, sensitivity=1.0, epsilon=1.0, delta_target=1e-5, p=None, beta=0.05, **_):
    f = np.asarray(data, dtype=float).reshape(-1)
    seed = int(rng.integers(_S))
    return f + sigma * np.random.default_rng(seed).standard_normal(f.size)


def _batch(data, n, *, rng, sigma, sensitivity=1.0, epsilon=1.0, delta_target=1e-5, p=None, beta=0.05, **_):
    f = np.asarray(data, dtype=float).reshape(-1)
    seeds = rng.integers(_S, size=n)
    if f.size <= 4:
        z = _table(f.size)[seeds]
    else:
        z = np.stack([np.random.default_rng(int(s)).standard_normal(f.size) for s in seeds])
    return f + sigma * z


gauss.batch = _batch
