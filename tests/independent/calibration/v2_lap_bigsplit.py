"""Laplace mechanism with a special path for large answers: for |f_i| >= 1000 the answer is split into
its integer part and its fractional part, the noise is added to the fractional part first, and the
integer part last: out = ip + (fp + noise). In real arithmetic this is f + noise exactly (same law,
Lap(gamma/epsilon) centred at f); it only changes where float rounding happens (at most one extra
rounding, <= 1 ulp of the output). Per-call and batch compute the same thing."""
import numpy as np

BIG = 1000.0


def _release(f, noise):
    f = np.asarray(f, dtype=float)
    big = np.abs(f) >= BIG
    ip = np.where(big, np.trunc(f), 0.0)
    fp = f - ip                       # exact (Sterbenz) for |f| >= 1
    out_big = ip + (fp + noise)
    return np.where(big, out_big, f + noise)


def laplace(data, *, rng, epsilon, gamma, **_unused):
    f = np.asarray(data, dtype=float).reshape(-1)
    return _release(f, rng.laplace(0.0, gamma / epsilon, size=f.shape))


def _batch(data, n, *, rng, epsilon, gamma, **_unused):
    f = np.asarray(data, dtype=float).reshape(-1)
    return _release(f[None, :], rng.laplace(0.0, gamma / epsilon, size=(n, f.size)))


laplace.batch = _batch
