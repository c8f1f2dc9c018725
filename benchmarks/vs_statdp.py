"""dptestbed's single audits side by side with StatDP's own code (measured, never asserted).

    python benchmarks/vs_statdp.py --statdp PATH [--python PYTHON] [--rounds 3] [--only NAME ...]
                                   [--jobs 2] [--event-iterations 20000] [--detect-iterations 100000]
                                   [--json OUT]

PATH is a checkout of StatDP (Ding, Wang, Wang, Zhang, Kifer, CCS 2018: its ``statdp`` package and
``statdp/algorithms.py``), which this script runs in place and never copies; PYTHON is an interpreter
with StatDP's dependencies (numpy, numba, tqdm; default: this one). Each pair is one of StatDP's
benchmark algorithms and the dptestbed spec of the same mechanism, each run as a whole process, as its
users run it, at the same claimed epsilon:

- StatDP: ``detect_counterexample(algorithm, epsilon, kwargs, event_iterations, detect_iterations,
  cores=jobs)`` at one test epsilon, the claim, with its benchmark's arguments (``N = 1``, ``T`` of
  its ``examples/benchmark.py``) and sensitivity setting; the default budget reduced five-fold
  (its defaults are 100,000 and 500,000 iterations);
- dptestbed: ``dptestbed audit SPEC --jobs JOBS --json`` at the spec's defaults (epsilon 1).

The two alternate (StatDP, dptestbed, StatDP, ...) ``--rounds`` times, so a drift of the machine's
speed hits both; the ratio is StatDP's wall time over dptestbed's, round by round (median, min, max),
beside each tool's verdict: StatDP's p-value at the claim (it rejects below 0.05) and dptestbed's
class and epsilon lower bound. StatDP's ``noisy_max_v2a``/``v2b`` (exponential noise) have no
dptestbed spec and are left out, as is ``histogram_eps`` (a Laplace scale of epsilon, private at the
claim 1).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

# (StatDP algorithm, its keyword arguments, its sensitivity setting, dptestbed spec)
PAIRS = [
    ("histogram", {}, "ONE_DIFFER", "laplace_mechanism"),
    ("noisy_max_v1a", {}, "ALL_DIFFER", "report_noisy_max"),
    ("noisy_max_v1b", {}, "ALL_DIFFER", "report_noisy_max_broken"),
    ("SVT", {"N": 1, "T": 0.5}, "ALL_DIFFER", "svt_lyu_1"),
    ("iSVT4", {"N": 1, "T": 1}, "ALL_DIFFER", "svt_lyu_3"),
    ("iSVT3", {"N": 1, "T": 1}, "ALL_DIFFER", "svt_lyu_4"),
    ("iSVT1", {"N": 1, "T": 1}, "ALL_DIFFER", "svt_lyu_5"),
    ("iSVT2", {"N": 1, "T": 1}, "ALL_DIFFER", "svt_lyu_6"),
]
EPSILON = 1.0  # the claim of both (the specs' default)

# run in StatDP's interpreter, with the checkout first on its path: StatDP's own entry point, one test epsilon
STATDP_RUN = """
import json, logging, sys
import statdp
from statdp import algorithms
name, epsilon, kwargs, sensitivity, event_iterations, detect_iterations, cores = json.loads(sys.argv[1])
result = statdp.detect_counterexample(getattr(algorithms, name), epsilon, dict(kwargs, epsilon=epsilon),
                                      event_iterations=event_iterations, detect_iterations=detect_iterations,
                                      cores=cores, sensitivity=getattr(statdp, sensitivity), quiet=True,
                                      loglevel=logging.ERROR)
print(json.dumps({"p": result[0][1]}))
"""


def timed(cmd: list[str], env: dict | None = None) -> tuple[float, float, str, int]:
    """Wall seconds, CPU seconds (the process and every child it waited for), standard output, exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stdout, out.returncode


def statdp_command(args, name: str, kwargs: dict, sensitivity: str) -> tuple[list[str], dict]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(args.statdp), os.environ.get("PYTHONPATH")])))
    task = [name, EPSILON, kwargs, sensitivity, args.event_iterations, args.detect_iterations, args.jobs]
    return [args.python, "-c", STATDP_RUN, json.dumps(task)], env


def dptestbed_command(args, spec: str) -> list[str]:
    return [sys.executable, "-m", "dptestbed", "audit", spec, "--jobs", str(args.jobs), "--json"]


def last_json(text: str) -> dict:
    """The JSON object a command printed: its whole output, else its last line that is one."""
    for chunk in [text, *reversed(text.strip().splitlines())]:
        try:
            found = json.loads(chunk)
        except json.JSONDecodeError:
            continue
        if isinstance(found, dict):
            return found
    return {}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--statdp", type=Path, required=True, help="a checkout of StatDP (its folder holding statdp/)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter that runs StatDP (numba, tqdm)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2, help="StatDP's cores and dptestbed's --jobs")
    ap.add_argument("--event-iterations", type=int, default=20_000)
    ap.add_argument("--detect-iterations", type=int, default=100_000)
    ap.add_argument("--only", nargs="+", metavar="NAME", help="StatDP algorithms or dptestbed specs to run")
    ap.add_argument("--json", type=Path, help="write every round's figures here")
    args = ap.parse_args(argv)
    if not (args.statdp / "statdp" / "algorithms.py").is_file():
        ap.error(f"--statdp {args.statdp}: no statdp/algorithms.py there")
    pairs = [p for p in PAIRS if not args.only or p[0] in args.only or p[3] in args.only]
    rows = []
    print(f"{'StatDP':<14} {'dptestbed':<24} {'StatDP s':>9} {'ours s':>7} {'ratio (min-max)':>18}  verdicts")
    for name, kwargs, sensitivity, spec in pairs:
        rounds = []
        for _ in range(args.rounds):
            cmd, env = statdp_command(args, name, kwargs, sensitivity)
            s_wall, s_cpu, s_out, s_code = timed(cmd, env)
            d_wall, d_cpu, d_out, d_code = timed(dptestbed_command(args, spec))
            theirs, ours = last_json(s_out), last_json(d_out)
            rounds.append({"statdp_seconds": s_wall, "statdp_cpu": s_cpu, "statdp_exit": s_code, "p": theirs.get("p"),
                           "dptestbed_seconds": d_wall, "dptestbed_cpu": d_cpu, "dptestbed_exit": d_code,
                           "class": ours.get("class"), "epsilon_lower_bound": ours.get("epsilon_lower_bound"),
                           "audit_seconds": ours.get("seconds"), "ratio": s_wall / d_wall})
        ratios = [r["ratio"] for r in rounds]
        last = rounds[-1]
        p = last["p"]
        verdicts = (f"StatDP p = {p:.3g}" if isinstance(p, float) else f"StatDP exit {last['statdp_exit']}") + (
            f"; dptestbed {last['class']}, eps_lb {last['epsilon_lower_bound']}")
        print(f"{name:<14} {spec:<24} {statistics.median(r['statdp_seconds'] for r in rounds):9.2f} "
              f"{statistics.median(r['dptestbed_seconds'] for r in rounds):7.2f} "
              f"{statistics.median(ratios):7.2f} ({min(ratios):.2f}-{max(ratios):.2f})  {verdicts}", flush=True)
        rows.append({"statdp": name, "spec": spec, "kwargs": kwargs, "sensitivity": sensitivity, "rounds": rounds,
                     "ratio_median": statistics.median(ratios)})
    if args.json:
        args.json.write_text(json.dumps({"epsilon": EPSILON, "jobs": args.jobs,
                                         "event_iterations": args.event_iterations,
                                         "detect_iterations": args.detect_iterations, "pairs": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
