"""IBM diffprivlib 0.6.6 mechanisms wrapped for dptestbed's implementation contract.

Each wrapper takes the spec's input and parameter names, builds the library's mechanism and calls it:
the noise comes from diffprivlib's own generator (``secrets.SystemRandom``, OS entropy), never from
the ``rng`` argument, so audit them with ``--randomness own``::

    dptestbed audit laplace_mechanism --impl examples/libraries/diffprivlib_mechanisms.py:laplace \\
        --randomness own --param epsilon=1 --param gamma=1 --param p=1 --samples 100000

diffprivlib draws one value per ``randomise`` call, so each ``batch`` (n releases at once, shape
``(n, ...)``) builds the mechanism once and calls it n times.  The ``misconfigured_*`` functions are
the same calls with one realistic mistake each; an audit must report them "claim violated".
"""

import warnings

import numpy as np
from diffprivlib.accountant import BudgetAccountant
from diffprivlib.mechanisms import Exponential, GaussianAnalytic, Geometric, Laplace
from diffprivlib.tools import mean as dpl_mean


def _vector(mech, data, n, dtype=float):
    """n releases of a vector answer, one randomise call per coordinate."""
    return np.array([[mech.randomise(x) for x in data] for _ in range(n)], dtype=dtype)


# spec laplace_mechanism: f(D) + Lap(gamma/epsilon)^p, gamma the L1 sensitivity
def laplace_batch(data, n, *, rng, epsilon, gamma):
    return _vector(Laplace(epsilon=epsilon, sensitivity=gamma), np.asarray(data, float).tolist(), n)


def laplace(data, *, rng, epsilon, gamma):
    return laplace_batch(data, 1, rng=rng, epsilon=epsilon, gamma=gamma)[0]


laplace.batch = laplace_batch


# spec gaussian_mechanism_analytic: f(D) + N(0, sigma^2 I), sigma from Balle and Wang's Algorithm 1
def gaussian_batch(data, n, *, rng, epsilon, delta, sensitivity):
    return _vector(GaussianAnalytic(epsilon=epsilon, delta=delta, sensitivity=sensitivity),
                   np.asarray(data, float).tolist(), n)


def gaussian(data, *, rng, epsilon, delta, sensitivity):
    return gaussian_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, sensitivity=sensitivity)[0]


gaussian.batch = gaussian_batch


# spec geometric_mechanism: integer f(D) + two-sided geometric noise (diffprivlib wants Python ints)
def geometric_batch(data, n, *, rng, epsilon, sensitivity):
    mech = Geometric(epsilon=epsilon, sensitivity=int(sensitivity))
    return _vector(mech, np.asarray(data).astype(np.int64).tolist(), n, dtype=np.int64)


def geometric(data, *, rng, epsilon, sensitivity):
    return geometric_batch(data, 1, rng=rng, epsilon=epsilon, sensitivity=sensitivity)[0]


geometric.batch = geometric_batch


# spec exponential_mechanism: data are losses (lower is better); diffprivlib scores utilities, so utility = -loss
def exponential_batch(data, n, *, rng, epsilon, sensitivity):
    mech = Exponential(epsilon=epsilon, sensitivity=sensitivity, utility=[-float(x) for x in data])
    return np.array([mech.randomise() for _ in range(n)], dtype=np.int64)


def exponential(data, *, rng, epsilon, sensitivity):
    return int(exponential_batch(data, 1, rng=rng, epsilon=epsilon, sensitivity=sensitivity)[0])


exponential.batch = exponential_batch


# spec bounded_mean: diffprivlib.tools.mean with bounds; a fresh accountant per release (the default one
# would record every call of the audit)
def mean_batch(data, n, *, rng, epsilon, lower, upper):
    x = np.asarray(data, float)
    return np.array([dpl_mean(x, epsilon=epsilon, bounds=(lower, upper), accountant=BudgetAccountant())
                     for _ in range(n)])


def mean(data, *, rng, epsilon, lower, upper):
    return float(mean_batch(data, 1, rng=rng, epsilon=epsilon, lower=lower, upper=upper)[0])


mean.batch = mean_batch


# ------------------------------------------------------------------ misconfigured (must be "claim violated")

# the L1 sensitivity passed as half its value (e.g. a count's sensitivity 1 mistaken for 1/2)
def misconfigured_laplace_half_sensitivity(data, *, rng, epsilon, gamma):
    return laplace(data, rng=rng, epsilon=epsilon, gamma=gamma / 2)


misconfigured_laplace_half_sensitivity.batch = (
    lambda data, n, *, rng, epsilon, gamma: laplace_batch(data, n, rng=rng, epsilon=epsilon, gamma=gamma / 2))


# the library calibrated to a delta 10^4 times larger than the one claimed (at most 0.5: a delta of 1 calibrates nothing)
def misconfigured_gaussian_delta_understated(data, *, rng, epsilon, delta, sensitivity):
    return gaussian(data, rng=rng, epsilon=epsilon, delta=min(delta * 1e4, 0.5), sensitivity=sensitivity)


misconfigured_gaussian_delta_understated.batch = (
    lambda data, n, *, rng, epsilon, delta, sensitivity:
    gaussian_batch(data, n, rng=rng, epsilon=epsilon, delta=min(delta * 1e4, 0.5), sensitivity=sensitivity))


# bounds left out: diffprivlib takes them from the data (and warns with a PrivacyLeakWarning)
def misconfigured_mean_bounds_missing_batch(data, n, *, rng, epsilon, lower, upper):
    x = np.asarray(data, float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.array([dpl_mean(x, epsilon=epsilon, accountant=BudgetAccountant()) for _ in range(n)])


def misconfigured_mean_bounds_missing(data, *, rng, epsilon, lower, upper):
    return float(misconfigured_mean_bounds_missing_batch(data, 1, rng=rng, epsilon=epsilon, lower=lower, upper=upper)[0])


misconfigured_mean_bounds_missing.batch = misconfigured_mean_bounds_missing_batch
