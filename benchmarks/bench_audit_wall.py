"""Whole-process wall time of `dptestbed audit ID` for two installs, run side by side (measured,
never asserted).

    python benchmarks/bench_audit_wall.py --baseline /path/to/old/.venv/bin/dptestbed [--repeat 3]

Each calibration spec is audited by the current ``dptestbed`` and by the baseline executable in
alternation (same seed, same machine, same minute), ``--repeat`` times each; the table gives the
median wall seconds of each, their ratio, both verdicts and both epsilon lower bounds (from
``--json``), and the current run's CPU seconds by part (``timing``: selection / sampling / counting /
statistics / exact, summed over its threads) with the selection's share.
Both run with Python's byte-code cache on (PYTHONDONTWRITEBYTECODE removed from their
environment), as an installed package has it.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

SPECS = ["laplace_mechanism", "laplace_mechanism_broken", "report_noisy_max", "report_noisy_max_broken",
         "exponential_mechanism", "exponential_mechanism_broken", "svt_lyu_1", "svt_lyu_2", "svt_lyu_3",
         "svt_lyu_4", "svt_lyu_5", "svt_lyu_6"]


def run(exe: str, sid: str, seed: int, extra: list[str]) -> tuple[float, dict]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # byte code cached, as installed
    t0 = time.perf_counter()
    out = subprocess.run([exe, "audit", sid, "--seed", str(seed), "--json", *extra],
                         capture_output=True, text=True, check=False, env=env)
    wall = time.perf_counter() - t0
    try:
        return wall, json.loads(out.stdout)
    except json.JSONDecodeError:
        return wall, {"verdict": f"exit {out.returncode}: {out.stderr.strip()[-80:]}"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True, help="the other install's dptestbed executable")
    ap.add_argument("--current", default=shutil.which("dptestbed"), help="default: dptestbed on PATH")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--tight", action="store_true", help="time the current install with --tight too")
    args = ap.parse_args(argv)
    print(f"{'spec':30s} {'base s':>7s} {'now s':>7s} {'ratio':>6s}  {'eps_lb base/now':>17s}  "
          f"{'CPU s sel/samp/count/stat/exact (sel %)':>42s}  verdict (base / now)")
    for sid in args.only or SPECS:
        walls: dict[str, list[float]] = {"base": [], "now": []}
        outs: dict[str, dict] = {}
        for _ in range(args.repeat):
            for key, exe in (("base", args.baseline), ("now", args.current)):
                wall, out = run(exe, sid, args.seed, [])
                walls[key].append(wall)
                outs[key] = out
        base, now = statistics.median(walls["base"]), statistics.median(walls["now"])
        t = outs["now"].get("timing") or {}
        parts = ("selection", "sampling", "counting", "statistics", "exact")
        cpu = sum(t.get(k, 0) for k in parts)
        split = "/".join(f"{t.get(k, 0):.2f}" for k in parts) + f" ({t.get('selection', 0) / cpu if cpu else 0:.0%})"
        lb = "/".join(f"{outs[k].get('epsilon_lower_bound', float('nan')):.3f}" for k in ("base", "now"))
        print(f"{sid:30s} {base:7.2f} {now:7.2f} {now / base:6.2f}  {lb:>17s}  {split:>42s}  "
              f"{outs['base'].get('verdict')} / {outs['now'].get('verdict')}", flush=True)
        if args.tight:
            wall, out = run(args.current, sid, args.seed, ["--tight"])
            print(f"{'':30s} --tight: {wall:.2f} s, eps_lb {out.get('epsilon_lower_bound', float('nan')):.3f}, "
                  f"exact {out.get('exact_epsilon')}, {out.get('samples_per_side')} samples/side", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
