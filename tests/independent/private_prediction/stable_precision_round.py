"""Laplace prediction of a uniformly RO-stable learner (002 Theorem 3; q queries, Lemma 4).

A(S, x) + Lap(gamma/epsilon), fresh per query.  To avoid releasing the low-order bits of the
floating-point noise (Mironov 2012), every answer is rounded to the precision of the prediction
it answers: a learner that reports 0.25 gets answers with two decimals, one that reports 3.0 one
decimal.
"""
import numpy as np


def _digits(a):
    s = np.format_float_positional(float(a), trim="-")
    dec = len(s.partition(".")[2])
    return int(min(max(dec, 1), 15))


def laplace_matched_precision(data, *, rng, epsilon, gamma, **_):
    a = np.asarray(data, float)
    flat = np.atleast_1d(a)
    noisy = flat + rng.laplace(0.0, gamma / epsilon, size=flat.shape)
    out = np.array([np.round(v, _digits(p)) for v, p in zip(noisy, flat)])
    return float(out[0]) if a.ndim == 0 else out


def _batch(data, n, *, rng, epsilon, gamma, **_):
    a = np.asarray(data, float)
    flat = np.atleast_1d(a)
    noisy = flat[None, :] + rng.laplace(0.0, gamma / epsilon, size=(n, flat.size))
    for j, p in enumerate(flat):
        noisy[:, j] = np.round(noisy[:, j], _digits(p))
    return noisy[:, 0] if a.ndim == 0 else noisy


laplace_matched_precision.batch = _batch
