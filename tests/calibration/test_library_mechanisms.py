"""The mechanisms IBM diffprivlib 0.6.6 and OpenDP 0.16 ship (geometric, discrete Gaussian, the classical and
analytic Gaussian calibrations, bounded mean and sum): each reference's law against its closed form, computed
here or by the paper's own formula, the single-run function against the batch sampler, the calibrations
against the theorems they invert, power against a 30% scale error, and a valid alternative implementation
(a different exact sampler, diffprivlib's output truncation) passing the spec's calibration check.
Statistics helpers and the tiny ALPHA: ``tests/distribution_checks.py``."""

from __future__ import annotations

import math

import numpy as np
import pytest
from distribution_checks import ALPHA, N_BATCH, assert_agree, gof_p, rng
from scipy import stats

from dptestbed.audits.checks import theorems as thm
from dptestbed.audits.checks.experiments import experiments_for, run_check
from dptestbed.audits.privacy import exact as ex
from dptestbed.impl.calibration import bounded, discrete, gaussian
from dptestbed.impl.contract import batched
from dptestbed.spec import load_catalogue

CATALOGUE = load_catalogue()


def geometric_probs(scale, lo=-30, hi=30):
    alpha = math.exp(-1 / scale)
    return {k: (1 - alpha) / (1 + alpha) * alpha ** abs(k) for k in range(lo, hi + 1)}


def dgauss_probs(sigma, lo=-40, hi=40):
    w = {k: math.exp(-k * k / (2 * sigma * sigma)) for k in range(-2000, 2001)}
    z = sum(w.values())
    return {k: w[k] / z for k in range(lo, hi + 1)}


def reference_check(spec_id, implementation, seed=0):
    """The spec's calibration check on ``implementation`` (50,000 trials): its p-value."""
    spec = CATALOGUE[spec_id]
    (exp,) = [e for e in experiments_for(spec) if e.kind == "calibration"]
    r = run_check(spec, exp, implementation, seed=seed, isolate=False, trials=50_000)
    assert r["error"] is None, r["error"]
    return r["p_value"]


# =========================================================================== geometric


@pytest.mark.parametrize("epsilon, sensitivity", [(1.0, 1), (0.5, 3), (2.0, 2)])
def test_geometric_law_is_two_sided_geometric_and_the_check_has_power(epsilon, sensitivity):
    scale = sensitivity / epsilon
    out = discrete.geometric_mechanism.batch(np.array([4.0]), N_BATCH, rng=rng(1), epsilon=epsilon,
                                             sensitivity=sensitivity)
    assert out.dtype == np.int64 and out.shape == (N_BATCH, 1)
    assert gof_p(out[:, 0] - 4, geometric_probs(scale)) > ALPHA
    wrong = discrete.discrete_laplace(rng(2), 0.7 * scale, N_BATCH)
    assert gof_p(wrong, geometric_probs(scale)) < ALPHA
    assert_agree(discrete.geometric_mechanism, np.array([0.0, 7.0]), epsilon=epsilon, sensitivity=sensitivity)


def test_geometric_rejects_non_integers():
    with pytest.raises(ValueError, match="integers"):
        discrete.geometric_mechanism(np.array([0.5]), rng=rng(0), epsilon=1.0, sensitivity=1)


# =========================================================================== discrete Gaussian


def test_theorem7_delta_is_the_hockey_stick_of_the_two_pmfs():
    """CKS Theorem 7's closed form (tails of one pmf) equals the hockey-stick divergence of N_Z(0, s^2) and
    N_Z(Delta, s^2) summed outcome by outcome, at several sigma, epsilon, Delta."""
    for sigma, eps, sens in [(1.0, 0.5, 1), (3.7, 1.0, 1), (2.5, 2.0, 3), (10.0, 0.3, 2), (0.6, 3.0, 1)]:
        k = np.arange(-int(40 * sigma) - 10, int(40 * sigma) + 10 + sens)
        p, q = discrete.discrete_gaussian_pmf(k, sigma), discrete.discrete_gaussian_pmf(k - sens, sigma)
        assert discrete.theorem7_delta(eps, sigma, sens) == pytest.approx(ex.hockey_stick(p, q, eps), rel=1e-9,
                                                                          abs=1e-15)


@pytest.mark.parametrize("epsilon, delta, sensitivity", [(1.0, 1e-5, 1), (0.5, 1e-5, 3), (3.0, 1e-6, 1), (1.0, 0.01, 2),
                                                         (3.0, 1e-2, 1)])
def test_calibration_solves_theorem7(epsilon, delta, sensitivity):
    """delta(sigma) is continuous but not monotone (at epsilon = 3 it oscillates): the calibration is a root,
    delta is met with equality, and bisection's bracket is the first power-of-two interval from [1, 2] whose
    ends straddle delta."""
    sigma = discrete.discrete_gaussian_sigma(epsilon, delta, sensitivity)
    assert discrete.theorem7_delta(epsilon, sigma, sensitivity) == pytest.approx(delta, rel=1e-9)
    j = math.floor(math.log2(sigma))
    ends = [discrete.theorem7_delta(epsilon, 2.0 ** i, sensitivity) for i in (j, j + 1)]
    assert ends[0] > delta >= ends[1]
    wiggle = [discrete.theorem7_delta(3.0, s, 1) for s in (1.472, 1.516)]
    assert wiggle[0] < wiggle[1]  # not monotone


def test_discrete_gaussian_sampler_law_and_power():
    sigma = discrete.discrete_gaussian_sigma(1.0, 1e-5, 1)
    out = discrete.discrete_gaussian_mechanism.batch(5.0, N_BATCH, rng=rng(3), epsilon=1.0, delta=1e-5, sensitivity=1)
    assert out.dtype == np.int64 and out.shape == (N_BATCH,)
    assert gof_p(out - 5, dgauss_probs(sigma)) > ALPHA
    small = discrete.discrete_gaussian(rng(4), 0.7 * sigma, N_BATCH)
    assert gof_p(small, dgauss_probs(sigma)) < ALPHA
    for s in (0.3, 1.0, 1.5, 12.0):  # t = floor(sigma) + 1 on both sides of integers
        assert gof_p(discrete.discrete_gaussian(rng(5), s, N_BATCH), dgauss_probs(s, -int(6 * s) - 2, int(6 * s) + 2)) \
            > ALPHA
    assert isinstance(discrete.discrete_gaussian_mechanism(3.0, rng=rng(0), epsilon=1.0, delta=1e-5, sensitivity=1), int)
    assert_agree(discrete.discrete_gaussian_mechanism, 0.0, epsilon=1.0, delta=1e-5, sensitivity=1)


def _table_batch(data, n, *, rng, epsilon, delta, sensitivity):
    """A different exact sampler of the same law: inversion of N_Z(0, sigma^2)'s CDF on |k| <= 40 sigma."""
    sigma = discrete.discrete_gaussian_sigma(epsilon, delta, sensitivity)
    k = np.arange(-math.ceil(40 * sigma), math.ceil(40 * sigma) + 1)
    cdf = np.cumsum(discrete.discrete_gaussian_pmf(k, sigma))
    return int(data) + k[np.minimum(np.searchsorted(cdf, rng.random(int(n)) * cdf[-1], "right"), k.size - 1)]


@batched(_table_batch)
def table_discrete_gaussian(data, *, rng, epsilon, delta, sensitivity):
    return int(_table_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, sensitivity=sensitivity)[0])


def test_another_exact_sampler_passes_the_discrete_gaussian_check():
    assert reference_check("discrete_gaussian_mechanism", table_discrete_gaussian) > thm.FAMILY_ALPHA
    assert reference_check("discrete_gaussian_mechanism", CATALOGUE["discrete_gaussian_mechanism"].implementation) \
        > thm.FAMILY_ALPHA


# =========================================================================== Gaussian (epsilon, delta) calibrations


@pytest.mark.parametrize("epsilon, delta", [(1.0, 1e-5), (0.1, 0.3), (3.0, 1e-3), (10.0, 1e-10), (0.05, 1e-6)])
def test_analytic_sigma_attains_delta_and_beats_the_classical_one(epsilon, delta):
    """Algorithm 1 (both branches: delta >= delta_0 at (0.1, 0.3), below elsewhere) returns the sigma at which
    Balle and Wang's Theorem 8 gives exactly delta, smaller than the classical sigma for epsilon < 1."""
    sigma = gaussian.analytic_sigma(epsilon, delta, 2.0)
    assert float(ex.gaussian_delta(epsilon, 2.0, sigma)) == pytest.approx(delta, rel=1e-8)
    if epsilon < 1:
        assert sigma < gaussian.classical_sigma(epsilon, delta, 2.0)


@pytest.mark.parametrize("name, sigma_of", [
    ("gaussian_mechanism_classical", gaussian.classical_sigma), ("gaussian_mechanism_analytic", gaussian.analytic_sigma)])
def test_calibrated_gaussians_have_the_calibrated_law(name, sigma_of):
    mechanism = getattr(gaussian, name)
    params = dict(epsilon=0.5, delta=1e-5, sensitivity=2.0)
    sigma = sigma_of(**params)
    x = mechanism.batch(np.array([1.0, -2.0]), N_BATCH, rng=rng(6), **params)
    assert x.shape == (N_BATCH, 2)
    assert stats.kstest(x[:, 1], stats.norm(-2.0, sigma).cdf).pvalue > ALPHA
    assert stats.kstest(x[:, 1], stats.norm(-2.0, 0.7 * sigma).cdf).pvalue < ALPHA
    assert_agree(mechanism, np.array([0.0]), continuous=True, **params)


def test_classical_calibration_fails_beyond_its_precondition():
    """Why the classical spec stops at epsilon = 1: at (5, 0.4) its sigma is below the analytic (smallest
    private) one, so the exact delta at epsilon exceeds the claim."""
    assert gaussian.classical_sigma(5.0, 0.4, 1.0) < gaussian.analytic_sigma(5.0, 0.4, 1.0)
    assert float(ex.gaussian_delta(5.0, 1.0, gaussian.classical_sigma(5.0, 0.4, 1.0))) > 0.4


# =========================================================================== bounded mean and sum


@pytest.mark.parametrize("name, scale_of", [("bounded_mean", lambda w, n, e: w / (n * e)),
                                            ("bounded_sum", lambda w, n, e: w / e)])
def test_bounded_releases_clip_then_add_laplace(name, scale_of):
    mechanism, statistic = getattr(bounded, name), getattr(np, name.split("_")[1])
    data = np.array([7.0, -3.0, 0.5, 0.25, 1.0])
    params = dict(epsilon=0.5, lower=0.0, upper=1.0)
    out = mechanism.batch(data, N_BATCH, rng=rng(7), **params)
    assert out.dtype == np.float64 and out.shape == (N_BATCH,)
    centre, b = statistic(np.clip(data, 0.0, 1.0)), scale_of(1.0, data.size, 0.5)
    assert stats.kstest(out, stats.laplace(centre, b).cdf).pvalue > ALPHA
    assert stats.kstest(out, stats.laplace(statistic(data), b).cdf).pvalue < ALPHA  # unclipped centre
    assert isinstance(mechanism(data, rng=rng(0), **params), float)
    assert_agree(mechanism, data, continuous=True, **params)


@pytest.mark.parametrize("name", ["bounded_mean", "bounded_sum"])
def test_diffprivlib_truncation_passes_the_calibration_check(name):
    """diffprivlib's LaplaceTruncated clamps the release into [lower, upper] (mean) or [n lower, n upper] (sum):
    post-processing, and the check's events lie inside that range."""
    reference = getattr(bounded, name)

    def batch(data, n, *, rng, epsilon, lower, upper):
        size = 1 if name == "bounded_mean" else len(data)
        return np.clip(reference.batch(data, n, rng=rng, epsilon=epsilon, lower=lower, upper=upper),
                       lower * size, upper * size)

    @batched(batch)
    def truncated(data, *, rng, epsilon, lower, upper):
        return float(batch(data, 1, rng=rng, epsilon=epsilon, lower=lower, upper=upper)[0])

    assert reference_check(name, truncated) > thm.FAMILY_ALPHA
