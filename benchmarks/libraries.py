"""Audit the library wrappers of examples/libraries/ (IBM diffprivlib 0.6.6, OpenDP 0.16) through the CLI.

Every correct configuration runs at three seeds and every misconfiguration at one, each as its own
``python -m dptestbed audit SPEC --impl examples/libraries/FILE.py:FUNCTION --randomness own`` subprocess;
the table gives the class and exit code, the epsilon lower bound against the claim, the samples per side
and the wall time of the whole command. Expected: every correct configuration passes (exit 0), every
misconfiguration is "claim violated" (exit 1). The libraries draw from OS entropy, so the seed fixes the
auditor's choices (pairs, splits, pilot) but not the samples: no run is reproducible.

    python benchmarks/libraries.py [--only SUBSTRING ...] [--seeds 0 1 2] [--jobs 2] [--confidence C]
                                   [--markdown benchmarks/results/libraries.md] [--json OUT.json]

Needs the libraries: ``pip install -e '.[examples]'``. Exit code 0 when every row has its expected
outcome, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = "examples/libraries"
CLASSES = {0: "pass", 1: "claim violated", 2: "bad usage", 3: "differs from the spec", 4: "no power",
           5: "implementation error", 6: "run error"}

# (library mechanism, configuration, spec, file:function, params, samples per side, expected exit code).
# Sample sizes: the smallest that gave the audit power (a violation 5% above the claim detectable) in
# trial runs of the spec's reference; the (epsilon, delta) Gaussians are audited at a delta whose events
# are frequent enough for that (at delta = 1e-5 the reference's audit had no power at 3*10^5 per side).
CORRECT = [
    ("diffprivlib Laplace", "eps=1, sensitivity 1", "laplace_mechanism", "diffprivlib_mechanisms.py:laplace",
     {"epsilon": 1, "gamma": 1, "p": 1}, 100_000),
    ("diffprivlib GaussianAnalytic", "eps=1, delta=1e-2, sensitivity 1", "gaussian_mechanism_analytic",
     "diffprivlib_mechanisms.py:gaussian", {"epsilon": 1, "delta": 1e-2, "sensitivity": 1, "p": 1}, 1_000_000),
    ("diffprivlib Geometric", "eps=1, sensitivity 1", "geometric_mechanism", "diffprivlib_mechanisms.py:geometric",
     {"epsilon": 1, "sensitivity": 1}, 100_000),
    ("diffprivlib Exponential", "eps=1, sensitivity 1", "exponential_mechanism",
     "diffprivlib_mechanisms.py:exponential", {"epsilon": 1, "sensitivity": 1}, 100_000),
    ("diffprivlib tools.mean", "eps=1, bounds (0, 1)", "bounded_mean", "diffprivlib_mechanisms.py:mean",
     {"epsilon": 1, "lower": 0, "upper": 1}, 100_000),
    ("OpenDP Laplace", "eps=1, sensitivity 1", "laplace_mechanism", "opendp_mechanisms.py:laplace",
     {"epsilon": 1, "gamma": 1, "p": 1}, 100_000),
    ("OpenDP Gaussian", "sigma=1, sensitivity 1, at eps=1", "gaussian_mechanism", "opendp_mechanisms.py:gaussian",
     {"sigma": 1, "sensitivity": 1, "epsilon": 1, "p": 1}, 300_000),
    ("OpenDP geometric (discrete Laplace)", "eps=1, sensitivity 1", "geometric_mechanism",
     "opendp_mechanisms.py:geometric", {"epsilon": 1, "sensitivity": 1}, 100_000),
    ("OpenDP randomized response", "eps=1", "randomized_response", "opendp_mechanisms.py:randomized_response",
     {"epsilon": 1}, 50_000),
]
MISCONFIGURED = [
    ("diffprivlib Laplace", "sensitivity halved (0.5 for 1)", "laplace_mechanism",
     "diffprivlib_mechanisms.py:misconfigured_laplace_half_sensitivity", {"epsilon": 1, "gamma": 1, "p": 1}, 100_000),
    ("OpenDP Laplace", "scale for 2 eps", "laplace_mechanism", "opendp_mechanisms.py:misconfigured_laplace_scale_for_2eps",
     {"epsilon": 1, "gamma": 1, "p": 1}, 100_000),
    ("diffprivlib GaussianAnalytic", "delta understated 10^4x (claim 1e-6, calibrated to 1e-2)",
     "gaussian_mechanism_analytic", "diffprivlib_mechanisms.py:misconfigured_gaussian_delta_understated",
     {"epsilon": 1, "delta": 1e-6, "sensitivity": 1, "p": 1}, 1_000_000),
    ("diffprivlib tools.mean", "bounds missing (taken from the data)", "bounded_mean",
     "diffprivlib_mechanisms.py:misconfigured_mean_bounds_missing", {"epsilon": 1, "lower": 0, "upper": 1}, 20_000),
]


def command(spec: str, impl: str, params: dict, samples: int, seed: int, jobs: int,
            confidence: float | None = None) -> list[str]:
    cmd = [sys.executable, "-m", "dptestbed", "audit", spec, "--impl", f"{EXAMPLES}/{impl}", "--randomness", "own",
           "--samples", str(samples), "--seed", str(seed), "--jobs", str(jobs), "--json"]
    if confidence is not None:
        cmd += ["--confidence", str(confidence)]
    for name, value in params.items():
        cmd += ["--param", f"{name}={value}"]
    return cmd


def run(row: tuple, seed: int, jobs: int, expected: int, confidence: float | None = None) -> dict:
    mechanism, config, spec, impl, params, samples = row
    cmd = command(spec, impl, params, samples, seed, jobs, confidence)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    try:
        out = json.loads(proc.stdout)
    except json.JSONDecodeError:
        out = {"error": (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]}
    return {"mechanism": mechanism, "configuration": config, "spec": spec, "impl": f"{EXAMPLES}/{impl}",
            "seed": seed, "exit": proc.returncode, "class": CLASSES.get(proc.returncode, "?"),
            "expected": expected, "ok": proc.returncode == expected,
            "eps_lb": out.get("epsilon_lower_bound"), "claim": out.get("claim"),
            "exact": out.get("exact_epsilon"), "min_detectable": out.get("minimum_detectable_epsilon"),
            "samples_per_side": out.get("samples_per_side"), "runs": out.get("runs"), "wall": wall,
            "reason": out.get("reason") or out.get("error"), "command": " ".join(cmd[1:])}


def _num(x, fmt="{:.3f}") -> str:
    return "—" if x is None else ("inf" if x == "inf" else fmt.format(x))


def markdown(rows: list[dict], jobs: int, confidence: float | None = None) -> str:
    lines = ["| mechanism | configuration | seed | class (exit) | ε_lb | claim (ε, δ) | smallest detectable ε "
             "| samples per side | wall s |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        claim = r["claim"] or {}
        mark = "" if r["ok"] else " **(unexpected)**"
        lines.append(f"| {r['mechanism']} | {r['configuration']} | {r['seed']} | {r['class']} ({r['exit']}){mark} "
                     f"| {_num(r['eps_lb'])} | {_num(claim.get('epsilon'), '{:g}')}, {_num(claim.get('delta'), '{:.3g}')} "
                     f"| {_num(r['min_detectable'])} | {_num(r['samples_per_side'], '{:,}')} | {r['wall']:.1f} |")
    ok = sum(r["ok"] for r in rows)
    lines += ["", f"{ok} of {len(rows)} rows with the expected outcome (correct configurations: pass, exit 0; "
                  f"misconfigurations: claim violated, exit 1). Each row is one `python -m dptestbed audit SPEC "
                  f"--impl examples/libraries/FILE.py:FUNCTION --randomness own --samples N --seed S --jobs {jobs}"
                  + (f" --confidence {confidence}" if confidence is not None else "") + "` "
                  f"(`python benchmarks/libraries.py`); wall time of the whole command on {os.cpu_count()} CPUs, "
                  f"{platform.machine()}, Python {platform.python_version()}, shared with other jobs."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="*", default=[], help="rows whose mechanism or configuration contains one of these")
    ap.add_argument("--seeds", type=int, nargs="*", default=[0, 1, 2])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--confidence", type=float, help="confidence of every audit (default: the CLI's 0.95); "
                    "1 - 0.05/K keeps the false-alarm rate of K audits of correct code at 5%%")
    ap.add_argument("--markdown", type=Path)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    plan = [(row, seed, 0) for row in CORRECT for seed in args.seeds] + [(row, args.seeds[0], 1) for row in MISCONFIGURED]
    if args.only:
        plan = [p for p in plan if any(s.lower() in f"{p[0][0]} {p[0][1]}".lower() for s in args.only)]
    rows = []
    for row, seed, expected in plan:
        r = run(row, seed, args.jobs, expected, args.confidence)
        rows.append(r)
        print(f"{r['mechanism']:36} {r['configuration'][:40]:40} seed {seed}: {r['class']} ({r['exit']}) "
              f"eps_lb {_num(r['eps_lb'])} vs {_num((r['claim'] or {}).get('epsilon'), '{:g}')}, "
              f"{_num(r['samples_per_side'], '{:,}')} per side, {r['wall']:.1f} s"
              + ("" if r["ok"] else f"  UNEXPECTED: {r['reason']}"), flush=True)
    table = markdown(rows, args.jobs, args.confidence)
    print(table)
    if args.markdown:
        args.markdown.write_text(table)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
