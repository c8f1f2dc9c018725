"""Where a suite's time goes (measured, never asserted).

    python benchmarks/bench_suite.py RESULTS.json [--top N] [--costs]
    python benchmarks/bench_suite.py --run quick|full [--paper NAME ...] [--jobs N] [--out DIR] [--top N] [--costs]

Reads a ``results.json`` (or runs ``dptestbed verify`` first, timing the whole command and then the
report's rendering alone with ``dptestbed report``, into ``wall.json`` beside the results) and prints
the phase profile of the run (:func:`phases`: start-up, the items' own work, item processes starting
and ending, scheduling idle time, results writing, errata, the report), every item's wall time,
slowest first, with its kind, paper, samples per second (audits) or trials (checks), the items of
largest peak memory, and the totals per paper and per kind: the profile to optimise against.
``--costs`` writes the items' seconds to ``audits/run/costs.json``, the measured costs the executor
orders items by (longest first).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def items_of(document: dict) -> list[dict]:
    return [r for part in ("privacy", "theorems") for r in document.get(part) or []]


def phases(document: dict, wall: dict | None = None) -> dict:
    """The run's wall time by phase, in seconds (``wall``: the whole command's and the report's, from
    ``wall.json``; without it the phases outside ``run.seconds`` are unknown). The items' phase is
    counted in slot-seconds (its wall time times the jobs): the items' own work (their ``seconds``),
    their processes starting (fork to work) and ending (work done to result received), and the slots
    left idle, at the end (after a slot's last item, while others still run) and between items."""
    run = document["run"]
    profile = run.get("profile") or {}
    jobs = int(run.get("jobs") or 1)
    rows = [r for r in items_of(document) if isinstance(r.get("clock"), dict)]
    out: dict = {"jobs": jobs, "items": len(items_of(document)), "run": run["seconds"],
                 "item_seconds": sum(r.get("seconds") or 0.0 for r in items_of(document))}
    if wall:
        out["command"] = wall["command"]
        out["report"] = wall["report"]
        out["start-up"] = max(0.0, wall["command"] - run["seconds"] - wall["report"])
    out["prepare"] = profile.get("prepare")
    out["errata"] = profile.get("errata")
    out["writing"] = profile.get("writing")
    out["writes"] = profile.get("writes")
    if rows and profile.get("items"):
        span = profile["items"]
        work = sum(r.get("seconds") or 0.0 for r in rows)
        held = sum(r["clock"]["received"] - r["clock"]["start"] for r in rows)
        starting = sum(r["clock"].get("ran", r["clock"]["start"]) - r["clock"]["start"] for r in rows)
        out["items_wall"] = span
        out["slots"] = {"work": work, "starting": starting, "ending": held - work - starting,
                        "idle": jobs * span - held}
        # idle at the end: each slot from its last result to the end of the items' phase
        last_start = max(r["clock"]["start"] for r in rows)
        ends = sorted((r["clock"]["received"] for r in rows), reverse=True)[:jobs]
        end = max(ends)
        out["slots"]["idle_tail"] = sum(end - e for e in ends) if last_start < end else 0.0
        out["slots"]["idle_between"] = out["slots"]["idle"] - out["slots"]["idle_tail"]
        out["bound"] = max(work / jobs, max((r.get("seconds") or 0.0) for r in rows))
    return out


def phase_rows(p: dict) -> list[tuple[str, float]]:
    """The phases of :func:`phases` as (label, wall seconds) rows, in the run's order (the items' slot-seconds
    divided by the jobs)."""
    jobs = p["jobs"]
    rows = [("start-up: interpreter, imports, catalogue, plan", p["start-up"])] if "start-up" in p else []
    rows.append(("prepare: spec records, the first results.json", p.get("prepare") or 0.0))
    if "slots" in p:
        s = p["slots"]
        rows += [(f"items: their own work ({p['item_seconds']:,.0f} item-seconds / {jobs} jobs)", s["work"] / jobs),
                 ("items: their processes starting (fork to work)", s["starting"] / jobs),
                 ("items: their processes ending (result sent and received)", s["ending"] / jobs),
                 ("items: slots idle between items", s["idle_between"] / jobs),
                 ("items: slots idle at the end (the last items running)", s["idle_tail"] / jobs)]
    rows.append(("errata measurements", p.get("errata") or 0.0))
    if "report" in p:
        rows.append(("report: HTML, Markdown, junit, plots", p["report"]))
    return rows


def print_phases(p: dict) -> None:
    ideal = p["item_seconds"] / p["jobs"]
    print(f"{p['items']} items, {p['item_seconds']:.1f} item-seconds with {p['jobs']} job(s): {ideal:.1f} s if every "
          f"slot only worked; run {p['run']:.1f} s ({p['run'] / ideal:.2f}x)"
          + (f", whole command {p['command']:.1f} s ({p['command'] / ideal:.2f}x)" if "command" in p else ""))
    total = p.get("command") or p["run"]
    for label, seconds in phase_rows(p):
        print(f"  {seconds:8.1f} s {100 * seconds / total:5.1f}%  {label}")
    if p.get("writing") is not None:
        print(f"  results.json written {p.get('writes')} times in {p['writing']:.1f} s (in the items' phase, "
              "beside the items)")


def profile(document: dict, top: int, wall: dict | None = None) -> None:
    print_phases(phases(document, wall))
    paper_of = {s["id"]: s.get("paper") or "" for s in document.get("specs", [])}
    rows = []
    for r in document.get("privacy", []):
        rate = r.get("samples_per_second")
        rows.append((r.get("seconds") or 0.0, "audit", paper_of.get(r["spec"], ""), r["id"],
                     f"{rate:.3g} samples/s" if rate else "", r.get("clock")))
    for r in document.get("theorems", []):
        rows.append((r.get("seconds") or 0.0, r.get("kind") or "check", paper_of.get(r["spec"], ""), r["id"],
                     f"{r.get('trials')} trials" if r.get("trials") else "", r.get("clock")))
    rows.sort(key=lambda row: -row[0])
    print(f"{'seconds':>8} {'held':>7}  {'kind':<11} {'paper':<19} item  (held: its slot's seconds, fork to result)")
    for seconds, kind, paper, item, extra, clock in rows[:top]:
        held = f"{clock['received'] - clock['start']:7.1f}" if clock else " " * 7
        print(f"{seconds:8.1f} {held}  {kind:<11} {paper:<19} {item}  {extra}")
    memory = sorted(((r.get("peak_rss_mb") or 0.0, r["id"]) for r in items_of(document)), reverse=True)
    if memory and memory[0][0]:
        print("peak resident memory of an item's process (MiB; its sandbox workers included):")
        for mb, item in memory[:5]:
            print(f"{mb:8.0f}  {item}")
    for label, index in (("paper", 2), ("kind", 1)):
        sums = defaultdict(float)
        for row in rows:
            sums[row[index]] += row[0]
        print(f"per {label}: " + ", ".join(f"{k or '-'} {v:.0f} s" for k, v in sorted(sums.items(), key=lambda kv: -kv[1])))


def write_costs(document: dict) -> Path:
    """``audits/run/costs.json``: this run's seconds per item, under its suite (the other suites' kept)."""
    from dptestbed.audits.run.planning import cost_key

    path = ROOT / "audits" / "run" / "costs.json"
    try:
        costs = json.loads(path.read_text())
    except (OSError, ValueError):
        costs = {}
    costs["about"] = ("seconds per item as a measured run took them (benchmarks/bench_suite.py --costs): the "
                      "executor starts the longest first; no result depends on them")
    seconds = costs.setdefault("seconds", {})
    seconds[document["run"]["suite"]] = {cost_key(r["id"]): round(r.get("seconds") or 0.0, 2)
                                         for r in items_of(document) if r.get("verdict") != "error"}
    path.write_text(json.dumps(costs, indent=0, sort_keys=True) + "\n")
    return path


def run_suite(args) -> Path:
    """``dptestbed verify`` timed whole, then its report rendered again alone; returns the results' path."""
    out = Path(args.out or tempfile.mkdtemp(prefix="bench-suite-"))
    cmd = [sys.executable, "-m", "dptestbed", "verify", "--suite", args.run, "--out", str(out),
           "--jobs", str(args.jobs), "--quiet", "--force"] + (["--paper", *args.paper] if args.paper else [])
    t0 = time.perf_counter()
    subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL)
    command = time.perf_counter() - t0
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "dptestbed", "report", str(out / "results.json"), "--out",
                    tempfile.mkdtemp(prefix="bench-report-")], check=False, stdout=subprocess.DEVNULL)
    report = time.perf_counter() - t0
    (out / "wall.json").write_text(json.dumps({"command": command, "report": report}))
    return out / "results.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="?", help="a results.json to profile (its folder's wall.json, if any, too)")
    parser.add_argument("--run", choices=("quick", "full"), help="run dptestbed verify first")
    parser.add_argument("--paper", nargs="+", default=[])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", help="the run's output folder (default: a new temporary one)")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--costs", action="store_true", help="write the items' seconds to audits/run/costs.json")
    args = parser.parse_args()
    if args.run:
        path = run_suite(args)
    elif args.results:
        path = Path(args.results)
    else:
        parser.error("give a results.json or --run quick|full")
    document = json.loads(path.read_text())
    wall_file = path.with_name("wall.json")
    profile(document, args.top, json.loads(wall_file.read_text()) if wall_file.exists() else None)
    if args.costs:
        print(f"wrote {write_costs(document)}")


if __name__ == "__main__":
    main()
