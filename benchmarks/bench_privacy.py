"""Privacy-auditor benchmark over the calibration corpus (measured, never asserted).

    python benchmarks/bench_privacy.py [--quick] [--only ID ...] [--json]

    python benchmarks/bench_privacy.py --no-tight      # the default audit only

Per mechanism: batched sampling throughput (runs/s of the reference sampler on its first
stress case), the audit's CPU seconds by part (``result.timing``: event selection / sampling /
counting and statistics, summed over its threads) and its sampling rate (runs per CPU-second of
sampling), its wall seconds, its epsilon lower
bound beside the exact epsilon of the pair it was measured on (and the ratio), the verdict and
what was expected; then the same audit with ``tight=True`` (bound, ratio to the exact epsilon,
samples per side, seconds). Correct mechanisms are audited at 95% confidence; broken and
non-private ones at 99%. Also: Laplace at epsilon = 1 with at most 10^6 samples per side, and the
raw throughput targets (Laplace >= 10^7 samples/s, sparse vector with m = 10 >= 10^5 runs/s).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from dptestbed.audits.privacy import audit
from dptestbed.audits.privacy.pairs import stress_pairs
from dptestbed.audits.sandbox.runner import call_batch, load_implementation
from dptestbed.spec import load_spec, spec_file

CORRECT = ["laplace_mechanism", "gaussian_mechanism", "randomized_response", "exponential_mechanism",
           "report_noisy_max", "distance_to_instability", "sparse_vector", "svt_lyu_1", "svt_lyu_2"]
BROKEN = ["laplace_mechanism_broken", "gaussian_mechanism_broken", "exponential_mechanism_broken",
          "report_noisy_max_broken", "svt_lyu_3", "svt_lyu_4", "svt_lyu_5", "svt_lyu_6"]


def throughput(impl, data, params, n=1_000_000, repeat=3) -> float:
    rng = np.random.default_rng(0)
    call_batch(impl, data, 1000, rng=rng, params=params)  # warm up
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        call_batch(impl, data, n, rng=rng, params=params)
        best = min(best, time.perf_counter() - t0)
    return n / best


def fmt(x, digits=4):
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    return f"{x:.{digits}g}"


def pct(x):
    return "-" if x is None or isinstance(x, str) else f"{100 * x:.1f}"


def run(ids, quick: bool, tight: bool = True):
    rows = []
    for sid in ids:
        spec = load_spec(spec_file(sid))
        impl = load_implementation(spec.implementation)
        pair = stress_pairs(spec)[0]
        rate = throughput(impl, pair.data, pair.params, n=200_000 if quick else 1_000_000)
        confidence = 0.95 if sid in CORRECT else 0.99
        t0 = time.perf_counter()
        result = audit(spec, confidence=confidence, seed=0, samples=200_000 if quick else None)
        seconds = time.perf_counter() - t0
        out = result.to_json()
        row = {
            "mechanism": sid, "samples_per_s": rate, "eps_lb": out["epsilon_lower_bound"],
            "exact": out["exact_epsilon"], "exact_max": out["exact_epsilon_max"], "claim": out["claim"]["epsilon"],
            "of_exact": out["exact_tightness"], "timing": out["timing"], "audit_runs_per_s": out["samples_per_second"],
            "confidence": confidence, "samples_per_side": out["samples_per_side"], "seconds": seconds,
            "verdict": out["verdict"], "expected": "violation" if sid in BROKEN else "no violation found",
        }
        if tight:
            t0 = time.perf_counter()
            t = audit(spec, confidence=confidence, seed=0, samples=200_000 if quick else None, tight=True).to_json()
            row["tight"] = {"eps_lb": t["epsilon_lower_bound"], "exact": t["exact_epsilon"], "of_exact": t["exact_tightness"],
                            "samples_per_side": t["samples_per_side"], "seconds": time.perf_counter() - t0,
                            "verdict": t["verdict"]}
        rows.append(row)
        print(f"  {sid}: {out['verdict']} in {seconds:.1f} s", file=sys.stderr)
    return rows


def extras(quick: bool) -> list[dict]:
    out = []
    spec = load_spec(spec_file("laplace_mechanism"))
    t0 = time.perf_counter()
    r = audit(spec, samples=1_000_000, confidence=0.95, seed=0)
    out.append({"target": "Laplace eps=1: eps_lb >= 0.90 at 95%, <= 1e6 samples/side, < 10 s",
                "measured": f"eps_lb = {r.epsilon_lower_bound:.4f}, {r.samples_per_side:,} samples/side, "
                            f"{time.perf_counter() - t0:.2f} s"})
    lap = load_implementation("dptestbed.impl.calibration.laplace:laplace_mechanism")
    rate = throughput(lap, [0.0], {"epsilon": 1.0, "gamma": 1.0}, n=2_000_000 if quick else 10_000_000)
    out.append({"target": "Laplace batched sampling >= 1e7 samples/s", "measured": f"{rate:.3g} samples/s"})
    svt = load_implementation("dptestbed.impl.model_agnostic.sparse_vector:sparse_vector")
    rate = throughput(svt, np.zeros(10), {"epsilon": 1.0, "delta": 1e-6, "T": 1, "w": 0.0},
                      n=200_000 if quick else 1_000_000)
    out.append({"target": "sparse vector (m = 10) >= 1e5 runs/s", "measured": f"{rate:.3g} runs/s"})
    lyu = load_implementation("dptestbed.impl.calibration.svt_lyu:svt_lyu_1")
    rate = throughput(lyu, np.zeros(10), {"epsilon": 1.0, "threshold": 0.0, "c": 1},
                      n=200_000 if quick else 1_000_000)
    out.append({"target": "Lyu Alg. 1 (m = 10) runs/s", "measured": f"{rate:.3g} runs/s"})
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2*10^5 samples per side (smoke run)")
    parser.add_argument("--only", nargs="+", metavar="ID", help="only these spec ids")
    parser.add_argument("--no-tight", action="store_true", help="skip the tight-mode audits")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    ids = args.only or CORRECT + BROKEN
    rows = run(ids, args.quick, tight=not args.no_tight)
    targets = [] if args.only else extras(args.quick)
    if args.json:
        print(json.dumps({"mechanisms": rows, "targets": targets}, indent=2))
        return 0
    head = f"{'mechanism':<28} {'samples/s':>9} {'audit/s':>8} {'select':>6} {'sample':>6} {'stats':>5} " \
           f"{'seconds':>7} {'eps_lb':>7} {'exact':>7} {'%exact':>6} {'claim':>5} {'conf':>4}  {'verdict':<18} expected"
    print(head)
    print("-" * len(head))
    for r in rows:
        mark = "" if r["verdict"] == r["expected"] else "   <-- differs"
        t = r["timing"]
        print(f"{r['mechanism']:<28} {r['samples_per_s']:>9.3g} {fmt(r['audit_runs_per_s'], 3):>8} "
              f"{t['selection']:>6.2f} {t['sampling']:>6.2f} {t['counting'] + t['statistics']:>5.2f} {r['seconds']:>7.2f} "
              f"{fmt(r['eps_lb']):>7} {fmt(r['exact']):>7} {pct(r['of_exact']):>6} {fmt(r['claim']):>5} "
              f"{r['confidence']:>4}  {r['verdict']:<18} {r['expected']}{mark}")
    if any("tight" in r for r in rows):
        head = f"\n{'tight mode':<28} {'eps_lb':>7} {'exact':>7} {'%exact':>6} {'samples/side':>12} {'seconds':>7}  verdict"
        print(head)
        print("-" * len(head))
        for r in rows:
            t = r.get("tight")
            if t:
                print(f"{r['mechanism']:<28} {fmt(t['eps_lb']):>7} {fmt(t['exact']):>7} {pct(t['of_exact']):>6} "
                      f"{t['samples_per_side']:>12,} {t['seconds']:>7.2f}  {t['verdict']}")
    for t in targets:
        print(f"\n{t['target']}: {t['measured']}", end="")
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
