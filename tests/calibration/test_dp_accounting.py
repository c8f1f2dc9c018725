"""Every exact privacy profile against Google's dp-accounting privacy-loss distributions (PLDs) as an
independent oracle: the closed forms of ``audits/privacy/exact.py`` and every profile the calibration paper
registers (``audits/calibration/exact_profiles.py``), at several (sensitivity, scale, delta) points.

dp-accounting discretises the privacy loss with pessimistic rounding on a grid: 1e-4 (its default; "connect
the dots") for the Laplace and Gaussian laws, 1e-7 for the discrete Gaussian and 1e-8 for the other discrete
laws (stored sparsely, a fine grid costs nothing). It never shares code with ours. Its epsilon(delta) lies
in [exact, exact + grid], so each epsilon test asserts ours in [theirs - grid, theirs] (up to 1e-9; the
lattice tolerance for products); delta(epsilon) tests assert an absolute tolerance. Agreement reached, max
|ours - theirs| over the points of the tests below:

===============================================  ======================  ====================================
profile                                          compared                max |diff| (what limits it)
===============================================  ======================  ====================================
Laplace, one coordinate (closed form)            delta(eps)              1.7e-13
                                                 eps(delta)              6.3e-10 (3.2e-5 where s/b = 2/3 is
                                                                         off their 1e-4 grid)
Laplace, 2-3 coordinates (lattice convolution)   eps(delta)              1.9e-6 (2.8e-5 off their grid);
                                                                         ours is an upper bound within 1e-5
Gaussian (Balle-Wang Theorem 8)                  delta(eps)              2.2e-13
                                                 eps(delta)              1.6e-8
Gaussian specs: sigma given, classical, analytic eps(delta)              3.6e-8; Algorithm 1's sigma meets
                                                                         delta to a relative 1e-13
geometric / discrete Laplace (exact lattice)     eps(delta)              4.6e-13
discrete Gaussian (summed pmfs, Theorem 7 sigma) eps(delta)              9e-8; their delta at the claimed
                                                                         epsilon is delta (relative 1.3e-6)
bounded mean and sum (clipped, Laplace)          eps(delta)              2.9e-10
randomized response                              delta(eps)              5e-9
                                                 eps(delta)              1e-8
two pmfs: exponential mechanism, report noisy    eps(delta)              9.3e-9
max, Lyu Algorithm 1 transcripts
===============================================  ======================  ====================================

The registered profiles (``PROFILES[ref](data, neighbour, env, delta)``) are checked through the same
oracles at their specs' parameter points: Laplace, Gaussian (sigma given, classical and analytic
calibrations), geometric, discrete Gaussian (Theorem 7 calibration), bounded mean and sum (clipping),
randomized response, exponential mechanism and report noisy max. ``noisy_max_value_epsilon`` (delta = 0,
the supremum of a density ratio) has no dp-accounting counterpart; ``tests/test_stats.py`` checks it against
its closed-form cases (one answer: the Laplace mechanism; all answers moved: k/scale).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution as pld

from dptestbed.audits.base.discovery import load_papers
from dptestbed.audits.privacy import exact as ex
from dptestbed.impl.calibration.discrete import discrete_gaussian_pmf, discrete_gaussian_sigma
from dptestbed.impl.calibration.gaussian import analytic_sigma, classical_sigma

load_papers("exact_profiles")
REF = "dptestbed.impl.calibration"
DELTAS = (1e-6, 1e-3, 0.05, 0.3)
GRID = 1e-4  # dp-accounting's default discretisation (continuous laws: connect the dots on this grid)
FINE = 1e-8  # its discretisation for discrete laws (sparse: a fine grid costs nothing)


def assert_epsilon(ours: float, oracle: float, grid: float = GRID, tol: float = 1e-9):
    """dp-accounting's pessimistic epsilon(delta) lies in [exact, exact + grid]; so must ours, up to ``tol``."""
    assert oracle - grid - tol <= ours <= oracle + tol, (ours, oracle)


def profile(ref: str):
    return ex.PROFILES[f"{REF}.{ref}"]


def two_way_epsilon(p, q, delta: float) -> float:
    """dp-accounting's epsilon at delta between two pmfs on the same outcomes, both orders."""
    def log_pmf(x):
        return {i: math.log(v) for i, v in enumerate(x) if v > 0}

    return max(pld.from_two_probability_mass_functions(log_pmf(a), log_pmf(b), value_discretization_interval=FINE)
               .get_epsilon_for_delta(delta) for a, b in ((p, q), (q, p)))


# =========================================================================== Laplace


@pytest.mark.parametrize("s, b", [(1.0, 1.0), (1.0, 0.5), (2.0, 3.0), (0.3, 1.0)])
def test_laplace_one_coordinate(s, b):
    oracle = pld.from_laplace_mechanism(b, sensitivity=s)
    for eps in (0.0, 0.3 * s / b, 0.9 * s / b):
        assert 1 - math.exp((eps - s / b) / 2) == pytest.approx(oracle.get_delta_for_epsilon(eps), abs=1e-12)
    for delta in DELTAS:
        assert_epsilon(ex.laplace_epsilon([s], b, delta), oracle.get_epsilon_for_delta(delta))
    env = {"epsilon": s / b, "gamma": s}
    assert_epsilon(profile("laplace:laplace_mechanism")([0.0], [s], env, 1e-3), oracle.get_epsilon_for_delta(1e-3))


@pytest.mark.parametrize("shifts, b", [([0.5, 0.5], 1.0), ([1.0, 1.0], 1.0), ([1.0, 0.5], 1.0), ([0.5, 0.5, 1.0], 2.0),
                                       ([3.0, 1.0], 1.5)])
def test_laplace_several_coordinates_match_composed_plds(shifts, b):
    """The lattice convolution of ``laplace_epsilon`` (which replaced 'None' at delta > 0) against
    dp-accounting's composition of one PLD per moved coordinate; ours is an upper bound within
    PRODUCT_TOLERANCE of the exact epsilon, theirs within its own discretisation."""
    oracle = None
    for s in shifts:
        one = pld.from_laplace_mechanism(b, sensitivity=s)
        oracle = one if oracle is None else oracle.compose(one)
    for delta in DELTAS:
        assert_epsilon(ex.laplace_epsilon(shifts, b, delta), oracle.get_epsilon_for_delta(delta),
                       tol=ex.PRODUCT_TOLERANCE)
    assert ex.laplace_epsilon(shifts, b, 0.0) == pytest.approx(sum(shifts) / b)


def test_laplace_product_is_an_upper_bound_within_its_tolerance():
    """Rounding every coordinate's loss up makes the product's epsilon an upper bound; rounding down would
    lower it by at most one lattice step per coordinate: the step halved moves the result by less than that."""
    shifts, b, delta = [1.0, 0.7], 1.0, 0.01
    coarse = ex.laplace_epsilon(shifts, b, delta)
    step = ex.PRODUCT_TOLERANCE / 2
    fine = ex.product_epsilon([ex._laplace_loss(s / b, step / 2) for s in shifts], step / 2, delta)
    assert fine <= coarse <= fine + ex.PRODUCT_TOLERANCE


# =========================================================================== Gaussian


@pytest.mark.parametrize("s, sigma", [(1.0, 1.0), (1.0, 4.84), (2.0, 1.0), (1.0, 0.5)])
def test_gaussian(s, sigma):
    oracle = pld.from_gaussian_mechanism(sigma, sensitivity=s)
    for eps in (0.0, 0.5, 1.0, 3.0):
        assert float(ex.gaussian_delta(eps, s, sigma)) == pytest.approx(oracle.get_delta_for_epsilon(eps), abs=1e-10)
    for delta in DELTAS[:3]:
        assert_epsilon(ex.gaussian_epsilon([s], sigma, delta), oracle.get_epsilon_for_delta(delta))


@pytest.mark.parametrize("ref, env, sigma", [
    ("gaussian:gaussian_mechanism", {"sigma": 2.0, "sensitivity": 3.0, "epsilon": 1.0}, 2.0),
    ("gaussian:gaussian_mechanism_classical", {"epsilon": 0.5, "delta": 1e-5, "sensitivity": 2.0,
                                               "sigma": classical_sigma(0.5, 1e-5, 2.0)}, classical_sigma(0.5, 1e-5, 2.0)),
    ("gaussian:gaussian_mechanism_analytic", {"epsilon": 1.0, "delta": 1e-5, "sensitivity": 2.0},
     analytic_sigma(1.0, 1e-5, 2.0)),
    ("gaussian:gaussian_mechanism_analytic", {"epsilon": 3.0, "delta": 1e-3, "sensitivity": 1.0},
     analytic_sigma(3.0, 1e-3, 1.0)),
])
def test_registered_gaussian_profiles(ref, env, sigma):
    s = 2.0 if env.get("sensitivity") == 2.0 else 1.0
    oracle = pld.from_gaussian_mechanism(sigma, sensitivity=s)
    for delta in (1e-5, 1e-3, 0.05):
        assert_epsilon(profile(ref)([0.0], [s], env, delta), oracle.get_epsilon_for_delta(delta))
    if "analytic" in ref:  # Algorithm 1's sigma: the claimed (epsilon, delta) is attained
        assert oracle.get_delta_for_epsilon(env["epsilon"]) == pytest.approx(env["delta"], rel=1e-6)
        assert profile(ref)([0.0], [s], env, env["delta"]) == pytest.approx(env["epsilon"], abs=1e-9)


# =========================================================================== geometric and discrete Gaussian


@pytest.mark.parametrize("shifts, scale", [([1], 1.0), ([2], 2.0), ([1, 1], 1.0), ([2, 1, 1], 0.5), ([3], 4.0)])
def test_geometric(shifts, scale):
    """Exact on the lattice Z/scale; dp-accounting's parameter is 1/scale, its grid holds every loss here."""
    oracle = None
    for s in shifts:
        one = pld.from_discrete_laplace_mechanism(1 / scale, sensitivity=s)
        oracle = one if oracle is None else oracle.compose(one)
    for delta in DELTAS:
        assert_epsilon(ex.geometric_epsilon(shifts, scale, delta), oracle.get_epsilon_for_delta(delta))
    env = {"epsilon": 1 / scale, "sensitivity": 1}
    data = np.zeros(len(shifts))
    assert_epsilon(profile("discrete:geometric_mechanism")(data, data + shifts, env, 1e-3),
                   oracle.get_epsilon_for_delta(1e-3))


@pytest.mark.parametrize("epsilon, delta, sensitivity", [(1.0, 1e-5, 1), (0.5, 1e-5, 3), (3.0, 1e-6, 1), (1.0, 0.01, 2)])
def test_discrete_gaussian(epsilon, delta, sensitivity):
    """The profile (hockey stick of the two summed pmfs) at the Theorem 7 calibration, against dp-accounting's
    discrete Gaussian PLD (its noise truncated where the mass beyond is 1e-30): the claimed epsilon is attained."""
    sigma = discrete_gaussian_sigma(epsilon, delta, sensitivity)
    grid = 1e-7
    oracle = pld.from_discrete_gaussian_mechanism(sigma, sensitivity=sensitivity, value_discretization_interval=grid)
    env = {"epsilon": epsilon, "delta": delta, "sensitivity": sensitivity}
    for d in (delta, 10 * delta, 0.1):
        assert_epsilon(profile("discrete:discrete_gaussian_mechanism")(0.0, float(sensitivity), env, d),
                       oracle.get_epsilon_for_delta(d), grid)
    assert profile("discrete:discrete_gaussian_mechanism")(0.0, float(sensitivity), env, delta) == pytest.approx(
        epsilon, abs=1e-9)
    assert oracle.get_delta_for_epsilon(epsilon + grid) <= delta <= oracle.get_delta_for_epsilon(epsilon)
    k = np.arange(-200, 201)
    assert discrete_gaussian_pmf(k, sigma).sum() == pytest.approx(1.0, abs=1e-14)


# =========================================================================== bounded mean and sum (Laplace on clipped data)


@pytest.mark.parametrize("ref, lower, upper, n, scale_of", [
    ("bounded:bounded_mean", 0.0, 1.0, 10, lambda lo, hi, n, e: (hi - lo) / (n * e)),
    ("bounded:bounded_mean", -2.0, 3.0, 5, lambda lo, hi, n, e: (hi - lo) / (n * e)),
    ("bounded:bounded_sum", -2.0, 3.0, 5, lambda lo, hi, n, e: (hi - lo) / e),
])
def test_bounded(ref, lower, upper, n, scale_of):
    eps = 0.5
    env = {"epsilon": eps, "lower": lower, "upper": upper, "n": n}
    data = np.zeros(n)
    data[0] = lower - 1000.0
    far = data.copy()
    far[0] = upper + 1000.0  # clipped: the statistic moves by its full sensitivity
    shift = (upper - lower) / (n if "mean" in ref else 1)
    oracle = pld.from_laplace_mechanism(scale_of(lower, upper, n, eps), sensitivity=shift)
    assert profile(ref)(data, far, env, 0.0) == pytest.approx(eps)
    for delta in DELTAS:
        assert_epsilon(profile(ref)(data, far, env, delta), oracle.get_epsilon_for_delta(delta))


# =========================================================================== discrete laws


@pytest.mark.parametrize("epsilon", [0.1, 0.7, 1.0, 3.0])
def test_randomized_response(epsilon):
    # dp-accounting's randomized response over 2 buckets with noise p keeps the bit w.p. 1 - p/2
    oracle = pld.from_randomized_response(2 / (1 + math.exp(epsilon)), 2, value_discretization_interval=FINE)
    keep = math.exp(epsilon) / (1 + math.exp(epsilon))
    for eps in (0.0, 0.5 * epsilon):
        assert ex.hockey_stick([keep, 1 - keep], [1 - keep, keep], eps) == pytest.approx(
            oracle.get_delta_for_epsilon(eps), abs=2e-8)
    for delta in (0.0, *DELTAS):
        assert_epsilon(profile("randomized_response:randomized_response")(0, 1, {"epsilon": epsilon}, delta),
                       oracle.get_epsilon_for_delta(delta), FINE)


def test_two_pmf_profiles():
    """discrete_epsilon (the hockey-stick inversion behind every discrete profile) on the exponential
    mechanism's and report noisy max's laws, and dist_epsilon on sparse-vector transcript laws."""
    from dptestbed.audits.calibration.exact_profiles import _lyu_kwargs
    from dptestbed.impl.calibration.exponential import exponential_mechanism_probabilities

    cases = []
    for u, v in (([0.0, 1.0, 1.0], [1.0, 0.0, 1.0]), ([11.0, 1.0], [12.0, 0.0])):
        cases.append((profile("exponential:exponential_mechanism"), u, v, {"epsilon": 1.0, "sensitivity": 1.0},
                      exponential_mechanism_probabilities(u, epsilon=1.0, sensitivity=1.0),
                      exponential_mechanism_probabilities(v, epsilon=1.0, sensitivity=1.0)))
    q1, q2 = [1.0, 1.0, 1.0, 1.0, 1.0], [2.0, 0.0, 0.0, 0.0, 0.0]
    cases.append((profile("noisy_max:report_noisy_max"), q1, q2, {"epsilon": 1.0},
                  ex.noisy_max_distribution(q1, 2.0), ex.noisy_max_distribution(q2, 2.0)))
    for ours, a, b, env, p, q in cases:
        for delta in (1e-3, 0.05):
            assert_epsilon(ours(a, b, env, delta), two_way_epsilon(p, q, delta), FINE)
    env = {"epsilon": 1.0, "threshold": 0.5, "c": 1}
    d1 = ex.svt_distribution([0.0, 0.0, 1.0], threshold=0.5, count_symbol=1, **_lyu_kwargs(1, env))
    d2 = ex.svt_distribution([1.0, 1.0, 0.0], threshold=0.5, count_symbol=1, **_lyu_kwargs(1, env))
    keys = sorted(set(d1) | set(d2))
    p, q = [d1.get(k, 0.0) for k in keys], [d2.get(k, 0.0) for k in keys]
    for delta in (1e-3, 0.05):
        assert_epsilon(ex.dist_epsilon(d1, d2, delta), two_way_epsilon(p, q, delta), FINE)
