"""Throughput of seed 002's soft majority and the wall time of its Theorem 1 check (measured, never
asserted).

    python benchmarks/bench_private_prediction.py [--full]

1. Predictions per second of the soft-majority mechanism with r = 1,000 teachers: the vote-level
   batch sampler, and the dataset form (1-D thresholds, n = 100,000 records in 1,000 positional
   blocks of 100, A_min teachers trained once per call, 10,000 queries per call).
2. Wall time of the Theorem 1 check (thresholds, explicit n) on the reference, quick suite (and
   the full suite with --full).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from timing import batch_rate

from dptestbed.audits.checks.experiments import load_registry, run_check
from dptestbed.impl.private_prediction import soft_majority
from dptestbed.spec import load_catalogue

ALPHA = 0.1
EPSILON = 6 * math.log(4 / ALPHA) / 999.5          # r = ceil(6 ln(4/alpha)/epsilon) = 1,000


def vote_rate(n: int = 2_000_000) -> float:
    r = soft_majority.n_teachers(EPSILON, ALPHA)
    assert r == 1000
    return batch_rate(soft_majority.subsample_aggregate_prediction_corrected, [520, 480],
                      {"epsilon": EPSILON, "alpha": ALPHA}, n, repeats=3)


def dataset_rate(queries: int = 10_000, repeats: int = 3) -> float:
    g = np.random.default_rng(0)
    X = g.random(100_000)
    data = {"X": X, "y": (X >= 0.5).astype(np.int8), "x": g.random(queries)}
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        soft_majority.subsample_aggregate_prediction_corrected.batch(data, 1, rng=g, epsilon=EPSILON, alpha=ALPHA)
        best = min(best, time.perf_counter() - start)
    return queries / best


def theorem1_seconds(suite: str) -> float:
    spec = load_catalogue()["subsample_aggregate_prediction_corrected"]
    exp = next(e for e in load_registry()[(spec.id, "Theorem 1")] if e.name == "thresholds-explicit-n")
    start = time.perf_counter()
    run_check(spec, exp, spec.implementation, suite=suite, seed=0)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="also time the full-suite Theorem 1 check")
    args = parser.parse_args()
    print(f"soft majority, r = 1,000 teachers, vote form:    {vote_rate():,.0f} predictions/s")
    print(f"soft majority, r = 1,000 teachers, dataset form: {dataset_rate():,.0f} predictions/s "
          "(training on 100,000 records included)")
    print(f"Theorem 1 check (quick suite): {theorem1_seconds('quick'):.1f} s")
    if args.full:
        print(f"Theorem 1 check (full suite): {theorem1_seconds('full'):.1f} s")


if __name__ == "__main__":
    main()
