"""The calibration corpus' exact privacy profiles (audits/calibration/exact_profiles.py)
against Monte Carlo and closed forms."""

import math

import numpy as np
import pytest
from scipy import special

from dptestbed.audits.base.discovery import load_papers
from dptestbed.audits.calibration.exact_profiles import _lyu_kwargs
from dptestbed.audits.privacy import exact as ex


@pytest.mark.parametrize("alg", [1, 2, 4, 5, 6])
def test_lyu_transcripts_against_monte_carlo(alg, check_transcripts):
    from dptestbed.impl.calibration import svt_lyu
    env = {"epsilon": 1.0, "threshold": 0.5, "c": 2}
    data = [1.0, 0.0, 2.0, 1.0, 0.5]
    exact = ex.svt_distribution(data, threshold=0.5, count_symbol=1, **_lyu_kwargs(alg, env))
    check_transcripts(exact, getattr(svt_lyu, f"svt_lyu_{alg}").batch, data, 200_000, np.random.default_rng(alg), **env)


def test_exponential_and_randomized_response_profiles():
    from dptestbed.impl.calibration.exponential import exponential_mechanism_probabilities
    load_papers("exact_profiles")  # the papers register their profiles when loaded
    env = {"epsilon": 1.0, "sensitivity": 1.0}
    eps = ex.PROFILES["dptestbed.impl.calibration.exponential:exponential_mechanism"]([0, 1, 1], [1, 0, 1], env, 0.0)
    assert eps == pytest.approx(0.5)
    p = exponential_mechanism_probabilities([0, 1, 1], epsilon=1.0, sensitivity=1.0)
    assert p == pytest.approx(special.softmax(-np.array([0, 1, 1]) / 2))
    rr = ex.PROFILES["dptestbed.impl.calibration.randomized_response:randomized_response"]([0], [1], {"epsilon": 0.7}, 0.0)
    assert rr == pytest.approx(0.7)


def test_geometric_profile_against_the_brute_force_product():
    """The lattice convolution behind geometric_epsilon against the hockey stick of the two product pmfs,
    summed over a 2-D window of integers."""
    scale, shift = 1.5, (2, 1)
    k = np.arange(-60, 61)
    alpha = np.exp(-1 / scale)
    pmf = lambda c: (1 - alpha) / (1 + alpha) * alpha ** np.abs(k - c)  # noqa: E731
    p = np.outer(pmf(0), pmf(0)).ravel()
    q = np.outer(pmf(shift[0]), pmf(shift[1])).ravel()
    for delta in (0.0, 1e-4, 0.01, 0.2):
        assert ex.geometric_epsilon(list(shift), scale, delta) == pytest.approx(ex.discrete_epsilon(p, q, delta),
                                                                               abs=1e-9)
    assert ex.geometric_epsilon([0.5], scale, 0.01) is None  # not a pair of integer answers


def test_discrete_gaussian_profile_attains_the_claim_and_is_symmetric():
    load_papers("exact_profiles")
    fn = ex.PROFILES["dptestbed.impl.calibration.discrete:discrete_gaussian_mechanism"]
    env = {"epsilon": 1.0, "delta": 1e-5, "sensitivity": 2}
    assert fn(0.0, 2.0, env, 1e-5) == pytest.approx(1.0, abs=1e-9)
    assert fn(7.0, 5.0, env, 1e-5) == pytest.approx(1.0, abs=1e-9)
    assert fn(0.0, 1.0, env, 1e-5) < 1.0  # a smaller move loses less
    assert fn(0.0, 2.0, env, 0.0) == math.inf and fn(3.0, 3.0, env, 0.0) == 0.0


def test_bounded_profiles_clip_before_the_laplace_loss():
    load_papers("exact_profiles")
    fn = ex.PROFILES["dptestbed.impl.calibration.bounded:bounded_mean"]
    env = {"epsilon": 1.0, "lower": 0.0, "upper": 1.0}
    data = np.zeros(10)
    assert fn(data, np.r_[1e6, np.zeros(9)], env, 0.0) == pytest.approx(1.0)
    assert fn(data, np.r_[0.5, np.zeros(9)], env, 0.0) == pytest.approx(0.5)
