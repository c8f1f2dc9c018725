"""Privacy claims as curves (audits/privacy/claims.py): each kind's bound from an event's confident probabilities, its
soundness (exact enumeration of the binomial counts), its power, and the formulas checked against independent
computations (scipy, dp-accounting)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats as sps
from dp_accounting import GaussianDpEvent
from dp_accounting.pld import privacy_loss_distribution as pld
from dp_accounting.rdp import rdp_privacy_accountant as rdp
from hypothesis import given, settings
from hypothesis import strategies as st

from dptestbed.audits.base.stats import cp_lower, cp_upper
from dptestbed.audits.privacy.claims import Claim, implied_point, make_claim
from dptestbed.spec.profiles import dgauss_delta, gdp_delta, gdp_mu

# --------------------------------------------------------------------------- (epsilon, delta)


@given(k1=st.integers(0, 500), k2=st.integers(0, 500), delta=st.sampled_from([0.0, 1e-3, 0.05]))
@settings(max_examples=60, deadline=None)
def test_dp_bound_formula(k1, k2, delta):
    n, alpha = 500, 0.05
    lb = float(Claim("dp", 1.0, delta).bound_from_counts(k1, n, k2, n, alpha))
    lo, hi = cp_lower(k1, n, alpha / 2), cp_upper(k2, n, alpha / 2)
    if lo <= delta:
        assert lb == -math.inf
    else:
        assert lb == pytest.approx(math.log((lo - delta) / hi), rel=1e-12)
        assert lb <= math.log(max(k1 / n - delta, 1e-300) / max(k2 / n, 1e-300)) + 1e-12  # below the plug-in


KIND_CASES = [  # (claim, p1, p2) on the claim's boundary: the event shows exactly the claim's parameter
    (Claim("dp", 1.0), math.e * 0.05, 0.05),
    (Claim("dp", 1.0, 0.02), math.e * 0.1 + 0.02, 0.1),
    (Claim("gdp", 1.0), float(sps.norm.cdf(sps.norm.ppf(0.1) + 1.0)), 0.1),
    (Claim("gdp", 0.5), float(sps.norm.cdf(sps.norm.ppf(0.3) + 0.5)), 0.3),
]


@pytest.mark.parametrize("claim, p1, p2", KIND_CASES, ids=lambda x: str(x)[:30])
def test_false_alarm_rate_on_the_boundary_by_exact_enumeration(claim, p1, p2):
    """An event exactly on the claim's curve: P[bound > claim] <= alpha over both binomial counts (exact
    enumeration), and a three times likelier numerator is caught more often."""
    n, alpha = 60, 0.2
    k = np.arange(n + 1)
    lb = claim.bound_from_counts(k[:, None], n, k[None, :], n, alpha)
    rate = np.outer(sps.binom.pmf(k, n, p1), sps.binom.pmf(k, n, p2))[lb > claim.value].sum()
    assert rate <= alpha
    far = np.outer(sps.binom.pmf(k, n, min(1.0, 3 * p1)), sps.binom.pmf(k, n, p2))[lb > claim.value].sum()
    assert far > rate


def test_predicted_bound_is_the_bound_at_expected_counts():
    dp = Claim("dp", 1.0)
    assert float(dp.predicted(0.3, 0.1, 1000, 0.05)) == pytest.approx(float(dp.bound_from_counts(300, 1000, 100, 1000,
                                                                                                  0.05)))
    # tiny-probability events do not win: same ratio, far less mass -> smaller predicted bound
    assert dp.predicted(3e-6, 1e-6, 10**6, 0.05) < dp.predicted(3e-2, 1e-2, 10**6, 0.05)
    # with delta > 0 the best event is not the one with the best raw ratio
    dd = Claim("dp", 1.0, 0.015)
    assert dd.predicted(0.02, 0.001, 10**5, 0.05) < dd.predicted(0.3, 0.05, 10**5, 0.05)


def test_wilson_screen_tracks_clopper_pearson():
    p1 = np.array([0.3, 0.01, 0.002, 0.5])
    p2 = np.array([0.1, 0.002, 0.0001, 0.45])
    for claim in (Claim("dp", 1.0), Claim("gdp", 1.0), Claim("zcdp", 0.5)):
        approx, exact = claim.approx_predicted(p1, p2, 10**5, 0.05), claim.predicted(p1, p2, 10**5, 0.05)
        finite = np.isfinite(exact)
        assert np.allclose(approx[finite], exact[finite], atol=0.15)
        assert np.argmax(approx) == np.argmax(exact)


# --------------------------------------------------------------------------- every kind


def test_gdp_bound_is_the_gaussian_trade_off_curve():
    """mu-GDP: 1 - p1 >= G_mu(p2) = Phi(Phi^-1(1 - p2) - mu) for every event; the bound is the mu at which it
    is tight, and a Gaussian shift by mu sigma gives exactly mu on every threshold event."""
    mu = 0.8
    for t in (-1.0, 0.3, 2.0):
        p1, p2 = sps.norm.sf(t - mu), sps.norm.sf(t)  # N(mu, 1) against N(0, 1), event {x >= t}
        assert float(Claim("gdp", mu).bound(p1, p2)) == pytest.approx(mu, abs=1e-9)
        assert 1 - p1 == pytest.approx(sps.norm.cdf(sps.norm.ppf(1 - p2) - mu), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.01, 0.99), st.floats(0.001, 0.5), st.floats(1.01, 40.0))
def test_zcdp_cell_bound_is_the_best_order(p1, p2, a):
    """sup_a of the one-cell Renyi bound over a, at the closed-form order, is at least every order's positive
    value (a cell that shows nothing gives -inf)."""
    best = float(Claim("zcdp", 1.0).bound(p1, p2))
    cell = (a * math.log(p1) + (1 - a) * math.log(p2)) / (a - 1) / a
    assert best >= cell - 1e-9 or cell <= 0


def test_zcdp_and_renyi_bounds_are_below_the_true_divergence():
    """Data processing: the one-cell bound never exceeds the Gaussian's Renyi divergence a mu^2/2 (rho = mu^2/2)."""
    mu = 1.0
    x = np.linspace(-3, 5, 200)
    p1, p2 = sps.norm.sf(x - mu), sps.norm.sf(x)
    assert np.all(Claim("zcdp", 0.5).bound(p1, p2) <= 0.5 + 1e-12)
    renyi = make_claim("renyi", points=[(2.0, 1.0), (4.0, 2.0)])  # D_2 = 1 and D_4 = 2 for mu = 1
    assert np.all(renyi.bound(p1, p2) <= 1.0 + 1e-12)


def test_curve_bound_is_the_worst_point():
    curve = make_claim("curve", points=[(1.0, 0.0), (0.5, 0.1)])
    p1, p2 = 0.4, 0.1
    expected = max(math.log(0.4 / 0.1) / 1.0, math.log(0.3 / 0.1) / 0.5)
    assert float(curve.bound(p1, p2)) == pytest.approx(expected)
    assert curve.value == 1.0 and curve.scaled(2.0).points == ((2.0, 0.0), (1.0, 0.1))


@pytest.mark.parametrize("claim", [Claim("dp", 1.0), Claim("dp", 1.0, 1e-3), Claim("gdp", 1.0), Claim("zcdp", 0.5),
                                   make_claim("curve", points=[(1.0, 1e-3), (0.5, 0.05)]),
                                   make_claim("renyi", points=[(2.0, 1.0)])], ids=lambda c: c.kind)
def test_minimum_detectable_is_the_threshold(claim):
    """The smallest parameter the predicted bound shows above the claim, on an event of probability p1: shown
    at it, not just below."""
    for p1, n in ((0.3, 10**6), (0.05, 10**5)):
        theta = claim.minimum_detectable(p1, n, 0.01)
        assert math.isfinite(theta) and theta > claim.value

        def shown(t, p1=p1, n=n):
            return float(claim.predicted(p1, claim.other_side(p1, t), n, 0.01)) > claim.value

        assert shown(theta) and not shown(claim.value + 0.999 * (theta - claim.value))
    assert claim.minimum_detectable(1e-6, 1000, 0.01) == math.inf


@pytest.mark.parametrize("kind, kwargs, message", [
    ("dp", {"value": -1}, "epsilon >= 0"), ("dp", {"value": 1, "delta": 1.0}, "delta < 1"),
    ("gdp", {"value": 0}, "positive"), ("zcdp", {"value": math.inf}, "positive"),
    ("curve", {"points": []}, "at least one"), ("renyi", {"points": [(1.0, 1.0)]}, "alpha > 1"),
    ("hockey", {"value": 1}, "claim kind"),
])
def test_a_bad_claim_is_one_line(kind, kwargs, message):
    with pytest.raises(ValueError, match=message) as info:
        make_claim(kind, **kwargs)
    assert "\n" not in str(info.value)


# --------------------------------------------------------------------------- against dp-accounting (independent oracle)

PLD_GRID = 1e-4  # dp-accounting's default discretisation: its epsilon(delta) lies in [exact, exact + grid]


@pytest.mark.parametrize("mu", [0.25, 0.8, 1.0, 2.0, 4.0])
def test_gdp_profile_functions_against_dp_accounting(mu):
    """The grammar's gdp_delta and gdp_mu (spec/profiles.py) against dp-accounting's Gaussian PLD of sigma =
    1/mu (a mu-GDP mechanism), and implied_point's epsilon at delta within dp-accounting's grid."""
    oracle = pld.from_gaussian_mechanism(1 / mu, sensitivity=1.0)
    for eps in (0.0, 0.3, 1.0, 3.0):
        assert gdp_delta(eps, mu) == pytest.approx(oracle.get_delta_for_epsilon(eps), abs=1e-10)
        delta = oracle.get_delta_for_epsilon(eps)
        if delta > 1e-12:
            assert gdp_mu(eps, delta) == pytest.approx(mu, rel=1e-6)
    for delta in (1e-6, 1e-3, 0.05):
        eps, _ = implied_point(Claim("gdp", mu), delta)
        theirs = oracle.get_epsilon_for_delta(delta)
        assert theirs - PLD_GRID - 1e-9 <= eps <= theirs + 1e-9


@settings(max_examples=40, deadline=None)
@given(p1=st.floats(0.05, 0.95), ratio=st.floats(0.02, 0.9))
def test_gdp_bound_is_where_an_event_touches_the_gaussian_profile(p1, ratio):
    """An event with probabilities p1 > p2 is consistent with mu-GDP, mu = the bound, and with nothing smaller:
    over epsilons of both signs, max_eps p1 - e^eps p2 - delta_mu(eps) is about 0 at the bound and positive at
    0.9 times it. delta_mu is gdp_delta (checked against dp-accounting above), extended to negative epsilon by
    the symmetry of the Gaussian's privacy loss: delta(-eps) = 1 - e^-eps (1 - delta(eps))."""
    p2 = p1 * ratio
    mu = float(Claim("gdp", 1.0).bound(p1, p2))
    grid = np.linspace(0, 12, 2401)

    def excess(m):
        delta = np.array([gdp_delta(e, m) for e in grid])
        positive = p1 - np.exp(grid) * p2 - delta
        negative = p1 - np.exp(-grid) * p2 - (1 - np.exp(-grid) * (1 - delta))
        return max(positive.max(), negative.max())

    assert abs(excess(mu)) < 1e-4
    assert excess(0.9 * mu) > 0


@pytest.mark.parametrize("rho", [0.05, 0.5, 2.0])
def test_zcdp_implied_point_is_sound(rho):
    """rho-zCDP's implied (epsilon, delta) (Bun and Steinke, Proposition 1.3) is a valid point: at least
    dp-accounting's RDP conversion of the same curve (orders up to 256, eps_a = rho a) and at least the exact
    epsilon of the Gaussian that is exactly rho-zCDP (sigma = 1 / sqrt(2 rho))."""
    orders = np.concatenate([np.linspace(1.01, 10, 200), np.arange(11, 257)])
    for delta in (1e-6, 1e-3):
        ours, _ = implied_point(Claim("zcdp", rho), delta)
        converted, _ = rdp.compute_epsilon(orders, rho * orders, delta)
        gaussian = pld.from_gaussian_mechanism(1 / math.sqrt(2 * rho)).get_epsilon_for_delta(delta)
        assert ours >= converted - 1e-9 and ours >= gaussian - PLD_GRID


@pytest.mark.parametrize("sigma", [0.7, 1.0, 3.0])
def test_renyi_bound_never_exceeds_dp_accountings_gaussian_rdp(sigma):
    """The one-cell Renyi bound of every threshold event of N(1, sigma^2) against N(0, sigma^2) stays below
    dp-accounting's Renyi curve of that Gaussian (eps_a = a / (2 sigma^2)) and comes within a factor 2 of it
    at its best event: a Renyi claim of the true curve passes, one of half of it is shown false."""
    orders = np.array([1.5, 2.0, 4.0, 8.0])
    accountant = rdp.RdpAccountant(list(orders))
    accountant.compose(GaussianDpEvent(sigma))
    curve = np.asarray(accountant._rdp)  # the accountant's per-order curve: it has no public getter
    assert curve == pytest.approx(orders / (2 * sigma**2), rel=1e-6)
    x = np.linspace(-5 * sigma, 1 + 12 * sigma, 4000)
    p1, p2 = sps.norm.sf(x, loc=1.0, scale=sigma), sps.norm.sf(x, scale=sigma)
    true_claim = make_claim("renyi", points=list(zip(orders, curve)))
    shown = np.max(true_claim.bound(p1, p2))
    assert shown <= 1 + 1e-9
    assert np.max(true_claim.scaled(0.5).bound(p1, p2)) > 1


@pytest.mark.parametrize("sigma, sensitivity", [(1.0, 1), (2.5, 1), (4.0, 3)])
def test_discrete_gaussian_curve_points_against_dp_accounting(sigma, sensitivity):
    """The grammar's dgauss_delta (the discrete Gaussian spec's curve claim) against dp-accounting's discrete
    Gaussian PLD at the same sigma (its pmf truncated where the mass beyond is 1e-30)."""
    oracle = pld.from_discrete_gaussian_mechanism(sigma, sensitivity=sensitivity, value_discretization_interval=1e-7)
    for eps in (0.1, 0.5, 1.0, 2.0):
        theirs = oracle.get_delta_for_epsilon(eps)
        assert dgauss_delta(eps, sigma, sensitivity) == pytest.approx(theirs, abs=1e-7, rel=1e-5)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0.05, 4.0), st.floats(1e-9, 0.1)), min_size=1, max_size=6),
       st.floats(1e-5, 1.0), st.floats(0.0, 5.0))
def test_a_curve_claims_other_side_is_where_its_bound_crosses_theta(points, p1, theta):
    """The closed form (the largest of the points' boundaries (p1 - delta) e^(-theta eps)) against its definition:
    the largest probability on the other side whose bound still exceeds theta, by bisection on the monotone bound;
    and the bound of several cells at once against each point's, one at a time."""
    claim = Claim("curve", 1.0, points=tuple(points))
    lo, hi = 0.0, p1
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if float(claim.bound(p1, mid)) > theta else (lo, mid)
    assert claim.other_side(p1, theta) == pytest.approx(lo, rel=1e-9, abs=1e-15)
    p_lo, p_hi = np.array([[p1, p1 / 2], [0.0, 1.0]]), np.array([[p1 / 3, p1], [0.5, 1e-3]])
    one_at_a_time = np.max([[[float(Claim("curve", 1.0, points=(pt,)).bound(a, b)) for a, b in zip(ra, rb)]
                             for ra, rb in zip(p_lo, p_hi)] for pt in points], axis=0)
    assert np.array_equal(claim.bound(p_lo, p_hi), one_at_a_time)
