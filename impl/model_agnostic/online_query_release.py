"""Online query release via distance to instability, A_OQR (seed 000, Algorithm 3; inlined in seed
004, Algorithm 2 steps 1-2 and 5-10).

Contract: ``online_query_release(data, *, rng, epsilon, delta, T, m)``.
- ``data``: array of shape (r, 2), r <= m rows processed in order; row i = [f_i(D), dist_i]:
  the exact answer of query i as a non-negative integer label (the range must be discrete) and
  its distance to instability dist_{f_i}(D) >= 0 (the true one for the privacy claim of Thm 3.6:
  sensitivity 1, and 0 whenever a neighbour changes f_i). Integer-valued floats are accepted
  (stress cases arrive as floats); a non-integral dist is accepted too (Alg 3 lets dist map to R).
- ``m``: the DECLARED maximum number of queries; it enters w = 2 lam log(2m/delta), so more
  than m rows is refused (P9). Fewer rows are allowed (the paper's m is a maximum).
- output: int64 array of length r: the released label f_i(D) (>= 0), -1 = bottom, -2 = not
  answered (the run halted after its (T+1)-th bottom); the batch sampler returns shape (n, r).

Algorithm 3 as printed: lam = sqrt(32 T log(2/delta))/epsilon, w = 2 lam log(2m/delta),
w_hat = w + Lap(lam); per query A_stab(D, f, dist_f, Gamma = w_hat, epsilon' = 1/(2 lam)), i.e.
release f(D) iff dist + Lap(2 lam) > w_hat (P5: Lap(2 lam), not Lap(1/(2 lam))); a bottom costs
c += 1 and re-draws w_hat; the loop runs while c <= T (up to T+1 bottoms, E11; never "fixed").
Only labels, bottom and not-answered are released: never dist, noisy values, w_hat or c (P10).
The sparse-vector loop is :class:`dptestbed.impl.model_agnostic.sparse_vector.SparseVectorRuns`, shared with
Algorithms 1, 4 and 6. For adaptively chosen queries use :class:`OnlineQueryRelease`, which
answers one query at a time with the same core.

Single-query closed form (notes App. A2-A3): with a freshly drawn threshold,
P[release | dist = d] = S(w - d), S(t) = (2/3) exp(-t/(2 lam)) - (1/6) exp(-t/lam) for t >= 0.
"""

from __future__ import annotations

import math

import numpy as np

from dptestbed.impl.contract import batched

from .sparse_vector import BOTTOM as SV_BOTTOM
from .sparse_vector import TOP, _cutoff, new_core

BOTTOM, NOT_ANSWERED = -1, -2


def oqr_lambda(epsilon, delta, T):
    """Alg 3 step 1: lam = sqrt(32 T log(2/delta))/epsilon (delta/2 for the sparse-vector part)."""
    return math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon


def oqr_threshold(lam, m, delta):
    """Alg 3 step 1: w = 2 lam log(2m/delta)."""
    return 2.0 * lam * math.log(2.0 * m / delta)


def declared_queries(m) -> int:
    if float(m) != int(m) or int(m) < 1:
        raise ValueError(f"m must be an integer >= 1, got {m!r}")
    return int(m)


def check_rows(rows: int, m: int, name: str) -> None:
    """P9: the threshold uses the declared maximum m, so more than m queries are refused."""
    if rows > m:
        raise ValueError(f"{name}: {rows} queries but the declared maximum is m = {m} (w uses m; P9)")


def labels_and_distances(data, name: str = "online_query_release"):
    """``data`` as (labels int64 (r,), dist float64 (r,)), validated."""
    x = np.asarray(data, dtype=float)
    if x.ndim == 1 and x.size == 2:
        x = x[None, :]
    if x.ndim != 2 or x.shape[1] != 2:
        raise ValueError(f"{name}: data must have shape (m, 2) = [label, dist] rows, got {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name}: data must be finite")
    label, dist = x[:, 0], x[:, 1]
    if np.any(label != np.round(label)) or np.any(label < 0):
        raise ValueError(f"{name}: labels must be non-negative integers (-1, -2 encode bottom / not answered)")
    if np.any(dist < 0):
        raise ValueError(f"{name}: distances to instability must be >= 0")
    return label.astype(np.int64), dist


def release_stream(label, dist, n, *, rng, lam, w, T):
    """Alg 3 steps 1-5 for n independent runs: int64 (n, r) of labels, -1 bottom, -2 not answered.

    Shared by A_OQR and A_subSamp / A_binClas (whose labels are the chunk modes and whose dist
    is the vote-gap distance); the core's sweep compares the queries in order."""
    svt = new_core(rng, n, lam=lam, w=w, T=T)                          # step 1: c <- 0, w_hat <- w + Lap(lam)
    codes = svt.sweep(dist)                                            # steps 2-4: for f in F while c <= T, A_stab
    return np.where(codes == TOP, np.asarray(label, dtype=np.int64),  # (Lap(2 lam) vs w_hat); a bottom: c + 1,
                    np.where(codes == SV_BOTTOM, BOTTOM, NOT_ANSWERED))  # re-draw; step 5: output out


def _batch(data, n, *, rng, epsilon, delta, T, m):
    T, m = _cutoff(T), declared_queries(m)
    label, dist = labels_and_distances(data)
    check_rows(len(label), m, "online_query_release")
    lam = oqr_lambda(epsilon, delta, T)                                # step 1
    return release_stream(label, dist, n, rng=rng, lam=lam, w=oqr_threshold(lam, m, delta), T=T)


@batched(_batch)
def online_query_release(data, *, rng, epsilon, delta, T, m):
    """Seed 000 Alg 3 on rows [f_i(D), dist_i]: int64 array, label / -1 bottom / -2 not answered."""
    return _batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0]


class OnlineQueryRelease:
    """A_OQR as an online session: queries arrive one at a time and may depend on earlier answers
    (adaptivity, P20). ``ask(label, dist)`` returns the label, -1 (bottom) or -2 (halted); the
    (m+1)-th query is refused (P9). The state is the shared sparse-vector core with n = 1; nothing
    but the answers is exposed."""

    def __init__(self, *, rng, epsilon, delta, T, m):
        self._T, self._m = _cutoff(T), declared_queries(m)
        lam = oqr_lambda(epsilon, delta, self._T)
        self._svt = new_core(rng, 1, lam=lam, w=oqr_threshold(lam, self._m, delta), T=self._T)
        self._asked = 0

    def ask(self, label, dist) -> int:
        lab, d = labels_and_distances([[label, dist]], "OnlineQueryRelease.ask")
        check_rows(self._asked + 1, self._m, "OnlineQueryRelease.ask")
        self._asked += 1
        running = self._svt.running()
        if not running[0]:
            return NOT_ANSWERED
        top = self._svt.compare(d[0], running)
        return int(lab[0]) if top[0] else BOTTOM
