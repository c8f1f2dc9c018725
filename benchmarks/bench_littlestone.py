"""Seed 003 throughput (printed, never asserted): SOA predictions per second, examples consumed
per second by Algorithm G at d = 2, and runs per second of the private learner M's batch sampler
on an audit pair. Run as ``python benchmarks/bench_littlestone.py``."""

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from timing import batch_rate

from dptestbed.impl.littlestone import classes as C
from dptestbed.impl.littlestone.learner import private_littlestone_learner
from dptestbed.impl.littlestone.soa import Class
from dptestbed.impl.littlestone.stable import Fail, Reader, RngCoins, g_sizes, tournament_sample


def soa_rates(seed: int = 0) -> tuple[float, float]:
    """(predictions/s of the sequential SOA trace, examples/s of the vectorised block update) on
    intervals over 8 points (37 functions, Ldim 4)."""
    rng = np.random.default_rng(seed)
    H = C.intervals(8)
    cls = Class(H)
    c = H[5]
    x = rng.integers(0, 8, size=20_000)
    start = time.perf_counter()
    cls.trace(x, c[x])
    trace_rate = x.size / (time.perf_counter() - start)
    blocks = [rng.integers(0, 8, size=64) for _ in range(5_000)]
    start = time.perf_counter()
    for b in blocks:
        cls.run(cls.start(), b, c[b])
    return trace_rate, 64 * len(blocks) / (time.perf_counter() - start)


def g_consumption_rate(runs: int = 300, seed: int = 0) -> tuple[float, float]:
    """(examples consumed per second, mean examples per run) of Algorithm G at d = 2 (thresholds
    on 3 points, rare boundary mass, alpha = 0.5, scaled budget c = 4)."""
    rng = np.random.default_rng(seed)
    H = C.thresholds(3)
    p, c = C.boundary_distribution(H, 1, 0.02)
    cls = Class(H)
    n, N = g_sizes(2, 0.5, 4.0)
    data = [C.draw(p, c, N + n, rng) for _ in range(runs)]
    consumed = 0
    start = time.perf_counter()
    for x, y in data:
        source = Reader(x, y, N)
        try:
            S = tournament_sample(cls, int(rng.integers(3)), n, source, RngCoins(rng))
            cls.run(S.state, *source.draw(n, counted=False))
        except Fail:
            pass
        consumed += source.pos
    return consumed / (time.perf_counter() - start), consumed / runs


def main() -> None:
    trace_rate, block_rate = soa_rates()
    print(f"SOA, intervals N = 8: {trace_rate:,.0f} predictions/s (sequential trace), "
          f"{block_rate:,.0f} examples/s (vectorised block update)")
    rate, per_run = g_consumption_rate()
    print(f"Algorithm G, d = 2 (thresholds N = 3, c = 4): {rate:,.0f} examples consumed/s, {per_run:,.0f} per run")
    H = [[1, 1], [-1, 1], [-1, -1]]
    fill_y = [1] * 40 + [-1] * 40
    data = {"H": H, "fill_x": [0] * 80, "fill_y": fill_y, "idx": [0], "x": [0], "y": [1]}
    params = {"epsilon": 1.0, "delta": 1e-3, "alpha": 0.4, "d": 1, "eta": 0.25, "c": 4.0, "k": 128, "n_prime": 90}
    print(f"M batch sampler (k = 128 batches of 2,600, periodic audit pair): "
          f"{batch_rate(private_littlestone_learner, data, params, 200_000, 3):,.0f} runs/s")


if __name__ == "__main__":
    main()
