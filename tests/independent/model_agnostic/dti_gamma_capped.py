import numpy as np

# BUG (regime): threshold capped "so that utility does not collapse at small epsilon".
# Gamma = min(log(1/delta)/epsilon, 20): identical to the spec whenever log(1/delta)/epsilon <= 20
# (default point eps=1, delta=1e-6: Gamma = 13.8), wrong for eps < log(1/delta)/20.
GAMMA_CAP = 20.0

def dti(data, *, rng, epsilon, delta):
    f, dist = int(data[0]), float(data[1])
    Gamma = min(np.log(1.0 / delta) / epsilon, GAMMA_CAP)
    if dist + rng.laplace(0.0, 1.0 / epsilon) > Gamma:
        return f
    return -1
