"""Throughput of the batched samplers of the reference mechanisms (measured, never asserted).

    python benchmarks/bench_samplers.py [--quick]

Prints outputs per second for each ``mechanism.batch`` (best of a few repeats, one process).
Targets: Laplace >= 1e7 samples/s; sparse vector (seed 000 Alg 1) at m = 10 >= 1e5 runs/s.
"""

from __future__ import annotations

import argparse

import numpy as np
from timing import batch_rate

from dptestbed.impl import (
    distance_to_instability,
    exponential,
    gaussian,
    laplace,
    noisy_max,
    randomized_response,
    sparse_vector,
    svt_lyu,
)

Q10 = np.linspace(-2.0, 2.0, 10)
Q5 = [1.0, 1.0, 2.0, 0.0, 1.5]
LYU = dict(epsilon=1.0, threshold=0.0, c=1)

# name, mechanism, data, params, values per output (for samples/s), target outputs/s or None
CASES = [
    ("laplace_mechanism (p=1)", laplace.laplace_mechanism, [0.0], dict(epsilon=1.0, gamma=1.0), 1, 1e7),
    ("laplace_mechanism (p=10)", laplace.laplace_mechanism, np.zeros(10), dict(epsilon=1.0, gamma=1.0), 10, None),
    ("gaussian_mechanism (p=1)", gaussian.gaussian_mechanism, [0.0], dict(sigma=1.0), 1, None),
    ("randomized_response", randomized_response.randomized_response, 1, dict(epsilon=1.0), 1, None),
    ("report_noisy_max (k=5)", noisy_max.report_noisy_max, Q5, dict(epsilon=1.0), 1, None),
    ("report_noisy_max_broken (k=5)", noisy_max.report_noisy_max_broken, Q5, dict(epsilon=1.0), 1, None),
    ("exponential_mechanism (k=5, inverse CDF)", exponential.exponential_mechanism, Q5, dict(epsilon=1.0, sensitivity=1.0), 1, None),
    ("sparse_vector (m=10, T=2)", sparse_vector.sparse_vector, Q10, dict(epsilon=1.0, delta=1e-3, T=2, w=0.0), 1, 1e5),
    ("distance_to_instability", distance_to_instability.distance_to_instability, [1, 5], dict(epsilon=1.0, delta=1e-5), 1, None),
] + [
    (f"svt_lyu_{k} (m=10, c=1)", getattr(svt_lyu, f"svt_lyu_{k}"), Q10, LYU, 1, None) for k in range(1, 7)
] + [
    ("svt_lyu_2 (m=10, c=3, re-draw loop)", svt_lyu.svt_lyu_2, Q10, dict(LYU, c=3), 1, None),
]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller batches, one repeat")
    args = parser.parse_args(argv)
    n, repeats = (200_000, 1) if args.quick else (1_000_000, 3)
    print(f"{'sampler':40s} {'outputs/s':>12s} {'samples/s':>12s}  target")
    for name, mechanism, data, params, width, target in CASES:
        rate = batch_rate(mechanism, data, params, n, repeats, seed=0)
        verdict = "" if target is None else f"{'meets' if rate >= target else 'BELOW'} {target:.0e}/s"
        print(f"{name:40s} {rate:12.3g} {rate * width:12.3g}  {verdict}")


if __name__ == "__main__":
    main()
