"""subsample_aggregate (000 Alg 4, as printed) -- VALID VARIANT.

Written as differently from the textbook as possible while keeping the exact law:
  * a class with __call__ (the entry point `sa` is an instance), per-call only (no .batch);
  * pure-Python lists, no numpy arrays in the logic;
  * Laplace(b) drawn as b * (E1 - E2) with E1, E2 ~ Exp(1) independent (rng.standard_exponential),
    which has exactly the Lap(b) law;
  * the mode and runner-up found by sorting (count, -label) pairs: largest count first, ties to
    the smallest label (the spec's data-independent rule); runner-up = second entry's count.
  * lam, w recomputed in closed form lam = 4 sqrt(2 T ln(2/delta))/eps (= sqrt(32 T ln(2/delta))/eps).
TRUTH: same output law as the spec (each query: dist + Lap(2 lam) > w_hat, w_hat = w + Lap(lam)
re-drawn after each bottom, loop while c <= T, -2 for unanswered rows), so (8, 1e-3)-DP at the
defaults and Theorem 3.11 holds.  Expected: exit 0.
"""
import math


class SubSampleAggregate:
    def _lap(self, rng, b):
        e = rng.standard_exponential(2)
        return b * (float(e[0]) - float(e[1]))

    def __call__(self, data, *, rng, epsilon, delta, T, m, beta=0.1):
        rows = [list(map(int, r)) for r in (data.tolist() if hasattr(data, "tolist") else data)]
        if rows and not isinstance(rows[0], list):
            rows = [rows]
        lam = 4.0 * math.sqrt(2.0 * T * math.log(2.0 / delta)) / epsilon
        w = 2.0 * lam * math.log(2.0 * m / delta)
        c = 0
        what = w + self._lap(rng, lam)
        out = []
        for row in rows:
            if c > T:
                out.append(-2)
                continue
            order = sorted(((cnt, -lab) for lab, cnt in enumerate(row)), reverse=True)
            top, mode = order[0][0], -order[0][1]
            second = order[1][0] if len(order) > 1 else 0
            dist = max(0, top - second - 1)
            if dist + self._lap(rng, 2.0 * lam) > what:
                out.append(mode)
            else:
                out.append(-1)
                c += 1
                what = w + self._lap(rng, lam)
        import numpy as np
        return np.array(out, dtype=np.int64)


sa = SubSampleAggregate()
