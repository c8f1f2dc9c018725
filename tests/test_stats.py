"""Property tests of the auditor's interval statistics and exact privacy profiles.

Interval code (``dptestbed.audits.base.stats``): Clopper-Pearson bounds agree with statsmodels and
have exact coverage >= nominal (checked by summing binomial probabilities, not by sampling);
the epsilon lower bound of one event is valid: for a pair of binomials with
p1 = e^eps p2 + delta exactly, P[eps_lb > eps] <= alpha (exact enumeration).

Exact profiles (``dptestbed.audits.privacy.exact``): each closed form / quadrature is compared with an
independent computation (numerical hockey-stick on a grid) or a Monte Carlo estimate of the
output distribution (fixed seeds; tolerances of >= 5 standard errors).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint

from dptestbed.audits.base.stats import (
    best_predicted,
    binomial_false_alarm_limit,
    bonferroni,
    clopper_pearson,
    cp_lower,
    cp_upper,
)
from dptestbed.audits.privacy import exact as ex
from dptestbed.audits.privacy.claims import Claim

# --------------------------------------------------------------------------- Clopper-Pearson


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 5000), data=st.data(), confidence=st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_clopper_pearson_matches_statsmodels(n, data, confidence):
    k = data.draw(st.integers(0, n))
    lo, hi = clopper_pearson(k, n, confidence)
    slo, shi = proportion_confint(k, n, alpha=1 - confidence, method="beta")
    assert lo == pytest.approx(slo, abs=1e-12)
    assert hi == pytest.approx(shi, abs=1e-12)
    assert lo <= k / n <= hi


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 80), p=st.one_of(st.sampled_from([0.0, 1.0]), st.floats(1e-9, 1 - 1e-9)),
       alpha=st.sampled_from([0.01, 0.05, 0.2]))
def test_clopper_pearson_exact_coverage(n, p, alpha):
    """P[p < cp_lower(K)] <= alpha and P[p > cp_upper(K)] <= alpha, summed exactly over K."""
    k = np.arange(n + 1)
    pmf = sps.binom.pmf(k, n, p)
    miss_low = pmf[np.asarray(cp_lower(k, n, alpha)) > p].sum()
    miss_high = pmf[np.asarray(cp_upper(k, n, alpha)) < p].sum()
    assert miss_low <= alpha + 1e-12
    assert miss_high <= alpha + 1e-12


@given(n=st.integers(2, 1000), data=st.data())
@settings(max_examples=40, deadline=None)
def test_bounds_are_monotone_in_counts_and_level(n, data):
    k = data.draw(st.integers(0, n - 1))
    assert cp_lower(k, n, 0.05) <= cp_lower(k + 1, n, 0.05)
    assert cp_upper(k, n, 0.05) <= cp_upper(k + 1, n, 0.05)
    assert cp_lower(k, n, 0.01) <= cp_lower(k, n, 0.05)          # more confidence, wider
    assert cp_upper(k, n, 0.01) >= cp_upper(k, n, 0.05)
    assert cp_lower(0, n, 0.05) == 0.0 and cp_upper(n, n, 0.05) == 1.0


@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=200),
       st.integers(100, 10**6))
@settings(max_examples=50, deadline=None)
def test_best_predicted_screening(pairs, n):
    p1 = np.array([a for a, _ in pairs])
    p2 = np.array([b for _, b in pairs])
    (i, value), (i2, value2) = best_predicted([(p1, p2), (p2, p1)], n, Claim("dp", 1.0), 0.05, screen=8)
    assert (i2, value2) == best_predicted([(p2, p1)], n, Claim("dp", 1.0), 0.05, screen=8)[0]  # groups scored apart
    exact = np.asarray(Claim("dp", 1.0).predicted(p1, p2, n, 0.05))
    assert value == pytest.approx(float(exact[i]), nan_ok=False) or (value == -math.inf and exact[i] == -math.inf)
    assert value <= exact.max() + 1e-12
    if p1.size <= 8:
        assert value == exact.max()


def test_a_group_without_candidates_shows_nothing_and_leaves_the_others_scored():
    """A view whose values are all infinite has no threshold to try: its group is empty (an audit stopped there on an
    empty argmax)."""
    empty = np.array([])
    p = np.array([0.5, 0.01])
    out = best_predicted([(empty, empty), (p, p[::-1])], 10_000, Claim("dp", 1.0), 0.05)
    assert out[0] == (0, -math.inf) and out[1][0] == 0 and out[1][1] > 1


def test_bonferroni_and_false_alarm_limit():
    assert bonferroni(0.05, 4) == pytest.approx(0.0125)
    assert bonferroni(0.05, 0) == 0.05
    limit = binomial_false_alarm_limit(200, 0.2, 1e-3)
    assert sps.binom.sf(limit, 200, 0.2) <= 1e-3 < sps.binom.sf(limit - 1, 200, 0.2)


# --------------------------------------------------------------------------- exact profiles


def _grid_hockey_eps(logpdf1, logpdf2, lo, hi, delta, points=400_001):
    x = np.linspace(lo, hi, points)
    dx = x[1] - x[0]
    return ex.discrete_epsilon(np.exp(logpdf1(x)) * dx, np.exp(logpdf2(x)) * dx, delta)


def test_discrete_epsilon_basics():
    assert ex.discrete_epsilon([0.5, 0.5], [0.5, 0.5]) == 0.0
    assert ex.discrete_epsilon([1.0, 0.0], [0.5, 0.5]) == math.inf
    assert ex.discrete_epsilon([1.0, 0.0], [0.5, 0.5], delta=0.5) == pytest.approx(math.log(1.0))
    p, q = np.array([0.7, 0.3]), np.array([0.3, 0.7])
    assert ex.discrete_epsilon(p, q) == pytest.approx(math.log(7 / 3))
    e = ex.discrete_epsilon(p, q, 0.1)
    assert max(ex.hockey_stick(p, q, e), ex.hockey_stick(q, p, e)) == pytest.approx(0.1, abs=1e-9)


@pytest.mark.parametrize("shift,b,delta", [(1.0, 1.0, 1e-3), (1.0, 0.5, 0.05), (2.0, 3.0, 0.2)])
def test_laplace_profile_against_numerical_hockey_stick(shift, b, delta):
    assert ex.laplace_epsilon([shift], b, 0.0) == pytest.approx(shift / b)
    numeric = _grid_hockey_eps(lambda x: sps.laplace.logpdf(x, 0, b), lambda x: sps.laplace.logpdf(x, shift, b),
                               -40 * b, 40 * b + shift, delta)
    assert ex.laplace_epsilon([shift], b, delta) == pytest.approx(numeric, abs=1e-5)


@pytest.mark.parametrize("sigma,delta", [(1.0, 1e-5), (4.84, 1e-5), (2.0, 1e-2)])
def test_gaussian_profile_against_numerical_hockey_stick(sigma, delta):
    numeric = _grid_hockey_eps(lambda x: sps.norm.logpdf(x, 0, sigma), lambda x: sps.norm.logpdf(x, 1, sigma),
                               -15 * sigma, 15 * sigma + 1, delta)
    assert ex.gaussian_epsilon([1.0], sigma, delta) == pytest.approx(numeric, abs=2e-4)


def test_noisy_max_distribution_against_monte_carlo():
    q = np.array([0.0, 1.0, 1.0, 2.5])
    p = ex.noisy_max_distribution(q, 2.0)
    rng = np.random.default_rng(1)
    n = 400_000
    freq = np.bincount(np.argmax(q + rng.laplace(0, 2.0, (n, q.size)), axis=1), minlength=q.size) / n
    assert np.all(np.abs(freq - p) < 5 * np.sqrt(p * (1 - p) / n) + 1e-9)
    assert p.sum() == pytest.approx(1.0)


def test_noisy_max_value_profile():
    # all k answers move by 1: the max value's loss is k/scale (attained in the left tail)
    assert ex.noisy_max_value_epsilon([0, 0, 0], [1, 1, 1], 2.0) == pytest.approx(1.5, abs=1e-6)
    # one answer: it is the Laplace mechanism
    assert ex.noisy_max_value_epsilon([0.0], [1.0], 2.0) == pytest.approx(0.5, abs=1e-6)
