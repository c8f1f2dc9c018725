"""Mutation testing of the checks: ``dptestbed mutants``.

Every implementation mutant a paper declares (``impl/<paper>/mutants.py``, see
:mod:`dptestbed.impl.mutant`) is run through every check of its spec, exactly as
``dptestbed check SPEC --impl MUTANT`` would run it: the privacy audit and every registered
theorem experiment. The result is a *kill matrix* (mutant x check: killed / survived /
inconclusive / error) and a kill rate per spec and overall.

Level. A mutant is *killed* by a check that flags it at the strictest per-check level of the
largest ``check`` family among the selected specs (``family_alpha / K``, K = that spec's
statistical checks + its privacy audit): a kill here is a verdict ``check`` itself would give.
Equivalent mutants (declared ``equivalent`` with the reason) run too, but are excluded from the
rate. Pipeline controls of the theorem checks are not mutants and never enter the rate.

Exit code: 0 when every non-equivalent mutant is killed, 1 when one survives (or is only
inconclusive), 2 when a mutant's checks all errored or the run is incomplete.
"""

from __future__ import annotations

from dptestbed.spec import Catalogue

from . import planning
from . import theorems as thm
from .discovery import load_mutants
from .experiments import Control, check_id, experiments_for

KILLED, SURVIVED, INCONCLUSIVE, ERROR, EQUIVALENT = "killed", "survived", "inconclusive", "error", "equivalent"
AUDIT_CHECK = "privacy audit"


def mutants_of(specs) -> list:
    """The declared mutants of ``specs``, in spec order."""
    by_spec: dict[str, list] = {}
    for mutant in load_mutants():
        by_spec.setdefault(mutant.spec, []).append(mutant)
    return [m for spec in specs for m in by_spec.get(spec.id, [])]


def check_family(spec, suite: str = "quick") -> int:
    """The family size of ``dptestbed check`` on ``spec``: its statistical checks + its audits."""
    tests = sum(1 for e in experiments_for(spec) if e.kind in thm.STATISTICAL_KINDS)
    return thm.family_size(tests, len(planning.audit_points(spec, suite)) if spec.privacy is not None else 0)


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
        for exp in experiments_for(spec):
            if exp.setup:
                continue  # a setup validation cannot tell one implementation from another
            items.append(planning.Item(check_id(m.spec, exp.ref, exp.name, "mutant", control), "theorem", m.spec,
                                        "violated", m.implementation, "mutant", exp, control,
                                        timeout=exp.seconds[suite], cost=exp.trials[suite] / 10_000))
    family = max((check_family(s, suite) for s in specs if any(m.spec == s.id for m in mutants)), default=1)
    kwargs = {} if call_timeout is None else {"call_timeout": call_timeout}
    return planning.Plan(suite, items, specs, [], None, thm.FAMILY_ALPHA, mutants=tuple(mutants),
                          family_override=family, **kwargs)


def check_key(result: dict) -> str:
    if "ref" in result:
        return f"{result['ref']} / {result['check']}"
    point = ", ".join(f"{k}={v}" for k, v in (result.get("audit_point") or {}).items())
    return AUDIT_CHECK + (f" ({point})" if point else "")


def cell_status(result: dict) -> str:
    verdict = result.get("verdict")
    if verdict in ("violated", "violation", "differs from the spec"):
        return KILLED
    if verdict in ("error", "implementation error", None):
        # an implementation error is the check refusing the mutant's output (wrong type, NaN, a
        # crash on valid input): a kill; any other error says nothing about the mutant
        refused = verdict == "implementation error" or str(result.get("error") or "").startswith("implementation error")
        return KILLED if refused else ERROR
    return INCONCLUSIVE if verdict == "inconclusive" else SURVIVED


def kill_matrix(mutants, results: list[dict]) -> dict:
    """The kill matrix of a mutants run: rows per mutant, the checks per spec, rates."""
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
    rows, rates = [], {}
    for m in mutants:
        cells = {k: cell_status(r) for k, r in by_mutant.get(m.id, {}).items()}
        killers = [k for k, s in cells.items() if s == KILLED]
        if m.equivalent:
            status = EQUIVALENT
        elif killers:
            status = KILLED
        elif not cells or all(s == ERROR for s in cells.values()):
            status = ERROR
        elif INCONCLUSIVE in cells.values():
            status = INCONCLUSIVE
        else:
            status = SURVIVED
        rows.append({"id": m.id, "spec": m.spec, "name": m.name, "breaks": m.breaks, "bug": m.bug,
                     "declared_killers": list(m.killed_by), "equivalent": m.equivalent or None,
                     "status": status, "killed_by": killers, "cells": cells})
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
    return {
        "rows": rows, "checks": checks, "rates": rates,
        "overall": {"mutants": len(rows), "equivalent": len(rows) - counted, "killed": killed,
                    "rate": killed / counted if counted else None,
                    "privacy_breaking": len(privacy),
                    "privacy_breaking_killed": sum(1 for r in privacy if r["status"] == KILLED)},
    }


def exit_code(matrix: dict, complete: bool) -> int:
    statuses = [r["status"] for r in matrix["rows"] if r["status"] != EQUIVALENT]
    if not complete or ERROR in statuses:
        return 2
    return 0 if all(s == KILLED for s in statuses) else 1
