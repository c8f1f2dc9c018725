"""A_OQR (000 Algorithm 3), written as a lookahead over whole segments.

All per-query noises and all T + 1 segment thresholds are drawn up front from
a child generator; each segment compares every remaining query against its
threshold at once and stops at the first miss.  Comparisons made after the
first miss of a segment are thrown away, so every released event uses each
query noise exactly once against the threshold in force: the law is the one
of Algorithm 3.  Per-call only; a callable instance; returns a Python list.
"""
import sys


class OnlineQueryRelease:
    def __init__(self):
        self.calls = 0

    def __call__(self, data, *, rng, epsilon, delta, T, m, beta=None, verbose=False):
        import math

        import numpy as np

        self.calls += 1
        rows = np.asarray(data, dtype=float).reshape(-1, 2)
        q = rows.shape[0]
        lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
        w = 2.0 * lam * math.log(2.0 * m / delta)
        child = np.random.default_rng(rng.integers(2**63))
        # Laplace(b) = b * (E1 - E2), E1, E2 standard exponential
        nu = 2.0 * lam * (child.standard_exponential(q) - child.standard_exponential(q))
        thr = w + lam * (child.standard_exponential(T + 1) - child.standard_exponential(T + 1))
        out = [-2] * q
        i, seg = 0, 0
        while i < q and seg <= T:
            above = rows[i:, 1] + nu[i:] > thr[seg]
            misses = np.flatnonzero(~above)
            stop = q if misses.size == 0 else i + int(misses[0])
            for j in range(i, stop):
                out[j] = int(rows[j, 0])
            if stop == q:
                break
            out[stop] = -1
            seg += 1
            i = stop + 1
        if verbose:
            print(f"call {self.calls}: {out}", file=sys.stderr)
        return out


oqr = OnlineQueryRelease()


def _batch(data, n, *, rng, epsilon, delta, T, m, beta=None):
    """n runs at once: the same pre-drawn noises, one query at a time across runs."""
    import math

    import numpy as np

    rows = np.asarray(data, dtype=float).reshape(-1, 2)
    q = rows.shape[0]
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    child = np.random.default_rng(rng.integers(2**63))
    nu = 2.0 * lam * (child.standard_exponential((n, q)) - child.standard_exponential((n, q)))
    thr = w + lam * (child.standard_exponential((n, T + 1)) - child.standard_exponential((n, T + 1)))
    out = np.full((n, q), -2, dtype=np.int64)
    seg = np.zeros(n, dtype=np.int64)
    runs = np.arange(n)
    for i in range(q):
        active = seg <= T
        cur = thr[runs, np.minimum(seg, T)]
        hit = active & (rows[i, 1] + nu[:, i] > cur)
        out[hit, i] = int(rows[i, 0])
        miss = active & ~hit
        out[miss, i] = -1
        seg[miss] += 1
    return out


oqr_fast = OnlineQueryRelease()
oqr_fast.batch = _batch
