"""The long measurements of the test suite (tests marked ``measurement``): run them, print where the time went.

    python benchmarks/measurements.py [--jobs 2] [--json OUT.json] [--markdown TABLE.md] [PYTEST ARGS ...]

A measurement is a test that checks a whole implementation end to end at default settings (a user's file of
tests/independent, a mutant's kill, an audit at a million samples) and takes tens of seconds to minutes: what the
README's test command would wait for in a quarter of an hour. They are the same tests, with the same assertions; the
README's command leaves them out (tests/conftest.py) so that a contributor's run takes minutes, and this script runs
them all (``pytest -m measurement``). Before a release, and after any change to the audit's search, rounds or checks,
run it; its exit code is pytest's.

It prints each module's item-seconds and test count, the slowest items, and the wall time; ``--json`` writes them.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DURATION = re.compile(r"^(?P<seconds>[\d.]+)s (?:call|setup|teardown)\s+(?P<node>\S+)")
OUTCOME = re.compile(r"(?P<count>\d+) (?P<kind>passed|failed|errors?|skipped|deselected)")


def run(jobs: int, extra: list[str]) -> dict:
    # items dealt one by one (--dist load), not whole modules: one module holds half of the measurements' seconds
    cmd = [sys.executable, "-m", "pytest", "-q", "-n", str(jobs), "--dist", "load", "-m", "measurement",
           "--durations=0", "--durations-min=0", *extra]  # every item's phases, so every item is counted
    t0 = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - t0
    per_item: dict[str, float] = defaultdict(float)
    for line in proc.stdout.splitlines():
        match = DURATION.match(line.strip())
        if match:
            per_item[match["node"]] += float(match["seconds"])
    per_module: dict[str, list] = defaultdict(lambda: [0.0, 0])
    for node, seconds in per_item.items():
        module = per_module[node.split("::")[0]]
        module[0] += seconds
        module[1] += 1
    tail = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else proc.stderr.strip()[-500:]
    outcomes = {m["kind"].rstrip("s") if m["kind"].startswith("error") else m["kind"]: int(m["count"])
                for m in OUTCOME.finditer(tail)}
    return {"command": " ".join(cmd[1:]), "jobs": jobs, "exit_code": proc.returncode, "wall_seconds": round(wall, 1),
            "item_seconds": round(sum(per_item.values()), 1), "outcomes": outcomes, "summary": tail,
            "modules": {m: {"seconds": round(s, 1), "items": n} for m, (s, n) in
                        sorted(per_module.items(), key=lambda kv: -kv[1][0])},
            "slowest": [{"item": node, "seconds": round(s, 1)} for node, s in
                        sorted(per_item.items(), key=lambda kv: -kv[1])[:15]],
            "failures": [line for line in proc.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]}


def markdown(doc: dict) -> str:
    rows = ["| module | items | item-seconds |", "|---|---:|---:|"]
    rows += [f"| {m} | {v['items']} | {v['seconds']:.0f} |" for m, v in doc["modules"].items()]
    rows.append(f"| all ({doc['jobs']} jobs: {doc['wall_seconds'] / 60:.1f} min wall) | "
                f"{sum(v['items'] for v in doc['modules'].values())} | {doc['item_seconds']:.0f} |")
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=2, help="pytest-xdist workers (default 2)")
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--markdown", type=Path, help="write the per-module table here (docs/performance.md)")
    args, extra = ap.parse_known_args(argv)
    doc = run(args.jobs, extra)
    print(markdown(doc))
    for row in doc["slowest"]:
        print(f"{row['seconds']:8.1f} s  {row['item']}")
    print(*doc["failures"], sep="\n")
    print(f"{doc['summary']}  (wall {doc['wall_seconds'] / 60:.1f} min, {doc['item_seconds'] / 60:.1f} item-minutes)")
    if args.json:
        args.json.write_text(json.dumps(doc, indent=1) + "\n")
    if args.markdown:
        args.markdown.write_text(markdown(doc))
    return doc["exit_code"]


if __name__ == "__main__":
    sys.exit(main())
