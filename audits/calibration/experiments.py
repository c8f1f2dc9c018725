"""Theorem checks of the calibration mechanisms: Laplace and Gaussian tails, the exponential
mechanism's accuracy, each with an exact-calibration companion and its broken variants."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..experiments import Context, Control, experiment, fudged, laplace_sf, margin_sweep, quantile_interval, scalar
from ..theorems import NOISE_FUDGE, Cell

# =========================================================================== Laplace mechanism

LAPLACE_TAIL = "Fact A1 (Laplace tail)"
_CTRL_LAP = Control("laplace_30pct_more_noise", "dptestbed.impl.calibration.controls:laplace_30pct_more_noise",
                    "Laplace mechanism with noise scale 1.3*gamma/epsilon (30% too much noise)")


@experiment(
    "laplace_mechanism", LAPLACE_TAIL, "tail-bound", "bound",
    title="P[max_i |M(D)_i - f(D)_i| > b log(p/beta)] <= beta",
    instance="f(D) = (0, 1, ..., p-1) with p = 4; sweep p = 1..64 for the error quantile",
    predicate="failure: some coordinate is farther than tail_radius = b log(p/beta) from f(D)",
    trials={"quick": 50_000, "full": 2_000_000},
    params={"p": 4, "epsilon": 1.0, "gamma": 1.0, "beta": 0.05},
    controls=(_CTRL_LAP,),
    slack_definition="(1-beta) quantile of max_i |M(D)_i - f(D)_i| divided by tail_radius (< 1: inside the bound)",
)
def _laplace_tail(ctx: Context) -> dict:
    env = ctx.env
    p = int(ctx.params["p"])
    beta = scalar(env["failure_probability"])
    radius = scalar(env["error_bound"])
    f = np.arange(p, dtype=float)
    out = ctx.sample(f, ctx.trials).reshape(ctx.trials, -1)
    err = np.max(np.abs(out - f), axis=1)
    failures = int(np.sum(err > radius))
    q = float(np.quantile(err, 1 - beta))
    # sweep over the dimension p: error quantile beside the theorem's radius
    dims = [1, 2, 4, 8, 16, 32, 64]
    n_sweep = max(2000, ctx.trials // 5)
    measured, bounds, lows, highs = [], [], [], []
    for d in dims:
        e = np.max(np.abs(ctx.sample(np.zeros(d), n_sweep).reshape(n_sweep, -1)), axis=1)
        measured.append(float(np.quantile(e, 1 - beta)))
        lo_hi = quantile_interval(e, 1 - beta)
        lows.append(lo_hi[0])
        highs.append(lo_hi[1])
        bounds.append(scalar(ctx.bind(p=d)["error_bound"]))
    return {
        "failures": failures, "trials": ctx.trials, "beta": beta,
        "error_quantile": q, "error_bound": radius, "slack": q / radius,
        "sweep": {
            "title": "Laplace tail: (1-beta) quantile of the max error against the radius b log(p/beta)",
            "x": dims, "x_label": "dimension p", "log_x": True,
            "measured": measured, "lower": lows, "upper": highs, "measured_label": "measured (1-beta) quantile",
            "bound": bounds, "bound_label": "theorem: b log(p/beta)",
            "y_label": "error", "trials_per_point": n_sweep,
        },
    }


@experiment(
    "laplace_mechanism", LAPLACE_TAIL, "exact-tail", "calibration",
    title="P[M(D) - f(D) > t] = exp(-t/b)/2 at t = b/2, b, 2b (App. A1)",
    instance="p = 1, f(D) = 0",
    predicate="event: the output exceeds f(D) + t",
    trials={"quick": 50_000, "full": 2_000_000},
    params={"p": 1, "epsilon": 1.0, "gamma": 1.0},
    controls=(_CTRL_LAP,),
)
def _laplace_exact(ctx: Context) -> dict:
    return tail_calibration(ctx, scalar(ctx.env["b"]), laplace_sf, "b")


def tail_calibration(ctx: Context, scale: float, sf: Callable, unit: str) -> dict:
    """Cells P[output > t] = sf(t, scale) at t = scale/2, scale, 2 scale for f(D) = 0 (p = 1);
    the fudged probabilities (30% more / less noise) give the check's power."""
    out = ctx.sample(np.zeros(1), ctx.trials).reshape(ctx.trials, -1)[:, 0]
    cells = []
    for mult in (0.5, 1.0, 2.0):
        t = mult * scale
        cells.append(Cell(f"t = {mult:g} {unit}", ctx.trials, int(np.sum(out > t)), float(sf(t, scale)),
                          tuple(float(x) for x in fudged(sf, t, scale, scale_index=1))))
    return {"cells": cells}


# =========================================================================== Gaussian mechanism

GAUSSIAN_TAIL = "Fact G1 (Gaussian tail)"
_CTRL_GAUSS_2X = Control("gaussian_2x_noise", "dptestbed.impl.calibration.controls:gaussian_2x_noise",
                         "Gaussian mechanism with twice the standard deviation")
_CTRL_GAUSS_BROKEN = Control("gaussian_mechanism_broken", "dptestbed.impl.calibration.gaussian:gaussian_mechanism_broken",
                             "the calibration corpus' gaussian_mechanism_broken: sigma 30% too small")


def gaussian_sf(t, sigma):
    """P[N(0, sigma^2) > t]."""
    from scipy import stats

    return stats.norm.sf(np.asarray(t, dtype=float) / sigma)


@experiment(
    "gaussian_mechanism", GAUSSIAN_TAIL, "tail-bound", "bound",
    title="P[max_i |M(D)_i - f(D)_i| > sigma sqrt(2 log(2p/beta))] <= beta",
    instance="f(D) = (0, 1, ..., p-1) with p = 4; sweep p = 1..64 for the error quantile",
    predicate="failure: some coordinate is farther than tail_radius from f(D)",
    trials={"quick": 50_000, "full": 2_000_000},
    params={"p": 4, "beta": 0.05},
    controls=(_CTRL_GAUSS_2X,),
    slack_definition="(1-beta) quantile of max_i |M(D)_i - f(D)_i| divided by tail_radius (< 1: inside the bound)",
)
def _gaussian_tail(ctx: Context) -> dict:
    out = _laplace_tail(ctx)
    out["sweep"]["title"] = "Gaussian tail: (1-beta) quantile of the max error against sigma sqrt(2 log(2p/beta))"
    out["sweep"]["bound_label"] = "theorem: sigma sqrt(2 log(2p/beta))"
    return out


@experiment(
    "gaussian_mechanism", GAUSSIAN_TAIL, "exact-tail", "calibration",
    title="P[M(D) - f(D) > t] = 1 - Phi(t/sigma) at t = sigma/2, sigma, 2 sigma",
    instance="p = 1, f(D) = 0",
    predicate="event: the output exceeds f(D) + t",
    trials={"quick": 50_000, "full": 2_000_000},
    params={"p": 1},
    controls=(_CTRL_GAUSS_BROKEN,),
)
def _gaussian_exact(ctx: Context) -> dict:
    return tail_calibration(ctx, scalar(ctx.env["sigma"]), gaussian_sf, "sigma")


# =========================================================================== exponential mechanism

EM_ACCURACY = "Fact EM2 (accuracy, [MT07])"
_CTRL_EM_FLAT = Control("exponential_mechanism_half_epsilon",
                        "dptestbed.impl.calibration.controls:exponential_mechanism_half_epsilon",
                        "exponential mechanism with exp(-epsilon*u/(4*Delta)): a factor 2 too many")
_CTRL_EM_BROKEN = Control("exponential_mechanism_broken", "dptestbed.impl.calibration.exponential:exponential_mechanism_broken",
                          "the calibration corpus' exponential_mechanism_broken: the factor 2 dropped")


def exponential_probabilities(losses, epsilon, sensitivity):
    """P[i] proportional to exp(-epsilon*u_i/(2*sensitivity))."""
    z = -epsilon * np.asarray(losses, dtype=float) / (2 * sensitivity)
    z = np.exp(z - z.max())
    return z / z.sum()


@experiment(
    "exponential_mechanism", EM_ACCURACY, "boundary", "bound",
    title="P[loss of the selected candidate > min loss + 2 Delta (ln K + ln(1/beta))/epsilon] <= beta",
    instance="K = 10 candidates: one at loss 0, the other K - 1 just above the accuracy gap (the worst case); "
             "margin sweep a = gap/20 .. gap",
    predicate="failure: a candidate other than the optimum is selected",
    trials={"quick": 50_000, "full": 2_000_000},
    params={"num_candidates": 10, "epsilon": 1.0, "sensitivity": 1.0, "beta": 0.05},
    controls=(_CTRL_EM_FLAT,),
    slack_definition="a_beta / gap, where a_beta is the smallest margin of the K - 1 suboptimal candidates at which "
                     "the measured failure rate is <= beta (interpolated on the sweep grid)",
)
def _em_accuracy(ctx: Context) -> dict:
    env = ctx.env
    gap, beta = scalar(env["error_bound"]), scalar(env["failure_probability"])
    K = int(ctx.params["num_candidates"])

    def failures_at(margin, n):
        losses = np.full(K, np.nextafter(margin, np.inf))
        losses[0] = 0.0
        out = ctx.sample(losses, n).reshape(n)
        return int(np.sum(out != 0))

    return margin_sweep(
        ctx, failures_at, gap, beta, np.array([0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.85, 1.0]),
        title="Exponential mechanism (Fact EM2): failure rate against the margin of the suboptimal candidates",
        x_label="loss margin a of the K - 1 suboptimal candidates", theorem_label="theorem's gap",
        bound_label="theorem: beta at which gap(beta) = a")


@experiment(
    "exponential_mechanism", EM_ACCURACY, "exact-selection", "calibration",
    title="P[select i] = exp(-epsilon u_i/(2 Delta)) / sum_j exp(-epsilon u_j/(2 Delta)) (Dwork-Roth 3.4)",
    instance="K = 5 losses (0, 0.5, 1, 2, 4) Delta",
    predicate="event: candidate i is selected (one cell per candidate, same runs)",
    trials={"quick": 50_000, "full": 2_000_000},
    params={"num_candidates": 5, "epsilon": 1.0, "sensitivity": 1.0},
    controls=(_CTRL_EM_BROKEN,),
)
def _em_exact(ctx: Context) -> dict:
    eps, sens = scalar(ctx.env["epsilon"]), scalar(ctx.env["sensitivity"])
    losses = np.array([0.0, 0.5, 1.0, 2.0, 4.0]) * sens
    out = ctx.sample(losses, ctx.trials).reshape(ctx.trials)
    exact = exponential_probabilities(losses, eps, sens)
    alts = [exponential_probabilities(losses, eps / f, sens) for f in (1 + NOISE_FUDGE, 1 - NOISE_FUDGE)]
    cells = [Cell(f"select {i} (u = {u:g})", ctx.trials, int(np.sum(out == i)), float(exact[i]),
                  tuple(float(a[i]) for a in alts)) for i, u in enumerate(losses)]
    return {"cells": cells}
