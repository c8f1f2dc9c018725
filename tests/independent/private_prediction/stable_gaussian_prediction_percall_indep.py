"""Gaussian prediction of a gamma uniformly stable learner (private prediction, section 3.2.1, with
Dwork and Roth's Theorem A.1 calibration), one call at a time: the exact prediction plus
N(0, sigma_G^2), sigma_G = gamma sqrt(2 ln(1.25/delta)) / epsilon, fresh noise per query.
No batch sampler."""

import math


def stable_gaussian(data, *, rng, epsilon, delta, gamma, **_ignored):
    sigma_g = gamma * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
    return float(data) + float(rng.normal(0.0, sigma_g))
