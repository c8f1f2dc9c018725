"""The hard instance of Theorem 2 (seed 002 Section 3.1, lines 89-111; note ALG-11).

Contract: ``private_prediction_lower_bound(data, *, rng, d, n, **_) -> dict`` (``data`` ignored):
X = [d] (points 0..d-1, shattered by C = {0,1}^[d]), b ~ Uniform{0,1}^d, D uniform on [d], and
S ~ (D, f_b)^n: ``{"X": int64 (n,), "b": int8 (d,), "y": int8 (n,)}`` with y = b[X]. The batch
sampler returns an object array of N such dicts.

``flip_point(S, i)`` is S^(+i) (the labels of every copy of i flipped: a t-neighbour, note W7), and
``instance_bound(epsilon, delta, n, d, s)`` is the per-instance lower bound on
p_i = Pr[M(S, i) != b_i] for every (epsilon, delta)-DP prediction algorithm (note THM-2):
(1 - s e^((s-1) eps) delta - Pr[Bin(n, 1/d) > s])/(1 + e^(eps s)).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats


def _instance(rng, d: int, n: int) -> dict:
    b = rng.integers(0, 2, size=int(d), dtype=np.int8)       # b ~ Uniform{0,1}^d
    X = rng.integers(0, int(d), size=int(n), dtype=np.int64)  # S ~ (D, f_b)^n, D uniform on [d]
    return {"X": X, "b": b, "y": b[X]}


def _batch(data, N, *, rng, d, n, **_):
    out = np.empty(int(N), dtype=object)
    for k in range(int(N)):
        out[k] = _instance(rng, d, n)
    return out


def private_prediction_lower_bound(data, *, rng, d, n, **_):
    """One draw of the hard instance (b, S)."""
    if int(d) < 1 or int(n) < 1:
        raise ValueError(f"need d >= 1 and n >= 1, got d={d!r}, n={n!r}")
    return _instance(rng, d, n)


private_prediction_lower_bound.batch = _batch


def flip_point(S: dict, i: int) -> dict:
    """S^(+i): the labels of all copies of point i flipped (b is unchanged)."""
    y = S["y"].copy()
    y[S["X"] == i] ^= 1
    return {**S, "y": y}


def instance_bound(epsilon: float, delta: float, n: int, d: int, s: int) -> float:
    """Lower bound on p_i for (epsilon, delta)-DP algorithms on the hard instance (s >= 1), and
    Pr[t_i = 0]/2 for s = 0 (any algorithm)."""
    if s == 0:
        return 0.5 * (1 - 1 / d) ** n
    tail = float(stats.binom.sf(s, n, 1 / d))
    return (1 - s * math.exp((s - 1) * epsilon) * delta - tail) / (1 + math.exp(epsilon * s))


def best_instance_bound(epsilon: float, delta: float, n: int, d: int, s_max: int = 200) -> tuple[float, int]:
    """max over s in 0..s_max of :func:`instance_bound`, with the maximiser."""
    values = [instance_bound(epsilon, delta, n, d, s) for s in range(s_max + 1)]
    s = int(np.argmax(values))
    return values[s], s


def proof_tail(epsilon: float, d: int) -> float:
    """Pr[Bin(floor(d/(8 eps)), 1/d) > 1/(4 eps)]: the proof needs it <= 1/24 (erratum E7)."""
    return float(stats.binom.sf(math.floor(1 / (4 * epsilon)), math.floor(d / (8 * epsilon)), 1 / d))
