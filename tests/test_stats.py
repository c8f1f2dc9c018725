"""Property tests of the auditor's interval statistics and exact privacy profiles.

Interval code (``dptestbed.audits.stats``): Clopper-Pearson bounds agree with statsmodels and
have exact coverage >= nominal (checked by summing binomial probabilities, not by sampling);
the epsilon lower bound of one event is valid: for a pair of binomials with
p1 = e^eps p2 + delta exactly, P[eps_lb > eps] <= alpha (exact enumeration).

Exact profiles (``dptestbed.audits.exact``): each closed form / quadrature is compared with an
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

from dptestbed.audits import exact as ex
from dptestbed.audits.stats import (
    approx_predicted_eps_lower_bound,
    best_predicted,
    binomial_false_alarm_limit,
    bonferroni,
    clopper_pearson,
    cp_lower,
    cp_upper,
    eps_lower_bound,
    minimum_detectable_epsilon,
    predicted_eps_lower_bound,
)

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


# --------------------------------------------------------------------------- epsilon lower bound


@given(k1=st.integers(0, 500), k2=st.integers(0, 500), delta=st.sampled_from([0.0, 1e-3, 0.05]))
@settings(max_examples=60, deadline=None)
def test_eps_lower_bound_formula(k1, k2, delta):
    n, alpha = 500, 0.05
    lb = eps_lower_bound(k1, n, k2, n, delta, alpha)
    lo, hi = cp_lower(k1, n, alpha / 2), cp_upper(k2, n, alpha / 2)
    if lo <= delta:
        assert lb == -math.inf
    else:
        assert lb == pytest.approx(math.log((lo - delta) / hi), rel=1e-12)
        # never above the plug-in estimate
        assert lb <= math.log(max(k1 / n - delta, 1e-300) / max(k2 / n, 1e-300)) + 1e-12


@pytest.mark.parametrize("eps,delta,p2,n", [(1.0, 0.0, 0.05, 60), (0.5, 0.0, 0.3, 60), (1.0, 0.02, 0.1, 50),
                                            (2.0, 0.0, 0.01, 80), (0.1, 0.0, 0.45, 70)])
def test_eps_lower_bound_exact_false_alarm_rate(eps, delta, p2, n):
    """Tight pair p1 = e^eps p2 + delta: P[eps_lb > eps] <= alpha, by exact enumeration of the
    two binomial counts (the statement the auditor's verdict rests on)."""
    alpha = 0.2
    p1 = math.exp(eps) * p2 + delta
    k = np.arange(n + 1)
    lb = eps_lower_bound(k[:, None], n, k[None, :], n, delta, alpha)
    prob = np.outer(sps.binom.pmf(k, n, p1), sps.binom.pmf(k, n, p2))
    rate = prob[lb > eps].sum()
    assert rate <= alpha
    # and the bound has some power: a 3x larger ratio is usually detected
    prob_far = np.outer(sps.binom.pmf(k, n, min(1.0, 3 * p1)), sps.binom.pmf(k, n, p2))
    assert prob_far[lb > eps].sum() > rate


def test_predicted_bound_is_the_bound_at_expected_counts():
    assert predicted_eps_lower_bound(0.3, 0.1, 1000, 0.0, 0.05) == pytest.approx(
        eps_lower_bound(300, 1000, 100, 1000, 0.0, 0.05))
    # tiny-probability events do not win: same ratio, far less mass -> smaller predicted bound
    assert predicted_eps_lower_bound(3e-6, 1e-6, 10**6) < predicted_eps_lower_bound(3e-2, 1e-2, 10**6)
    # with delta > 0 the best event is not the one with the best raw ratio
    assert predicted_eps_lower_bound(0.02, 0.001, 10**5, delta=0.015) < predicted_eps_lower_bound(
        0.3, 0.05, 10**5, delta=0.015)


@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=200),
       st.integers(100, 10**6))
@settings(max_examples=50, deadline=None)
def test_best_predicted_screening(pairs, n):
    p1 = np.array([a for a, _ in pairs])
    p2 = np.array([b for _, b in pairs])
    (i, value), (i2, value2) = best_predicted([(p1, p2), (p2, p1)], n, 0.0, 0.05, screen=8)
    assert (i2, value2) == best_predicted([(p2, p1)], n, 0.0, 0.05, screen=8)[0]  # groups scored apart
    exact = np.asarray(predicted_eps_lower_bound(p1, p2, n, 0.0, 0.05))
    assert value == pytest.approx(float(exact[i]), nan_ok=False) or (value == -math.inf and exact[i] == -math.inf)
    assert value <= exact.max() + 1e-12
    if p1.size <= 8:
        assert value == exact.max()


def test_wilson_screen_tracks_clopper_pearson():
    p1 = np.array([0.3, 0.01, 0.002, 0.5])
    p2 = np.array([0.1, 0.002, 0.0001, 0.45])
    approx = approx_predicted_eps_lower_bound(p1, p2, 10**5, 0.0, 0.05)
    exact = predicted_eps_lower_bound(p1, p2, 10**5, 0.0, 0.05)
    assert np.allclose(approx, exact, atol=0.15)
    assert np.argmax(approx) == np.argmax(exact)


@settings(max_examples=40, deadline=None)
@given(st.floats(1e-4, 0.9), st.sampled_from([10_000, 10**6, 10**7]), st.floats(0.1, 3.0),
       st.sampled_from([0.0, 1e-5]))
def test_minimum_detectable_epsilon_is_the_threshold(p1, n, claim, delta):
    """The smallest loss the predicted bound shows above the claim: shown at it, not 1e-6 below."""
    mde = minimum_detectable_epsilon(p1, n, claim, delta, 0.05)

    def bound(eps):
        return predicted_eps_lower_bound(p1, (p1 - delta) * math.exp(-eps), n, delta, 0.05)

    if math.isinf(mde):
        assert not (p1 > delta and bound(50.0) > claim)
        return
    assert claim <= mde < 50 and bound(mde) > claim
    assert mde - 1e-6 <= claim or not bound(mde - 1e-6) > claim


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
