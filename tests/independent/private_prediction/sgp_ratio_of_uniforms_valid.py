"""stable_gaussian_prediction -- VALID VARIANT.

What it is: A(S, x) + N(0, sigma_G^2), sigma_G = gamma sqrt(2 ln(1.25/delta))/epsilon, written
differently from the textbook rng.normal:
  * standard normals from the Kinderman-Monahan ratio-of-uniforms method: U ~ U(0,1],
    V ~ U(-sqrt(2/e), sqrt(2/e)), accept X = V/U iff X^2 <= -4 ln U; the accepted X is
    exactly N(0, 1) (the acceptance region {(u, v): u <= sqrt(exp(-(v/u)^2/2))} has the
    N(0,1) kernel as the density of v/u);
  * every call spawns a child generator from rng (rng.spawn(1)[0], the numpy API for
    independent child streams) and draws only from the child; the parent's spawn counter
    advances, so successive calls use distinct independent streams;
  * per-call only (no .batch); arrays/lists of q predictions get q independent normals.
TRUTH: same law as the spec: A(S, x) + N(0, sigma_G^2) fresh per query; (gamma/sigma_G)-GDP
= 0.103203 at the defaults, hence (0.5, 1e-5)-DP.
"""
import math

import numpy as np

_VMAX = math.sqrt(2.0 / math.e)


def _std_normal(g):
    while True:
        u = 1.0 - g.random()
        v = (2.0 * g.random() - 1.0) * _VMAX
        x = v / u
        if x * x <= -4.0 * math.log(u):
            return x


def predict(data, *, rng, epsilon=0.5, delta=1e-5, gamma=1.0, **params):
    g = rng.spawn(1)[0]
    sigma = gamma * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
    if np.ndim(data) == 0:
        return float(data) + sigma * _std_normal(g)
    a = np.asarray(data, dtype=np.float64)
    return a + sigma * np.array([_std_normal(g) for _ in range(a.size)]).reshape(a.shape)
