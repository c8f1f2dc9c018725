"""Bounded sum (diffprivlib.tools.sum style) whose release is kept inside [n*lower, n*upper].

diffprivlib's LaplaceTruncated clamps the noisy sum to the feasible range, which puts atoms on
the bounds. This version "avoids the atoms" by re-drawing the Laplace noise until the noisy
sum falls inside [n*lower, n*upper] (rejection sampling). The acceptance probability depends
on where the true sum lies, so the normalising constant leaks: near a bound the released
density is rescaled by 1/P[accept], which differs between neighbours.
"""
import numpy as np


def _one(total, lo, hi, b, rng):
    while True:
        y = total + rng.laplace(0.0, b)
        if lo <= y <= hi:
            return y


def bounded_sum(data, *, rng, epsilon, lower, upper, n=None, **_):
    x = np.clip(np.ravel(np.asarray(data, dtype=float)), lower, upper)
    m = x.size
    b = (upper - lower) / epsilon
    return float(_one(x.sum(), lower * m, upper * m, b, rng))


def _batch(data, n, *, rng, epsilon, lower, upper, **_):
    x = np.clip(np.ravel(np.asarray(data, dtype=float)), lower, upper)
    m = x.size
    b = (upper - lower) / epsilon
    lo, hi, s = lower * m, upper * m, x.sum()
    out = np.empty(n)
    todo = np.arange(n)
    while todo.size:
        y = s + rng.laplace(0.0, b, size=todo.size)
        ok = (y >= lo) & (y <= hi)
        out[todo[ok]] = y[ok]
        todo = todo[~ok]
    return out


bounded_sum.batch = _batch
