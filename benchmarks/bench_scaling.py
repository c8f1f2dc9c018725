"""How the suite's wall time scales with Dask workers (measured, never asserted).

    python benchmarks/bench_scaling.py [--suite quick|full] [--paper NAME ...] [--workers 1 2 4] [--estimate 16 64]
    python benchmarks/bench_scaling.py --results RESULTS.json [--estimate 16 64]
    python benchmarks/bench_scaling.py --audit SPEC [--samples 100000000] [--workers 1 2 4]

Runs ``dptestbed verify --executor dask --jobs W`` (a LocalCluster of W single-threaded worker
processes) for each W and prints its wall time (command start to end: cluster start, items,
errata measurements, no plots) and whether the verdicts equal the first run's. Then, from the
per-item times of the first run's results.json (or of RESULTS.json), it estimates the items'
wall time on more workers by list scheduling, longest item first (what the executors do: items
are submitted most expensive first), beside the bound max(longest item, total / workers) that
no schedule beats. Per-item times exclude the per-item fork and the cluster's dispatch; the
fixed part of a run (start, errata, report) is printed apart. On a machine with C cores more
than C workers cannot help: they share the cores.

``--audit SPEC`` measures one audit split across workers instead: ``dptestbed audit SPEC
--samples N`` locally, then with ``--executor dask --jobs W``, each line with its wall time, the
estimation batches that ran on the workers, and whether the result equals the local one.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dptestbed.audits.run.results import comparable


def item_seconds(document: dict) -> list[float]:
    return [r.get("seconds") or 0.0 for part in ("privacy", "theorems") for r in document.get(part, [])]


def list_schedule(seconds: list[float], workers: int) -> float:
    """The wall time of ``seconds`` on ``workers`` workers, longest item first, each to the
    worker that is free first."""
    free = [0.0] * workers
    for s in sorted(seconds, reverse=True):
        heapq.heapreplace(free, free[0] + s)
    return max(free)


def measure(workers: int, args) -> tuple[float, dict]:
    out = Path(tempfile.mkdtemp(prefix=f"bench-scaling-{workers}-"))
    cmd = [sys.executable, "-m", "dptestbed", "verify", "--suite", args.suite, "--seed", str(args.seed),
           "--out", str(out), "--executor", "dask", "--jobs", str(workers), "--no-plots", "--quiet"]
    cmd += ["--paper", *args.paper] if args.paper else []
    t0 = time.perf_counter()
    subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0, json.loads((out / "results.json").read_text())


def measure_audit(args, extra: list[str]) -> tuple[float, dict]:
    cmd = [sys.executable, "-m", "dptestbed", "audit", args.audit, "--samples", str(args.samples),
           "--seed", str(args.seed), "--json", *extra]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=False, capture_output=True, text=True)
    if out.returncode == 2:
        raise SystemExit(f"{' '.join(cmd[3:])}: {out.stderr.strip().splitlines()[-1]}")
    return time.perf_counter() - t0, json.loads(out.stdout)


def audit_scaling(args) -> None:
    print(f"audit {args.audit}, {args.samples:,} samples per side, seed {args.seed}, {os.cpu_count()} CPUs")
    print(f"{'executor':>18}  {'wall':>8}  {'batches elsewhere':>17}  {'eps_lb':>7}  same result as local")
    runs = [("local", [])] + [(f"dask, {w} workers", ["--executor", "dask", "--jobs", str(w)]) for w in args.workers]
    first = None
    for name, extra in runs:
        wall, result = measure_audit(args, extra)
        plain = {k: v for k, v in result.items() if k not in ("seconds", "samples_per_second", "timing")}
        first = first or plain
        elsewhere = result.get("timing", {}).get("elsewhere", {}).get("batches", 0)
        print(f"{name:>18}  {wall:>6.1f} s  {elsewhere:>17}  {result['epsilon_lower_bound']:>7.4f}  "
              f"{'yes' if plain == first else 'NO'}", flush=True)


def estimate(document: dict, counts: list[int], wall: float | None = None) -> None:
    seconds = item_seconds(document)
    total, longest = sum(seconds), max(seconds, default=0.0)
    print(f"\nper-item times: {len(seconds)} items, {total:.1f} item-seconds, longest {longest:.1f} s"
          + (f"; fixed part of the measured run (wall - items on its workers): "
             f"{wall - list_schedule(seconds, document['run']['jobs']):.1f} s" if wall else ""))
    print(f"{'workers':>7}  {'items, list schedule':>21}  {'bound max(longest, total/W)':>28}")
    for w in counts:
        print(f"{w:>7}  {list_schedule(seconds, w):>19.1f} s  {max(longest, total / w):>26.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", help="only estimate, from this results.json")
    parser.add_argument("--suite", choices=("quick", "full"), default="quick")
    parser.add_argument("--paper", nargs="+", default=[])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--estimate", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--audit", metavar="SPEC", help="measure one audit split across the workers instead")
    parser.add_argument("--samples", type=int, default=100_000_000, help="with --audit: samples per side")
    args = parser.parse_args()
    if args.audit:
        audit_scaling(args)
        return
    if args.results:
        estimate(json.loads(Path(args.results).read_text()), args.estimate)
        return
    print(f"suite {args.suite}" + (f", papers {' '.join(args.paper)}" if args.paper else "")
          + f", seed {args.seed}, {os.cpu_count()} CPUs")
    print(f"{'workers':>7}  {'wall':>8}  {'items':>6}  {'errors':>6}  {'load':>5}  verdicts as with {args.workers[0]} worker(s)")
    first = None
    for w in args.workers:
        wall, document = measure(w, args)
        first = first or (wall, document)
        same = "yes" if comparable(document) == comparable(first[1]) else "NO"
        load = os.getloadavg()[1]  # the machine's 5-minute load average at the end: others' work shares the cores
        print(f"{w:>7}  {wall:>6.1f} s  {len(item_seconds(document)):>6}  {document['summary']['errors']:>6}  "
              f"{load:>5.1f}  {same}", flush=True)
    estimate(first[1], args.workers + args.estimate, first[0])


if __name__ == "__main__":
    main()
