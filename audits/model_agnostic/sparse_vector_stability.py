"""Theorem checks of seed 000 Sections 2-3: sparse vector (Algorithm 1, Theorems 2.7-2.8) and
the distance-to-instability release (Theorem 3.5, Lemma 3.4, Theorem 3.2)."""

from __future__ import annotations

import math

import numpy as np

from dptestbed.audits.api import (
    NOISE_FUDGE,
    Cell,
    Context,
    Control,
    clopper_pearson,
    experiment,
    first_crossing,
    fudged,
    margin_sweep,
    release_probability,
    scalar,
    svt_top_probability,
)

# =========================================================================== sparse vector

_M = "dptestbed.impl.model_agnostic.mutants"
_CTRL_SVT13 = Control("sparse_vector_noise_30pct_more", f"{_M}:sparse_vector_noise_30pct_more",
                      "sparse vector with lam 30% too large")
_CTRL_SVT_HALT = Control("sparse_vector_halts_early", f"{_M}:sparse_vector_halts_early",
                         "sparse vector that halts after T bottoms instead of T + 1 (loop `while c < T`)")


def _svt_boundary(ctx: Context, margin: float) -> np.ndarray:
    """The instance family of Thm 2.8: T answers far below w (bottom, in L(alpha)) first, all
    others just above w + margin (so |L(margin)| = T exactly)."""
    m, T, w = int(ctx.params["m"]), int(ctx.params["T"]), float(ctx.params["w"])
    data = np.full(m, np.nextafter(w + margin, np.inf))
    data[:T] = w - 2 * margin - 50 * scalar(ctx.env["lam"])
    return data


@experiment(
    "sparse_vector", "Theorem 2.8", "boundary", "bound",
    title="P[some query above w + alpha is not answered top] <= beta",
    instance="m = 20, T = 2: T answers far below w first (certain bottoms, |L(alpha)| = T), the other m - T "
             "just above w + alpha (the boundary); margin sweep a = alpha/20 .. alpha",
    predicate="failure: some query i not in L(alpha) gets bottom or is not answered",
    trials={"quick": 20_000, "full": 500_000},
    params={"m": 20, "T": 2, "w": 0.0, "epsilon": 1.0, "beta": 0.05},
    controls=(_CTRL_SVT_HALT,),
    slack_definition="a_beta / alpha, where a_beta is the smallest margin above w at which the measured "
                     "failure rate on this family is <= beta (interpolated on the sweep grid)",
)
def _svt_accuracy(ctx: Context) -> dict:
    env = ctx.env
    alpha, beta = scalar(env["error_bound"]), scalar(env["failure_probability"])
    T = int(ctx.params["T"])

    def failures_at(margin, n):
        out = ctx.sample(_svt_boundary(ctx, margin), n)
        return int(np.sum(np.any(out[:, T:] != 1, axis=1)))

    return margin_sweep(
        ctx, failures_at, alpha, beta, np.array([0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1.0]),
        title="Sparse vector (Thm 2.8): failure rate against the margin a above w",
        x_label="margin a above the threshold w", theorem_label="theorem's alpha",
        bound_label="theorem: beta at which alpha(beta) = a")


@experiment(
    "sparse_vector", "Theorem 2.8", "exact-top", "calibration",
    title="P[top] = S(w - q) for a single query with a fresh threshold (App. A2-A3)",
    instance="m = 1, T = 1: one answer q at w - 2 lam, w - lam/2 and w + lam",
    predicate="event: the answer is top",
    trials={"quick": 50_000, "full": 2_000_000},
    params={"m": 1, "T": 1, "w": 0.0, "epsilon": 1.0},
    controls=(_CTRL_SVT13,),
)
def _svt_exact(ctx: Context) -> dict:
    lam = scalar(ctx.env["lam"])
    w = float(ctx.params["w"])
    cells = []
    for mult in (-2.0, -0.5, 1.0):
        q = w + mult * lam
        out = ctx.sample(np.array([q]), ctx.trials).reshape(ctx.trials, -1)[:, 0]
        cells.append(Cell(f"q = w {'+' if mult >= 0 else '-'} {abs(mult):g} lam", ctx.trials, int(np.sum(out == 1)),
                          float(svt_top_probability(w - q, lam)),
                          tuple(float(x) for x in fudged(svt_top_probability, w - q, lam, scale_index=1))))
    return {"cells": cells}


@experiment(
    "sparse_vector", "Theorem 2.7", "halting", "property",
    title="Alg 1's halting rule: transcripts answer every query until the (T+1)-th bottom, then nothing (loop "
          "while c <= T); a convention of the algorithm, not Theorem 2.7's statement (halting earlier keeps the "
          "claim)",
    instance="m = 12, T = 2; answers drawn uniformly in w +- 2 lam (many bottoms and tops), 200 instances",
    predicate="each transcript is in {1, 0, -1}^m, has at most T+1 bottoms, no -1 before the (T+1)-th "
              "bottom and only -1 after it",
    trials={"quick": 20_000, "full": 500_000},
    params={"m": 12, "T": 2, "w": 0.0, "epsilon": 1.0},
    controls=(_CTRL_SVT_HALT,), tests="conformance",
)
def _svt_halting(ctx: Context) -> dict:
    m, T, w = int(ctx.params["m"]), int(ctx.params["T"]), float(ctx.params["w"])
    lam = scalar(ctx.env["lam"])
    instances = 200
    per = max(1, ctx.trials // instances)
    cases = failures = 0
    counterexample = None
    for _ in range(instances):
        data = w + ctx.rng.uniform(-2 * lam, 2 * lam, size=m)
        out = ctx.sample(data, per).reshape(per, -1)
        bad = _halting_violations(out, T)
        cases += per
        failures += int(bad.sum())
        if counterexample is None and bad.any():
            row = out[np.argmax(bad)]
            counterexample = {"data": data.round(3).tolist(), "transcript": row.astype(int).tolist(), "T": T}
    return {"cases": cases, "failures": failures, "counterexample": counterexample}


def _halting_violations(out: np.ndarray, T: int) -> np.ndarray:
    """Per transcript: True when it breaks the halting rule of Alg 1."""
    valid = np.isin(out, (-1, 0, 1)).all(axis=1)
    bottoms = np.cumsum(out == 0, axis=1)
    halted_before = np.concatenate([np.zeros((out.shape[0], 1), bool), bottoms[:, :-1] >= T + 1], axis=1)
    expected_missing = halted_before
    ok = valid & (bottoms[:, -1] <= T + 1) & np.all((out == -1) == expected_missing, axis=1)
    return ~ok


# =========================================================================== distance to instability

_CTRL_DTI_2X = Control("distance_to_instability_2x_noise", f"{_M}:distance_to_instability_2x_noise",
                       "A_stab adding Lap(2/epsilon) (as if dist had sensitivity 2), threshold unchanged")
_CTRL_DTI_SHIFT = Control("distance_to_instability_threshold_shifted",
                          f"{_M}:distance_to_instability_threshold_shifted",
                          "A_stab with the threshold Gamma shifted up by 1/epsilon")
_CTRL_DTI_HALF = Control("distance_to_instability_threshold_halved",
                         f"{_M}:distance_to_instability_threshold_halved",
                         "A_stab with half the paper's threshold, log(1/delta)/(2 epsilon)")
_CTRL_DTI_LEAK = Control("distance_to_instability_leaks_distance",
                         f"{_M}:distance_to_instability_leaks_distance",
                         "A_stab that outputs a noisy distance instead of bottom")
_LABEL = 3


def _stability(ctx: Context, env: dict) -> float:
    """The stability Thm 3.5 requires, (log(1/delta) + log(1/beta))/epsilon."""
    for name in ("stability", "k", "required_stability", "error_bound"):
        if name in env and name not in ctx.spec.parameters:
            return scalar(env[name])
    return (math.log(1 / scalar(env["delta"])) + math.log(1 / scalar(env["beta"]))) / scalar(env["epsilon"])


def _threshold(env: dict) -> float:
    for name in ("Gamma", "threshold", "gamma_threshold"):
        if name in env:
            return scalar(env[name])
    return math.log(1 / scalar(env["delta"])) / scalar(env["epsilon"])


@experiment(
    "distance_to_instability", "Theorem 3.5", "boundary", "bound",
    title="if f(D) is k-stable with k = (log(1/delta) + log(1/beta))/epsilon, P[output != f(D)] <= beta",
    instance="f(D) = 0 in half the trials and 3 in the rest, with dist = ceil(k) (the smallest integer distance meeting "
             "the precondition); "
             "sweep dist = Gamma .. Gamma + 2 log(1/beta)/epsilon",
    predicate="failure: the output is not f(D)",
    trials={"quick": 50_000, "full": 2_000_000},
    params={"epsilon": 1.0, "delta": 1e-3, "beta": 0.05},
    controls=(_CTRL_DTI_2X,),
    slack_definition="k_beta / k, where k_beta is the smallest distance to instability at which the measured "
                     "failure rate is <= beta (interpolated on the sweep grid) and k the theorem's requirement",
)
def _dti_utility(ctx: Context) -> dict:
    env = ctx.env
    beta = scalar(env.get("failure_probability", env["beta"]))
    k = _stability(ctx, env)
    gamma = _threshold(env)
    d = math.ceil(k - 1e-9)
    half = ctx.trials // 2  # f(D) = 0 (a falsy label) in half the trials, _LABEL in the rest
    failures = 0
    for label, n in ((0, half), (_LABEL, ctx.trials - half)):
        out = ctx.sample(np.array([label, d], dtype=float), n).reshape(n)
        failures += int(np.sum(out != label))
    eps = scalar(env["epsilon"])
    grid = np.unique(np.round(np.linspace(gamma, gamma + 2 * math.log(1 / beta) / eps, 12)))
    n_sweep = max(2000, ctx.trials // 5)
    counts = []
    for dist in grid:
        o = ctx.sample(np.array([_LABEL, dist], dtype=float), n_sweep).reshape(n_sweep)
        counts.append(int(np.sum(o != _LABEL)))
    rates = np.array(counts) / n_sweep
    k_beta = first_crossing(grid, rates, beta)
    # the theorem inverted: dist = (log(1/delta) + log(1/beta'))/epsilon  <=>  beta' = exp(log(1/delta) - eps dist)
    implied = np.minimum(1.0, np.exp(math.log(1 / scalar(env["delta"])) - eps * grid))
    ci = [clopper_pearson(c, n_sweep) for c in counts]
    return {
        "failures": failures, "trials": ctx.trials, "beta": beta, "error_bound": k,
        "error_quantile": k_beta, "slack": None if k_beta is None else k_beta / k,
        "instance": {"labels": [0, _LABEL], "dist": d},
        "sweep": {
            "title": "Distance to instability (Thm 3.5): failure rate against the stability",
            "x": grid.tolist(), "x_label": "distance to instability dist_f(D)",
            "measured": rates.tolist(), "lower": [c[0] for c in ci], "upper": [c[1] for c in ci],
            "measured_label": "measured P[output != f(D)]",
            "bound": implied.tolist(), "bound_label": "theorem: beta at which k(beta) = dist",
            "y_label": "P[failure]", "log_y": True, "target": beta, "target_label": "beta",
            "empirical": k_beta, "theorem": k, "empirical_label": "empirical stability k_beta",
            "theorem_label": "theorem's k", "trials_per_point": n_sweep,
        },
    }


@experiment(
    "distance_to_instability", "Theorem 3.5", "exact-release", "calibration",
    title="P[release | dist = d] = P[d + Lap(1/epsilon) > Gamma] at d near Gamma (notes 3.3)",
    instance="f(D) = 3 with dist = round(Gamma) - 2, round(Gamma), round(Gamma) + 2; f(D) = 0 (a falsy label: 'released "
             "and label or -1' never releases it) with dist = round(Gamma), round(Gamma) + 2",
    predicate="event: the output is f(D)",
    trials={"quick": 50_000, "full": 2_000_000},
    params={"epsilon": 1.0, "delta": 1e-3},
    controls=(_CTRL_DTI_SHIFT,),
)
def _dti_exact(ctx: Context) -> dict:
    env = ctx.env
    eps, gamma = scalar(env["epsilon"]), _threshold(env)
    cells = []
    for label, offset in ((_LABEL, -2), (_LABEL, 0), (_LABEL, 2), (0, 0), (0, 2)):
        d = float(round(gamma) + offset)
        out = ctx.sample(np.array([label, d]), ctx.trials).reshape(ctx.trials)
        cells.append(Cell(f"dist = {d:g}" + (f", f(D) = {label}" if label != _LABEL else ""), ctx.trials,
                          int(np.sum(out == label)),
                          float(release_probability(d, gamma, eps)),
                          tuple(float(release_probability(d, gamma, eps, scale=f / eps))
                                for f in (1 + NOISE_FUDGE, 1 - NOISE_FUDGE))))
    return {"cells": cells}


@experiment(
    "distance_to_instability", "Lemma 3.4", "delta-event", "bound",
    title="delta-event of Theorem 3.2's proof: P[release | dist = 0] <= delta",
    instance="f(D) = 3 with dist = 0 (a neighbour may change f), delta = 0.05 so the event is measurable",
    predicate="failure: the output is f(D) although f is unstable (exact probability delta/2)",
    trials={"quick": 50_000, "full": 2_000_000},
    params={"epsilon": 1.0, "delta": 0.05},
    controls=(_CTRL_DTI_HALF,),
    slack_definition="measured release rate at dist = 0 divided by delta",
)
def _dti_delta_event(ctx: Context) -> dict:
    delta = scalar(ctx.env.get("failure_probability", ctx.env["delta"]))
    out = ctx.sample(np.array([_LABEL, 0.0]), ctx.trials).reshape(ctx.trials)
    failures = int(np.sum(out == _LABEL))
    return {"failures": failures, "trials": ctx.trials, "beta": delta,
            "slack": failures / ctx.trials / delta, "instance": {"label": _LABEL, "dist": 0}}


@experiment(
    "distance_to_instability", "Theorem 3.2", "output-space", "property",
    title="A_stab's output space: exactly f(D) or bottom (-1), nothing else (trap P10; a convention of Alg 2 and "
          "its encoding, the privacy claim itself is the audit's)",
    instance="random labels in 0..9 and distances in 0..2 Gamma, 100 instances",
    predicate="every output equals f(D) or -1",
    trials={"quick": 20_000, "full": 500_000},
    params={"epsilon": 1.0, "delta": 1e-3},
    controls=(_CTRL_DTI_LEAK,), tests="conformance",
)
def _dti_output_space(ctx: Context) -> dict:
    gamma = _threshold(ctx.env)
    instances = 100
    per = max(1, ctx.trials // instances)
    cases = failures = 0
    counterexample = None
    for _ in range(instances):
        label = int(ctx.rng.integers(0, 10))
        dist = float(ctx.rng.integers(0, int(2 * gamma) + 2))
        out = ctx.sample(np.array([label, dist], dtype=float), per).reshape(per)
        bad = ~((out == label) | (out == -1))
        cases += per
        failures += int(bad.sum())
        if counterexample is None and bad.any():
            counterexample = {"data": [label, dist], "output": float(out[np.argmax(bad)])}
    return {"cases": cases, "failures": failures, "counterexample": counterexample}
