"""The result of a privacy audit (:class:`AuditResult`), its verdicts, and :class:`AuditError`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..base import verdict as oc
from ..base.serialize import jsonable
from ..base.verdict import audit_class
from ..schemas import FORMATS
from .claims import from_json

VIOLATION, NO_VIOLATION, IMPL_ERROR = oc.AUDIT_VIOLATION, oc.AUDIT_NO_VIOLATION, oc.IMPLEMENTATION_ERROR
# A user implementation whose lower bound exceeds the spec mechanism's exact loss on a pair leaks
# more than the spec's mechanism (at the audit's confidence), even below the claim.
DIFFERS = oc.DIFFERS
# No violation found, but the audit could not have shown a loss AUDIT_RESOLUTION above the claim on
# any event it measured (its smallest detectable epsilon is higher): it says nothing either way.
NO_POWER = oc.NO_POWER
AUDIT_RESOLUTION = 0.05
TOLERANCE = 1e-9


class AuditError(ValueError):
    """The spec cannot be audited as asked (no privacy claim, bad parameters, no pairs)."""



@dataclass
class AuditResult:
    spec: str
    implementation: str | None
    claim: dict
    verdict: str
    epsilon_lower_bound: float
    exact_epsilon: float | None
    confidence: float
    samples_per_side: int
    counterexample: dict | None
    seconds: float
    seed: int
    pairs_tried: int = 0
    events_tried: int = 0
    reason: str | None = None
    expected: str | None = None
    params: dict = field(default_factory=dict)
    best: dict | None = None
    candidates: list = field(default_factory=list)
    rounds: list = field(default_factory=list)
    pairs: list = field(default_factory=list)
    exact_epsilon_max: float | None = None
    samples_per_second: float | None = None
    runs: int = 0
    spec_implementation: str | None = None
    timing: dict = field(default_factory=dict)
    power: dict | None = None  # the most sensitive estimated event's smallest detectable loss and its claim
    time_budget: float | None = None  # wall seconds the audit was given (its sample size then depends on time)
    randomness: str = "rng"  # "rng": the implementation's randomness from its rng; "own": a source of its own
    notes: list = field(default_factory=list)  # one-line remarks on how the audit ran (own randomness, a slow mechanism)
    agreement: dict | None = None  # the batch sampler compared with the single-run function (agreement.py)
    serial: dict | None = None  # consecutive calls of a user's function tested for independence (serial.py)
    divergence: dict | None = None  # a Renyi-type claim's divergence round (divergence.py)
    tradeoff: dict | None = None  # the best pair's trade-off curve: estimated band, claimed, exact (tradeoff.py)

    @property
    def reproducible(self) -> bool:
        """Another run with the same seed gives the same result: the randomness is the rng's and the
        sample sizes are fixed (no time budget)."""
        return self.randomness == "rng" and self.time_budget is None

    @property
    def exact_exceeds_claim(self) -> bool | None:
        """Whether the exact profile of the spec's mechanism exceeds the claim on some pair
        tried (independent of sampling; None when no exact profile is known)."""
        if self.exact_epsilon_max is None:
            return None
        return any(p.get("exact_epsilon") is not None and p.get("claim") is not None
                   and as_number(p["exact_epsilon"]) > from_json(p["claim"]).value + TOLERANCE for p in self.pairs)

    @property
    def tightness(self) -> float | None:
        """epsilon_lower_bound / claimed epsilon (the claim at the pair the bound was measured on)."""
        eps = from_json((self.best or {}).get("claim") or self.claim).value
        if self.verdict == IMPL_ERROR or not eps:
            return None
        return self.epsilon_lower_bound / eps

    @property
    def exact_tightness(self) -> float | None:
        """epsilon_lower_bound / exact epsilon of the pair it was measured on."""
        if self.verdict == IMPL_ERROR or not self.exact_epsilon or not math.isfinite(self.exact_epsilon):
            return None
        return self.epsilon_lower_bound / self.exact_epsilon

    @property
    def violation(self) -> bool:
        return self.verdict == VIOLATION

    @property
    def class_(self) -> str:
        """The result's class, in the words of results.json, ``audit --json``, the console and the report:
        pass, claim violated, differs from the spec, no power or implementation error (``verdict`` is the
        audit's own word for it)."""
        return audit_class({"verdict": self.verdict})

    def to_json(self) -> dict:
        def num(x):
            if x is None:
                return None
            x = float(x)
            if math.isnan(x):
                return None
            return x if math.isfinite(x) else ("inf" if x > 0 else "-inf")

        return jsonable({
            "format": FORMATS["audit"],
            "class": self.class_,
            "spec": self.spec,
            "implementation": self.implementation,
            "params": self.params,
            "claim": self.claim,
            "epsilon_lower_bound": None if self.verdict == IMPL_ERROR else num(self.epsilon_lower_bound),
            "exact_epsilon": num(self.exact_epsilon),
            "exact_epsilon_max": num(self.exact_epsilon_max),
            "exact_exceeds_claim": self.exact_exceeds_claim,
            "tightness": num(self.tightness),
            "minimum_detectable_epsilon": num((self.power or {}).get("minimum_detectable_epsilon")),
            "power": None if self.power is None else {**self.power, "minimum_detectable_epsilon": num(
                self.power["minimum_detectable_epsilon"])},
            "exact_tightness": num(self.exact_tightness),
            "confidence": self.confidence,
            "samples_per_side": self.samples_per_side,
            "verdict": self.verdict,
            "expected": self.expected,
            "counterexample": self.counterexample,
            "best": self.best,
            "reason": self.reason,
            "seconds": round(self.seconds, 3),
            "seed": self.seed,
            "pairs_tried": self.pairs_tried,
            "events_tried": self.events_tried,
            "runs": self.runs,
            "samples_per_second": num(self.samples_per_second),
            "timing": self.timing,
            "rounds": self.rounds,
            "candidates": self.candidates,
            "pairs": self.pairs,
            "tolerance": TOLERANCE,
            "time_budget": self.time_budget,
            "randomness": self.randomness,
            "reproducible": self.reproducible,
            "notes": list(self.notes),
            "agreement": self.agreement,
            "serial": self.serial,
            "divergence": self.divergence,
            "tradeoff": self.tradeoff,
        })


def as_number(x) -> float:
    if isinstance(x, str):
        return math.inf if x == "inf" else -math.inf
    return float(x)


def at_decision(audit: dict) -> dict:
    """A privacy audit's result with its top-level ``claim`` and ``params`` those of the pair that decided it
    (the counterexample, else the best candidate: a pair may run at other parameters than the spec's
    defaults, and claims its own epsilon there); the spec's defaults the audit started from are kept as
    ``defaults``."""
    deciding = audit.get("counterexample") or audit.get("best") or {}
    claim, params = deciding.get("claim"), (deciding.get("pair") or {}).get("params")
    if not claim and not params:
        return audit
    return {**audit, "claim": claim or audit.get("claim"), "params": params or audit.get("params"),
            "defaults": {"claim": audit.get("claim"), "params": audit.get("params")}}
