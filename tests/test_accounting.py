"""Composition accounting, cross-checked against Google's dp_accounting library."""

import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution as pld

from dptestbed.audits.accounting import (
    advanced_composition,
    basic_composition,
    optimal_composition_delta,
    optimal_composition_epsilon,
)


@pytest.mark.parametrize("epsilon, k", [(0.1, 1), (0.1, 10), (0.5, 7), (1.0, 3), (0.05, 40)])
def test_optimal_composition_matches_dp_accounting_randomized_response(epsilon, k):
    # dp_accounting's randomized response over 2 buckets with noise p is ln((2-p)/p)-DP.
    p = 2 / (1 + np.exp(epsilon))
    reference = pld.from_randomized_response(p, 2, value_discretization_interval=1e-5).self_compose(k)
    for target in (0.0, 0.5 * k * epsilon, 0.9 * k * epsilon):
        ours = optimal_composition_delta(epsilon, k, target)
        assert ours == pytest.approx(reference.get_delta_for_epsilon(target), abs=2e-4, rel=1e-2)


def test_single_mechanism_and_ordering_of_bounds():
    assert optimal_composition_epsilon(0.7, 1, 0.0) == pytest.approx(0.7)
    assert optimal_composition_delta(0.7, 1, 0.7) == pytest.approx(0.0, abs=1e-15)
    for k in (2, 10, 50):
        delta = 1e-6
        optimal = optimal_composition_epsilon(0.1, k, delta)
        assert optimal <= advanced_composition(0.1, k, delta) + 1e-12
        assert optimal <= basic_composition([0.1] * k)[0] + 1e-12
        assert optimal_composition_delta(0.1, k, optimal) == pytest.approx(delta, rel=1e-6)


def test_advanced_composition_formula():
    # Dwork-Roth Thm 3.20 evaluated by hand for eps = 0.1, k = 100, delta' = 1e-5.
    expected = np.sqrt(200 * np.log(1e5)) * 0.1 + 100 * 0.1 * (np.exp(0.1) - 1)
    assert advanced_composition(0.1, 100, 1e-5) == pytest.approx(expected)
    assert basic_composition([0.1, 0.2], [1e-6, 0.0]) == pytest.approx((0.3, 1e-6))
