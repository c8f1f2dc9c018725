"""Exact privacy profiles of the calibration mechanisms (and their broken variants), keyed by
implementation reference: the auditor shows each beside its lower bound."""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from dptestbed.audits.api import (
    as_vector,
    discrete_epsilon,
    dist_epsilon,
    gaussian_epsilon,
    geometric_epsilon,
    laplace_epsilon,
    noisy_max_distribution,
    noisy_max_value_epsilon,
    register,
    svt_distribution,
)
from dptestbed.impl.calibration.bounded import clipped
from dptestbed.impl.calibration.discrete import discrete_gaussian_pmf, discrete_gaussian_sigma
from dptestbed.impl.calibration.gaussian import analytic_sigma


def _laplace_factory(factor):
    def profile(data, neighbour, env, delta):
        b = factor * float(env["gamma"]) / float(env["epsilon"])
        return laplace_epsilon(as_vector(data) - as_vector(neighbour), b, delta)
    return profile


register("dptestbed.impl.calibration.laplace:laplace_mechanism")(_laplace_factory(1.0))
register("dptestbed.impl.calibration.laplace:laplace_mechanism_broken")(_laplace_factory(0.7))
register("dptestbed.impl.calibration.mutants:laplace_30pct_more_noise")(_laplace_factory(1.3))


def _gaussian(refs: tuple, sigma_of) -> None:
    """The exact epsilon profile (Balle and Wang, Theorem 8) and the exact mu (Dong, Roth and Su, Theorem 2.7:
    the L2 shift over sigma) of Gaussian noise of standard deviation ``sigma_of(env)``."""
    register(*refs)(lambda data, neighbour, env, delta: gaussian_epsilon(as_vector(data) - as_vector(neighbour),
                                                                          sigma_of(env), delta))
    register(*refs, kind="gdp")(lambda data, neighbour, env: float(np.linalg.norm(
        as_vector(data) - as_vector(neighbour))) / sigma_of(env))


# gaussian_mechanism(data, *, rng, sigma); the classical spec derives sigma from (epsilon, delta, sensitivity)
_gaussian(("dptestbed.impl.calibration.gaussian:gaussian_mechanism",
           "dptestbed.impl.calibration.gaussian:gaussian_mechanism_classical"), lambda env: float(env["sigma"]))
_gaussian(("dptestbed.impl.calibration.gaussian:gaussian_mechanism_broken",), lambda env: 0.7 * float(env["sigma"]))
_gaussian(("dptestbed.impl.calibration.gaussian:gaussian_mechanism_analytic",),
          lambda env: analytic_sigma(float(env["epsilon"]), float(env["delta"]), float(env["sensitivity"])))


@register("dptestbed.impl.calibration.discrete:geometric_mechanism")
def _geometric(data, neighbour, env, delta):
    scale = float(env["sensitivity"]) / float(env["epsilon"])
    return geometric_epsilon(as_vector(data) - as_vector(neighbour), scale, delta)


@register("dptestbed.impl.calibration.discrete:discrete_gaussian_mechanism")
def _discrete_gaussian(data, neighbour, env, delta):
    """Hockey stick of the two pmfs of f + N_Z(0, sigma^2) and f' + N_Z(0, sigma^2) over every integer within
    39 sigma of either answer (beyond, both pmfs are below 1e-330: zero in float64)."""
    f, g = int(round(as_vector(data)[0])), int(round(as_vector(neighbour)[0]))
    if f == g:
        return 0.0
    if delta <= 0:
        return math.inf  # the log-ratio (2k - f - g)(g - f)/(2 sigma^2) is unbounded on the integers
    sigma = discrete_gaussian_sigma(float(env["epsilon"]), float(env["delta"]), float(env["sensitivity"]))
    width = math.ceil(39 * sigma) + 1
    k = np.arange(min(f, g) - width, max(f, g) + width + 1)
    return discrete_epsilon(discrete_gaussian_pmf(k - f, sigma), discrete_gaussian_pmf(k - g, sigma), delta)


def _bounded_factory(statistic):
    """diffprivlib's clipped mean / sum plus Laplace noise of the replace-one sensitivity."""
    def profile(data, neighbour, env, delta):
        lower, upper, eps = float(env["lower"]), float(env["upper"]), float(env["epsilon"])
        x, y = clipped(data, lower, upper), clipped(neighbour, lower, upper)
        scale = (upper - lower) / eps / (x.size if statistic is np.mean else 1)
        return laplace_epsilon([statistic(x) - statistic(y)], scale, delta)
    return profile


register("dptestbed.impl.calibration.bounded:bounded_mean")(_bounded_factory(np.mean))
register("dptestbed.impl.calibration.bounded:bounded_sum")(_bounded_factory(np.sum))


@register("dptestbed.impl.calibration.randomized_response:randomized_response")
def _rr(data, neighbour, env, delta):
    keep = float(special.expit(float(env["epsilon"])))
    b1, b2 = int(as_vector(data)[0]), int(as_vector(neighbour)[0])
    p = np.array([keep, 1 - keep]) if b1 == 0 else np.array([1 - keep, keep])
    q = np.array([keep, 1 - keep]) if b2 == 0 else np.array([1 - keep, keep])
    return discrete_epsilon(p, q, delta)


def _exp_factory(factor):
    def profile(data, neighbour, env, delta):
        eps, sens = float(env["epsilon"]), float(env["sensitivity"])
        p = special.softmax(-eps * as_vector(data) / (factor * sens))
        q = special.softmax(-eps * as_vector(neighbour) / (factor * sens))
        return discrete_epsilon(p, q, delta)
    return profile


register("dptestbed.impl.calibration.exponential:exponential_mechanism")(_exp_factory(2.0))
register("dptestbed.impl.calibration.exponential:exponential_mechanism_broken")(_exp_factory(1.0))


@register("dptestbed.impl.calibration.noisy_max:report_noisy_max")
def _rnm(data, neighbour, env, delta):
    scale = 2.0 / float(env["epsilon"])
    q1, q2 = as_vector(data), as_vector(neighbour)
    if q1.size > 128:  # (the quadrature's cost; the search's longest vectors hold 65 answers)
        return None
    return discrete_epsilon(noisy_max_distribution(q1, scale), noisy_max_distribution(q2, scale), delta)


@register("dptestbed.impl.calibration.noisy_max:report_noisy_max_broken")
def _rnm_value(data, neighbour, env, delta):
    if delta > 0:
        return None
    q1, q2 = as_vector(data), as_vector(neighbour)
    if q1.size > 64:
        return None
    return noisy_max_value_epsilon(q1, q2, 2.0 / float(env["epsilon"]))


def _lyu_kwargs(alg: int, env) -> dict | None:
    eps, c = float(env["epsilon"]), int(env["c"])
    if alg == 1:
        return dict(rho_scale=2 / eps, nu_scale=4 * c / eps, limit=c)
    if alg == 2:
        return dict(rho_scale=2 * c / eps, nu_scale=4 * c / eps, limit=c, resample_after=1, resample_scale=2 * c / eps)
    if alg == 4:
        return dict(rho_scale=4 / eps, nu_scale=1 / (0.75 * eps), limit=c)
    if alg == 5:
        return dict(rho_scale=2 / eps, nu_scale=None)
    if alg == 6:
        return dict(rho_scale=2 / eps, nu_scale=2 / eps)
    return None


def _lyu_factory(alg: int):
    def profile(data, neighbour, env, delta):
        kw = _lyu_kwargs(alg, env)
        if kw is None:
            return None
        T = float(env["threshold"])
        d1 = svt_distribution(as_vector(data), threshold=T, count_symbol=1, **kw)
        d2 = svt_distribution(as_vector(neighbour), threshold=T, count_symbol=1, **kw)
        if d1 is None or d2 is None:
            return None
        return dist_epsilon(d1, d2, delta)
    return profile


for _alg in (1, 2, 4, 5, 6):
    register(f"dptestbed.impl.calibration.svt_lyu:svt_lyu_{_alg}")(_lyu_factory(_alg))
