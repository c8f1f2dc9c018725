"""What the sandbox costs (measured, never asserted).

    python benchmarks/bench_sandbox.py [--samples N] [--repeats R]

A batched user implementation of the Laplace mechanism (a file outside the package, as a user
would write it) is audited twice in one run, interleaved: once handed in as a callable (forked
workers of the auditor, the pre-sandbox path) and once as a ``file.py:function`` reference
(sandboxed workers: a fresh interpreter, framed protocol, nothing unpickled). Prints the audit's
samples per second and wall time for both, best of ``--repeats``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from dptestbed.audits.privacy import audit
from dptestbed.audits.sandbox.runner import load_implementation
from dptestbed.spec import load_spec, spec_file

USER_CODE = '''
import numpy as np

def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)

def _batch(data, n, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, gamma / epsilon, size=(n, *f.shape))

laplace.batch = _batch
'''


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=1_000_000, help="samples per side per pair")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    spec = load_spec(spec_file("laplace_mechanism"))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "user_laplace.py"
        path.write_text(USER_CODE)
        ref = f"{path}:laplace"
        ways = {"forked workers (callable)": load_implementation(ref), "sandboxed workers (file reference)": ref}
        best = {name: (0.0, float("inf")) for name in ways}
        for _ in range(args.repeats):
            for name, impl in ways.items():
                t0 = time.perf_counter()
                result = audit(spec, implementation=impl, samples=args.samples, isolate=True, seed=1)
                wall = time.perf_counter() - t0
                rate = result.samples_per_second or 0.0
                best[name] = (max(best[name][0], rate), min(best[name][1], wall))
                assert result.verdict == "no violation found", result.verdict
    base = best["forked workers (callable)"]
    print(f"{'path':<36} {'samples/s':>12} {'wall s':>8}")
    for name, (rate, wall) in best.items():
        print(f"{name:<36} {rate:>12.3g} {wall:>8.2f}")
    sand = best["sandboxed workers (file reference)"]
    print(f"sandbox cost: {100 * (1 - sand[0] / base[0]):+.1f}% samples/s, {100 * (sand[1] / base[1] - 1):+.1f}% wall time")


if __name__ == "__main__":
    main()
