"""Where a suite's time goes (measured, never asserted).

    python benchmarks/bench_suite.py RESULTS.json [--top N]
    python benchmarks/bench_suite.py --run quick|full [--paper NAME ...] [--jobs N] [--top N]

Reads a ``results.json`` (or runs ``dptestbed verify`` first) and prints every item's wall
time, slowest first, with its kind, paper, samples per second (audits) or trials (checks), the
items of largest peak memory, and the totals per paper and per kind: the profile to optimise
against.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path


def profile(document: dict, top: int) -> None:
    paper_of = {s["id"]: s.get("paper") or "" for s in document.get("specs", [])}
    rows = []
    for r in document.get("privacy", []):
        rate = r.get("samples_per_second")
        rows.append((r.get("seconds") or 0.0, "audit", paper_of.get(r["spec"], ""), r["id"],
                     f"{rate:.3g} samples/s" if rate else ""))
    for r in document.get("theorems", []):
        rows.append((r.get("seconds") or 0.0, r.get("kind") or "check", paper_of.get(r["spec"], ""), r["id"],
                     f"{r.get('trials')} trials" if r.get("trials") else ""))
    rows.sort(key=lambda row: -row[0])
    total = sum(row[0] for row in rows)
    print(f"{len(rows)} items, {total:.1f} item-seconds, run wall time {document['run']['seconds']:.1f} s "
          f"with {document['run'].get('jobs')} job(s)")
    print(f"{'seconds':>8}  {'kind':<11} {'paper':<19} item")
    for seconds, kind, paper, item, extra in rows[:top]:
        print(f"{seconds:8.1f}  {kind:<11} {paper:<19} {item}  {extra}")
    memory = sorted(((r.get("peak_rss_mb") or 0.0, r["id"]) for part in ("privacy", "theorems")
                     for r in document.get(part, [])), reverse=True)
    if memory and memory[0][0]:
        print("peak resident memory of an item's process (MiB; its sandbox workers included):")
        for mb, item in memory[:5]:
            print(f"{mb:8.0f}  {item}")
    for label, index in (("paper", 2), ("kind", 1)):
        sums = defaultdict(float)
        for row in rows:
            sums[row[index]] += row[0]
        print(f"per {label}: " + ", ".join(f"{k or '-'} {v:.0f} s" for k, v in sorted(sums.items(), key=lambda kv: -kv[1])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="?", help="a results.json to profile")
    parser.add_argument("--run", choices=("quick", "full"), help="run dptestbed verify first")
    parser.add_argument("--paper", nargs="+", default=[])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    if args.run:
        out = Path(tempfile.mkdtemp(prefix="bench-suite-"))
        cmd = [sys.executable, "-m", "dptestbed", "verify", "--suite", args.run, "--out", str(out),
               "--jobs", str(args.jobs), "--no-plots", "--quiet"] + (["--paper", *args.paper] if args.paper else [])
        subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL)
        path = out / "results.json"
    elif args.results:
        path = Path(args.results)
    else:
        parser.error("give a results.json or --run quick|full")
    profile(json.loads(path.read_text()), args.top)


if __name__ == "__main__":
    main()
