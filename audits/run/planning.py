"""What a run checks (:func:`plan`): one *item* per privacy audit of a spec (at each of its audit
points) and one per (theorem experiment, implementation) pair, the negative controls included, so
that the family size of the multiple-testing correction is known before anything runs; and each
item's own random stream (:func:`item_seed`) and time limit (:func:`limit`).

Suites: ``quick`` (default; small trial counts; the specs that have an implementation) and
``full`` (larger trial counts and audit samples, every spec; specs without an implementation
are listed as not checked).
"""

from __future__ import annotations

import functools
import json
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dptestbed.spec import Catalogue, Spec

from ..base.verdict import FAMILY_ALPHA, CheckVerdict, Family
from ..checks import theorems as thm
from ..checks.experiments import (
    Control,
    Experiment,
    check_id,
    expected_audit,
    experiments_for,
    other_suite_only,
    unchecked_theorems,
)
from ..sandbox.runner import missing_reference

AUDIT_TIMEOUT = {"quick": 600.0, "full": 1800.0}  # whole-item CPU limits, seconds (a guard against hangs: the
# seed-003 learner's audit with its k = 56 threshold-crossing stress case needs more than 240)
# a user's implementation may be a single-run function of 10-100 us a call: its default budget (up to 10^6 samples a
# side, the pair search and the line search) needs more than a vectorised reference's
USER_AUDIT_FACTOR = 5
# ... and its theorem checks, sized for a vectorised reference, this many times theirs: a correct per-call seed-001
# learner (1 to 3 ms a call) needed more than 120 CPU seconds for the exact law's 100,000 calls (a run error, exit 6)
USER_THEOREM_FACTOR = 10
TIGHT_TIME_FACTOR = 4  # an audit with its tight round gets this many times the limit
CALL_TIMEOUT = 60.0  # one call of a user implementation


@dataclass
class Item:
    id: str
    kind: str  # "audit" | "theorem"
    spec: str
    expected: str | None = None
    implementation: str | None = None  # None: the spec's reference implementation
    target: str = "reference"  # reference | user | control
    experiment: Experiment | None = None
    control: Control | None = None
    timeout: float = 120.0
    cost: float = 1.0  # the executor runs the most expensive first (:func:`estimated_cost`)
    params: dict | None = None  # an audit's parameter point (None: the spec's defaults)

    @property
    def check(self) -> Experiment:
        """The experiment of a theorem check's item (an audit's item has none)."""
        if self.experiment is None:
            raise ValueError(f"item {self.id} is a privacy audit, not a theorem check")
        return self.experiment

    @property
    def label(self) -> str:
        if self.kind == "audit":
            where = f" at {point_text(self.params)}" if self.params else ""
            who = f" [mutant {self.control.name}]" if self.target == "mutant" and self.control else ""
            return f"privacy audit {self.spec}{where}{who}" + (f" (expected: {self.expected})" if self.expected else "")
        who = f"{'mutant' if self.target == 'mutant' else 'control'} {self.control.name}" if self.control else self.target
        return f"{self.spec} {self.check.ref} {self.check.name} [{who}]"


@dataclass
class Plan:
    suite: str
    items: list[Item]
    specs: list[Spec]
    not_checked: list[dict]
    implementation: str | None = None
    family_alpha: float = FAMILY_ALPHA
    call_timeout: float = CALL_TIMEOUT  # seconds per call of an implementation
    mutants: tuple = ()  # a mutants run (audits/run/mutation.py): the mutants it checks
    family_override: int | None = None  # the multiple-testing family size, when not the plan's own
    tight: bool = False  # every privacy audit also runs its tight round (audit --tight)
    allow: tuple = ()  # classes counted as passes in the exit code of a check (--allow)
    audit_samples: int | None = None  # samples per side of every audit, one round (check --samples)
    time_budget: float | None = None  # wall seconds per audit (check --time-budget; sizes then depend on time)
    randomness: str = "rng"  # "own": the implementations' own randomness (--randomness own; not reproducible)

    @property
    def reproducible(self) -> bool:
        """The run's results are a function of its seed (no own randomness, no time budget)."""
        return self.randomness == "rng" and self.time_budget is None

    @property
    def n_audits(self) -> int:
        return sum(1 for i in self.items if i.kind == "audit" and i.expected is None)

    @property
    def n_tests(self) -> int:
        return sum(1 for i in self.items if i.kind == "theorem" and i.control is None
                   and i.check.kind in thm.STATISTICAL_KINDS)

    @property
    def split(self) -> Family:
        """The run's multiple-testing family: its alpha split between its checks, known before any item runs."""
        return Family(self.family_alpha, self.n_tests, self.n_audits, self.family_override)

    @property
    def family(self) -> int:
        return self.split.size


# --------------------------------------------------------------------------- planning


def select_specs(catalogue: Catalogue, suite: str, spec_ids: list[str] | None = None,
                 papers: list[str] | None = None) -> list[Spec]:
    """The specs a run covers: the given ids (and their deliberately broken variants, which are
    the controls of their privacy audit), else every spec with an implementation (quick) or
    every spec (full); ``papers`` keeps only the specs of those paper folders."""
    if papers:
        unknown = [p for p in papers if p not in catalogue.papers]
        if unknown:
            raise KeyError(f"unknown paper {unknown[0]!r}; papers: {', '.join(catalogue.papers)}")
        catalogue = type(catalogue)((k, s) for k, s in catalogue.items() if s.paper in papers)
    if spec_ids:
        chosen = []
        for spec_id in spec_ids:
            spec = catalogue.get_spec(spec_id)  # KeyError with a hint for unknown ids
            if spec not in chosen:
                chosen.append(spec)
            for other in catalogue.values():
                if other.variant_of == spec.id and other.broken and other not in chosen:
                    chosen.append(other)
        return chosen
    if suite == "quick":
        return [s for s in catalogue.values() if s.implementation]
    return list(catalogue.values())


def audit_points(spec: Spec, suite: str, override: dict | None = None) -> list[dict]:
    """The parameter points a spec's privacy audit visits: the defaults and the spec's
    ``audit_points`` (quick: the first of them; full: all), or only ``override`` (``--param``)."""
    if override:
        return [dict(override)]
    return [{}] + [dict(p) for p in spec.audit_points[: 1 if suite == "quick" else None]]


def point_text(point: dict | None) -> str:
    """A parameter point as ``k=v, ...`` (empty at the defaults)."""
    return ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in (point or {}).items())


def audit_id(spec_id: str, point: dict | None) -> str:
    """An audit item's id: ``privacy | SPEC`` at the defaults, ``privacy | SPEC | k=v, ...`` elsewhere."""
    where = point_text(point)
    return f"privacy | {spec_id}" + (f" | {where}" if where else "")


def plan(catalogue: Catalogue, suite: str = "quick", spec_ids: list[str] | None = None,
         implementation: str | None = None, controls: bool = True, audits: bool = True,
         theorems: bool = True, family_alpha: float = FAMILY_ALPHA, call_timeout: float = CALL_TIMEOUT,
         papers: list[str] | None = None, audit_params: dict | None = None) -> Plan:
    """Every item of a run. With ``implementation`` (``dptestbed check``) the experiments and the
    privacy audit run against that implementation instead of the reference one, and the
    broken-spec audits (controls of the auditor, not of the user's code) are left out, as they are
    with ``controls=False`` (a false-alarm measurement runs only the reference items). The
    audits visit :func:`audit_points`; ``audit_params`` (``--param``) replaces them by one point."""
    if suite not in ("quick", "full"):
        raise ValueError(f"unknown suite {suite!r}; choose quick or full")
    specs = select_specs(catalogue, suite, spec_ids, papers)
    if implementation is not None or not controls:
        specs = [s for s in specs if not s.broken]
    items: list[Item] = []
    not_checked: list[dict] = []
    for spec in specs:
        impl = implementation or spec.implementation
        missing = None if implementation else missing_reference(spec.implementation)
        if missing:
            # nothing of this spec runs: every theorem is listed once, with the reason
            not_checked.extend({"spec": spec.id, "ref": t.ref, "kind": t.kind, "status": missing}
                               for t in spec.theorems)
            continue
        if audits and spec.privacy is not None:
            for point in audit_points(spec, suite, audit_params):
                items.append(Item(audit_id(spec.id, point), "audit", spec.id, expected_audit(spec), implementation,
                                  "user" if implementation else "reference",
                                  timeout=AUDIT_TIMEOUT[suite] * (USER_AUDIT_FACTOR if implementation else 1),
                                  params=point or None))
        if not theorems or spec.broken:
            continue
        for exp in experiments_for(spec, suite):
            target = "user" if implementation else "reference"
            items.append(Item(check_id(spec.id, exp.ref, exp.name, target), "theorem", spec.id, None,
                              impl, target, exp,
                              timeout=exp.seconds[suite] * (USER_THEOREM_FACTOR if implementation else 1)))
            if controls:
                for control in exp.controls:
                    items.append(Item(check_id(spec.id, exp.ref, exp.name, control=control), "theorem",
                                      spec.id, CheckVerdict.VIOLATED, control.implementation, "control", exp, control,
                                      timeout=exp.seconds[suite]))
        not_checked.extend(unchecked_theorems(spec))
        not_checked.extend(other_suite_only(spec, suite))
    for item in items:
        item.cost = estimated_cost(item, suite)
    return Plan(suite, items, specs, not_checked, implementation, family_alpha, call_timeout)


COSTS = Path(__file__).with_name("costs.json")  # measured seconds per item (benchmarks/bench_suite.py --costs)
UNMEASURED = 1e6  # an item without a measured cost runs before every measured one: it may be long


@functools.cache
def measured_costs() -> dict[str, dict[str, float]]:
    """Seconds per item by suite, as a measured run took them (``{suite: {cost_key: seconds}}``); empty
    without the file. Only the order of items depends on them, never a result."""
    try:
        return dict(json.loads(COSTS.read_text(encoding="utf-8"))["seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def cost_key(item_id: str) -> str:
    """The key of an item's measured cost: its id, a user's implementation's item read as the reference's."""
    return item_id[: -len(" | user")] + " | reference" if item_id.endswith(" | user") else item_id


def estimated_cost(item: Item, suite: str) -> float:
    """What the executor orders items by, most expensive first (so that no long item starts last): the
    item's measured seconds, else :data:`UNMEASURED` plus a guess (an audit 50, a check its trials / 10^4)."""
    seconds = measured_costs().get(suite, {}).get(cost_key(item.id))
    if isinstance(seconds, (int, float)):
        return float(seconds)
    return UNMEASURED + (50.0 if item.kind == "audit" else item.check.trials[suite] / 10_000)


def item_seed(seed: int, item_id: str) -> np.random.SeedSequence:
    """The item's own stream: a child of the run's SeedSequence keyed by the item id."""
    return np.random.SeedSequence(int(seed), spawn_key=(zlib.crc32(item_id.encode("utf-8")),))


def limit(plan_: Plan, item: Item) -> float:
    """The item's time limit in seconds (an audit with a tight round gets TIGHT_TIME_FACTOR times its own)."""
    return item.timeout * (TIGHT_TIME_FACTOR if plan_.tight and item.kind == "audit" else 1)

