"""The calibration corpus' exact privacy profiles (audits/calibration/exact_profiles.py)
against Monte Carlo and closed forms."""

import numpy as np
import pytest
from scipy import special

from dptestbed.audits import exact as ex
from dptestbed.audits.calibration.exact_profiles import _lyu_kwargs
from dptestbed.audits.discovery import load_papers


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
