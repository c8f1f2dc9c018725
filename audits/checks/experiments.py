"""The experiment registry: how each theorem of a spec is checked.

An :class:`Experiment` is registered per ``(spec id, theorem ref)`` with :func:`experiment`
(one theorem may have several: a paper-level bound, an exact calibration, a property). It
holds an instance family that meets the theorem's preconditions, a success predicate, a
trial count per suite, and its negative controls: deliberately broken implementations
(``dptestbed.impl.<paper>``) that the check must report as violated. Each paper registers its
experiments from ``audits/<paper>/``; :func:`run_check` runs one against one implementation.

The ``run`` function of an experiment receives a :class:`Context` (the implementation under
test, the spec bound at the experiment's parameter point, a seeded generator, the trial
count) and returns a measurement:

* kind ``bound``: ``{"failures", "trials", "beta"}`` plus optional ``"slack"``,
  ``"error_quantile"``, ``"error_bound"``, ``"sweep"`` (a curve for the report);
* kind ``calibration``: ``{"cells": [theorems.Cell, ...]}``;
* kind ``property``: ``{"cases", "failures", "counterexample"}``: an exact fact, checked on every
  case; a correct implementation never fails it (a statement that holds only with high
  probability is a ``bound`` check, so that its false alarms are counted);
* kind ``test``: any other Monte-Carlo test, inside the family-wise accounting like the others:
  ``{"p_value", "power", "trials", "alternative"}`` plus anything to show. ``p_value`` is valid under
  the check's null (the statement holds, or the implementation is the spec's algorithm);
  ``power`` is the test's power at ``ctx.level`` (the run's per-check level, alpha_fw / K, known
  before any item runs) against the alternative the text ``alternative`` names (None: not stated,
  never "no power"). Holm's correction then decides it with the bound and calibration checks.

A ``bound`` measurement may also carry ``"alternative"`` (the failure rate its power is stated
against, instead of :func:`.theorems.reference_alternative`), ``"alternative_text"`` (what that
rate is) and ``"charged"`` (a probability its own construction may be wrong with, added to its
p-value), and any measurement ``"at"``: the parameter point its statement was measured at (the
report prints it beside the claim; by default the experiment's ``params`` and the parameters its
``ctx.bind`` calls set, never the spec's defaults).

What a check tests (``tests``): ``"claim"``, a theorem's statement about the implementation's output
(a rejected bound, a failed property: "claim violated"), or ``"conformance"``, the implementation's
law or behaviour against the spec's algorithm (an exact-law calibration, a transcript law, a
convention of the reference: "differs from the spec"). The default follows the kind: bound and
property checks test the claim, calibrations conformance (see :mod:`..base.verdict`).

The implementation is only ever sampled through ``ctx.sample`` (``runner.call_batch``), so
the same experiments run against a user implementation (``dptestbed check ID --impl REF``).

Theorems of kind ``privacy`` are covered by the privacy audit of their spec; any other
theorem without a registered experiment is listed in the report with the spec's reason
(``not_checked``), or as "not yet checked".
"""

from __future__ import annotations

import math
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from dptestbed.spec import Spec

from ..base.serialize import jsonable
from ..base.verdict import FAMILY_ALPHA, CheckVerdict
from . import theorems as thm
from .theorems import NOISE_FUDGE

SUITES = ("quick", "full")
TESTS = ("claim", "conformance")


@dataclass(frozen=True)
class Control:
    """A broken implementation the check must flag. ``pipeline``: the reference mechanism with
    the testbed's own plumbing broken (it shows the check's power, but is no implementation bug
    and never counts as a mutant)."""

    name: str
    implementation: str  # "package.module:function"
    description: str
    pipeline: bool = False


@dataclass(frozen=True)
class Experiment:
    spec: str
    ref: str
    name: str  # short id, unique per (spec, ref)
    kind: str  # bound | calibration | property
    title: str  # what is checked, one line
    instance: str  # the instance family (meets the preconditions), in words
    predicate: str  # the success predicate / event counted, in words
    run: Callable[[Context], dict]
    trials: dict  # suite -> trials
    params: dict = field(default_factory=dict)  # parameter overrides (the experiment's point)
    controls: tuple[Control, ...] = ()
    slack_definition: str = ""
    seconds: dict = field(default_factory=lambda: {"quick": 120.0, "full": 900.0})  # time limit
    setup: bool = False  # a setup validation: its verdict does not depend on the implementation
    tests: str = ""  # "claim" | "conformance" (default: by kind, see the module docstring)
    # the reference's own convention where the paper leaves a choice (a tie rule, a calibration constant): another
    # choice is a valid implementation, so a user's result is reported apart and never sets check's exit code
    convention: bool = False

    def __post_init__(self):
        if not self.tests:
            object.__setattr__(self, "tests", "conformance" if self.kind == "calibration" else "claim")
        if self.tests not in TESTS:
            raise ValueError(f"experiment {self.id}: tests must be one of {TESTS}, not {self.tests!r}")

    @property
    def id(self) -> str:
        return f"{self.spec}/{self.ref}/{self.name}"

    def __reduce_ex__(self, protocol):
        """A registered experiment pickles as its registry key (its ``run`` may be a closure), so
        plan items can be sent to the workers of a remote executor; others pickle as usual."""
        if any(e is self for e in REGISTRY.get((self.spec, self.ref), ())):
            return registered_experiment, (self.spec, self.ref, self.name)
        return super().__reduce_ex__(protocol)


def registered_experiment(spec: str, ref: str, name: str) -> Experiment:
    """The experiment registered as ``name`` for theorem ``ref`` of ``spec``."""
    return next(e for e in load_registry()[(spec, ref)] if e.name == name)


REGISTRY: dict[tuple[str, str], list[Experiment]] = {}


def load_registry() -> dict[tuple[str, str], list[Experiment]]:
    """The registry with every paper's experiment modules imported (``audits/<paper>/``; they
    import this module, so they are loaded on first use, never at import time of this one)."""
    from ..base.discovery import load_papers

    load_papers()
    return REGISTRY


def experiment(spec: str, ref: str, name: str, kind: str, *, title: str, instance: str, predicate: str,
               trials: dict, params: dict | None = None, controls=(), slack_definition: str = "",
               seconds: dict | None = None, setup: bool = False, tests: str = "", convention: bool = False):
    """Decorator registering ``run(ctx) -> measurement`` as an experiment. ``setup=True`` marks
    a setup validation (it checks the instance or the testbed, not the implementation): it is
    reported apart from the theorem checks and never counted as killing a mutant. ``tests``:
    "claim" or "conformance" (default by kind, see the module docstring)."""

    def register(run):
        exp = Experiment(spec, ref, name, kind, title, instance, predicate, run, dict(trials),
                         dict(params or {}), tuple(controls), slack_definition,
                         dict(seconds or {"quick": 120.0, "full": 900.0}), setup, tests, convention)
        entries = REGISTRY.setdefault((spec, ref), [])
        if any(e.name == name for e in entries):
            raise ValueError(f"experiment {exp.id} registered twice")
        entries.append(exp)
        return run

    return register


def experiments_for(spec: Spec, suite: str | None = None) -> list[Experiment]:
    """The experiments registered for the theorems of ``spec``, in theorem order (with ``suite``: those
    that run in it, i.e. have a trial count for it; a check without one for the quick suite runs in the
    full suite only, and its text says why)."""
    out: list[Experiment] = []
    for theorem in spec.theorems:
        out.extend(e for e in load_registry().get((spec.id, theorem.ref), []) if suite is None or suite in e.trials)
    return out


def other_suite_only(spec: Spec, suite: str) -> list[dict]:
    """Rows for the report's "not checked" list: the checks of ``spec`` that do not run in ``suite``."""
    return [{"spec": spec.id, "ref": e.ref, "kind": e.kind,
             "status": f"check '{e.name}' runs in the {'/'.join(e.trials)} suite only: {e.title}"}
            for e in experiments_for(spec) if suite not in e.trials]


def theorem_status(spec: Spec, theorem, audited: bool = True) -> str:
    """How a theorem of ``spec`` is covered: "checked" (it has experiments), by the privacy audit (the claim's own
    theorem; ``audited`` False: the run audits no implementation of the spec), or not, and why."""
    if load_registry().get((spec.id, theorem.ref)):
        return "checked"
    if theorem.kind == "privacy" and spec.privacy is not None and theorem.ref == spec.privacy.theorem:
        return "covered by the privacy audit" if audited else "not checked (no implementation)"
    if theorem.not_checked:
        return f"not checked: {theorem.not_checked}"
    if theorem.kind == "privacy" and spec.privacy is not None:
        # another privacy statement (a stronger epsilon, a group, a part): the audit tests only the claim
        return (f"not yet checked (the privacy audit tests the claim of {spec.privacy.theorem}, "
                f"epsilon = {spec.privacy.epsilon.source}, delta = {spec.privacy.delta.source}, not this statement)")
    return "not yet checked"


def unchecked_theorems(spec: Spec) -> list[dict]:
    """Theorems of ``spec`` with no experiment, and how (if at all) they are covered."""
    return [{"spec": spec.id, "ref": t.ref, "kind": t.kind, "status": theorem_status(spec, t)}
            for t in spec.theorems if not load_registry().get((spec.id, t.ref))]


# --------------------------------------------------------------------------- context


@dataclass
class Context:
    spec: Spec
    experiment: Experiment
    impl: str | Callable  # a callable, or a sandboxed worker's reference string
    params: dict  # parameter values (spec parameters only)
    trials: int
    rng: np.random.Generator
    timeout: float = 60.0
    isolate: bool | None = None
    randomness: str = "rng"  # "own": the implementation's own randomness (the independence probe instead)
    level: float = FAMILY_ALPHA  # the run's per-check level alpha_fw / K (a ``test`` check runs at it)

    def __post_init__(self):
        self.bound: dict[str, set] = {}  # parameter -> the values ctx.bind set it to (what the report prints)
        self.env = self.bind()
        self.probed = False
        self.calls = 0  # calls of the implementation under test
        self._reference_rng: np.random.Generator | None = None

    @property
    def theorem(self):
        return next(t for t in self.spec.theorems if t.ref == self.experiment.ref)

    def bind(self, **overrides) -> dict:
        """Parameters + derived quantities + this theorem's quantities at the experiment point
        (with ``overrides``)."""
        self._record(overrides)
        env = self.spec.bind({**self.params, **overrides})
        return self.spec.theorem_values(self.experiment.ref, env)

    def point(self) -> dict:
        """The parameters the check's instance sets: the experiment's own and those every ``bind`` call
        set to one value (a sweep's varying parameter is left out), never the spec's other defaults."""
        out = {k: _plain(v) for k, v in self.experiment.params.items() if len(self.bound.get(k, ())) <= 1}
        out.update({k: next(iter(v)) for k, v in self.bound.items() if len(v) == 1 and k not in out})
        return out

    def _record(self, overrides: dict) -> None:
        """The spec parameters a ``bind`` or a ``sample`` set, with every value they took (see :meth:`point`)."""
        for name, value in overrides.items():
            if name in self.spec.parameters:
                self.bound.setdefault(name, set()).add(_plain(value))

    def sample(self, data, n: int, /, **overrides) -> np.ndarray:
        """``n`` outputs of the implementation under test on ``data`` (the first call also runs
        the contract probe, :func:`..sandbox.probes.probe_contract`, on its own stream)."""
        from ..sandbox.probes import probe_contract
        from ..sandbox.runner import as_runnable, call_batch, missing_reference, runner_for

        params = {k: _plain(v) for k, v in {**self.params, **overrides}.items() if k in self.spec.parameters}
        self._record(overrides)
        self.calls += 1
        if not self.probed:
            self.probed = True
            ref = self.spec.implementation
            reference = None if ref is None or missing_reference(ref) else as_runnable(ref)
            probe_contract(runner_for(self.impl, timeout=self.timeout, isolate=self.isolate),
                           data, params, reference=reference, randomness=self.randomness)
        return np.asarray(call_batch(self.impl, data, int(n), rng=self.rng, params=params,
                                     timeout=self.timeout, isolate=self.isolate))

    def sample_fresh(self, data, n: int, /, **overrides) -> np.ndarray:
        """As :meth:`sample`, by a worker process started for this call alone (:meth:`..sandbox.runner.Runner.
        sample_fresh`): what the implementation answers with nothing run before it in its process (no contract probe:
        call :meth:`sample` first)."""
        from ..sandbox.runner import runner_for

        params = {k: _plain(v) for k, v in {**self.params, **overrides}.items() if k in self.spec.parameters}
        self.calls += 1
        runner = runner_for(self.impl, timeout=self.timeout, isolate=self.isolate)
        return np.asarray(runner.sample_fresh(data, int(n), rng=self.rng, params=params))

    def sample_reference(self, data, n: int, /, **overrides) -> np.ndarray:
        """``n`` outputs of the spec's *reference* implementation on ``data``, from a stream of its
        own (split off the check's stream at the first call): a conformance check compares the
        implementation under test with the spec's algorithm on the same instances."""
        from ..sandbox.runner import as_runnable, call_batch

        if self._reference_rng is None:
            self._reference_rng = np.random.default_rng(self.rng.integers(2**63))
        params = {k: _plain(v) for k, v in {**self.params, **overrides}.items() if k in self.spec.parameters}
        assert self.spec.implementation is not None, f"{self.spec.id} has no reference implementation"
        return np.asarray(call_batch(as_runnable(self.spec.implementation), data, int(n), rng=self._reference_rng,
                                     params=params, timeout=self.timeout))


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


def scalar(x) -> float:
    """A 0-d array or number as a float."""
    return float(np.asarray(x))


def first_crossing(x: np.ndarray, rates: np.ndarray, target: float) -> float | None:
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
        t = (r0 - target) / max(r0 - r1, 1e-12)
    else:
        t = (math.log(r0) - math.log(target)) / max(math.log(r0) - math.log(max(r1, 1e-300)), 1e-12)
    return float(x[j - 1] + min(max(t, 0.0), 1.0) * (x[j] - x[j - 1]))


def implied_failure(ctx: Context, quantity: str, values: np.ndarray, decreasing: bool = True) -> np.ndarray:
    """Invert the theorem: for each value of ``quantity`` (an error bound or a stability
    requirement, a function of beta), the beta at which the theorem's ``quantity`` equals
    it (capped at 1). Done on a log grid of beta through the spec's own formulas."""
    betas = np.logspace(-300, math.log10(0.999999), 3000)
    qs_list = []
    for b in betas:
        try:
            qs_list.append(scalar(ctx.bind(beta=float(b))[quantity]))
        except ValueError:
            qs_list.append(np.nan)
    qs = np.asarray(qs_list)
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
    failures = failures_at(bound, ctx.trials)
    margins = fractions * bound
    n_sweep = max(2000, ctx.trials // 5)
    counts = np.array([failures_at(a, n_sweep) for a in margins])
    rates = counts / n_sweep
    a_beta = first_crossing(margins, rates, beta)
    implied = implied_failure(ctx, "error_bound", margins)
    ci = [thm.clopper_pearson(int(c), n_sweep) for c in counts]
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


DETECTION_LEVEL = 1e-4  # the level at which a comparison's stated detectable multiple has power 1/2
PLUG_IN_LEVEL = 1e-6  # level of the upper confidence bound a two-sample bound check plugs into its beta
COMPARISON_CHARGE = 1e-6  # the probability a competitive check's reference bound is wrong (added to its p-value)


def plug_in_upper(events: int, trials: int) -> float:
    """Upper confidence bound at level PLUG_IN_LEVEL of a rate (Clopper-Pearson): a two-sample
    claim P[X] <= c P[Y] + d becomes the bound check P[X] <= c * this bound of P[Y] + d, whose false-alarm
    rate is at most its test's level plus PLUG_IN_LEVEL (union bound; the check states it as ``charged``)."""
    return thm.upper_bound(int(events), int(trials), 1 - PLUG_IN_LEVEL)


def reference_comparison(impl_errors, reference_errors, *, factor: float, beta: float, worse: float | None = None,
                         charge: float = COMPARISON_CHARGE) -> dict:
    """A competitive bound measurement (``tests="conformance"``): is the implementation's (1 - beta) error
    quantile more than ``factor`` times the spec's algorithm's on the same instances? The bound is
    ``factor`` times an upper confidence bound (one-sided, 1 - ``charge``; order statistics) on the
    reference's (1 - beta) error quantile from the reference's own runs, so the reference itself exceeds it
    with probability at most beta; a failure is an implementation error above it, and ``charge`` is added
    to the p-value (the family pays for the reference's bound). Rejected ("differs from the spec") when the
    implementation exceeds it more often than beta allows. The instance states the multiple of the
    reference's errors it detects (:func:`detectable_factor`); with ``worse``, the power is stated against a
    learner ``worse`` times worse (every error of the reference multiplied by ``worse``), else by the bound
    checks' default alternative."""
    reference_errors = np.asarray(reference_errors, dtype=float)
    q_upper = quantile_upper(reference_errors, 1 - beta, charge)
    bound = factor * q_upper
    impl_errors = np.asarray(impl_errors, dtype=float)
    failures = int(np.sum(impl_errors > bound))
    stated = {} if worse is None else {
        "alternative": max(float(np.mean(worse * reference_errors > bound)), beta),
        "alternative_text": f"a learner {worse:g} times worse than the reference (its errors times {worse:g})"}
    return {"failures": failures, "trials": int(impl_errors.size), "beta": beta, "error_bound": bound,
            "charged": charge, **stated,
            "slack": float(np.quantile(impl_errors, 1 - beta) / bound) if bound > 0 else None,
            "instance": {"reference_quantile_upper": q_upper, "factor": factor, "worse": worse,
                         "reference_runs": int(reference_errors.size),
                         "reference_quantile": float(np.quantile(reference_errors, 1 - beta)),
                         "implementation_quantile": float(np.quantile(impl_errors, 1 - beta)),
                         "reference_mean": float(reference_errors.mean()),
                         "implementation_mean": float(impl_errors.mean()),
                         "detectable_factor": detectable_factor(reference_errors, bound, int(impl_errors.size), beta),
                         "detection_level": DETECTION_LEVEL}}


def detectable_factor(reference_errors: np.ndarray, bound: float, trials: int, beta: float,
                      level: float = DETECTION_LEVEL) -> float | None:
    """The smallest multiple c (0.1 steps, up to 10) such that an implementation whose errors are c times the
    reference's measured ones fails a comparison against ``bound`` with power >= 1/2 at ``level`` (None when
    none up to 10 does): the 'k times worse' a comparison detects."""
    ref = np.asarray(reference_errors, dtype=float)
    for c in np.round(np.arange(1.1, 10.01, 0.1), 2):
        if thm.bound_power(trials, beta, level, float(np.mean(c * ref > bound))) >= 0.5:
            return float(c)
    return None


def rate_comparison(impl_failures: int, impl_trials: int, ref_failures: int, ref_trials: int, *, worse: float,
                    level: float, rare: str = "failure") -> dict:
    """A competitive ``test`` measurement on an event (``tests="conformance"``): the implementation's rate of a
    "failure" (an output other than the target, a missed output) against the spec's algorithm's on the same
    instances, by the one-sided Fisher exact test of H0: the implementation fails no more often than the
    reference (exact whatever the rates; a learner slightly worse than the reference passes at these sizes).
    The power (at ``level``) is stated against a learner ``worse`` times worse: with ``rare="failure"`` failing
    ``worse`` times as often as the reference, with ``rare="success"`` succeeding ``worse`` times less often."""
    from scipy import stats

    rate = ref_failures / ref_trials
    if rare == "failure":
        alternative, text = min(1.0, worse * rate), f"a learner failing {worse:g} times as often as the reference"
    elif rare == "success":
        alternative, text = 1 - (1 - rate) / worse, f"a learner succeeding {worse:g} times less often than the reference"
    else:
        raise ValueError(f"rare must be 'failure' or 'success', not {rare!r}")
    table = [[impl_failures, impl_trials - impl_failures], [ref_failures, ref_trials - ref_failures]]
    p = float(stats.fisher_exact(table, alternative="greater")[1])
    return {"p_value": p, "power": fisher_power(impl_trials, ref_trials, alternative, rate, level),
            "trials": int(impl_trials), "failures": int(impl_failures), "alternative": text,
            "instance": {"reference_rate": rate, "reference_runs": int(ref_trials), "worse": worse,
                         "alternative_rate": alternative, "implementation_rate": impl_failures / impl_trials}}


def rate_difference(impl_hits: int, impl_trials: int, ref_hits: int, ref_trials: int, *, shift: float,
                    level: float, event: str) -> dict:
    """A two-sided competitive ``test`` measurement (``tests="conformance"``): the implementation's rate of ``event``
    (an output of the spec's algorithm's law) against the spec's algorithm's on the same instances, by the Fisher
    exact test both ways, p = 2 min(p_greater, p_less) (at most 1): a law that differs either way, a learner that
    repeats itself more often as well as less. The power (at ``level``) is stated against a rate ``shift`` away from
    the reference's, the smaller of the two ways' (each one-sided at level/2). A "failure" is a run without the
    event."""
    from scipy import stats

    table = [[impl_hits, impl_trials - impl_hits], [ref_hits, ref_trials - ref_hits]]
    p = min(1.0, 2 * min(float(stats.fisher_exact(table, alternative=side)[1]) for side in ("greater", "less")))
    rate = ref_hits / ref_trials
    up, down = min(1.0, rate + shift), max(0.0, rate - shift)
    power = min(fisher_power(impl_trials, ref_trials, up, rate, level / 2),
                fisher_power(impl_trials, ref_trials, 1 - down, 1 - rate, level / 2))
    return {"p_value": p, "power": power, "trials": int(impl_trials), "failures": int(impl_trials - impl_hits),
            "alternative": f"a learner whose rate of {event} is {shift:g} above or below the reference's",
            "instance": {"reference_rate": rate, "reference_runs": int(ref_trials), "shift": shift,
                         "implementation_rate": impl_hits / impl_trials}}


def fisher_power(n1: int, n2: int, p1: float, p2: float, level: float) -> float:
    """Power of the one-sided Fisher exact test (``rate_comparison``) at ``level`` when the first sample
    (n1 runs) fails with probability p1 and the second (n2 runs) with p2: for every count of the second, the
    smallest count of the first the test rejects at (bisection on the hypergeometric tail)."""
    from scipy import stats

    power = 0.0
    for x2 in range(n2 + 1):
        w = stats.binom.pmf(x2, n2, p2)
        if w < 1e-12:
            continue
        lo, hi = 0, n1 + 1                                    # reject iff x1 >= crit (monotone in x1)
        while lo < hi:
            mid = (lo + hi) // 2
            if stats.hypergeom.sf(mid - 1, n1 + n2, mid + x2, n1) <= level:
                hi = mid
            else:
                lo = mid + 1
        power += w * (stats.binom.sf(lo - 1, n1, p1) if lo <= n1 else 0.0)
    return float(min(1.0, power))


def quantile_upper(sample: np.ndarray, level: float, charge: float) -> float:
    """Upper confidence bound (one-sided, 1 - ``charge``; order statistics) on the ``level`` quantile of the
    law ``sample`` was drawn from: the smallest order statistic that is below the quantile with probability
    at most ``charge``; infinite when the sample is too small for that. The runs may also come in equal
    strata (several runs on each of a few fixed instances: the quantile is then the mixture's), since a sum
    of independent Bernoulli counts is at most as spread as the binomial of the same mean (Hoeffding 1956)."""
    from scipy import stats

    s = np.sort(np.asarray(sample, dtype=float))
    n = s.size
    # P[X_(j) < q] <= P[Bin(n, level) >= j]: the smallest j with that at most `charge`
    j = int(stats.binom.isf(charge, n, level)) + 1
    if j > n:
        return float(s[-1]) if level ** n <= charge else math.inf    # too few runs for this confidence
    return float(s[j - 1])


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


def fudged(fn, *args, scale_index: int):
    """The closed form with its noise scale off by +-30% (the reference alternatives)."""
    out = []
    for factor in (1 + NOISE_FUDGE, 1 - NOISE_FUDGE):
        a = list(args)
        a[scale_index] = a[scale_index] * factor
        out.append(fn(*a))
    return out


def quantile_interval(sample: np.ndarray, level: float, confidence: float = 0.95) -> tuple[float, float]:
    """Distribution-free (order statistic) confidence interval for a quantile."""
    from scipy import stats

    n = sample.size
    s = np.sort(sample)
    a = (1 - confidence) / 2
    lo = int(stats.binom.ppf(a, n, level))
    hi = int(stats.binom.isf(a, n, level))
    return float(s[max(lo - 1, 0)]), float(s[min(hi, n - 1)])


# --------------------------------------------------------------------------- running one check


def control_json(control: Control | None) -> dict | None:
    """A negative control as its results name it."""
    return None if control is None else {"name": control.name, "description": control.description,
                                         "pipeline": control.pipeline}


def check_record(spec_id: str, experiment: Experiment, target: str, implementation: str | None,
                 control: Control | None, suite: str | None) -> dict:
    """A theorem check's result before it runs: every key its finished result has (its measurement's None), so
    that a check that ended in an error (:func:`..run.execution.error_result`) has the same shape.
    ``error_kind``: "implementation" (the implementation crashed, hung or broke the contract) or "run" (the
    run's own failure), when ``verdict`` is "error"."""
    return {
        "id": check_id(spec_id, experiment.ref, experiment.name, target, control),
        "spec": spec_id, "ref": experiment.ref, "check": experiment.name, "kind": experiment.kind,
        "title": experiment.title, "instance": experiment.instance, "predicate": experiment.predicate,
        "slack_definition": experiment.slack_definition or None,
        "target": target, "implementation": implementation,
        "control": control_json(control),
        "setup_validation": experiment.setup, "tests": experiment.tests, "convention": experiment.convention,
        "expected": CheckVerdict.VIOLATED if control is not None else None,
        "suite": suite, "params": None, "quantities": None, "preconditions": None,
        "trials": None, "failures": None, "beta": None, "failure_rate": None,
        "failure_rate_upper": None, "p_value": None, "slack": None,
        "verdict": None, "error": None, "error_kind": None,
    }


def run_check(spec, experiment, implementation, *, suite: str = "quick", rng=None, seed=None,
              timeout: float = 60.0, control=None, target: str = "reference", isolate=None,
              trials: int | None = None, randomness: str = "rng", level: float = FAMILY_ALPHA,
              budget: float | None = None) -> dict:
    """Run one registered experiment against one implementation; never raises.

    ``implementation`` is a reference string (``pkg.module:function`` or ``file.py:function``)
    or a callable. ``control`` (an ``experiments.Control``) marks a negative control: the
    result then expects "violated". The verdict of a statistical check is left ``None``
    until :func:`.theorems.apply_multiple_testing` has seen the whole run (call it even for one check).
    ``randomness``: "rng" (default) or "own" (the implementation's own randomness: the contract
    probe checks that its draws do not repeat instead of that they do; :mod:`..sandbox.runner`).
    ``level``: the run's per-check level alpha_fw / K, at which a ``test`` check runs its test.

    Replication: a Monte-Carlo check of an implementation (not a control) whose p-value ``p1`` is at most
    REPLICATE_BELOW runs again on an independent sample (its p-value ``p2``); its p-value is then
    ``max(p1, p2^2)``, valid (under the null P[max(p1, p2^2) <= t] = t^1.5) and rejected at a level ``h`` only
    when the first sample rejects at ``h`` and the second at sqrt(h): one unlucky sample, which every
    implementation drawing from ``rng`` the same way would share, no longer decides. The power stated is that of
    both stages (:func:`.theorems.apply_multiple_testing`). ``budget``: the item's time limit in seconds; the
    second sample is skipped (the first one's p-value stands) when the first took more than REPLICATE_SHARE of it.
    """
    from ..sandbox.runner import ImplementationError, as_runnable, implementation_ref

    t0 = time.perf_counter()
    impl_name = implementation if isinstance(implementation, str) else implementation_ref(implementation)
    result = check_record(spec.id, experiment, target, impl_name, control, suite)
    ctx = None
    try:
        if rng is None:
            rng = np.random.default_rng(seed)
        params = dict(spec.defaults())
        for name, value in experiment.params.items():
            if name not in spec.parameters:
                raise ValueError(f"experiment {experiment.id} sets {name!r}, which is not a parameter of {spec.id}")
            params[name] = value
        impl = as_runnable(implementation)  # an untrusted reference stays a string: sandboxed workers run it
        n = int(trials if trials is not None else experiment.trials.get(suite, max(experiment.trials.values())))
        ctx = Context(spec, experiment, impl, params, n, rng, timeout, isolate, randomness, level)
        result["params"] = ctx.point()
        theorem = ctx.theorem
        result["quantities"] = {name: _plain_number(ctx.env.get(name)) for name in theorem.quantities}
        result["preconditions"] = preconditions(spec, experiment.ref, ctx.env)
        broken = [p["formula"] for p in result["preconditions"] if p["holds"] is False]
        if broken:
            raise ValueError(f"the experiment's parameters violate the precondition(s) {', '.join(broken)}")
        measurement = experiment.run(ctx)
        result["params"] = {**ctx.point(), **{k: _plain_number(v) for k, v in (measurement.pop("at", None) or {}).items()}}
        result["quantities"] = _quantities_at(ctx, result["params"])
        result.update(_summarize(experiment.kind, measurement))
        if experiment.kind in thm.STATISTICAL_KINDS and control is None and result.get("p_value") is not None:
            result["replicated"] = True
            if result["p_value"] <= REPLICATE_BELOW and (
                    budget is None or time.perf_counter() - t0 <= REPLICATE_SHARE * budget):
                again = Context(spec, experiment, impl, params, n, np.random.default_rng(rng.integers(2**63)), timeout,
                                isolate, randomness, level)
                second = _summarize(experiment.kind, experiment.run(again))
                result["replicate"] = {k: second.get(k) for k in ("p_value", "failures", "trials")}
                result["p_value_first"] = result["p_value"]
                result["p_value"] = max(result["p_value"], float(second["p_value"]) ** 2)
    except ImplementationError as exc:
        result.update(verdict="error", error=f"implementation error: {exc.reason}", error_kind="implementation")
    except Exception as exc:  # noqa: BLE001 - one check's crash never stops the run
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" ({tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno})" if tb else ""
        result.update(verdict="error", error=f"{type(exc).__name__}: {exc}{where}", error_kind="run")
    result["calls_implementation"] = None if ctx is None else bool(ctx.calls)
    result["seconds"] = time.perf_counter() - t0
    return jsonable(result)


REPLICATE_BELOW = 0.01  # a check's first p-value at most this: a second, independent sample (run_check)
REPLICATE_SHARE = 0.4  # ... unless the first sample took more than this share of the item's time limit


def _quantities_at(ctx: Context, point: dict) -> dict:
    """The theorem's quantities at the check's own parameter point (the spec's defaults elsewhere)."""
    try:
        env = ctx.spec.theorem_values(ctx.experiment.ref, ctx.spec.bind({**ctx.params, **point}))
    except (ValueError, KeyError):
        env = ctx.env
    return {name: _plain_number(env.get(name)) for name in ctx.theorem.quantities}


def check_id(spec_id: str, ref: str, name: str, target: str = "reference", control=None) -> str:
    who = target if control is None else f"{'mutant' if target == 'mutant' else 'control'}:{control.name}"
    return f"{spec_id} | {ref} | {name} | {who}"


def _summarize(kind: str, m: dict) -> dict:
    if kind == "bound":
        out = thm.summarize_bound(m["failures"], m["trials"], m["beta"], m.get("charged", 0.0))
        for key in ("slack", "error_quantile", "error_bound", "sweep", "instance", "alternative", "alternative_text"):
            if key in m:
                out[key] = m[key]
        return out
    if kind == "test":
        out = thm.summarize_test(m)
        out.update({k: v for k, v in m.items() if k not in out and k not in ("power", "alternative")})
        return out
    if kind == "calibration":
        out = thm.summarize_calibration(m["cells"])
        if "instance" in m:
            out["instance_detail"] = m["instance"]
        return out
    if kind == "property":
        failures = int(m["failures"])
        return {"trials": int(m["cases"]), "failures": failures, "beta": 0.0,
                "failure_rate": failures / max(int(m["cases"]), 1),
                "failure_rate_upper": None, "p_value": None,
                "counterexample": m.get("counterexample"),
                **({"instance_detail": m["instance"]} if "instance" in m else {}),
                "verdict": CheckVerdict.VIOLATED if failures else CheckVerdict.CONSISTENT}
    raise ValueError(f"unknown check kind {kind!r}")


def _plain_number(value):
    if value is None:
        return None
    arr = np.asarray(value)
    if arr.ndim == 0 and arr.dtype.kind in "biuf":
        return arr.item()
    return value


MIN_CELL = 0.002  # outcomes below this probability are pooled into one cell


def transcript_cells(observed: np.ndarray, law: dict, alternatives: list[dict], symbols=None) -> list[thm.Cell]:
    """One cell per transcript of probability >= MIN_CELL, one pooling the others, one for
    outputs that are no transcript at all (exact probability 0). ``symbols`` names the outcomes."""
    symbols = symbols or {1: "T", 0: "B", -1: "-"}
    n = observed.shape[0]
    keys, counts = np.unique(observed, axis=0, return_counts=True)
    seen = {tuple(int(v) for v in k): int(c) for k, c in zip(keys, counts)}
    big = [t for t, p in sorted(law.items(), key=lambda kv: -kv[1]) if p >= MIN_CELL]
    cells = [thm.Cell("".join(symbols.get(v, "?") for v in t), n, seen.get(t, 0), law[t], tuple(a.get(t, 0.0) for a in alternatives)) for t in big]
    rest = [t for t in law if t not in big]
    if rest:
        cells.append(thm.Cell("other transcripts", n, sum(seen.get(t, 0) for t in rest), sum(law[t] for t in rest),
                          tuple(sum(a.get(t, 0.0) for t in rest) for a in alternatives)))
    invalid = sum(c for t, c in seen.items() if t not in law)
    cells.append(thm.Cell("invalid (not a transcript of the algorithm)", n, invalid, 0.0,
                      tuple(0.0 for _ in alternatives)))
    return cells


# =========================================================================== audit expectations

def expected_audit(spec: Spec) -> str | None:
    """The expected verdict of the privacy audit of ``spec`` ("violation" or None)."""
    return spec.expected_privacy_verdict

