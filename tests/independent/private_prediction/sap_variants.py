"""Subsample-and-aggregate private prediction with the soft majority (seed 002 Section 3.1,
Theorem 1 and its proof), written from the paper and the spec's contract: r = ceil(6 ln(4/alpha)/eps)
teachers, nu = c_1 - c_0 (votes for 1 minus votes for 0), output 1 with probability
exp(eps nu/2)/(1 + exp(eps nu/2)). Votes form: data = [c_0, c_1]. Dataset form: data = {X, y, x}:
the first r*m records, m = n // r, cut into r positional blocks, each trains the threshold learner
t = min{X_i : y_i = 1} (+inf when the block has no positive), which votes 1 at x iff x >= t; every
query gets its own coin. One correct function and three wrong ones, each with its truth."""
import math

import numpy as np


def _teachers(X, y, r, use):
    """Thresholds of the r block teachers, each trained on the first ``use`` fraction of its block."""
    m = X.size // r
    k = max(1, int(m * use))
    blocks_x = X[: r * m].reshape(r, m)[:, :k]
    blocks_y = y[: r * m].reshape(r, m)[:, :k]
    return np.where(blocks_y == 1, blocks_x, np.inf).min(axis=1)


def _nu(data, epsilon, alpha, use=1.0):
    """(nu per query, whether the query was a scalar)."""
    if isinstance(data, dict):
        r = math.ceil(6.0 * math.log(4.0 / alpha) / epsilon)
        X = np.asarray(data["X"], dtype=np.float64).reshape(-1)
        y = np.asarray(data["y"]).reshape(-1).astype(np.int64)
        t = _teachers(X, y, r, use)
        q = np.asarray(data["x"], dtype=np.float64)
        ones = (q.reshape(-1, 1) >= t.reshape(1, -1)).sum(axis=1)
        return 2 * ones - r, q.ndim == 0
    c = np.asarray(data, dtype=np.int64).reshape(-1)
    return np.array([c[1] - c[0]]), True


def _soft(nu, epsilon, N, rng):
    p1 = 1.0 / (1.0 + np.exp(-0.5 * epsilon * np.asarray(nu, dtype=np.float64)))
    return (rng.random((N, p1.size)) < p1[None, :]).astype(np.int8)


def _shape(out, scalar):
    return out[:, 0] if scalar else out


def sap_correct(data, *, rng, epsilon, alpha, **_):
    """The soft majority as the paper states it. Truth: correct."""
    nu, scalar = _nu(data, epsilon, alpha)
    out = _soft(nu, epsilon, 1, rng)[0]
    return int(out[0]) if scalar else out


def sap_third_of_block(data, *, rng, epsilon, alpha, **_):
    """Each teacher keeps two thirds of its block aside (a validation split it never uses) and trains
    on the first third: still disjoint blocks, so eps-DP (the claim holds), but every teacher's
    threshold is about 3 times further from the target, so the soft majority errs about 3 times as
    often as the reference on the threshold instances (the votes form is the correct mechanism).
    Truth: utility bug, about 3x the reference's error in the dataset form."""
    nu, scalar = _nu(data, epsilon, alpha, use=1.0 / 3.0)
    out = _soft(nu, epsilon, 1, rng)[0]
    return int(out[0]) if scalar else out


def sap_constant_label(data, *, rng, epsilon, alpha, **_):
    """Answers 0 at every query. Truth: utility bug (error 1/2 on thresholds at 1/2 under U[0, 1]); 0-DP."""
    nu, scalar = _nu(data, epsilon, alpha)
    return 0 if scalar else np.zeros(nu.size, dtype=np.int8)


def sap_no_noise(data, *, rng, epsilon, alpha, **_):
    """The hard majority: 1 iff nu > 0 (no coin). Truth: privacy bug: nu = -1 -> +1 under one record
    moves the output from 0 to 1 with probability 1 (infinite loss)."""
    nu, scalar = _nu(data, epsilon, alpha)
    out = (nu > 0).astype(np.int8)
    return int(out[0]) if scalar else out


def _b_correct(data, N, *, rng, epsilon, alpha, **_):
    nu, scalar = _nu(data, epsilon, alpha)
    return _shape(_soft(nu, epsilon, N, rng), scalar)


def _b_third_of_block(data, N, *, rng, epsilon, alpha, **_):
    nu, scalar = _nu(data, epsilon, alpha, use=1.0 / 3.0)
    return _shape(_soft(nu, epsilon, N, rng), scalar)


def _b_constant_label(data, N, *, rng, epsilon, alpha, **_):
    nu, scalar = _nu(data, epsilon, alpha)
    return _shape(np.zeros((N, nu.size), dtype=np.int8), scalar)


def _b_no_noise(data, N, *, rng, epsilon, alpha, **_):
    nu, scalar = _nu(data, epsilon, alpha)
    return _shape(np.tile((nu > 0).astype(np.int8), (N, 1)), scalar)


sap_correct.batch = _b_correct
sap_third_of_block.batch = _b_third_of_block
sap_constant_label.batch = _b_constant_label
sap_no_noise.batch = _b_no_noise
