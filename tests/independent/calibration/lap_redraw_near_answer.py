"""Laplace mechanism that redraws its noise while the release would round to the exact answer at two decimals
("never publish the true value"), per call. The release is never within 0.005 of f(D) on any coordinate; from a
neighbour f(D') = f(D) + gamma that region has probability about 0.005 (epsilon/gamma) e^(-epsilon): at epsilon 1,
gamma 1, [0] against [1], P[|M - 0| < 0.005] is 0 against 3.7e-3, an infinite loss under the pure claim. Written
anew from a round-10 tester's description."""
import numpy as np


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    while True:
        out = f + rng.laplace(0.0, gamma / epsilon, size=f.size)
        if np.all(np.round(out, 2) != np.round(f, 2)):
            return out
