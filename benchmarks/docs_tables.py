"""Regenerates the figures of README.md and docs/*.md from measured runs (never by hand).

    python benchmarks/docs_tables.py --verify QUICK/results.json [--full FULL/results.json]
                                     [--mutants MUTANTS/results.json] [--tests SECONDS_FAST SECONDS_SLOW]
                                     [--corpus /tmp/ind] [--libraries TABLE.md] [--libraries-familywise TABLE.md]
                                     [--percall TABLE.md] [--statdp STATDP.json] [--audit-phases PHASES.json]
                                     [--measurements TABLE.md]
                                     [--load TEXT] [--check]

Each table or figure sits between ``<!-- generated: NAME -->`` and ``<!-- /generated: NAME -->`` in a
Markdown file; this script rewrites what is between the markers and stamps it with the date, the
machine (CPUs, load average when the run ended is not known: the results record the run's wall time
and jobs) and the command that produced the input. ``--check`` only reports markers whose input is
missing. Inputs:
- ``--verify``: a ``dptestbed verify`` results.json (quick suite): items by class, wall time, longest items,
  and the phase profile (with the ``wall.json`` that ``benchmarks/bench_suite.py --run`` writes beside it:
  the whole command's and the report's seconds);
- ``--full``: the same for ``--suite full``;
- ``--mutants``: a ``dptestbed mutants`` results.json over the papers: kills by class per paper;
- ``--tests``: the seconds of the README's test command's two pytest runs (fast, slow);
- ``--corpus``: the table ``benchmarks/independent.py --markdown TABLE.md`` wrote (truth vs outcome);
- ``--libraries``: the table ``benchmarks/libraries.py --markdown TABLE.md`` wrote (library wrappers audited);
- ``--libraries-familywise``: the same with ``--confidence 0.9984`` (1 - 0.05/31) on the tight, fast rows;
- ``--percall``: the table ``benchmarks/percall.py --markdown TABLE.md`` wrote (correct files checked one call at a
  time);
- ``--statdp``: the JSON ``benchmarks/vs_statdp.py --json`` wrote (StatDP and dptestbed side by side);
- ``--audit-phases``: the JSON ``benchmarks/audit_phases.py --json`` wrote (each audit's wall time by phase);
- ``--measurements``: the table ``benchmarks/measurements.py --markdown TABLE.md`` wrote (the long measurements).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import sys
from collections import Counter
from pathlib import Path

from bench_suite import phase_rows, phases

ROOT = Path(__file__).resolve().parent.parent
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKER = re.compile(r"(<!-- generated: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /generated: (?P=name) -->)", re.S)


def machine() -> str:
    return f"{os.cpu_count()} CPUs, {platform.machine()}, Python {platform.python_version()}"


LOAD: list[str] = []  # --load: what else ran on the machine meanwhile (said in every stamp)


def stamp(source: str) -> str:
    load = f"; under load ({LOAD[0]}): read the ratios and shares, not the seconds" if LOAD else ""
    return f"*Measured {datetime.date.today().isoformat()} on {machine()}; input: {source}{load}.*\n"


def _classes(document: dict) -> Counter:
    return Counter(r.get("class") for part in ("privacy", "theorems") for r in document.get(part) or [])


def verify_figures(document: dict, source: str, wall: dict | None = None) -> dict[str, str]:
    """The suite's line and table; ``wall`` (``wall.json``): the line gives the whole command's wall time."""
    run, summary = document["run"], document["summary"]
    classes = _classes(document)
    items = sum(classes.values())
    seconds = sum((r.get("seconds") or 0.0) for part in ("privacy", "theorems") for r in document[part])
    longest = sorted(((r.get("seconds") or 0.0, r["id"]) for part in ("privacy", "theorems")
                      for r in document[part]), reverse=True)[:5]
    took = (f"{wall['command'] / 60:.1f} min wall time (the whole command, report included)" if wall
            else f"{run['seconds'] / 60:.1f} min wall time")
    line = (f"{items} items in {took} with {run.get('jobs')} jobs "
            f"({seconds:,.0f} item-seconds): {summary.get('as_expected')} as expected, {summary.get('unexpected')} "
            f"unexpected, {summary.get('no_power')} without power, {summary.get('errors')} errors; negative controls "
            f"flagged {summary.get('controls_flagged')} of {summary.get('controls')}; by class (controls included): "
            + ", ".join(f"{n} {c}" for c, n in classes.most_common()) + f"; exit code {summary.get('exit_code')}")
    table = ["| class | items |", "|---|---|"] + [f"| {c} | {n} |" for c, n in classes.most_common()]
    table += ["", "Longest items:", "", "| seconds | item |", "|---|---|"]
    table += [f"| {s:.1f} | {i} |" for s, i in longest]
    table += memory_lines(document)
    return {"line": line + "\n" + stamp(source), "table": "\n".join(table) + "\n\n" + stamp(source)}


def memory_lines(document: dict) -> list[str]:
    """The run's peak resident memory: the largest item's and the errata phase's largest measurement's."""
    items = [(r.get("peak_rss_mb") or 0.0, r["id"]) for part in ("privacy", "theorems") for r in document[part]]
    errata = [(e.get("peak_rss_mb") or 0.0, e["id"]) for e in document.get("errata") or []]
    lines = [""]
    if items:
        mb, where = max(items)
        lines.append(f"Peak resident memory: {mb:,.0f} MB in an item ({where})")
    if errata:
        mb, where = max(errata)
        seconds = sum(e.get("seconds") or 0.0 for e in document["errata"])
        lines.append(f"; the errata phase: {len(errata)} measurements in {seconds / 60:.1f} min, each in a process "
                     f"of its own, the largest {mb:,.0f} MB ({where}).")
    return ["", "".join(lines[1:])] if len(lines) > 1 else []  # a blank line first: the table above ends


def profile_figures(document: dict, wall: dict | None, source: str) -> str:
    """The phase profile of a verify run (:func:`bench_suite.phases`) as a table: seconds and share of the
    whole command (of the run without ``wall``)."""
    p = phases(document, wall)
    total = p.get("command") or p["run"]
    ideal = p["item_seconds"] / p["jobs"]
    rows = phase_rows(p)
    lines = ["| phase | seconds | share |", "|---|---|---|"]
    lines += [f"| {label} | {seconds:.1f} | {100 * seconds / total:.1f}% |" for label, seconds in rows]
    lines.append(f"| whole {'command' if 'command' in p else 'run'} | {total:.1f} | 100% |")
    note = (f"\nWall time {total:.1f} s against {ideal:.1f} s of the items' own work per job: {total / ideal:.2f}x"
            f" (the items' phase alone {p.get('items_wall', p['run']) / ideal:.2f}x). results.json was written "
            f"{p.get('writes')} times in {p.get('writing') or 0.0:.1f} s, beside the items.\n")
    return "\n".join(lines) + "\n" + note + "\n" + stamp(source)


def statdp_figures(document: dict, source: str) -> str:
    """StatDP's own code against dptestbed's audit, pair by pair (benchmarks/vs_statdp.py --json)."""
    lines = ["| StatDP | dptestbed spec | StatDP s | dptestbed s | ratio (min-max) | StatDP p at the claim | "
             "dptestbed class, ε lower bound |", "|---|---|---|---|---|---|---|"]
    for pair in document["pairs"]:
        rounds = pair["rounds"]
        ratios = [r["ratio"] for r in rounds]
        med = sorted(ratios)[len(ratios) // 2]
        s = sorted(r["statdp_seconds"] for r in rounds)[len(rounds) // 2]
        d = sorted(r["dptestbed_seconds"] for r in rounds)[len(rounds) // 2]
        last = rounds[-1]
        p = f"{last['p']:.3g}" if isinstance(last.get("p"), (int, float)) else "-"
        eps = last.get("epsilon_lower_bound")
        lines.append(f"| {pair['statdp']} | {pair['spec']} | {s:.2f} | {d:.2f} | {med:.1f}x ({min(ratios):.1f}-"
                     f"{max(ratios):.1f}) | {p} | {last.get('class')}, {eps if eps is None else f'{eps:.3g}'} |")
    lines += ["", f"Each pair {len(document['pairs'][0]['rounds'])} rounds, alternating; StatDP at "
                  f"{document['event_iterations']:,} event and {document['detect_iterations']:,} detection iterations, "
                  f"{document['jobs']} cores; both whole processes."]
    return "\n".join(lines) + "\n\n" + stamp(source)


def phase_figures(document: dict, source: str) -> str:
    """The quick suite's audits' wall time by phase (benchmarks/audit_phases.py --json): the suite's totals."""
    totals, seconds = document["totals"], document["seconds"]
    lines = ["| phase | seconds | share |", "|---|---|---|"]
    lines += [f"| {name} | {value:.1f} | {100 * value / seconds:.1f}% |"
              for name, value in sorted(totals.items(), key=lambda kv: -kv[1]) if value >= 0.05]
    lines.append(f"| all {len(document['audits'])} audits | {seconds:.1f} | 100% |")
    return "\n".join(lines) + "\n\n" + stamp(source)


def mutant_figures(document: dict, source: str) -> str:
    matrix = document["mutants"]
    kill_classes = list((matrix["overall"].get("killed_by_class") or {}).keys())
    rows: dict[str, Counter] = {}
    paper_of = {s["id"]: s.get("paper") or "" for s in document.get("specs", [])}
    for r in matrix["rows"]:
        c = rows.setdefault(paper_of.get(r["spec"], ""), Counter())
        c["mutants"] += 1
        c["equivalent"] += r["status"] == "equivalent"
        c["killed"] += r["status"] == "killed"
        c["privacy_shown"] += r.get("privacy_shown") is not None
        c["privacy_exact"] += r.get("privacy_shown") is None and bool(r.get("privacy_exact"))
        if r.get("kill_class"):
            c[r["kill_class"]] += 1
    head = ["paper", "mutants", "equivalent", "killed", "loss above the claim measured", "computed exactly",
            *kill_classes]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for paper, c in rows.items():
        lines.append("| " + " | ".join([paper, str(c["mutants"]), str(c["equivalent"]), str(c["killed"]),
                                        str(c["privacy_shown"]), str(c["privacy_exact"]),
                                        *(str(c[k]) for k in kill_classes)]) + " |")
    o = matrix["overall"]
    lines += ["", f"Each cell tested at level {o.get('per_cell_level'):.3g}; at most "
                  f"{o.get('expected_spurious_kills'):.2g} spurious kills expected over {o.get('statistical_cells')} "
                  f"statistical cells. Labels not backed by a measurement: {len(o.get('labels_not_backed') or [])}."
              f" Wall time {document['run']['seconds'] / 60:.1f} min with {document['run'].get('jobs')} jobs."]
    return "\n".join(lines) + "\n\n" + stamp(source)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--verify", type=Path)
    ap.add_argument("--full", type=Path)
    ap.add_argument("--mutants", type=Path)
    ap.add_argument("--tests", type=float, nargs=2, metavar=("FAST", "SLOW"))
    ap.add_argument("--corpus", type=Path)
    ap.add_argument("--libraries", type=Path)
    ap.add_argument("--libraries-familywise", type=Path)
    ap.add_argument("--percall", type=Path)
    ap.add_argument("--statdp", type=Path)
    ap.add_argument("--audit-phases", type=Path)
    ap.add_argument("--measurements", type=Path)
    ap.add_argument("--load", metavar="TEXT", help="the inputs were measured under this load (said in the stamps)")
    ap.add_argument("--check", action="store_true", help="list the markers and whether an input fills them")
    args = ap.parse_args(argv)
    LOAD[:] = [args.load] if args.load else []
    figures: dict[str, str] = {}
    if args.verify:
        wall_file = args.verify.with_name("wall.json")
        wall = json.loads(wall_file.read_text()) if wall_file.exists() else None
        v = verify_figures(json.loads(args.verify.read_text()), "`dptestbed verify --jobs 2` (quick suite)", wall)
        figures["quick-suite"], figures["quick-suite-table"] = v["line"], v["table"]
        figures["quick-suite-profile"] = profile_figures(json.loads(args.verify.read_text()), wall,
            "`python benchmarks/bench_suite.py --run quick --jobs 2` (the quick suite, the whole command timed)")
    if args.statdp:
        figures["statdp"] = statdp_figures(json.loads(args.statdp.read_text()),
                                           "`python benchmarks/vs_statdp.py --statdp PATH --json OUT`")
    if args.audit_phases:
        figures["audit-phases"] = phase_figures(json.loads(args.audit_phases.read_text()),
                                                "`python benchmarks/audit_phases.py --json OUT`")
    if args.full:
        full = json.loads(args.full.read_text())
        v = verify_figures(full, f"`dptestbed verify --suite full --jobs {full['run'].get('jobs')}`")
        figures["full-suite"], figures["full-suite-table"] = v["line"], v["table"]
    if args.mutants:
        figures["mutants"] = mutant_figures(json.loads(args.mutants.read_text()), "`dptestbed mutants --jobs 2`")
    if args.tests:
        fast, slow = args.tests
        figures["tests"] = (f"fast subset {fast / 60:.1f} min, slow tests {slow / 60:.1f} min\n"
                            + stamp("the README's test command"))
    if args.corpus:
        figures["corpus"] = args.corpus.read_text() + "\n" + stamp("`python benchmarks/independent.py --jobs 1 "
                                                                   "--markdown TABLE.md`")
    if args.libraries:
        figures["libraries"] = args.libraries.read_text() + "\n" + stamp("`python benchmarks/libraries.py "
                                                                         "--markdown TABLE.md`")
    if args.libraries_familywise:
        figures["libraries-familywise"] = args.libraries_familywise.read_text() + "\n" + stamp(
            "`python benchmarks/libraries.py --only Geometric geometric Laplace randomized --confidence 0.9984 "
            "--markdown TABLE.md`")
    if args.percall:
        figures["percall"] = args.percall.read_text() + "\n" + stamp("`python benchmarks/percall.py --markdown "
                                                                       "TABLE.md`")
    if args.measurements:
        figures["measurements"] = args.measurements.read_text() + "\n" + stamp(
            "`python benchmarks/measurements.py --jobs 2 --markdown TABLE.md`")
    missing = []
    for path in FILES:
        text = path.read_text()
        names = [m.group("name") for m in MARKER.finditer(text)]
        missing += [f"{path.relative_to(ROOT)}: {n}" for n in names if n not in figures]
        if args.check:
            continue
        new = MARKER.sub(lambda m: m.group(1) + figures.get(m.group("name"), m.group("body")) + m.group(4), text)
        if new != text:
            path.write_text(new)
            print(f"updated {path.relative_to(ROOT)}")
    if missing:
        print("not regenerated (no input given): " + "; ".join(missing), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
