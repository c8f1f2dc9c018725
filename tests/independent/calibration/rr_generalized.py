"""Randomized response in its 'forced response' form: with probability q = (e^eps - 1)/(e^eps + 1)
tell the truth, otherwise answer with a fair coin.

Valid variant: P[truth] = q + (1 - q)/2 = e^eps/(1 + e^eps), exactly the spec's law.
"""
import math


def rr(data, *, rng, epsilon):
    try:
        bit = int(data)
    except TypeError:
        bit = int(list(data)[0])
    q = math.expm1(epsilon) / (math.exp(epsilon) + 1.0)
    if rng.random() < q:
        return bit
    return int(rng.integers(0, 2))
