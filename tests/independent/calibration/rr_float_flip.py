"""Randomized response on one bit (per call).

Keep the bit with probability e^eps/(1+e^eps) (returned as int(bit)), otherwise report
the complement computed as 1.0 - bit: a float.  Equal as numbers, but a float report
says the bit was flipped, so (value, type) reveals the true bit.
"""
import math


def randomized_response(data, *, rng, epsilon):
    keep = math.exp(epsilon) / (1.0 + math.exp(epsilon))
    if rng.random() < keep:
        return int(data)
    return 1.0 - int(data)
