"""The hard instance of Theorem 2 (seed 002 Section 3.1, lines 89-111; note ALG-11).

Contract: ``private_prediction_lower_bound(data, *, rng, d, n, **_)`` (``data`` ignored):
X = [d] (points 0..d-1, shattered by C = {0,1}^[d]), b ~ Uniform{0,1}^d, D uniform on [d], and
S ~ (D, f_b)^n, encoded as one int64 array ``[X (n), b (d)]`` (labels y = b[X]); the batch
sampler returns shape (N, n + d). :func:`decode` gives ``{"X", "b", "y"}``.

``flip_point(S, i)`` is S^(+i) (the labels of every copy of i flipped: a t-neighbour, note W7), and
``instance_bound(epsilon, delta, n, d, s)`` is the per-instance lower bound on
p_i = Pr[M(S, i) != b_i] for every (epsilon, delta)-DP prediction algorithm (note THM-2):
(1 - s e^((s-1) eps) delta - Pr[Bin(n, 1/d) > s])/(1 + e^(eps s)).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats


def _batch(data, N, *, rng, d, n, **_):
    if int(d) < 1 or int(n) < 1:
        raise ValueError(f"need d >= 1 and n >= 1, got d={d!r}, n={n!r}")
    X = rng.integers(0, int(d), size=(int(N), int(n)))          # S ~ (D, f_b)^n, D uniform on [d]
    b = rng.integers(0, 2, size=(int(N), int(d)))               # b ~ Uniform{0,1}^d
    return np.concatenate([X, b], axis=1).astype(np.int64)


def private_prediction_lower_bound(data, *, rng, d, n, **_):
    """One draw of the hard instance: [X (n), b (d)]."""
    return _batch(data, 1, rng=rng, d=d, n=n)[0]


private_prediction_lower_bound.batch = _batch


def decode(instances, n: int) -> dict:
    """{"X": (..., n), "b": (..., d), "y": (..., n)} from encoded instances (..., n + d)."""
    inst = np.asarray(instances)
    X, b = inst[..., :n], inst[..., n:]
    return {"X": X, "b": b, "y": np.take_along_axis(b, X, axis=-1)}


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
