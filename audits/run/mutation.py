"""Mutation testing of the checks: ``dptestbed mutants``.

Every implementation mutant a paper declares (``impl/<paper>/mutants.py``, see
:mod:`dptestbed.impl.mutant`) is run through every check of its spec, exactly as
``dptestbed check SPEC --impl MUTANT`` would run it: the privacy audit and every registered
theorem experiment. The result is a *kill matrix* (mutant x check: killed / survived /
inconclusive / error) and a kill rate per spec and overall.

Level. A mutant is *killed* by a check whose class is "claim violated", "differs from the spec" or
"implementation error" (:mod:`..base.verdict`) at the strictest per-check level of the largest ``check``
family among the selected specs (``family_alpha / K``, K = that spec's statistical checks + its
privacy audits): a kill here is a verdict ``check`` itself would give. Each cell is tested at that
level; no correction runs over the cells, so the matrix states the expected number of spurious kills
(level x statistical cells). Equivalent mutants (declared ``equivalent`` with the reason) run too,
but are excluded from the rate. Pipeline controls of the theorem checks are not mutants and never
enter the rate.

Classes. A mutant's *kill class* is that of its strongest killer, in the order of
:data:`KILL_CLASSES`: a privacy audit measuring its loss above the claim, a theorem's statement
broken, a difference from the spec (a conformance check, or an audit bound above the spec's exact
loss), an implementation error (the contract or the output encoding refused). A mutant's declared
``breaks`` is checked against the measurement: ``privacy_shown`` is the audit point and bound of a
privacy audit that measured its loss above the claim (None when none did).

Exit code: 0 when every non-equivalent mutant is killed, 1 when one survives (or had no power
against it), 6 when a mutant's checks all errored or the run is incomplete.
"""

from __future__ import annotations

import math

from dptestbed.spec import Catalogue

from ..base import verdict as oc
from ..base.discovery import load_mutants
from ..checks import theorems as thm
from ..checks.experiments import Control, check_id, experiments_for
from ..privacy.claims import from_json
from . import planning

KILLED, SURVIVED, INCONCLUSIVE, ERROR, EQUIVALENT = "killed", "survived", "inconclusive", "error", "equivalent"
AUDIT_CHECK = "privacy audit"
PRIVACY_KILL, THEOREM_KILL = "claim violated (privacy audit)", "claim violated (theorem)"
KILL_CLASSES = (PRIVACY_KILL, THEOREM_KILL, oc.DIFFERS, oc.IMPLEMENTATION_ERROR)


def mutants_of(specs) -> list:
    """The declared mutants of ``specs``, in spec order."""
    by_spec: dict[str, list] = {}
    for mutant in load_mutants():
        by_spec.setdefault(mutant.spec, []).append(mutant)
    return [m for spec in specs for m in by_spec.get(spec.id, [])]


def check_family(spec, suite: str = "quick") -> int:
    """The family size of ``dptestbed check`` on ``spec``: its statistical checks + its audits."""
    tests = sum(1 for e in experiments_for(spec, suite) if e.kind in thm.STATISTICAL_KINDS)
    return oc.Family(oc.FAMILY_ALPHA, tests, len(planning.audit_points(spec, suite)) if spec.privacy is not None else 0).size


def plan_mutants(catalogue: Catalogue, suite: str = "quick", spec_ids=None, papers=None,
                 call_timeout: float | None = None):
    """The plan of a mutants run: for each mutant, its spec's privacy audit and every experiment."""
    specs = [s for s in planning.select_specs(catalogue, suite, spec_ids, papers) if not s.broken]
    mutants = mutants_of(specs)
    items = []
    for m in mutants:
        spec = catalogue[m.spec]
        control = Control(m.name, m.implementation, m.bug)
        for point in (planning.audit_points(spec, suite) if spec.privacy is not None else []):
            items.append(planning.Item(f"{planning.audit_id(m.spec, point)} | mutant:{m.name}", "audit", m.spec,
                                        None, m.implementation, "mutant", control=control,
                                        timeout=planning.AUDIT_TIMEOUT[suite], cost=50.0, params=point or None))
        for exp in experiments_for(spec, suite):
            if exp.setup:
                continue  # a setup validation cannot tell one implementation from another
            items.append(planning.Item(check_id(m.spec, exp.ref, exp.name, "mutant", control), "theorem", m.spec,
                                        oc.CheckVerdict.VIOLATED, m.implementation, "mutant", exp, control,
                                        timeout=exp.seconds[suite], cost=exp.trials[suite] / 10_000))
    family = max((check_family(s, suite) for s in specs if any(m.spec == s.id for m in mutants)), default=1)
    return planning.Plan(suite, items, specs, [], None, oc.FAMILY_ALPHA,
                         planning.CALL_TIMEOUT if call_timeout is None else call_timeout,
                         mutants=tuple(mutants), family_override=family)


def check_key(result: dict) -> str:
    if "ref" in result:
        return f"{result['ref']} / {result['check']}"
    point = ", ".join(f"{k}={v}" for k, v in (result.get("audit_point") or {}).items())
    return AUDIT_CHECK + (f" ({point})" if point else "")


def cell_status(result: dict) -> str:
    """killed / survived / inconclusive (no power) / error, from the item's class."""
    cls = result.get("class") or oc.item_class(result)
    if cls in (oc.CLAIM_VIOLATED, oc.DIFFERS, oc.IMPLEMENTATION_ERROR):
        return KILLED
    return {oc.NO_POWER: INCONCLUSIVE, oc.PASS: SURVIVED}.get(cls, ERROR)


def kill_class(result: dict) -> str | None:
    """The class of a killing cell (:data:`KILL_CLASSES`), None for a cell that does not kill."""
    cls = result.get("class") or oc.item_class(result)
    if cls == oc.CLAIM_VIOLATED:
        return THEOREM_KILL if "ref" in result else PRIVACY_KILL
    return cls if cls in (oc.DIFFERS, oc.IMPLEMENTATION_ERROR) else None


def _privacy_shown(results: dict) -> dict | None:
    """The audit that measured the mutant's loss above the claim (the largest bound), or None."""
    shown = [r for r in results.values() if "ref" not in r and kill_class(r) == PRIVACY_KILL]
    if not shown:
        return None
    best = max(shown, key=_bound_over_claim)
    counter = best.get("counterexample") or {}
    return {"audit": check_key(best), "epsilon_lower_bound": best.get("epsilon_lower_bound"),
            "claim": counter.get("claim") or best.get("claim"), "pair": (counter.get("pair") or {}).get("name"),
            "params": (counter.get("pair") or {}).get("params") or best.get("params")}


def _bound_over_claim(result: dict) -> float:
    bound = result.get("epsilon_lower_bound")
    bound = math.inf if bound == "inf" else float(bound or 0.0)
    claim = from_json((result.get("counterexample") or {}).get("claim") or result.get("claim")).value or 1.0
    return bound / float(claim)


def kill_matrix(mutants, results: list[dict], level: float | None = None) -> dict:
    """The kill matrix of a mutants run: rows per mutant, the checks per spec, rates and kills by
    class. ``level``: the per-cell level the run applied (for the statement of spurious kills)."""
    by_mutant: dict[str, dict[str, dict]] = {}
    checks: dict[str, list[str]] = {}
    for r in results:
        if r.get("target") != "mutant" or not r.get("control"):
            continue
        key = check_key(r)
        by_mutant.setdefault(f"{r['spec']}/{r['control']['name']}", {})[key] = r
        checks.setdefault(r["spec"], [])
        if key not in checks[r["spec"]]:
            checks[r["spec"]].append(key)
    rows: list[dict] = []
    rates: dict[str, dict] = {}
    by_class = {c: 0 for c in KILL_CLASSES}
    for m in mutants:
        mine = by_mutant.get(m.id, {})
        cells = {k: cell_status(r) for k, r in mine.items()}
        killers = [k for k, s in cells.items() if s == KILLED]
        classes = {kill_class(mine[k]) for k in killers}
        strongest = next((c for c in KILL_CLASSES if c in classes), None)
        if m.equivalent:
            status = EQUIVALENT
        elif killers:
            status = KILLED
            if strongest is not None:
                by_class[strongest] += 1
        elif not cells or all(s == ERROR for s in cells.values()):
            status = ERROR
        elif INCONCLUSIVE in cells.values():
            status = INCONCLUSIVE
        else:
            status = SURVIVED
        shown = _privacy_shown(mine)
        rows.append({"id": m.id, "spec": m.spec, "name": m.name, "breaks": m.breaks, "bug": m.bug,
                     "declared_killers": list(m.killed_by), "equivalent": m.equivalent or None,
                     "status": status, "killed_by": killers, "kill_class": strongest if status == KILLED else None,
                     "privacy_shown": shown, "privacy_exact": m.exact_loss or None,
                     "label_backed": (shown is not None or bool(m.exact_loss)) == (m.breaks in ("privacy", "both")),
                     "cells": cells, "cell_classes": {k: r.get("class") or oc.item_class(r) for k, r in mine.items()}})
        rate = rates.setdefault(m.spec, {"mutants": 0, "equivalent": 0, "killed": 0})
        rate["mutants"] += 1
        rate["equivalent"] += status == EQUIVALENT
        rate["killed"] += status == KILLED
    for rate in list(rates.values()):
        counted = rate["mutants"] - rate["equivalent"]
        rate["rate"] = rate["killed"] / counted if counted else None
    counted = sum(r["mutants"] - r["equivalent"] for r in rates.values())
    killed = sum(r["killed"] for r in rates.values())
    privacy = [r for r in rows if r["breaks"] in ("privacy", "both") and r["status"] != EQUIVALENT]
    statistical = sum(1 for cells in by_mutant.values() for r in cells.values()
                      if "ref" not in r or r.get("kind") in thm.STATISTICAL_KINDS)
    return {
        "rows": rows, "checks": checks, "rates": rates,
        "overall": {"mutants": len(rows), "equivalent": len(rows) - counted, "killed": killed,
                    "rate": killed / counted if counted else None,
                    "privacy_breaking": len(privacy),
                    "privacy_breaking_killed": sum(1 for r in privacy if r["status"] == KILLED),
                    "privacy_shown": sum(1 for r in rows if r["privacy_shown"] is not None),
                    "privacy_exact_only": sum(1 for r in rows if r["privacy_shown"] is None and r["privacy_exact"]),
                    "killed_by_class": by_class,
                    "labels_not_backed": [r["id"] for r in rows if not r["label_backed"] and r["status"] != EQUIVALENT],
                    "cells": sum(len(c) for c in by_mutant.values()), "statistical_cells": statistical,
                    "per_cell_level": level,
                    "expected_spurious_kills": None if level is None else level * statistical},
    }


def exit_code(matrix: dict, complete: bool) -> int:
    statuses = [r["status"] for r in matrix["rows"] if r["status"] != EQUIVALENT]
    if not complete or ERROR in statuses:
        return oc.EXIT_CODES[oc.RUN_ERROR]
    return 0 if all(s == KILLED for s in statuses) else 1
