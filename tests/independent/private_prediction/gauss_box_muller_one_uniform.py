"""stable_gaussian_prediction -- PRIVACY BUG (Box-Muller with one uniform for both roles).

Noise is a hand-written Box-Muller normal, z = sqrt(-2 ln u) cos(2 pi u2), but the second uniform
was typed as the first: u2 = u (one rng.random() per draw).  sigma_G = gamma sqrt(2 ln(1.25/delta))
/epsilon is right (9.68961 at the defaults).  Output A(S,x) + sigma_G z.

TRUTH: z = g(u) = sqrt(-2 ln u) cos(2 pi u) is bounded below: min over (0,1) is -1.20771 (at
u = 0.4650; numeric scan of 2e7 points), unbounded above, mean about +0.056 (not a normal).  So
the release is >= f - 11.70223 always.  Pair f(D) = 0, f(D') = gamma = 1 (defaults eps = 0.5,
delta = 1e-5): event E = {out < -10.7023} has P_D[E] = 0.12796 (MC, 1e7 draws; the length of the
u-interval where g(u) < -1.10449 is 0.12808) and P_D'[E] = 0 (MC, 1e7 draws: min 1 - 11.70223),
so the pure loss is infinite and delta(eps) >= 0.128 for every eps, about 12,800 times the
claimed delta = 1e-5 (the spec's mechanism: exact delta(0.5) = 1.6e-8).
"""
import math

import numpy as np


def _sigma(epsilon, delta, gamma):
    return float(gamma) * math.sqrt(2.0 * math.log(1.25 / float(delta))) / float(epsilon)


def gauss(data, *, rng, epsilon, delta, gamma, **params):
    s = _sigma(epsilon, delta, gamma)
    u = 1.0 - rng.random()            # (0, 1]
    z = math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * u)
    return float(data) + s * z


def _batch(data, n, *, rng, epsilon, delta, gamma, **params):
    s = _sigma(epsilon, delta, gamma)
    u = 1.0 - rng.random(n)
    z = np.sqrt(-2.0 * np.log(u)) * np.cos(2.0 * np.pi * u)
    return float(data) + s * z


gauss.batch = _batch
