"""Implementation mutants of the calibration mechanisms: each the reference with exactly one bug.

Checked as a user's implementation would be (``dptestbed check SPEC --impl
dptestbed.impl.calibration.mutants:NAME``); ``MUTANTS`` declares what each breaks and the checks
meant to kill it. The deliberately broken specs (``*_broken``, ``svt_lyu_3`` to ``svt_lyu_6``)
are controls of the auditor and get no mutants.
"""

from __future__ import annotations

import math

import numpy as np

from dptestbed.impl.contract import batched
from dptestbed.impl.mutant import Mutant, post_processed, with_params
from dptestbed.impl.noise import as_vector, laplace

from . import svt_lyu as _lyu
from .bounded import bounded_mean, bounded_sum, clipped
from .discrete import (
    discrete_gaussian,
    discrete_gaussian_mechanism,
    discrete_gaussian_sigma,
    discrete_laplace,
    geometric_mechanism,
)
from .exponential import exponential_mechanism
from .gaussian import (
    classical_sigma,
    gaussian_mechanism,
    gaussian_mechanism_analytic,
    gaussian_mechanism_classical,
)
from .laplace import laplace_mechanism
from .noisy_max import report_noisy_max
from .randomized_response import randomized_response

_HERE = "dptestbed.impl.calibration.mutants"
AUDIT = "privacy audit"


def _scale(name: str, factor: float):
    def transform(params: dict) -> dict:
        params[name] = params[name] * factor
        return params
    return transform


def _mutant(spec: str, fn: str, name: str, breaks: str, bug: str, killed_by=()) -> Mutant:
    return Mutant(spec=spec, name=name, implementation=f"{_HERE}:{fn}", breaks=breaks, bug=bug,
                  killed_by=tuple(killed_by))


# =========================================================================== Laplace


def _no_noise(out, data, rng, params):
    return np.broadcast_to(as_vector(data), np.shape(out)).copy()


def _sensitivity_ignored(params: dict) -> dict:
    params["epsilon"] = params["epsilon"] * params["gamma"]  # scale 1/epsilon instead of gamma/epsilon
    return params


laplace_30pct_more_noise = with_params(laplace_mechanism, _scale("epsilon", 1 / 1.3),
                                       "Laplace mechanism with noise scale 1.3 gamma/epsilon.")
laplace_noise_half = with_params(laplace_mechanism, _scale("epsilon", 2.0), "Laplace with scale gamma/(2 epsilon).")
laplace_noise_double = with_params(laplace_mechanism, _scale("epsilon", 0.5), "Laplace with scale 2 gamma/epsilon.")
laplace_sensitivity_ignored = with_params(laplace_mechanism, _sensitivity_ignored,
                                          "Laplace with scale 1/epsilon (the sensitivity gamma left out).")
laplace_no_noise = post_processed(laplace_mechanism, _no_noise, "Laplace mechanism releasing f(D) itself.")

_LT, _LE = "laplace_mechanism/Fact A1 (Laplace tail)/tail-bound", "laplace_mechanism/Fact A1 (Laplace tail)/exact-tail"
_LAP = [
    _mutant("laplace_mechanism", "laplace_30pct_more_noise", "30pct_more_noise", "utility", "scale x 1.3", (_LE,)),
    _mutant("laplace_mechanism", "laplace_noise_half", "noise_half", "privacy", "scale x 0.5", (_LE, AUDIT)),
    _mutant("laplace_mechanism", "laplace_noise_double", "noise_double", "utility", "scale x 2", (_LE, _LT)),
    _mutant("laplace_mechanism", "laplace_sensitivity_ignored", "sensitivity_ignored", "privacy",
            "scale 1/epsilon: gamma left out (sensitivity mis-derived)", (_LE,)),
    _mutant("laplace_mechanism", "laplace_no_noise", "no_noise", "privacy", "releases f(D) (constant output)",
            (_LE, AUDIT)),
]

# =========================================================================== Gaussian

gaussian_2x_noise = with_params(gaussian_mechanism, _scale("sigma", 2.0), "Gaussian with twice the standard deviation.")
gaussian_noise_half = with_params(gaussian_mechanism, _scale("sigma", 0.5), "Gaussian with half the standard deviation.")


def _variance_as_std(params: dict) -> dict:
    params["sigma"] = params["sigma"] ** 2  # sigma^2 used as the standard deviation
    return params


gaussian_variance_as_std = with_params(gaussian_mechanism, _variance_as_std, "Gaussian sampling N(0, sigma^4).")
gaussian_no_noise = post_processed(gaussian_mechanism, _no_noise, "Gaussian mechanism releasing f(D) itself.")
_GE, _GT = "gaussian_mechanism/Fact G1 (Gaussian tail)/exact-tail", "gaussian_mechanism/Fact G1 (Gaussian tail)/tail-bound"
_GAU = [
    _mutant("gaussian_mechanism", "gaussian_2x_noise", "2x_noise", "utility", "sigma x 2", (_GE, _GT)),
    _mutant("gaussian_mechanism", "gaussian_noise_half", "noise_half", "privacy", "sigma x 0.5", (_GE, AUDIT)),
    _mutant("gaussian_mechanism", "gaussian_variance_as_std", "variance_as_std", "privacy",
            "sigma^2 used as the standard deviation (less noise where sigma < 1: the audit point sigma = 0.5)",
            (_GE, AUDIT)),
    _mutant("gaussian_mechanism", "gaussian_no_noise", "no_noise", "privacy", "releases f(D)", (_GE, AUDIT)),
]

# =========================================================================== exponential mechanism


def _best(out, data, rng, params):
    return np.full(np.shape(out), int(np.argmin(as_vector(data))))


def _uniform(out, data, rng, params):
    return rng.integers(0, as_vector(data).size, size=np.shape(out))


exponential_mechanism_half_epsilon = with_params(
    exponential_mechanism, _scale("epsilon", 0.5), "Exponential mechanism with exp(-epsilon u/(4 Delta)).")
exponential_mechanism_double_epsilon = with_params(
    exponential_mechanism, _scale("epsilon", 2.0), "Exponential mechanism with exp(-epsilon u/Delta) (factor 2 dropped).")
exponential_mechanism_argmin = post_processed(exponential_mechanism, _best,
                                              "Exponential mechanism returning the best candidate (no sampling).")
exponential_mechanism_uniform = post_processed(exponential_mechanism, _uniform,
                                               "Exponential mechanism returning a uniform candidate.")
def _abs_losses_batch(data, n, *, rng, epsilon, sensitivity):
    return exponential_mechanism.batch(np.abs(as_vector(data)), n, rng=rng, epsilon=epsilon, sensitivity=sensitivity)


@batched(_abs_losses_batch)
def exponential_mechanism_abs_losses(data, *, rng, epsilon, sensitivity):
    """Exponential mechanism weighing exp(-epsilon |u|/(2 Delta)) (the loss's magnitude): exact on losses >= 0,
    the preference reversed below 0 (losses [-10, 0]: the worse candidate 0.9933 of the time). Private (|u| moves
    by at most Delta)."""
    return exponential_mechanism(np.abs(as_vector(data)), rng=rng, epsilon=epsilon, sensitivity=sensitivity)


_EA = "exponential_mechanism/Fact EM2 (accuracy, [MT07])"
_EM = [
    _mutant("exponential_mechanism", "exponential_mechanism_half_epsilon", "half_epsilon", "utility",
            "exp(-epsilon u/(4 Delta))", (f"{_EA}/boundary", f"{_EA}/exact-selection")),
    _mutant("exponential_mechanism", "exponential_mechanism_double_epsilon", "double_epsilon", "privacy",
            "exp(-epsilon u/Delta): the factor 2 dropped", (f"{_EA}/exact-selection", AUDIT)),
    _mutant("exponential_mechanism", "exponential_mechanism_argmin", "argmin", "privacy",
            "returns the best candidate (constant output)", (f"{_EA}/exact-selection", AUDIT)),
    _mutant("exponential_mechanism", "exponential_mechanism_uniform", "uniform", "utility",
            "returns a uniform candidate (trivial output)", (f"{_EA}/boundary", f"{_EA}/exact-selection")),
    _mutant("exponential_mechanism", "exponential_mechanism_abs_losses", "abs_losses", "utility",
            "weights of |loss|: exact on losses >= 0, the preference reversed below 0",
            (f"{_EA}/boundary", f"{_EA}/exact-selection")),
]

# =========================================================================== randomized response


def _truth(out, data, rng, params):
    return np.full(np.shape(out), int(as_vector(data)[0]), dtype=np.int8)


def _constant_one(out, data, rng, params):
    return np.ones(np.shape(out), dtype=np.int8)


randomized_response_double_epsilon = with_params(randomized_response, _scale("epsilon", 2.0),
                                                 "Randomized response keeping the bit w.p. e^(2 eps)/(1 + e^(2 eps)).")
randomized_response_half_epsilon = with_params(randomized_response, _scale("epsilon", 0.5),
                                               "Randomized response keeping the bit w.p. e^(eps/2)/(1 + e^(eps/2)).")
randomized_response_truth = post_processed(randomized_response, _truth, "Randomized response releasing the bit.")
randomized_response_constant = post_processed(randomized_response, _constant_one, "Randomized response answering 1.")
_RRK = "randomized_response/Fact RR1 (privacy of randomized response)/exact-keep"
_RR = [
    _mutant("randomized_response", "randomized_response_double_epsilon", "double_epsilon", "privacy",
            "keep probability e^(2 eps)/(1 + e^(2 eps))", (_RRK, AUDIT)),
    _mutant("randomized_response", "randomized_response_half_epsilon", "half_epsilon", "utility",
            "keep probability e^(eps/2)/(1 + e^(eps/2))", (_RRK,)),
    _mutant("randomized_response", "randomized_response_truth", "truth", "privacy", "releases the bit", (_RRK, AUDIT)),
    _mutant("randomized_response", "randomized_response_constant", "constant", "utility", "answers 1 (constant output)",
            (_RRK,)),
]

# =========================================================================== report noisy max


def _argmin(out, data, rng, params):
    q = as_vector(data)
    noisy = q + rng.laplace(0.0, 2.0 / params["epsilon"], size=(np.shape(out)[0], q.size))
    return np.argmin(noisy, axis=1)


report_noisy_max_noise_half = with_params(report_noisy_max, _scale("epsilon", 2.0), "Report noisy max with Lap(1/eps).")
report_noisy_max_noise_double = with_params(report_noisy_max, _scale("epsilon", 0.5), "Report noisy max with Lap(4/eps).")
report_noisy_max_argmin = post_processed(report_noisy_max, _argmin, "Report noisy min (argmin of the noisy answers).")
def _exact_argmax(out, data, rng, params):
    return np.full(np.shape(out), int(np.argmax(as_vector(data))))


report_noisy_max_noiseless = post_processed(report_noisy_max, _exact_argmax, "Report max without noise.")


def _exact_argmax_above_64(out, data, rng, params):
    return _exact_argmax(out, data, rng, params) if as_vector(data).size > 64 else out


report_noisy_max_long_noiseless = post_processed(
    report_noisy_max, _exact_argmax_above_64, "Report max without noise above 64 candidates (a fast path).")
_NMX = "report_noisy_max/Claim 3.9 (Dwork-Roth 2014, Report Noisy Max, Lap(2/epsilon) for non-monotone queries)"
_RNM = [
    _mutant("report_noisy_max", "report_noisy_max_noise_half", "noise_half", "privacy", "Lap(1/epsilon) noise",
            (f"{_NMX}/exact-argmax", AUDIT)),
    _mutant("report_noisy_max", "report_noisy_max_noise_double", "noise_double", "utility", "Lap(4/epsilon) noise",
            (f"{_NMX}/exact-argmax",)),
    _mutant("report_noisy_max", "report_noisy_max_argmin", "argmin", "utility", "reports the noisy minimum",
            (f"{_NMX}/exact-argmax",)),
    _mutant("report_noisy_max", "report_noisy_max_noiseless", "noiseless", "privacy", "argmax without noise",
            (f"{_NMX}/exact-argmax", AUDIT)),
    _mutant("report_noisy_max", "report_noisy_max_long_noiseless", "long_noiseless", "privacy",
            "argmax without noise above 64 candidates (found on the stress cases repeated to 65)", (AUDIT,)),
]

# =========================================================================== Lyu et al. Algorithms 1 and 2


def _lyu_mutant(doc: str, *, alg: int, rho=1.0, nu=1.0, resample=None, cutoff_offset=0):
    """Lyu Alg ``alg`` with its threshold / query noise scaled, its re-draw rule or cutoff changed."""

    def batch(data, n, *, rng, epsilon, threshold, c):
        c = _lyu._cutoff(c)
        d = _lyu.DELTA
        scales = {1: (2 * d / epsilon, 4 * c * d / epsilon, None), 2: (2 * c * d / epsilon, 4 * c * d / epsilon,
                                                                        2 * c * d / epsilon)}[alg]
        redraw = scales[2] if resample is None else (resample * 2 * c * d / epsilon if resample else None)
        return _lyu._batch_codes(as_vector(data), n, rng, threshold=threshold, rho_scale=rho * scales[0],
                                 nu_scale=nu * scales[1], c=c + cutoff_offset, resample_scale=redraw)[0]

    @batched(batch)
    def mechanism(data, *, rng, epsilon, threshold, c):
        return batch(data, 1, rng=rng, epsilon=epsilon, threshold=threshold, c=c)[0]

    mechanism.__doc__ = doc
    return mechanism


_LYU = []
for _alg in (1, 2):
    _spec = f"svt_lyu_{_alg}"
    _ref = {1: "Fact SVT1 (Lyu et al. 2017, Algorithm 1 is epsilon-DP)",
            2: "Fact SVT2 (Dwork and Roth 2014, Sparse with delta = 0 is epsilon-DP)"}[_alg]
    _tr = f"{_spec}/{_ref}/transcript"
    _bugs = {
        "noise_half": ("privacy", "threshold and query noise halved", dict(rho=0.5, nu=0.5), (_tr, AUDIT)),
        "noise_double": ("utility", "threshold and query noise doubled", dict(rho=2.0, nu=2.0), (_tr,)),
        "query_noise_unscaled": ("privacy", "query noise not scaled with c (Lap(2 Delta/eps))",
                                 dict(nu=0.5), (_tr, AUDIT)),
        "cutoff_late": ("privacy", "aborts after the (c+1)-th top", dict(cutoff_offset=1), (_tr, AUDIT)),
        # never re-drawn, Alg 2 is Alg 1 with threshold Lap(2c/eps) and queries Lap(4c/eps): (eps/(2c) + eps/2)-DP
        # (Lyu et al.); exact eps on the stress pairs (tests/calibration/test_mutants.py recomputes it)
        ("redraw_after_top" if _alg == 1 else "never_redraw"): (
            "utility",
            "threshold noise re-drawn after every top" if _alg == 1 else
            "threshold never re-drawn after a top (keeps the claim: exact eps 0.72 against 1 at c = 2, "
            "0.36 against 0.5 at the audit point epsilon = 0.5, c = 2)",
            dict(resample=1.0) if _alg == 1 else dict(resample=0), (_tr,)),
    }
    for _name, (_breaks, _bug, _kw, _killers) in _bugs.items():
        _fn = f"{_spec}_{_name}"
        globals()[_fn] = _lyu_mutant(f"Lyu Alg {_alg} with {_bug}.", alg=_alg, **_kw)
        globals()[_fn].__name__ = _fn
        _LYU.append(_mutant(_spec, _fn, _name, _breaks, _bug, _killers))

# =========================================================================== (epsilon, delta) Gaussian calibrations


def _set(name: str, value):
    def transform(params: dict) -> dict:
        params[name] = value
        return params
    return transform


def _log10_sigma(params: dict) -> dict:
    e, d, s = params["epsilon"], params["delta"], params["sensitivity"]
    params["sigma"] = s * math.sqrt(2 * math.log10(1.25 / d)) / e  # log10 where the paper's log is natural
    return params


def _classical_sigma(params: dict) -> dict:
    params["sigma"] = classical_sigma(params["epsilon"], params["delta"], params["sensitivity"])
    return params


def _understated_delta(params: dict) -> dict:
    params["delta"] = min(params["delta"] * 1e4, 0.5)  # (a delta of 1 or more calibrates nothing)
    return params


_CALIBRATION_BUGS = {  # name: (breaks, bug, parameter transform)
    "noise_for_2eps": ("privacy", "sigma calibrated for 2 epsilon", _scale("epsilon", 2.0)),
    "sensitivity_halved": ("privacy", "sigma calibrated for half the sensitivity", _scale("sensitivity", 0.5)),
    "delta_understated": ("privacy", "sigma calibrated for 10^4 delta, at most 0.5 (the claim understates delta)",
                          _understated_delta),
}


def _calibration_mutants(spec: str, prefix: str, reference, killer: str) -> list[Mutant]:
    out = []
    for name, (breaks, bug, transform) in _CALIBRATION_BUGS.items():
        fn = f"{prefix}_{name}"
        globals()[fn] = with_params(reference, transform, f"{spec} with {bug}.")
        out.append(_mutant(spec, fn, name, breaks, bug, (killer, AUDIT)))
    return out


_GCT = "gaussian_mechanism_classical/Fact G1 (Gaussian tail)/exact-tail"
_GAT = "gaussian_mechanism_analytic/Fact G1 (Gaussian tail)/exact-tail"
gaussian_classical_log10 = with_params(gaussian_mechanism, _log10_sigma,
                                       "Classical Gaussian with sqrt(2 log10(1.25/delta)) (natural log replaced).")
gaussian_analytic_classical_sigma = with_params(gaussian_mechanism, _classical_sigma,
                                                "Analytic Gaussian using the classical sigma instead of Algorithm 1's.")
_GCAL = (_calibration_mutants("gaussian_mechanism_classical", "gaussian_classical", gaussian_mechanism_classical, _GCT)
         + [_mutant("gaussian_mechanism_classical", "gaussian_classical_log10", "log10", "privacy",
                    "log10 in sqrt(2 log(1.25/delta)) (wrong log base)", (_GCT, AUDIT))]
         + _calibration_mutants("gaussian_mechanism_analytic", "gaussian_analytic", gaussian_mechanism_analytic, _GAT)
         + [_mutant("gaussian_mechanism_analytic", "gaussian_analytic_classical_sigma", "classical_sigma", "privacy",
                    "the classical sigma (more noise for epsilon < 1, too little above 8.42 at delta = 1e-5)",
                    (_GAT, AUDIT))])

# =========================================================================== geometric and discrete Gaussian


def _sign_dropped(out, data, rng, params):
    f = as_vector(data)
    return (f + np.abs(out - f)).astype(np.int64)  # |Z|: the noise's random sign left out


def _rounded_laplace_batch(data, n, *, rng, epsilon, sensitivity):
    f = as_vector(data)
    return f.astype(np.int64) + np.rint(laplace(rng, sensitivity / epsilon, (int(n), f.size))).astype(np.int64)


@batched(_rounded_laplace_batch)
def geometric_rounded_laplace(data, *, rng, epsilon, sensitivity):
    """Geometric mechanism replaced by a rounded continuous Laplace (private, but not the spec's law)."""
    return _rounded_laplace_batch(data, 1, rng=rng, epsilon=epsilon, sensitivity=sensitivity)[0]


geometric_sensitivity_halved = with_params(geometric_mechanism, _scale("sensitivity", 0.5),
                                           "Geometric mechanism with alpha = exp(-2 epsilon/sensitivity).")
geometric_noise_for_2eps = with_params(geometric_mechanism, _scale("epsilon", 2.0),
                                       "Geometric mechanism calibrated for 2 epsilon.")
geometric_sensitivity_ignored = with_params(geometric_mechanism, _set("sensitivity", 1),
                                            "Geometric mechanism with alpha = exp(-epsilon) (sensitivity left out).")
geometric_sign_dropped = post_processed(geometric_mechanism, _sign_dropped,
                                        "Geometric mechanism adding |Z| (one-sided noise).")
_GP = "geometric_mechanism/Fact GM2 (two-sided geometric law)/exact-pmf"
_GEO = [
    _mutant("geometric_mechanism", "geometric_sensitivity_halved", "sensitivity_halved", "privacy",
            "scale sensitivity/(2 epsilon)", (_GP, AUDIT)),
    _mutant("geometric_mechanism", "geometric_noise_for_2eps", "noise_for_2eps", "privacy",
            "calibrated for 2 epsilon", (_GP, AUDIT)),
    _mutant("geometric_mechanism", "geometric_sensitivity_ignored", "sensitivity_ignored", "privacy",
            "scale 1/epsilon: the sensitivity left out (caught where sensitivity > 1)", (_GP,)),
    _mutant("geometric_mechanism", "geometric_sign_dropped", "sign_dropped", "privacy",
            "one-sided noise |Z| (the sign draw left out)", (_GP, AUDIT)),
    _mutant("geometric_mechanism", "geometric_rounded_laplace", "rounded_laplace", "utility",
            "rounded continuous Laplace noise instead of the two-sided geometric", (_GP,)),
]


def _laplace_proposal_batch(data, n, *, rng, epsilon, delta, sensitivity):
    sigma = discrete_gaussian_sigma(epsilon, delta, sensitivity)
    return int(round(float(as_vector(data)[0]))) + discrete_laplace(rng, math.floor(sigma) + 1, int(n))


@batched(_laplace_proposal_batch)
def discrete_gaussian_laplace_proposal(data, *, rng, epsilon, delta, sensitivity):
    """Algorithm 3 without its acceptance step: the Lap_Z(floor(sigma) + 1) proposal is released."""
    return int(_laplace_proposal_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, sensitivity=sensitivity)[0])


SIGMA_CAP = 100.0  # the top of the capped-bracket mutant's search for sigma


def _sigma_capped_batch(data, n, *, rng, epsilon, delta, sensitivity):
    sigma = min(discrete_gaussian_sigma(epsilon, delta, sensitivity), SIGMA_CAP)  # BUG: a bracket [0.1, 100]
    return int(round(float(as_vector(data)[0]))) + discrete_gaussian(rng, sigma, int(n))


@batched(_sigma_capped_batch)
def discrete_gaussian_sigma_capped(data, *, rng, epsilon, delta, sensitivity):
    """The discrete Gaussian with sigma searched on a fixed bracket [0.1, 100]: exact wherever the calibrated sigma
    is at most 100 (sensitivity below 27 at epsilon 1, delta 1e-5), too little noise above."""
    return int(_sigma_capped_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, sensitivity=sensitivity)[0])


_DGP = "discrete_gaussian_mechanism/Fact DG1 (discrete Gaussian law)/exact-pmf"
_DG = (_calibration_mutants("discrete_gaussian_mechanism", "discrete_gaussian", discrete_gaussian_mechanism, _DGP)
       + [_mutant("discrete_gaussian_mechanism", "discrete_gaussian_laplace_proposal", "laplace_proposal", "utility",
                  "Algorithm 3's acceptance step left out: discrete Laplace noise of scale floor(sigma) + 1", (_DGP,)),
          _mutant("discrete_gaussian_mechanism", "discrete_gaussian_sigma_capped", "sigma_capped", "privacy",
                  "sigma searched on a fixed bracket [0.1, 100] (found at sensitivity 100: moves.FAR_SENSITIVITY_FACTOR)",
                  (AUDIT,))])

# =========================================================================== bounded mean and sum (diffprivlib)


def _renoised(statistic, *, clip=True, data_bounds=False, range_of=lambda lower, upper: upper - lower):
    """Post-processing that turns the reference's release into the bug's: the reference's noise (its output
    minus the clipped statistic) rescaled from the stated range upper - lower to ``range_of`` the bounds used,
    around the statistic of the records clipped to those bounds (or not clipped)."""

    def post(out, data, rng, params):
        lower, upper = params["lower"], params["upper"]
        noise = out - statistic(clipped(data, lower, upper))
        x = as_vector(data)
        if data_bounds:  # diffprivlib with bounds=None: the data's own range
            lower, upper = float(x.min()), float(x.max())
        centre = statistic(clipped(x, lower, upper) if clip else x)
        return centre + noise * (range_of(lower, upper) / (params["upper"] - params["lower"]))

    return post


def _alike_unclipped(statistic):
    """Records all alike taken as they are, unclipped (a shortcut: n times the first record for the sum)."""

    def post(out, data, rng, params):
        x = as_vector(data)
        if not x.size or not np.all(x == x[0]):
            return out
        return out - statistic(clipped(x, params["lower"], params["upper"])) + statistic(x)

    return post


def _evenly_spaced_closed_form(statistic):
    """Evenly spaced records (three or more, not all alike) summed by the arithmetic series' closed form from the
    clipped first and last records, n (first + last) / 2 (a mean: (first + last) / 2), which is not the sum of the
    clipped records when the series crosses a bound."""

    def post(out, data, rng, params):
        x = as_vector(data)
        steps = np.diff(x)
        if x.size < 3 or steps[0] == 0 or not np.all(steps == steps[0]):
            return out
        ends = np.clip(x[[0, -1]], params["lower"], params["upper"])
        closed = float(ends.mean()) * (x.size if statistic is np.sum else 1)
        return out - statistic(clipped(x, params["lower"], params["upper"])) + closed

    return post


_BOUNDED = []
for _stat, _ref, _spec, _law in ((np.mean, bounded_mean, "bounded_mean", "Fact BM2 (law of the released mean)"),
                                 (np.sum, bounded_sum, "bounded_sum", "Fact BS2 (law of the released sum)")):
    _tail = f"{_spec}/{_law}/exact-tail"
    _bugs = {
        "no_clipping": ("privacy", "records not clipped to the bounds (bounds used for the sensitivity only)",
                        post_processed(_ref, _renoised(_stat, clip=False), "records not clipped"), (_tail, AUDIT)),
        "bounds_from_data": ("privacy", "bounds missing: taken from the data (diffprivlib's bounds=None)",
                             post_processed(_ref, _renoised(_stat, data_bounds=True), "bounds from the data"),
                             (_tail, AUDIT)),
        "sensitivity_halved": ("privacy", "noise for half the sensitivity",
                               post_processed(_ref, _renoised(_stat, range_of=lambda lo, hi: (hi - lo) / 2),
                                              "half the sensitivity"), (_tail, AUDIT)),
        "noise_for_2eps": ("privacy", "noise calibrated for 2 epsilon",
                           with_params(_ref, _scale("epsilon", 2.0), "calibrated for 2 epsilon"), (_tail, AUDIT)),
        "alike_unclipped": ("privacy", "records all alike taken unclipped (found on alike records far outside the "
                            "data, search/constant)", post_processed(_ref, _alike_unclipped(_stat), "alike unclipped"),
                            (AUDIT,)),
        "evenly_spaced_closed_form": ("privacy", "evenly spaced records taken by the series' closed form from the "
                                      "clipped ends (found on sorted evenly spaced records, search/ramp)",
                                      post_processed(_ref, _evenly_spaced_closed_form(_stat), "series closed form"),
                                      (AUDIT,)),
    }
    if _spec == "bounded_sum":
        _bugs["add_remove_sensitivity"] = (
            "privacy", "sensitivity max(|lower|, |upper|) (add/remove) under replace-one (caught where lower < 0)",
            post_processed(_ref, _renoised(_stat, range_of=lambda lo, hi: max(abs(lo), abs(hi))),
                           "add/remove sensitivity"), (_tail,))
    for _name, (_breaks, _bug, _fn, _killers) in _bugs.items():
        _fn.__doc__ = f"{_spec} with {_bug}."
        globals()[f"{_spec}_{_name}"] = _fn
        _BOUNDED.append(_mutant(_spec, f"{_spec}_{_name}", _name, _breaks, _bug, _killers))

# =========================================================================== bugs where the spec's worst case is not
# (issue 34: each lives where the audit's implementation-guided search, its views or its agreement check look)


def _parity_bit(out, data, rng, params):
    bits = np.ascontiguousarray(out, dtype=np.float64).view(np.uint64)
    parity = np.uint64(int(np.round(np.sum(as_vector(data)))) & 1)
    return ((bits & ~np.uint64(1)) | parity).view(np.float64)


def _atom(out, data, rng, params):
    exact = rng.random(np.shape(out)[0]) < 1e-3  # the exact answer released one run in a thousand
    out = np.array(out, dtype=float)
    out[exact] = np.broadcast_to(as_vector(data), out[exact].shape)
    return out


def _hole_at_answer(out, data, rng, params):
    """Noise redrawn while a coordinate of the release is within 0.005 of its exact answer (the release would
    round to the answer at 2 decimals): no output near f(D), the same region reached from f(D') = f(D) + 1."""
    f = np.broadcast_to(as_vector(data), np.shape(out)[1:])
    out = np.array(out, dtype=float)
    near = np.abs(out - f).min(axis=tuple(range(1, out.ndim))) < 0.005
    while near.any():
        out[near] = f + laplace(rng, params["gamma"] / params["epsilon"], (int(near.sum()), *f.shape))
        near = np.abs(out - f).min(axis=tuple(range(1, out.ndim))) < 0.005
    return out


def _epsilon_ceiled_above_one(params: dict) -> dict:
    if params["epsilon"] > 1:
        params["epsilon"] = float(math.ceil(params["epsilon"]))  # BUG: a table of whole epsilons above 1
    return params


def _laplace_half_noise(data, *, rng, epsilon, gamma):
    return laplace_mechanism(data, rng=rng, epsilon=2 * epsilon, gamma=gamma)


_SPARE: dict = {}  # the antithetic mutant's noise kept for the next call, by generator


def laplace_antithetic_calls(data, *, rng, epsilon, gamma):
    """Laplace with antithetic noise across calls (a Monte-Carlo habit): a call with the generator of the call
    before it releases f - z for that call's noise z. Every call alone has the spec's law; two answers released
    with one generator give away the sum of the exact answers."""
    f = as_vector(data)
    spare = _SPARE.pop(id(rng), None)
    if spare is not None and spare.shape == f.shape:
        return f - spare
    z = laplace(rng, gamma / epsilon, f.shape)
    _SPARE.clear()
    _SPARE[id(rng)] = z
    return f + z


randomized_response_epsilon_ceiled = with_params(
    randomized_response, _epsilon_ceiled_above_one,
    "Randomized response keeping the bit with the probability of ceil(epsilon) above 1 (a table of whole epsilons).")
laplace_fn_half_noise = _laplace_half_noise  # the function users call adds half the noise ...
laplace_fn_half_noise.batch = laplace_mechanism.batch  # ... behind a correct batch sampler
laplace_parity_bit = post_processed(laplace_mechanism, _parity_bit,
                                    "Laplace whose last mantissa bit is the parity of the rounded input.")
laplace_exact_atom = post_processed(laplace_mechanism, _atom, "Laplace releasing f(D) itself one run in 1,000.")
laplace_hole_at_answer = post_processed(laplace_mechanism, _hole_at_answer,
                                        "Laplace redrawn while a coordinate rounds to its exact answer at 2 decimals.")


def _em_half_even_batch(data, n, *, rng, epsilon, sensitivity):
    return exponential_mechanism.batch(np.round(np.asarray(data, dtype=float)), n, rng=rng, epsilon=epsilon,
                                       sensitivity=sensitivity)


@batched(_em_half_even_batch)
def exponential_losses_half_even(data, *, rng, epsilon, sensitivity):
    """Exponential mechanism on the losses rounded half to even (0.5 -> 0, 1.5 -> 2): loss 1.31 against 1 on
    losses [0.5, 1.5, 1.5] and [1.5, 0.5, 0.5]."""
    return exponential_mechanism(np.round(np.asarray(data, dtype=float)), rng=rng, epsilon=epsilon,
                                 sensitivity=sensitivity)


def _sigma_as_variance(params: dict) -> dict:
    params["sigma"] = math.sqrt(params["sigma"])  # the standard deviation sqrt(sigma): sigma read as a variance
    return params


gaussian_sigma_as_variance = with_params(gaussian_mechanism, _sigma_as_variance,
                                         "Gaussian with standard deviation sqrt(sigma) (sigma read as a variance).")


def _two_candidates_unnoised(out, data, rng, params):
    scores = as_vector(data)
    if scores.size != 2:
        return out
    return np.full(np.shape(out), int(np.argmax(scores)), dtype=np.asarray(out).dtype)


def _one_answer_exact(out, data, rng, params):
    answers = as_vector(data)
    if answers.size != 1:
        return out
    return np.full(np.shape(out), int(answers[0] >= params["threshold"]), dtype=np.asarray(out).dtype)


SORTED_EXIT = 8  # answers from which the sorted-exit mutant takes its shortcut


def _sorted_early_exit(out, data, rng, params):
    """At least SORTED_EXIT strictly decreasing answers: after the first bottom every later answer is a bottom,
    without noise (they can only be lower)."""
    x = as_vector(data)
    if x.size < SORTED_EXIT or not np.all(np.diff(x) < 0):
        return out
    out = np.array(out)
    bottom = out == 0
    out[np.cumsum(bottom, axis=-1) - bottom > 0] = 0
    return out


svt_lyu_1_sorted_early_exit = post_processed(
    _lyu.svt_lyu_1, _sorted_early_exit, "Lyu's Alg. 1 answering every query after the first bottom with a bottom, "
    "without noise, when the answers strictly decrease (8 or more).")
svt_lyu_1_one_answer_exact = post_processed(
    _lyu.svt_lyu_1, _one_answer_exact, "Lyu's Alg. 1 comparing a single answer with the threshold without noise.")
report_noisy_max_two_candidates = post_processed(
    report_noisy_max, _two_candidates_unnoised, "Report noisy max with no noise when there are two candidates.")

def _significant_digits(out, data, rng, params):
    """The release rounded to 4 significant digits of the answer's magnitude (a grid that follows f(D))."""
    answer = np.abs(as_vector(data)).max(initial=0.0)
    step = 10.0 ** (math.floor(math.log10(answer)) - 3) if answer > 0 else 1e-3
    return np.round(np.asarray(out, dtype=float) / step) * step


laplace_significant_digits = post_processed(
    laplace_mechanism, _significant_digits, "Laplace rounded to 4 significant digits of the answer (f = 99.5: "
    "steps of 0.01; f = 100.5: steps of 0.1).")

def _tournament_batch(data, n, *, rng, epsilon):
    q = as_vector(data)
    if q.size <= 16:
        return report_noisy_max.batch(q, n, rng=rng, epsilon=epsilon)
    starts = np.arange(0, q.size, 16)
    winners = np.stack([s + report_noisy_max.batch(q[s:s + 16], n, rng=rng, epsilon=epsilon) for s in starts], axis=1)
    final = np.argmax(q[winners] + laplace(rng, 2.0 / epsilon, winners.shape), axis=1)  # fresh noise on the winners
    return winners[np.arange(int(n)), final].astype(np.int64)


@batched(_tournament_batch)
def report_noisy_max_tournament(data, *, rng, epsilon):
    """Report noisy max as a tournament for more than 16 answers: a noisy max in each block of 16, then a noisy max
    of the winners' answers with fresh noise (each winner's answer counts twice)."""
    return int(_tournament_batch(data, 1, rng=rng, epsilon=epsilon)[0])


def _integer_scale(params: dict) -> dict:
    # the exact sampler takes a whole scale: sensitivity / epsilon truncated, and epsilon recomputed from it
    params["epsilon"] = params["sensitivity"] / max(1, int(params["sensitivity"] / params["epsilon"]))
    return params


geometric_integer_scale = with_params(geometric_mechanism, _integer_scale,
                                      "Geometric mechanism whose scale sensitivity/epsilon is truncated to an integer.")

LONG_VECTOR = 64  # entries above which the long-vector mutant shares one noise draw


def _long_shared_noise_batch(data, n, *, rng, epsilon, gamma):
    f = as_vector(data)
    if f.size <= LONG_VECTOR:
        return f + laplace(rng, gamma / epsilon, (int(n), f.size))
    return f + laplace(rng, gamma / epsilon, (int(n), 1))  # BUG: one draw broadcast over a long vector


@batched(_long_shared_noise_batch)
def laplace_long_shared_noise(data, *, rng, epsilon, gamma):
    """Laplace drawing one noise for every entry of a vector longer than 64 (a broadcast meant to save draws): the
    differences between entries are released exactly."""
    return _long_shared_noise_batch(data, 1, rng=rng, epsilon=epsilon, gamma=gamma)[0]


_SEARCHED = [
    _mutant("laplace_mechanism", "laplace_long_shared_noise", "long_shared_noise", "privacy",
            "one noise draw for every entry of a vector longer than 64 (found at the parameter point p = 65)", (AUDIT,)),
    _mutant("svt_lyu_1", "svt_lyu_1_sorted_early_exit", "sorted_early_exit", "privacy",
            "bottoms without noise after the first bottom when 8 or more answers strictly decrease (found on sorted "
            "answers, search/ramp)", (AUDIT,)),
    _mutant("svt_lyu_1", "svt_lyu_1_one_answer_exact", "one_answer_exact", "privacy",
            "a single answer compared with the threshold without noise (found on the stress cases cut to one answer, "
            "moved down)", (AUDIT,)),
    _mutant("laplace_mechanism", "laplace_fn_half_noise", "fn_half_noise_batch_correct", "contract",
            "the function adds Lap(gamma/(2 epsilon)) while its batch sampler is correct", (AUDIT,)),
    _mutant("laplace_mechanism", "laplace_antithetic_calls", "antithetic_calls", "contract",
            "each call with the generator of the call before it releases f - z for that call's noise z (every call "
            "alone exact; state kept across calls, killed by the audit's serial test)", (AUDIT,)),
    _mutant("laplace_mechanism", "laplace_parity_bit", "parity_bit", "privacy",
            "the last mantissa bit is the input's parity (the two sides' outputs are disjoint)", (AUDIT,)),
    _mutant("laplace_mechanism", "laplace_exact_atom", "exact_atom", "privacy",
            "the exact answer released with probability 1e-3 (an atom under a pure claim)", (AUDIT,)),
    _mutant("laplace_mechanism", "laplace_hole_at_answer", "hole_at_answer", "privacy",
            "noise redrawn while the release is within 0.005 of the exact answer (a hole at f(D), mass there from "
            "f(D'): seen by the near_data view)", (AUDIT,)),
    _mutant("exponential_mechanism", "exponential_losses_half_even", "losses_half_even", "privacy",
            "losses rounded half to even before the softmax", (AUDIT,)),
    _mutant("gaussian_mechanism", "gaussian_sigma_as_variance", "sigma_as_variance", "privacy",
            "sigma read as a variance: standard deviation sqrt(sigma), too little noise where sigma > 1", (AUDIT,)),
    _mutant("report_noisy_max", "report_noisy_max_two_candidates", "two_candidates_unnoised", "privacy",
            "no noise when there are two candidates (a shortcut on the input's length)", (AUDIT,)),
    _mutant("laplace_mechanism", "laplace_significant_digits", "significant_digits", "privacy",
            "the release rounded to 4 significant digits of the answer: the output grid changes across a power of ten "
            "(found on the lines across decades, search/decade/)", (AUDIT,)),
    _mutant("randomized_response", "randomized_response_epsilon_ceiled", "epsilon_ceiled", "privacy",
            "keep probability at ceil(epsilon) above 1: exact at epsilon <= 1 and at every whole epsilon (found at the "
            "parameter point epsilon x 2.7: loss 3 against 2.7)", (AUDIT,)),
    _mutant("report_noisy_max", "report_noisy_max_tournament", "tournament", "privacy",
            "a tournament of blocks of 16 answers (a noisy max per block, then of the winners with fresh noise): exact "
            "on up to 16 answers (found on the stress cases repeated to 33 answers)", (AUDIT,)),
    _mutant("geometric_mechanism", "geometric_integer_scale", "integer_scale", "privacy",
            "the scale sensitivity/epsilon truncated to an integer: exact where it is whole (found at the parameter "
            "point epsilon x 0.7: loss 1 against 0.7)", (AUDIT,)),
]

MUTANTS = tuple(_LAP + _GAU + _EM + _RR + _RNM + _LYU + _GCAL + _GEO + _DG + _BOUNDED + _SEARCHED)
