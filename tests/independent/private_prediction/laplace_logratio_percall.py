"""Laplace prediction (Theorem 3), per call only (no .batch).

Lap(b) sampled as b * ln(U1/U2) with U1, U2 i.i.d. uniform on (0, 1]: ln(1/U) is Exp(1), and
the difference of two independent Exp(1) is a standard Laplace, so the law is exact.
"""
import math


def laplace_prediction(data, *, rng, epsilon, gamma, **unused):
    b = gamma / epsilon
    try:
        values = [float(v) for v in data]          # q queries: fresh noise each
    except TypeError:
        u1 = 1.0 - rng.random()
        u2 = 1.0 - rng.random()
        return float(data) + b * math.log(u1 / u2)
    import numpy as np  # lazy import, only for the vector form
    out = []
    for v in values:
        u1 = 1.0 - rng.random()
        u2 = 1.0 - rng.random()
        out.append(v + b * math.log(u1 / u2))
    return np.array(out)
