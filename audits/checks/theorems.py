"""The theorem checker: exact binomial tests, verdicts, and multiple-testing control.

A theorem check measures a count: ``failures`` out of ``trials`` independent runs of an
experiment (see :mod:`dptestbed.audits.checks.experiments`). Three kinds of check exist:

``bound``
    The theorem states ``P[failure] <= beta``. One-sided exact binomial test of
    H0: p <= beta against p > beta (``scipy.stats.binomtest``, ``alternative="greater"``).

``calibration``
    A closed form gives the exact probability ``p0`` of an event (e.g. ``P[top] = S(w - q)``
    for sparse vector). Exact two-sided test of H0: p = p0, one "cell" per instance; the
    cell p-value is the central (equal-tailed) exact p-value ``min(1, 2 min(P[X <= k],
    P[X >= k]))`` from two one-sided ``binomtest`` calls, and the check's p-value is the
    Bonferroni minimum over its cells. Calibration checks have power against wrong noise
    scales that the paper-level bounds (often astronomically loose) cannot see.

``test``
    Any other Monte-Carlo test (a record-level privacy audit, a recursion checked within its
    standard errors): the experiment computes its own p-value and its power at the run's
    per-check level ``ctx.level`` against an alternative it states, and enters the family like
    the others (:func:`apply_multiple_testing`).

``property``
    A deterministic statement checked on every case (a structural lemma, an output
    encoding, a halting rule). No randomness in the verdict: violated iff a case fails.

Verdicts (one per check):

``violated``
    the check's test rejects H0 after multiple-testing correction (Holm over the run's
    family, see :func:`apply_multiple_testing`); for a property check, a case failed.
``inconclusive``
    not rejected, but the experiment had too little power to have seen a real violation:
    its power at its per-check level (Bonferroni share ``alpha_fw / K``, the strictest
    level Holm can use) is below 50% against the check's *reference alternative*: for a
    bound check, the failure rate :func:`reference_alternative` (the bound off by a factor
    of two in the rarer of its two outcomes: twice the failure probability, or half the
    success probability, whichever is nearer) unless the check states its own (a
    competitive check: the failure rate of a learner k times worse than the reference);
    for a calibration check, the cell probabilities of the same mechanism with its noise
    scale 30% larger and 30% smaller (the Tumult fudge factor); for a test, the power it
    reports. Too few trials to separate "holds" from "off by that much" is reported,
    never called consistent.
``consistent``
    not rejected, with enough power (>= 50%) against the reference alternative.
``error``
    the check could not run (exception, timeout, implementation error); the reason is kept.

Negative controls are tested at the strictest level of the family (``alpha_fw / K``), so a
control that is flagged shows that the real check has power even at that level; controls
are not part of the family (their false alarms are not false alarms).

The family-wise false-alarm rate (the probability that any correct check in the run is
reported violated) is at most ``alpha_fw``: theorem tests are Holm-corrected at their share
``alpha_fw * K_thm / K`` and each of the ``K_audit`` privacy audits runs at confidence
``1 - alpha_fw / K`` (a union bound over both groups).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import stats

from ..base.stats import clopper_pearson  # the one Clopper-Pearson interval (also for the paper checks)
from ..base.verdict import FAMILY_ALPHA, CheckVerdict, Family, check_class, outcome

CONFIDENCE = 0.95  # Clopper-Pearson intervals shown in reports
POWER_TARGET = 0.5  # below this power against the reference alternative: inconclusive
NOISE_FUDGE = 0.3  # the calibration alternative: noise scale off by 30%

STATISTICAL_KINDS = ("bound", "calibration", "test")
CHECK_KINDS = ("bound", "calibration", "test", "property")
VERDICTS = tuple(CheckVerdict)


# --------------------------------------------------------------------------- intervals


def upper_bound(failures: int, trials: int, confidence: float = CONFIDENCE) -> float:
    """One-sided Clopper-Pearson upper bound at ``confidence``."""
    if trials <= 0:
        return 1.0
    return clopper_pearson(failures, trials, 1 - 2 * (1 - confidence))[1]


# --------------------------------------------------------------------------- single tests


def bound_p_value(failures: int, trials: int, beta: float) -> float:
    """p-value of H0: P[failure] <= beta (one-sided exact binomial test)."""
    if trials <= 0:
        return 1.0
    if beta >= 1:
        return 1.0
    if beta <= 0:
        return 0.0 if failures > 0 else 1.0
    return float(stats.binomtest(int(failures), int(trials), float(beta), alternative="greater").pvalue)


def central_p_value(events: int, trials: int, p0: float) -> float:
    """Two-sided exact p-value of H0: p = p0, equal-tailed: twice the smaller one-sided p."""
    if trials <= 0:
        return 1.0
    if p0 <= 0:
        return 0.0 if events > 0 else 1.0
    if p0 >= 1:
        return 0.0 if events < trials else 1.0
    k, n = int(events), int(trials)
    greater = stats.binomtest(k, n, float(p0), alternative="greater").pvalue
    less = stats.binomtest(k, n, float(p0), alternative="less").pvalue
    return float(min(1.0, 2 * min(greater, less)))


def _upper_critical(trials: int, p0: float, level: float) -> int:
    """Smallest k with P[Bin(trials, p0) >= k] <= level (trials + 1 if none)."""
    k = int(stats.binom.isf(level, trials, p0)) + 1
    while k > 0 and stats.binom.sf(k - 2, trials, p0) <= level:
        k -= 1
    while k <= trials and stats.binom.sf(k - 1, trials, p0) > level:
        k += 1
    return k


def _lower_critical(trials: int, p0: float, level: float) -> int:
    """Largest k with P[Bin(trials, p0) <= k] <= level (-1 if none)."""
    k = int(stats.binom.ppf(level, trials, p0)) - 1
    while k < trials and stats.binom.cdf(k + 1, trials, p0) <= level:
        k += 1
    while k >= 0 and stats.binom.cdf(k, trials, p0) > level:
        k -= 1
    return k


def reference_alternative(beta: float) -> float:
    """The failure rate a bound check ``P[failure] <= beta`` must detect: the bound off by a factor of
    two in the rarer of its two outcomes, ``min(2 beta, (1 + beta)/2)``: twice the failure probability
    while beta <= 1/3, half the success probability ``1 - beta`` above (a statement "succeeds with
    probability >= eta" is tested as beta = 1 - eta against a success rate eta/2). It is below 1 for
    every beta < 1, so the power rule means something for every beta."""
    return min(2 * beta, (1 + beta) / 2)


@lru_cache(maxsize=4096)
def bound_power(trials: int, beta: float, level: float, alternative: float | None = None) -> float:
    """Power of the one-sided test at ``level`` against a failure rate ``alternative``
    (default :func:`reference_alternative`)."""
    if trials <= 0 or not 0 < beta < 1:
        return 0.0 if trials <= 0 else 1.0
    alternative = reference_alternative(beta) if alternative is None else alternative
    k = _upper_critical(trials, beta, level)
    return float(stats.binom.sf(k - 1, trials, alternative)) if k <= trials else 0.0


@lru_cache(maxsize=4096)
def central_power(trials: int, p0: float, level: float, alternative: float) -> float:
    """Power of the equal-tailed two-sided test at ``level`` against the rate ``alternative``."""
    if trials <= 0 or not 0 < p0 < 1:
        return 0.0
    hi = _upper_critical(trials, p0, level / 2)
    lo = _lower_critical(trials, p0, level / 2)
    power = stats.binom.sf(hi - 1, trials, alternative) if hi <= trials else 0.0
    if lo >= 0:
        power += stats.binom.cdf(lo, trials, alternative)
    return float(min(1.0, power))


# --------------------------------------------------------------------------- measurements


@dataclass
class Cell:
    """One instance of a calibration check: ``events`` out of ``trials`` against ``exact``."""

    label: str
    trials: int
    events: int
    exact: float
    alternatives: tuple[float, ...] = ()  # exact rates under the reference alternatives

    def to_json(self) -> dict:
        lo, hi = clopper_pearson(self.events, self.trials)
        return {
            "label": self.label, "trials": int(self.trials), "events": int(self.events),
            "rate": self.events / self.trials if self.trials else None,
            "exact": float(self.exact), "lower": lo, "upper": hi,
            "alternatives": [float(a) for a in self.alternatives],
            "p_value": central_p_value(self.events, self.trials, self.exact),
        }


def summarize_bound(failures: int, trials: int, beta: float, charged: float = 0.0) -> dict:
    """The statistics of a bound check (verdict left to :func:`apply_multiple_testing`). ``charged``:
    a probability the check's own construction may be wrong with (a confidence bound it compares
    against, e.g. the reference's quantile), added to its p-value so that the family accounts for it."""
    lo, hi = clopper_pearson(failures, trials)
    return {
        "trials": int(trials), "failures": int(failures), "beta": float(beta),
        "failure_rate": failures / trials if trials else None,
        "failure_rate_lower": lo, "failure_rate_upper": upper_bound(failures, trials),
        "interval": [lo, hi],
        "p_value": min(1.0, bound_p_value(failures, trials, beta) + float(charged)),
        **({"p_value_charged": float(charged)} if charged else {}),
    }


def summarize_test(measurement: dict) -> dict:
    """The statistics of a ``test`` check: its own p-value and power (at the level ``ctx.level`` it
    was run at) against the alternative it states; the verdict is left to :func:`apply_multiple_testing`."""
    p = float(measurement["p_value"])
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"a test's p-value must be in [0, 1], not {p!r}")
    power = measurement.get("power")
    return {"trials": int(measurement.get("trials") or 0), "failures": measurement.get("failures"), "beta": None,
            "p_value": p, "test_power": None if power is None else float(power),
            "alternative_text": measurement.get("alternative")}


def summarize_calibration(cells: list[Cell]) -> dict:
    """The statistics of a calibration check: per-cell exact tests, Bonferroni within the check."""
    cell_json = [c.to_json() for c in cells]
    p = min(1.0, len(cells) * min(c["p_value"] for c in cell_json)) if cells else 1.0
    trials = sum(c.trials for c in cells)
    events = sum(c.events for c in cells)
    # a cell the spec never produces (exact 0) has no relative deviation: its runs are counted apart
    possible = [c for c in cells if c.exact > 0]
    worst = max(possible, key=lambda c: abs(c.events / c.trials - c.exact) / c.exact) if possible else None
    return {
        "trials": int(trials), "failures": int(events), "beta": None,
        "failure_rate": events / trials if trials else None,
        "failure_rate_upper": upper_bound(events, trials) if trials else None,
        "cells": cell_json, "p_value": p,
        "max_relative_deviation": None if worst is None else abs(worst.events / worst.trials - worst.exact) / worst.exact,
        "impossible_runs": int(sum(c.events for c in cells if c.exact <= 0)),
    }


def calibration_power(cells: list[Cell], level: float) -> float:
    """Lower bound on the power of a calibration check against its weakest reference
    alternative: for each alternative, the best single cell's power at ``level / cells``."""
    if not cells or not any(c.alternatives for c in cells):
        return float("nan")
    n_alt = max(len(c.alternatives) for c in cells)
    share = level / len(cells)
    powers = []
    for j in range(n_alt):
        powers.append(max(central_power(c.trials, c.exact, share, c.alternatives[j])
                          for c in cells if j < len(c.alternatives)))
    return float(min(powers))


# --------------------------------------------------------------------------- family


def apply_multiple_testing(results: list[dict], n_audits: int = 0, family_alpha: float = FAMILY_ALPHA,
                           n_planned_tests: int | None = None, family_override: int | None = None) -> dict:
    """Set ``level``, ``p_value_adjusted``, ``power`` and ``verdict`` on every theorem result.

    ``results`` are the JSON objects of theorem checks (see ``experiments``). The family is
    the non-control statistical checks plus ``n_audits`` privacy audits; ``n_planned_tests``
    (when given) is the number of statistical checks planned for the run, so a check that
    errored still counts (conservative); ``family_override`` fixes the family size instead (a
    mutants run tests each mutant at the level ``check`` would). Returns the family description
    for the report.
    Mutates ``results`` in place; idempotent.
    """
    family = [r for r in results if r.get("kind") in STATISTICAL_KINDS and not r.get("control")]
    controls = [r for r in results if r.get("kind") in STATISTICAL_KINDS and r.get("control")]
    k_tests = max(len(family), n_planned_tests or 0)
    split = Family(family_alpha, k_tests, n_audits, family_override)
    k_total, alpha_tests, strictest = split.size, split.tests_alpha, split.level

    done = [r for r in family if r.get("verdict") != "error" and r.get("p_value") is not None]
    # pad with p = 1 for planned checks that did not produce a p-value (errors), so Holm
    # keeps the full family size
    pvals = [r["p_value"] for r in done] + [1.0] * (k_tests - len(done))
    reject, adjusted = holm(pvals, alpha_tests)
    for r, rej, adj in zip(done, reject, adjusted):
        r["p_value_adjusted"] = float(adj)
        r["level"] = strictest
        r["power"] = _power(r, strictest)
        r["verdict"] = _verdict(bool(rej), r["power"])
    for r in controls:
        if r.get("verdict") == "error" or r.get("p_value") is None:
            continue
        r["p_value_adjusted"] = float(min(1.0, r["p_value"] * k_total))
        r["level"] = strictest
        r["power"] = _power(r, strictest)
        r["verdict"] = _verdict(r["p_value"] <= strictest, r["power"])
    for r in results:
        if r.get("kind") == "property" and r.get("verdict") != "error":
            r["verdict"] = CheckVerdict.VIOLATED if r.get("failures", 0) > 0 else CheckVerdict.CONSISTENT
        r["class"] = check_class(r)
        r["outcome"] = outcome(r["class"], r.get("expected"))
    return {
        "family_alpha": family_alpha,
        "checks": k_total,
        "theorem_tests": k_tests,
        "privacy_audits": n_audits,
        "theorem_alpha": alpha_tests,
        "audit_confidence": split.confidence,
        "per_check_level": strictest,
        "method": "Holm step-down over theorem tests; Bonferroni share per privacy audit",
        "statement": family_statement(Family(family_alpha, k_tests, n_audits)),
    }


def holm(pvals: list[float], alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Holm's step-down procedure: (reject, adjusted p-values), in the input order.

    Identical to ``statsmodels.stats.multitest.multipletests(pvals, alpha, "holm")`` (the
    tests cross-check them); written out because statsmodels' Holm path calls
    ``gc.collect()`` on every call, and a run re-applies the correction after every item."""
    p = np.asarray(pvals, dtype=float)
    n = p.size
    if n == 0:
        return np.zeros(0, bool), np.zeros(0)
    order = np.argsort(p, kind="mergesort")
    steps = n - np.arange(n)  # n, n-1, ..., 1
    adjusted_sorted = np.minimum(1.0, np.maximum.accumulate(p[order] * steps))
    above = p[order] > alpha / steps
    first_accept = int(np.argmax(above)) if above.any() else n
    reject_sorted = np.arange(n) < first_accept
    reject, adjusted = np.empty(n, bool), np.empty(n)
    reject[order], adjusted[order] = reject_sorted, adjusted_sorted
    return reject, adjusted


def family_statement(family: Family) -> str:
    return (f"family-wise false-alarm rate <= {family.alpha:g} over {family.size} checks "
            f"({family.n_tests} theorem tests and Monte-Carlo checks, Holm-corrected; {family.n_audits} privacy "
            f"audits, each at confidence {family.confidence:.6g}); property checks state exact facts checked on "
            f"every case (no false alarm on a correct implementation; their cases may be drawn at random); "
            f"negative controls are tested at the strictest per-check level {family.level:.3g}")


def _power(result: dict, level: float) -> float | None:
    """The check's power at ``level``; a replicated check's (experiments.run_check: rejected when its first sample
    rejects at ``level`` and an independent second one at sqrt(level)) is the product of both stages' powers (a
    test's power is known at ``level`` only: its square, a lower bound)."""
    one = _stage_power(result, level)
    if one is None or not result.get("replicated"):
        return one
    two = one if result["kind"] == "test" else _stage_power(result, math.sqrt(level))
    return None if two is None else one * two


def _stage_power(result: dict, level: float) -> float | None:
    if result["kind"] == "bound":
        return bound_power(result["trials"], result["beta"], level, result.get("alternative"))
    if result["kind"] == "test":
        return result.get("test_power")
    cells = [Cell(c["label"], c["trials"], c["events"], c["exact"], tuple(c.get("alternatives") or ()))
             for c in result.get("cells", [])]
    power = calibration_power(cells, level)
    return None if math.isnan(power) else power


def _verdict(rejected: bool, power: float | None) -> str:
    if rejected:
        return CheckVerdict.VIOLATED
    if power is not None and power < POWER_TARGET:
        return CheckVerdict.INCONCLUSIVE
    return CheckVerdict.CONSISTENT
