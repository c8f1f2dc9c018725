"""Where a privacy audit's wall time goes, phase by phase (measured, never asserted).

    python benchmarks/audit_phases.py [--suite quick] [--spec ID ...] [--paper NAME ...] [--json OUT]

Runs every privacy-audit item of the suite's plan (each at its own seed, as ``dptestbed verify`` runs
it) in this process, one after the other, with a wall-clock timer around each phase of the procedure
(the timers change no result): the contract probe, the pairs (candidate and parameter pairs, the
reference-domain check), the pace measurement, the line search, the pair search (successive halving
over the pairs), each round's training and choice of events, the estimation on fresh samples, the
power sizing, the batch-agreement check, the divergence round, the confirmation and tight rounds and
the trade-off curve. Each phase's time is its own (a phase inside another is not counted twice);
``other`` is the rest of the audit. Prints a row per audit and the suite's totals, with each phase's
share.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from dptestbed.audits.privacy import procedure, rounds
from dptestbed.audits.run import execution, planning
from dptestbed.spec import load_catalogue

# (module or class, attribute, phase)
PHASES = [
    (procedure, "_probe", "probe"),
    (procedure, "candidate_pairs", "pairs"),
    (procedure, "parameter_pairs", "pairs"),
    (procedure, "_in_reference_domain", "pairs"),
    (procedure, "_pace", "pace"),
    (procedure, "find_on_lines", "line search"),
    (rounds.Auditor, "pair_search", "pair search"),
    (rounds.Auditor, "run_round", "training"),
    (rounds, "estimate_candidates", "estimation"),
    (procedure, "_power", "power"),
    (procedure, "check_agreement", "agreement"),
    (procedure, "divergence_round", "divergence"),
    (procedure, "confirmation_round", "confirmation"),
    (procedure, "tight_round", "tight"),
    (procedure, "_tradeoff", "trade-off"),
]
ORDER = [*dict.fromkeys(p for _, _, p in PHASES), "other"]


class Timers:
    """Exclusive wall seconds per phase: a phase's time less that of the phases it called."""

    def __init__(self):
        self.seconds: dict[str, float] = defaultdict(float)
        self.stack: list[list] = []

    def wrap(self, fn, phase):
        @functools.wraps(fn)
        def timed(*args, **kwargs):
            frame = [phase, 0.0]  # [phase, seconds of the phases inside it]
            self.stack.append(frame)
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                took = time.perf_counter() - t0
                self.stack.pop()
                self.seconds[phase] += took - frame[1]
                if self.stack:
                    self.stack[-1][1] += took
        return timed

    def install(self) -> None:
        for owner, name, phase in PHASES:
            setattr(owner, name, self.wrap(getattr(owner, name), phase))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", choices=("quick", "full"), default="quick")
    ap.add_argument("--spec", nargs="+")
    ap.add_argument("--paper", nargs="+")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    catalogue = load_catalogue()
    plan_ = planning.plan(catalogue, args.suite, args.spec, papers=args.paper)
    timers = Timers()
    timers.install()
    rows = []
    short = {"line search": "lines", "pair search": "pairs*", "training": "train", "estimation": "estim",
             "agreement": "agree", "divergence": "diverg", "confirmation": "confirm", "trade-off": "tradeoff"}
    print(f"{'seconds':>8} " + " ".join(f"{short.get(p, p):>8}" for p in ORDER) + "  audit", flush=True)
    for item in (i for i in plan_.items if i.kind == "audit"):
        timers.seconds.clear()
        t0 = time.perf_counter()
        result = execution.run_audit(catalogue[item.spec], item, plan_,
                                     int(planning.item_seed(args.seed, item.id).generate_state(1)[0]))
        total = time.perf_counter() - t0
        phases = dict(timers.seconds)
        phases["other"] = max(0.0, total - sum(phases.values()))
        search = ((result.get("rounds") or [{}])[0] or {}).get("line_search") or {}
        rows.append({"id": item.id, "seconds": total, "phases": phases, "class": result.get("class") or result.get("verdict"),
                     "line_search": {k: v for k, v in search.items() if k != "found"}})
        print(f"{total:8.2f} " + " ".join(f"{phases.get(p, 0.0):8.2f}" for p in ORDER) + f"  {item.id}", flush=True)
    total = sum(r["seconds"] for r in rows)
    sums = {p: sum(r["phases"].get(p, 0.0) for r in rows) for p in ORDER}
    print(f"{total:8.2f} " + " ".join(f"{sums[p]:8.2f}" for p in ORDER) + f"  all {len(rows)} audits")
    print(" " * 9 + " ".join(f"{100 * sums[p] / max(total, 1e-9):7.1f}%" for p in ORDER) + "  share")
    if args.json:
        args.json.write_text(json.dumps({"audits": rows, "totals": sums, "seconds": total}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
