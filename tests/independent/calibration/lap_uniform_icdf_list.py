"""Laplace mechanism (seed 000 Lemma 2.6) written the way a user might: noise by the inverse CDF of
Lap(b) from rng.uniform(-1/2, 1/2) (x = -b sgn(u) ln(1 - 2|u|)), all keyword parameters taken as
**params (gamma, epsilon read by name, p and beta ignored), output returned as a plain Python list of
floats. The batch sampler draws an (p, N) block of uniforms and transposes it (other order, same law).
Law: f + Lap(gamma/epsilon)^p, exactly the spec's."""
import numpy as np


def _icdf(u, b):
    # u uniform on [-1/2, 1/2); -b*sgn(u)*log(1-2|u|) is Lap(b).  1 - 2|u| > 0 since |u| <= 1/2
    # and u = -1/2 has probability ~2^-53; guard anyway.
    a = np.clip(1.0 - 2.0 * np.abs(u), np.finfo(float).tiny, None)
    return -b * np.sign(u) * np.log(a)


def laplace(data, *, rng, **params):
    b = float(params["gamma"]) / float(params["epsilon"])
    f = [float(v) for v in np.ravel(data)]
    u = rng.uniform(-0.5, 0.5, size=len(f))
    noise = _icdf(u, b)
    return [fi + float(ni) for fi, ni in zip(f, noise)]


def _batch(data, n, *, rng, **params):
    b = float(params["gamma"]) / float(params["epsilon"])
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    u = rng.uniform(-0.5, 0.5, size=(f.size, n)).T   # column-major draw order
    return f[None, :] + _icdf(u, b)


laplace.batch = _batch
