"""Prediction on a uniformly RO-stable learner (seed 002 Sections 3.2-3.3; notes ALG-2, -2G, -3, -4).

- ``stable_laplace_prediction(data, *, rng, epsilon, gamma)``: A(S, x) + Lap(gamma/epsilon)
  (Theorem 3, b = Delta A/epsilon, line 133). ``data`` is the exact prediction A(S, x) (a float),
  or an array of predictions at q queries, each answered with fresh noise (Lemma 4: q epsilon).
  Output: float (or (q,)); the batch sampler returns (N,) (or (N, q)).
- ``stable_gaussian_prediction(data, *, rng, epsilon, delta, gamma)``: A(S, x) + N(0, sigma_G^2),
  sigma_G = gamma sqrt(2 ln(1.25/delta))/epsilon (Dwork-Roth Thm A.1; erratum 002-E2 corrected).
  ``stable_gaussian_prediction_broken``: variance gamma ln(1/delta)/epsilon as printed (line 143).
- ``averaged_learner(data, *, r)``: A'(S', x) = (1/r) sum_j A(S'_j, x) over the block predictions
  ``data`` (length r, block j = records (j-1)n+1..jn); deterministic (Lemma 2).
- ``agnostic_private_prediction(data, *, rng, epsilon, alpha)``: votes [c_0, c_1] of r Boolean
  teachers, v = c_1/r, p = clip(v + Lap(1/(r epsilon)), 0, 1), label 1 with probability p
  (Corollary 1; r = ceil(2/(alpha epsilon)) corrected, ceil(1/(alpha epsilon)) as printed, E8).
  Exact law: Pr[1] = P1(v) = v + (b/2)(e^(-v/b) - e^(-(1-v)/b)), b = 1/(r epsilon).
"""

from __future__ import annotations

import math

import numpy as np

from dptestbed.impl.contract import batched
from dptestbed.impl.noise import as_vector, gaussian, laplace


def _predictions(data):
    """(predictions as a 1-D array, whether data was one scalar query)."""
    return as_vector(data, "prediction A(S, x)"), np.ndim(data) == 0


def _add_noise(data, n, noise):
    a, single = _predictions(data)
    out = a[None, :] + noise((int(n), a.size))
    return out[:, 0] if single else out


def _one(batch_fn, data, rng, **params):
    out = batch_fn(data, 1, rng=rng, **params)[0]
    return float(out) if np.ndim(out) == 0 else out


# --------------------------------------------------------------------------- Laplace (Theorem 3)


def _laplace_batch(data, n, *, rng, epsilon, gamma, **_):
    return _add_noise(data, n, lambda size: laplace(rng, gamma / epsilon, size))      # b = Delta A/eps


@batched(_laplace_batch)
def stable_laplace_prediction(data, *, rng, epsilon, gamma, **_):
    """A(S, x) + Lap(gamma/epsilon), fresh noise per query: epsilon-DP per query."""
    return _one(_laplace_batch, data, rng, epsilon=epsilon, gamma=gamma)


# --------------------------------------------------------------------------- Gaussian (Section 3.2.1)


def sigma_gaussian(epsilon: float, delta: float, gamma: float) -> float:
    """Dwork-Roth Theorem A.1: sigma = gamma sqrt(2 ln(1.25/delta))/epsilon."""
    return gamma * math.sqrt(2 * math.log(1.25 / delta)) / epsilon


def sigma_gaussian_printed(epsilon: float, delta: float, gamma: float) -> float:
    """The report's standard deviation: sqrt of its variance gamma ln(1/delta)/epsilon (E2)."""
    return math.sqrt(gamma * math.log(1 / delta) / epsilon)


def _gauss_batch(data, n, *, rng, epsilon, delta, gamma, **_):
    return _add_noise(data, n, lambda size: gaussian(rng, sigma_gaussian(epsilon, delta, gamma), size))


@batched(_gauss_batch)
def stable_gaussian_prediction(data, *, rng, epsilon, delta, gamma, **_):
    """A(S, x) + N(0, sigma_G^2), sigma_G = gamma sqrt(2 ln(1.25/delta))/epsilon."""
    return _one(_gauss_batch, data, rng, epsilon=epsilon, delta=delta, gamma=gamma)


def _gauss_printed_batch(data, n, *, rng, epsilon, delta, gamma, **_):
    return _add_noise(data, n, lambda size: gaussian(rng, sigma_gaussian_printed(epsilon, delta, gamma), size))


@batched(_gauss_printed_batch)
def stable_gaussian_prediction_broken(data, *, rng, epsilon, delta, gamma, **_):
    """AS PRINTED (E2): A(S, x) + N(0, gamma ln(1/delta)/epsilon) (variance linear in gamma)."""
    return _one(_gauss_printed_batch, data, rng, epsilon=epsilon, delta=delta, gamma=gamma)


# --------------------------------------------------------------------------- averaging (Lemma 2)


def averaged_learner(data, *, r, **_):
    """A'(S', x) = (1/r) sum_j A(S'_j, x); ``data`` = the r block predictions (deterministic)."""
    a = as_vector(data, "block predictions")
    if a.size != int(r):
        raise ValueError(f"expected r = {r} block predictions, got {a.size}")
    return float(a.mean())


def _averaged_batch(data, n, *, r, **_):
    return np.full(int(n), averaged_learner(data, r=r))


averaged_learner.batch = _averaged_batch


# --------------------------------------------------------------------------- agnostic (Corollary 1)


def agnostic_teachers(epsilon: float, alpha: float, printed: bool = False) -> int:
    """r = ceil(2/(alpha eps)) (corrected, E8); ceil(1/(alpha eps)) for the prose's r = 1/(alpha eps)."""
    if not epsilon > 0 or not 0 < alpha < 1:
        raise ValueError(f"need epsilon > 0 and 0 < alpha < 1, got epsilon={epsilon!r}, alpha={alpha!r}")
    return math.ceil((1.0 if printed else 2.0) / (alpha * epsilon))


def rounding_probability(v, b: float) -> np.ndarray:
    """P1(v) = E[clip(v + Lap(b), 0, 1)] = v + (b/2)(e^(-v/b) - e^(-(1-v)/b)), v in [0, 1]."""
    v = np.asarray(v, dtype=float)
    return v + 0.5 * b * (np.exp(-v / b) - np.exp(-(1.0 - v) / b))


def agnostic_average(data, r: int) -> float:
    """v = c_1/r from the votes [c_0, c_1] (c_0 + c_1 must equal r)."""
    c = np.asarray(data)
    if c.shape != (2,) or np.any(c < 0) or np.any(c != np.round(c)) or c.sum() != r:
        raise ValueError(f"votes must be two non-negative integer counts summing to r = {r}, got {data!r}")
    return float(c[1]) / r


def _agnostic_batch(data, n, *, rng, epsilon, alpha, printed=False, **_):
    r = agnostic_teachers(epsilon, alpha, printed)
    v = agnostic_average(data, r)                                   # step 2: v = (1/r) sum_j h_j(x)
    p = np.clip(v + laplace(rng, 1.0 / (r * epsilon), int(n)), 0.0, 1.0)   # steps 3-4
    return (rng.random(int(n)) < p).astype(np.int8)                 # step 5: randomized rounding


@batched(_agnostic_batch)
def agnostic_private_prediction_corrected(data, *, rng, epsilon, alpha, **_):
    """Corollary 1 (corrected r = ceil(2/(alpha eps))): label 1 w.p. clip(v + Lap(1/(r eps)), 0, 1)."""
    return int(_agnostic_batch(data, 1, rng=rng, epsilon=epsilon, alpha=alpha)[0])


def _agnostic_printed_batch(data, n, *, rng, epsilon, alpha, **_):
    return _agnostic_batch(data, n, rng=rng, epsilon=epsilon, alpha=alpha, printed=True)


@batched(_agnostic_printed_batch)
def agnostic_private_prediction(data, *, rng, epsilon, alpha, **_):
    """Corollary 1 as printed (r = ceil(1/(alpha eps))): the same mechanism with fewer teachers."""
    return int(_agnostic_printed_batch(data, 1, rng=rng, epsilon=epsilon, alpha=alpha)[0])
