"""The hard instance of Theorem 2 (seed 002 Section 3.1, lines 89-111; note ALG-11).

Contract: ``private_prediction_lower_bound(data, *, rng, d, n, **_)`` (``data`` ignored):
X = [d] (points 0..d-1, shattered by C = {0,1}^[d]), b ~ Uniform{0,1}^d, D uniform on [d], and
S ~ (D, f_b)^n, encoded as one int64 array ``[X (n), b (d)]`` (labels y = b[X]); the batch
sampler returns shape (N, n + d). :func:`decode` gives ``{"X", "b", "y"}``.

``flip_point(S, i)`` is S^(+i) (the labels of every copy of i flipped: a t-neighbour, note W7), and
``instance_bound(epsilon, delta, n, d, s)`` is the per-instance lower bound on
p_i = Pr[M(S, i) != b_i] for every (epsilon, delta)-DP prediction algorithm (note THM-2):
(1 - s e^((s-1) eps) delta - Pr[Bin(n, 1/d) > s])/(1 + e^(eps s)); ``conditioned_bound`` the sharper bound
that conditions on the number of copies of i instead of capping it at s.
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


def conditioned_bound(epsilon: float, delta: float, n: int, d: int) -> float:
    """Lower bound on Pr_{b,S,M}[M(S, i) != b_i] for every (epsilon, delta)-DP prediction algorithm on the hard
    instance, conditioned on the number t ~ Bin(n, 1/d) of copies of i in S: E_t[(1 - t e^((t-1) eps) delta)_+ /
    (1 + e^(eps t))]. Given everything but b_i, S with b_i = 0 and with b_i = 1 differ in the t labels of the
    copies; group privacy (Lemma 1) bounds the two answer laws against each other, and the best error the two
    constraints allow is (1 - t e^((t-1) eps) delta)/(1 + e^(eps t)) (1/2 at t = 0). It is at least
    :func:`instance_bound` for every s (which keeps only t <= s, at the value of t = s)."""
    t = np.arange(0, n + 1)
    weights = stats.binom.pmf(t, n, 1 / d)
    keep = weights > 1e-300
    t, weights = t[keep], weights[keep]
    with np.errstate(over="ignore"):
        group_delta = np.where(t > 0, t * np.exp((t - 1) * epsilon) * delta, 0.0)
        value = np.clip(1 - group_delta, 0.0, 1.0) / (1 + np.exp(epsilon * t))
    return float(np.sum(weights * value))


def best_instance_bound(epsilon: float, delta: float, n: int, d: int, s_max: int = 200) -> tuple[float, int]:
    """max over s in 0..s_max of :func:`instance_bound`, with the maximiser."""
    values = [instance_bound(epsilon, delta, n, d, s) for s in range(s_max + 1)]
    s = int(np.argmax(values))
    return values[s], s


def proof_tail(epsilon: float, d: int) -> float:
    """Pr[Bin(floor(d/(8 eps)), 1/d) > 1/(4 eps)]: the proof needs it <= 1/24 (erratum E7)."""
    return float(stats.binom.sf(math.floor(1 / (4 * epsilon)), math.floor(d / (8 * epsilon)), 1 / d))
