"""Shared timing for the benchmark scripts (run them as ``python benchmarks/<script>.py``)."""

import time

import numpy as np


def batch_rate(mechanism, data, params: dict, n: int, repeats: int, seed: int = 0) -> float:
    """Outputs per second of ``mechanism.batch``: best of ``repeats`` timed calls of ``n`` runs,
    after a 1,000-run warm-up."""
    rng = np.random.default_rng(seed)
    mechanism.batch(data, 1_000, rng=rng, **params)
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        mechanism.batch(data, n, rng=rng, **params)
        best = min(best, time.perf_counter() - start)
    return n / best
