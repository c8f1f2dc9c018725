"""The suite's false-alarm rate over seeds (measured, never asserted).

    python benchmarks/false_alarms.py [--seeds 20] [--first 0] [--suite quick] [--paper NAME ...]
                                      [--jobs 2] [--keep DIR]
    python benchmarks/false_alarms.py --audit laplace_mechanism [--seeds 200] [--samples 20000]
                                      [--confidence 0.8]

With ``--audit SPEC``: one spec's reference audited in this process once per seed at a low confidence (a
false-alarm rate of at most 1 - confidence per run), and the alarms counted against the largest count an exact
binomial test at level 1e-3 accepts for that rate (the test suite does this for randomized response; Laplace's
200 runs, about 5 minutes, are measured here).

Runs ``dptestbed verify --no-controls`` (the reference items only: controls are expected to be
flagged and say nothing about false alarms) once per seed and prints, per seed, the number of
items, unexpected outcomes (a reference flagged: a false alarm, or a printed-erratum spec not
flagged: a miss), errors and checks without power, then the totals against the family-wise level
the suite states. The runs' results.json are kept under ``--keep`` (default: a temporary folder).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_seed(seed: int, args, keep: Path) -> dict:
    out = keep / f"seed-{seed}"
    cmd = [sys.executable, "-m", "dptestbed", "verify", "--no-controls", "--suite", args.suite,
           "--seed", str(seed), "--jobs", str(args.jobs), "--out", str(out), "--no-plots", "--quiet"]
    if args.paper:
        cmd += ["--paper", *args.paper]
    start = time.perf_counter()
    proc = subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    try:
        document = json.loads((out / "results.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {"seed": seed, "exit": proc.returncode, "wall": wall, "failed": proc.stderr.strip()[-300:]}
    s = document["summary"]
    unexpected = [r["id"] for key in ("privacy", "theorems") for r in document.get(key, [])
                  if r.get("outcome") == "unexpected"]
    return {"seed": seed, "exit": proc.returncode, "wall": wall, "items": s["items"], "unexpected": unexpected,
            "errors": s["errors"], "no_power": len(s.get("without_power", [])),
            "statement": document["family"]["statement"]}


def audit_alarms(args) -> None:
    from dptestbed.audits.base.stats import binomial_false_alarm_limit
    from dptestbed.audits.privacy import VIOLATION, audit
    from dptestbed.spec import load_spec, spec_file

    spec = load_spec(spec_file(args.audit))
    start, alarms = time.perf_counter(), []
    for seed in range(args.first, args.first + args.seeds):
        if audit(spec, samples=args.samples, confidence=args.confidence, seed=seed).verdict == VIOLATION:
            alarms.append(seed)
    limit = binomial_false_alarm_limit(args.seeds, 1 - args.confidence, 1e-3)
    print(f"{args.audit}: {len(alarms)} alarms in {args.seeds} audits (seeds {args.first}-{args.first + args.seeds - 1}, "
          f"{args.samples} samples a side, confidence {args.confidence}) in {time.perf_counter() - start:.0f} s; "
          f"at most {limit} accepted for a rate <= {1 - args.confidence:g} (binomial test at 1e-3): "
          f"{'within' if len(alarms) <= limit else 'ABOVE'}; alarms at seeds {alarms}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="number of seeds (default 20)")
    parser.add_argument("--first", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--suite", choices=("quick", "full"), default="quick")
    parser.add_argument("--paper", nargs="+", default=[])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", help="folder for the runs' reports (default: a temporary folder)")
    parser.add_argument("--audit", metavar="SPEC", help="one spec's audit over seeds instead (module doc)")
    parser.add_argument("--samples", type=int, default=20_000, help="with --audit: samples a side (default 20000)")
    parser.add_argument("--confidence", type=float, default=0.8, help="with --audit: the audit's (default 0.8)")
    args = parser.parse_args()
    if args.audit:
        audit_alarms(args)
        return
    keep = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="false-alarms-"))
    keep.mkdir(parents=True, exist_ok=True)
    rows = []
    print(f"{'seed':>4} {'exit':>4} {'items':>5} {'unexp':>5} {'errors':>6} {'no power':>8} {'wall s':>7}  unexpected items")
    for seed in range(args.first, args.first + args.seeds):
        row = run_seed(seed, args, keep)
        rows.append(row)
        if "failed" in row:
            print(f"{seed:>4} {row['exit']:>4}  run failed: {row['failed']}", flush=True)
            continue
        print(f"{seed:>4} {row['exit']:>4} {row['items']:>5} {len(row['unexpected']):>5} {row['errors']:>6} "
              f"{row['no_power']:>8} {row['wall']:>7.0f}  {', '.join(row['unexpected'])}", flush=True)
    done = [r for r in rows if "failed" not in r]
    flagged = sum(1 for r in done if r["unexpected"])
    print(f"{len(done)} of {len(rows)} runs complete in {keep}; runs with an unexpected outcome: {flagged}; "
          f"unexpected items in all: {sum(len(r['unexpected']) for r in done)}; errors: {sum(r['errors'] for r in done)}")
    if done:
        print(f"stated level per run: {done[0]['statement']}")


if __name__ == "__main__":
    main()
