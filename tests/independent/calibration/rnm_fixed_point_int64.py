"""report_noisy_max, privacy bug: answers converted to fixed point (micro-units) in int64.

The engineer compares in integer fixed point ("answers are given to 6 decimals; compare integers, not
floats"): q_int = round(q * 1e6) as int64, then adds Laplace noise of scale 2e6/epsilon (the same
scale in micro-units).  Exact up to the 1e-6 rounding of the answers, except that the float -> int64
cast overflows for |q| >= 2^63 / 1e6 = 9,223,372,036,854.78: numpy returns INT64_MIN there (with a
RuntimeWarning), so a huge answer becomes the smallest.

Truth (epsilon = 1): D = [9223372036854, 9223372036853], D' = [9223372036855, 9223372036854]
(each answer moved by 1).  On D, q_int = [9.223372036854e18, 9.223372036853e18]: index 0 wins with
P[L0 - L1 > -1e6] (L ~ Lap(2e6)), = 1 - 0.5 e^-0.5 (1 + 0.25) = 0.6209; on D' answer 0 is cast to
INT64_MIN and never wins: P_D'[0] = 0.  Loss infinite against epsilon = 1.
"""
import warnings

import numpy as np


def _scores(q, rng, epsilon, shape):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        qi = np.round(q * 1e6).astype(np.int64)
    return qi + rng.laplace(0.0, 2e6 / epsilon, size=shape)


def rnm(data, *, rng, epsilon):
    q = np.asarray(data, dtype=float)
    return int(np.argmax(_scores(q, rng, epsilon, q.shape)))


def _batch(data, n, *, rng, epsilon):
    q = np.asarray(data, dtype=float)
    return np.argmax(_scores(q, rng, epsilon, (n, q.size)), axis=1).astype(np.int64)


rnm.batch = _batch
