"""Randomized response on one bit (Warner 1965; Dwork and Roth 2014, Section 3.2).

Contract: ``randomized_response(data, *, rng, epsilon)``; ``data`` is the private bit (0 or 1).
Output: the bit itself with probability e^epsilon/(1+e^epsilon), else the flipped bit; a Python
int in {0, 1}; the batch sampler returns an int8 array of shape (n,). The two output
probabilities differ between neighbours (the bit flips) by exactly a factor e^epsilon.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from dptestbed.impl.contract import batched


def _bit(data) -> int:
    b = np.asarray(data).reshape(-1)
    if b.size != 1 or b[0] not in (0, 1):
        raise ValueError(f"randomized_response: data must be one bit (0 or 1), got {data!r}")
    return int(b[0])


def keep_probability(epsilon):
    """P[output = data] = e^epsilon/(1+e^epsilon), computed stably."""
    return float(expit(epsilon))


def _batch(data, n, *, rng, epsilon):
    bit = _bit(data)
    keep = rng.random(int(n)) < keep_probability(epsilon)
    return np.where(keep, bit, 1 - bit).astype(np.int8)


@batched(_batch)
def randomized_response(data, *, rng, epsilon):
    """Report the bit w.p. e^eps/(1+e^eps), else its flip; int in {0, 1}."""
    bit = _bit(data)
    return bit if rng.random() < keep_probability(epsilon) else 1 - bit
