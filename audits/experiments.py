"""The experiment registry: how each theorem of a spec is checked.

An :class:`Experiment` is registered per ``(spec id, theorem ref)`` with :func:`experiment`
(one theorem may have several: a paper-level bound, an exact calibration, a property). It
holds an instance family that meets the theorem's preconditions, a success predicate, a
trial count per suite, and its negative controls: deliberately broken implementations
(``dptestbed.impl.controls``) that the check must report as violated.

The ``run`` function of an experiment receives a :class:`Context` (the implementation under
test, the spec bound at the experiment's parameter point, a seeded generator, the trial
count) and returns a measurement:

* kind ``bound``: ``{"failures", "trials", "beta"}`` plus optional ``"slack"``,
  ``"error_quantile"``, ``"error_bound"``, ``"sweep"`` (a curve for the report);
* kind ``calibration``: ``{"cells": [theorems.Cell, ...]}``;
* kind ``property``: ``{"cases", "failures", "counterexample"}``.

The implementation is only ever sampled through ``ctx.sample`` (``runner.call_batch``), so
the same experiments run against a user implementation (``dptestbed check ID --impl REF``).

Theorems of kind ``privacy`` are covered by the privacy audit of their spec; any other
theorem without a registered experiment is listed in the report as "not yet checked".
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from dptestbed.spec import Spec

from .theorems import NOISE_FUDGE, Cell

SUITES = ("quick", "full")


@dataclass(frozen=True)
class Control:
    """A broken implementation the check must flag."""

    name: str
    implementation: str  # "package.module:function"
    description: str


@dataclass(frozen=True)
class Experiment:
    spec: str
    ref: str
    name: str  # short id, unique per (spec, ref)
    kind: str  # bound | calibration | property
    title: str  # what is checked, one line
    instance: str  # the instance family (meets the preconditions), in words
    predicate: str  # the success predicate / event counted, in words
    run: Callable[["Context"], dict]
    trials: dict  # suite -> trials
    params: dict = field(default_factory=dict)  # parameter overrides (the experiment's point)
    controls: tuple[Control, ...] = ()
    slack_definition: str = ""
    seconds: dict = field(default_factory=lambda: {"quick": 120.0, "full": 900.0})  # time limit

    @property
    def id(self) -> str:
        return f"{self.spec}/{self.ref}/{self.name}"


REGISTRY: dict[tuple[str, str], list[Experiment]] = {}
# Modules holding further experiments; they register themselves when imported. They import this
# module, so they are loaded on first use (load_registry), never at import time of this module.
EXPERIMENT_MODULES = ("experiments_queries", "experiments_soft_label", "experiments_records")


def load_registry() -> dict[tuple[str, str], list[Experiment]]:
    """The registry with every experiment module imported (the papers' included)."""
    from .discovery import load_papers

    for name in EXPERIMENT_MODULES:
        importlib.import_module(f"{__package__}.{name}")
    load_papers()
    return REGISTRY


def experiment(spec: str, ref: str, name: str, kind: str, *, title: str, instance: str, predicate: str,
               trials: dict, params: dict | None = None, controls=(), slack_definition: str = "",
               seconds: dict | None = None):
    """Decorator registering ``run(ctx) -> measurement`` as an experiment."""

    def register(run):
        exp = Experiment(spec, ref, name, kind, title, instance, predicate, run, dict(trials),
                         dict(params or {}), tuple(controls), slack_definition,
                         dict(seconds or {"quick": 120.0, "full": 900.0}))
        entries = REGISTRY.setdefault((spec, ref), [])
        if any(e.name == name for e in entries):
            raise ValueError(f"experiment {exp.id} registered twice")
        entries.append(exp)
        return run

    return register


def experiments_for(spec: Spec) -> list[Experiment]:
    """The experiments registered for the theorems of ``spec``, in theorem order."""
    out = []
    for theorem in spec.theorems:
        out.extend(load_registry().get((spec.id, theorem.ref), []))
    return out


def unchecked_theorems(spec: Spec) -> list[dict]:
    """Theorems of ``spec`` with no experiment, and how (if at all) they are covered."""
    rows = []
    for theorem in spec.theorems:
        if load_registry().get((spec.id, theorem.ref)):
            continue
        if theorem.kind == "privacy" and spec.privacy is not None:
            status = "covered by the privacy audit"
        else:
            status = "not yet checked"
        rows.append({"spec": spec.id, "ref": theorem.ref, "kind": theorem.kind, "status": status})
    return rows


# --------------------------------------------------------------------------- context


@dataclass
class Context:
    spec: Spec
    experiment: Experiment
    impl: Callable
    params: dict  # parameter values (spec parameters only)
    trials: int
    rng: np.random.Generator
    timeout: float = 60.0
    isolate: bool | None = None

    def __post_init__(self):
        self.env = self.bind()

    @property
    def theorem(self):
        return next(t for t in self.spec.theorems if t.ref == self.experiment.ref)

    def bind(self, **overrides) -> dict:
        """Parameters + derived quantities + this theorem's quantities at the experiment point
        (with ``overrides``)."""
        env = self.spec.bind({**self.params, **overrides})
        return theorem_values(self.spec, self.experiment.ref, env)

    def sample(self, data, n: int, **overrides) -> np.ndarray:
        """``n`` outputs of the implementation under test on ``data``."""
        from .runner import call_batch

        params = {k: _plain(v) for k, v in {**self.params, **overrides}.items() if k in self.spec.parameters}
        return np.asarray(call_batch(self.impl, data, int(n), rng=self.rng, params=params,
                                     timeout=self.timeout, isolate=self.isolate))


def theorem_values(spec: Spec, ref: str, env: dict) -> dict:
    """``env`` extended with the quantities of theorem ``ref`` (they may refer to each other)."""
    theorem = next(t for t in spec.theorems if t.ref == ref)
    scope = dict(env)
    for _ in range(len(theorem.quantities)):
        for name, formula in theorem.quantities.items():
            if name not in scope and formula.names <= scope.keys():
                scope[name] = formula.evaluate(scope)
    return scope


def preconditions(spec: Spec, ref: str, env: dict) -> list[dict]:
    """The theorem's formula preconditions evaluated at ``env`` (None when not evaluable)."""
    theorem = next(t for t in spec.theorems if t.ref == ref)
    out = []
    for formula in theorem.preconditions:
        holds = bool(np.all(formula.evaluate(env))) if formula.names <= env.keys() else None
        out.append({"formula": formula.source, "latex": formula.latex(), "holds": holds})
    return out


def _plain(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value.item()
    return value


def _f(x) -> float:
    return float(np.asarray(x))


def _first_crossing(x: np.ndarray, rates: np.ndarray, target: float) -> float | None:
    """Smallest x at which the (decreasing) measured rate falls to ``target`` or below,
    log-linearly interpolated between grid points; None if it never does on the grid."""
    below = np.nonzero(rates <= target)[0]
    if below.size == 0:
        return None
    j = int(below[0])
    if j == 0:
        return float(x[0])
    r0, r1 = rates[j - 1], rates[j]
    if r1 <= 0 or r0 <= 0:
        lo, hi = r0, max(r1, 1e-12)
        t = (r0 - target) / max(r0 - r1, 1e-12)
    else:
        t = (math.log(r0) - math.log(target)) / max(math.log(r0) - math.log(max(r1, 1e-300)), 1e-12)
    return float(x[j - 1] + min(max(t, 0.0), 1.0) * (x[j] - x[j - 1]))


def _implied_failure(ctx: Context, quantity: str, values: np.ndarray, decreasing: bool = True) -> np.ndarray:
    """Invert the theorem: for each value of ``quantity`` (an error bound or a stability
    requirement, a function of beta), the beta at which the theorem's ``quantity`` equals
    it (capped at 1). Done on a log grid of beta through the spec's own formulas."""
    betas = np.logspace(-300, math.log10(0.999999), 3000)
    qs = []
    for b in betas:
        try:
            qs.append(_f(ctx.bind(beta=float(b))[quantity]))
        except ValueError:
            qs.append(np.nan)
    qs = np.asarray(qs)
    ok = np.isfinite(qs)
    betas, qs = betas[ok], qs[ok]
    order = np.argsort(qs)
    out = np.interp(values, qs[order], np.log(betas[order]), left=0.0, right=-np.inf)
    out = np.exp(out)
    # below the smallest bound the theorem says nothing: failure probability <= 1
    out[values < qs.min()] = 1.0
    return np.minimum(out, 1.0)


# --------------------------------------------------------------------------- closed forms (notes App. A)


def margin_sweep(ctx: Context, failures_at: Callable[[float, int], int], bound: float, beta: float,
                 fractions: np.ndarray, *, title: str, x_label: str, theorem_label: str, bound_label: str) -> dict:
    """A bound check at the theorem's margin plus a sweep of the failure rate over
    ``fractions * bound``: ``failures_at(margin, n)`` counts failures in n runs. The slack is
    a_beta / bound, a_beta the smallest swept margin whose measured rate is <= beta."""
    from .theorems import clopper_pearson

    failures = failures_at(bound, ctx.trials)
    margins = fractions * bound
    n_sweep = max(2000, ctx.trials // 5)
    counts = np.array([failures_at(a, n_sweep) for a in margins])
    rates = counts / n_sweep
    a_beta = _first_crossing(margins, rates, beta)
    implied = _implied_failure(ctx, "error_bound", margins)
    ci = [clopper_pearson(int(c), n_sweep) for c in counts]
    return {
        "failures": failures, "trials": ctx.trials, "beta": beta, "error_bound": bound,
        "error_quantile": a_beta, "slack": None if a_beta is None else a_beta / bound,
        "sweep": {
            "title": title, "x": margins.tolist(), "x_label": x_label,
            "measured": rates.tolist(), "lower": [c[0] for c in ci], "upper": [c[1] for c in ci],
            "measured_label": "measured failure rate", "bound": implied.tolist(), "bound_label": bound_label,
            "y_label": "P[failure]", "log_y": True, "target": beta, "target_label": "beta",
            "empirical": a_beta, "theorem": bound, "empirical_label": "empirical margin a_beta",
            "theorem_label": theorem_label, "trials_per_point": n_sweep,
        },
    }


def laplace_sf(t, b):
    """P[Lap(b) > t] (App. A1)."""
    t = np.asarray(t, dtype=float)
    return np.where(t >= 0, 0.5 * np.exp(-np.abs(t) / b), 1 - 0.5 * np.exp(-np.abs(t) / b))


def svt_top_probability(t, lam):
    """S(t) = P[Lap(2 lam) - Lap(lam) > t] (App. A2): the probability of top for a single
    query at q with a fresh threshold, t = w - q (App. A3)."""
    t = np.asarray(t, dtype=float)
    a = np.abs(t)
    s = (2 / 3) * np.exp(-a / (2 * lam)) - (1 / 6) * np.exp(-a / lam)
    return np.where(t >= 0, s, 1 - s)


def release_probability(d, gamma_threshold, epsilon, scale=None):
    """P[A_stab releases f(D) | dist = d] = P[d + Lap(1/epsilon) > Gamma] (seed 000 Sec. 3.3)."""
    scale = 1 / epsilon if scale is None else scale
    return laplace_sf(np.asarray(gamma_threshold, dtype=float) - np.asarray(d, dtype=float), scale)


def _fudged(fn, *args, scale_index: int):
    """The closed form with its noise scale off by +-30% (the reference alternatives)."""
    out = []
    for factor in (1 + NOISE_FUDGE, 1 - NOISE_FUDGE):
        a = list(args)
        a[scale_index] = a[scale_index] * factor
        out.append(fn(*a))
    return out


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
    beta = _f(env["failure_probability"])
    radius = _f(env["error_bound"])
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
        lo_hi = _quantile_interval(e, 1 - beta)
        lows.append(lo_hi[0])
        highs.append(lo_hi[1])
        bounds.append(_f(ctx.bind(p=d)["error_bound"]))
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


def _quantile_interval(sample: np.ndarray, level: float, confidence: float = 0.95) -> tuple[float, float]:
    """Distribution-free (order statistic) confidence interval for a quantile."""
    from scipy import stats

    n = sample.size
    s = np.sort(sample)
    a = (1 - confidence) / 2
    lo = int(stats.binom.ppf(a, n, level))
    hi = int(stats.binom.isf(a, n, level))
    return float(s[max(lo - 1, 0)]), float(s[min(hi, n - 1)])


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
    return tail_calibration(ctx, _f(ctx.env["b"]), laplace_sf, "b")


def tail_calibration(ctx: Context, scale: float, sf: Callable, unit: str) -> dict:
    """Cells P[output > t] = sf(t, scale) at t = scale/2, scale, 2 scale for f(D) = 0 (p = 1);
    the fudged probabilities (30% more / less noise) give the check's power."""
    out = ctx.sample(np.zeros(1), ctx.trials).reshape(ctx.trials, -1)[:, 0]
    cells = []
    for mult in (0.5, 1.0, 2.0):
        t = mult * scale
        cells.append(Cell(f"t = {mult:g} {unit}", ctx.trials, int(np.sum(out > t)), float(sf(t, scale)),
                          tuple(float(x) for x in _fudged(sf, t, scale, scale_index=1))))
    return {"cells": cells}


# =========================================================================== sparse vector

_CTRL_SVT3 = Control("sparse_vector_3x_noise", "dptestbed.impl.model_agnostic.controls:sparse_vector_3x_noise",
                     "sparse vector with lam three times too large (threshold and query noise)")
_CTRL_SVT13 = Control("sparse_vector_30pct_more_noise", "dptestbed.impl.model_agnostic.controls:sparse_vector_30pct_more_noise",
                      "sparse vector with lam 30% too large")
_CTRL_SVT_HALT = Control("sparse_vector_halts_early", "dptestbed.impl.model_agnostic.controls:sparse_vector_halts_early",
                         "sparse vector that halts after T bottoms instead of T + 1 (loop `while c < T`)")


def _svt_boundary(ctx: Context, margin: float) -> np.ndarray:
    """The instance family of Thm 2.8: T answers far below w (bottom, in L(alpha)) first, all
    others just above w + margin (so |L(margin)| = T exactly)."""
    m, T, w = int(ctx.params["m"]), int(ctx.params["T"]), float(ctx.params["w"])
    data = np.full(m, np.nextafter(w + margin, np.inf))
    data[:T] = w - 2 * margin - 50 * _f(ctx.env["lam"])
    return data


@experiment(
    "sparse_vector", "Theorem 2.8", "boundary", "bound",
    title="P[some query above w + alpha is not answered top] <= beta",
    instance="m = 20, T = 2: T answers far below w first (certain bottoms, |L(alpha)| = T), the other m - T "
             "just above w + alpha (the boundary); margin sweep a = alpha/20 .. alpha",
    predicate="failure: some query i not in L(alpha) gets bottom or is not answered",
    trials={"quick": 20_000, "full": 500_000},
    params={"m": 20, "T": 2, "w": 0.0, "epsilon": 1.0, "beta": 0.05},
    controls=(_CTRL_SVT3,),
    slack_definition="a_beta / alpha, where a_beta is the smallest margin above w at which the measured "
                     "failure rate on this family is <= beta (interpolated on the sweep grid)",
)
def _svt_accuracy(ctx: Context) -> dict:
    env = ctx.env
    alpha, beta = _f(env["error_bound"]), _f(env["failure_probability"])
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
    lam = _f(ctx.env["lam"])
    w = float(ctx.params["w"])
    cells = []
    for mult in (-2.0, -0.5, 1.0):
        q = w + mult * lam
        out = ctx.sample(np.array([q]), ctx.trials).reshape(ctx.trials, -1)[:, 0]
        cells.append(Cell(f"q = w {'+' if mult >= 0 else '-'} {abs(mult):g} lam", ctx.trials, int(np.sum(out == 1)),
                          float(svt_top_probability(w - q, lam)),
                          tuple(float(x) for x in _fudged(svt_top_probability, w - q, lam, scale_index=1))))
    return {"cells": cells}


@experiment(
    "sparse_vector", "Theorem 2.7", "halting", "property",
    title="transcripts answer every query until the (T+1)-th bottom, then nothing (loop while c <= T)",
    instance="m = 12, T = 2; answers drawn uniformly in w +- 2 lam (many bottoms and tops), 200 instances",
    predicate="each transcript is in {1, 0, -1}^m, has at most T+1 bottoms, no -1 before the (T+1)-th "
              "bottom and only -1 after it",
    trials={"quick": 20_000, "full": 500_000},
    params={"m": 12, "T": 2, "w": 0.0, "epsilon": 1.0},
    controls=(_CTRL_SVT_HALT,),
)
def _svt_halting(ctx: Context) -> dict:
    m, T, w = int(ctx.params["m"]), int(ctx.params["T"]), float(ctx.params["w"])
    lam = _f(ctx.env["lam"])
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

_CTRL_DTI_2X = Control("distance_to_instability_2x_noise", "dptestbed.impl.model_agnostic.controls:distance_to_instability_2x_noise",
                       "A_stab adding Lap(2/epsilon) (as if dist had sensitivity 2), threshold unchanged")
_CTRL_DTI_SHIFT = Control("distance_to_instability_threshold_shifted",
                          "dptestbed.impl.model_agnostic.controls:distance_to_instability_threshold_shifted",
                          "A_stab with the threshold Gamma shifted up by 1/epsilon")
_CTRL_DTI_HALF = Control("distance_to_instability_threshold_halved",
                         "dptestbed.impl.model_agnostic.controls:distance_to_instability_threshold_halved",
                         "A_stab with half the paper's threshold, log(1/delta)/(2 epsilon)")
_CTRL_DTI_LEAK = Control("distance_to_instability_leaks_distance",
                         "dptestbed.impl.model_agnostic.controls:distance_to_instability_leaks_distance",
                         "A_stab that outputs a noisy distance instead of bottom")
_LABEL = 3


def _stability(ctx: Context, env: dict) -> float:
    """The stability Thm 3.5 requires, (log(1/delta) + log(1/beta))/epsilon."""
    for name in ("stability", "k", "required_stability", "error_bound"):
        if name in env and name not in ctx.spec.parameters:
            return _f(env[name])
    return (math.log(1 / _f(env["delta"])) + math.log(1 / _f(env["beta"]))) / _f(env["epsilon"])


def _threshold(env: dict) -> float:
    for name in ("Gamma", "threshold", "gamma_threshold"):
        if name in env:
            return _f(env[name])
    return math.log(1 / _f(env["delta"])) / _f(env["epsilon"])


@experiment(
    "distance_to_instability", "Theorem 3.5", "boundary", "bound",
    title="if f(D) is k-stable with k = (log(1/delta) + log(1/beta))/epsilon, P[output != f(D)] <= beta",
    instance="f(D) = 3 with dist = ceil(k) (the smallest integer distance meeting the precondition); "
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
    beta = _f(env.get("failure_probability", env["beta"]))
    k = _stability(ctx, env)
    gamma = _threshold(env)
    d = math.ceil(k - 1e-9)
    out = ctx.sample(np.array([_LABEL, d], dtype=float), ctx.trials).reshape(ctx.trials)
    failures = int(np.sum(out != _LABEL))
    eps = _f(env["epsilon"])
    grid = np.unique(np.round(np.linspace(gamma, gamma + 2 * math.log(1 / beta) / eps, 12)))
    n_sweep = max(2000, ctx.trials // 5)
    counts = []
    for dist in grid:
        o = ctx.sample(np.array([_LABEL, dist], dtype=float), n_sweep).reshape(n_sweep)
        counts.append(int(np.sum(o != _LABEL)))
    rates = np.array(counts) / n_sweep
    k_beta = _first_crossing(grid, rates, beta)
    # the theorem inverted: dist = (log(1/delta) + log(1/beta'))/epsilon  <=>  beta' = exp(log(1/delta) - eps dist)
    implied = np.minimum(1.0, np.exp(math.log(1 / _f(env["delta"])) - eps * grid))
    from .theorems import clopper_pearson
    ci = [clopper_pearson(c, n_sweep) for c in counts]
    return {
        "failures": failures, "trials": ctx.trials, "beta": beta, "error_bound": k,
        "error_quantile": k_beta, "slack": None if k_beta is None else k_beta / k,
        "instance": {"label": _LABEL, "dist": d},
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
    instance="f(D) = 3 with dist = round(Gamma) - 2, round(Gamma), round(Gamma) + 2",
    predicate="event: the output is f(D)",
    trials={"quick": 50_000, "full": 2_000_000},
    params={"epsilon": 1.0, "delta": 1e-3},
    controls=(_CTRL_DTI_SHIFT,),
)
def _dti_exact(ctx: Context) -> dict:
    env = ctx.env
    eps, gamma = _f(env["epsilon"]), _threshold(env)
    cells = []
    for offset in (-2, 0, 2):
        d = float(round(gamma) + offset)
        out = ctx.sample(np.array([_LABEL, d]), ctx.trials).reshape(ctx.trials)
        cells.append(Cell(f"dist = {d:g}", ctx.trials, int(np.sum(out == _LABEL)),
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
    delta = _f(ctx.env.get("failure_probability", ctx.env["delta"]))
    out = ctx.sample(np.array([_LABEL, 0.0]), ctx.trials).reshape(ctx.trials)
    failures = int(np.sum(out == _LABEL))
    return {"failures": failures, "trials": ctx.trials, "beta": delta,
            "slack": failures / ctx.trials / delta, "instance": {"label": _LABEL, "dist": 0}}


@experiment(
    "distance_to_instability", "Theorem 3.2", "output-space", "property",
    title="A_stab releases exactly f(D) or bottom (-1), nothing else (trap P10)",
    instance="random labels in 0..9 and distances in 0..2 Gamma, 100 instances",
    predicate="every output equals f(D) or -1",
    trials={"quick": 20_000, "full": 500_000},
    params={"epsilon": 1.0, "delta": 1e-3},
    controls=(_CTRL_DTI_LEAK,),
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
    return tail_calibration(ctx, _f(ctx.env["sigma"]), gaussian_sf, "sigma")


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
    gap, beta = _f(env["error_bound"]), _f(env["failure_probability"])
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
    eps, sens = _f(ctx.env["epsilon"]), _f(ctx.env["sensitivity"])
    losses = np.array([0.0, 0.5, 1.0, 2.0, 4.0]) * sens
    out = ctx.sample(losses, ctx.trials).reshape(ctx.trials)
    exact = exponential_probabilities(losses, eps, sens)
    alts = [exponential_probabilities(losses, eps / f, sens) for f in (1 + NOISE_FUDGE, 1 - NOISE_FUDGE)]
    cells = [Cell(f"select {i} (u = {u:g})", ctx.trials, int(np.sum(out == i)), float(exact[i]),
                  tuple(float(a[i]) for a in alts)) for i, u in enumerate(losses)]
    return {"cells": cells}


# =========================================================================== audit expectations

def expected_audit(spec: Spec) -> str | None:
    """The expected verdict of the privacy audit of ``spec`` ("violation" or None)."""
    return spec.expected_privacy_verdict

