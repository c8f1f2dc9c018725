"""Laplace prediction of a gamma-stable learner (seed 002 Theorem 3, corrected spec): A(S, x) + Lap(gamma/epsilon),
fresh noise per query. Written differently: no batch sampler (per call only); the noise as
b ln(U1/U2) with U1, U2 = 1 - rng.random() (Exp(1) - Exp(1) = Lap(1)); for an array of q predictions the
noises are drawn in reverse order in a Python loop; a scalar input returns a numpy float64 scalar; unused
keywords (L_l, sigma, q) via **params. Law: the spec's."""
import math

import numpy as np


def predict(data, *, rng, **params):
    b = float(params["gamma"]) / float(params["epsilon"])
    a = np.asarray(data, dtype=np.float64)
    flat = a.reshape(-1)
    noise = np.empty(flat.size)
    for i in range(flat.size - 1, -1, -1):
        u1 = 1.0 - rng.random()
        u2 = 1.0 - rng.random()
        noise[i] = b * math.log(u1 / u2)
    out = flat + noise
    if a.ndim == 0:
        return np.float64(out[0])
    return out.reshape(a.shape)
