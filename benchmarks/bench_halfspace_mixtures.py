"""Seed 001 benchmark (measured, never asserted): A_LearnHalf's throughput and the audit's speed.

    python benchmarks/bench_halfspace_mixtures.py [--quick]

1. One learner run (Steps 1-9, a fresh call each time) for d = 2, n = 10^4, n_pub = 50
   (|C~_pub| = 2,552, |G| = 3,257,629): seconds per run and runs per second; the same for a batch
   of 1,000 draws on one data set (the two-pass sampler shares Steps 1-8 and the histogram).
2. The privacy audit of ppm_halfspace_learner at its defaults: runs per second of the batched
   sampler on the N1 stress pair, and the audit's seconds, bound, exact value and verdict.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from timing import batch_rate

from dptestbed.audits.privacy import audit
from dptestbed.audits.privacy.pairs import stress_pairs
from dptestbed.impl.halfspace_mixtures.learner import ppm_halfspace_learner, prepare
from dptestbed.spec import load_catalogue


def benchmark_data(n: int = 10_000, n_pub: int = 50, seed: int = 0) -> dict:
    """d = 2: n_pub public points in a Gaussian cluster (label 0), the rest private in x_1 >= 0."""
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(-2.0, 0.5, (n_pub, 2)), rng.uniform(0.0, 3.0, (n - n_pub, 2))]
    y = np.r_[np.zeros(n_pub, np.int64), np.ones(n - n_pub, np.int64)]
    return {"X": X, "y": y, "p": y.copy()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args = parser.parse_args()
    repeats = 1 if args.quick else 3
    data = benchmark_data()
    inst = prepare(data)
    print(f"learner, d = 2, n = 10,000, n_pub = 50: |C~_pub| = {inst.M:,}, |G| = {inst.G_size:,}")
    rng = np.random.default_rng(1)
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        ppm_halfspace_learner(data, rng=rng, epsilon=1.0)
        best = min(best, time.perf_counter() - start)
    print(f"  one run: {best:.2f} s ({1 / best:.2f} runs/s)")
    start = time.perf_counter()
    ppm_halfspace_learner.batch(data, 1_000, rng=rng, epsilon=1.0)
    print(f"  batch of 1,000 draws on one data set: {time.perf_counter() - start:.2f} s")

    spec = load_catalogue()["ppm_halfspace_learner"]
    pair = stress_pairs(spec)[0]
    rate = batch_rate(ppm_halfspace_learner, pair.data, {"epsilon": 1.0}, 1_000_000, repeats)
    print(f"audit sampler on {pair.name}: {rate:,.0f} runs/s")
    start = time.perf_counter()
    res = audit(spec, seed=0, progress=False)
    seconds = time.perf_counter() - start
    print(f"audit ppm_halfspace_learner: {seconds:.1f} s, {res.samples_per_side:,} samples per side per kept pair, "
          f"eps_lb {res.epsilon_lower_bound:.4f} vs claim {res.claim['epsilon']:g} (exact on that pair "
          f"{res.exact_epsilon:.4f}), verdict: {res.verdict}")


if __name__ == "__main__":
    main()
