"""VALID (expected class: pass, exit 0). laplace_mechanism.

Laplace noise drawn by inverse CDF from rng.random(): with U ~ Uniform(0,1),
-b*sign(U-1/2)*log(1-2|U-1/2|) ~ Lap(b). Negative coordinates are handled by a
"magnitude + sign" path: out = -( |f| + Z' ) with Z' an independent Lap(b);
since Lap(b) is symmetric, -(|f| + Z') = f - Z' has the same law as f + Z.
So every coordinate is f_i + Lap(gamma/epsilon), i.i.d.: identical law to the spec.
"""
import numpy as np


def _lap(rng, b, shape):
    u = rng.random(shape) - 0.5
    # 1 - 2|u| in (0, 1]; guard the measure-zero endpoint
    return -b * np.sign(u) * np.log1p(-2.0 * np.abs(u))


def laplace(data, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float).reshape(-1)
    b = gamma / epsilon
    z = _lap(rng, b, f.shape)
    neg = f < 0
    out = np.where(neg, -(np.abs(f) + z), f + z)
    return out.astype(np.float64)


def _batch(data, n, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float).reshape(-1)
    b = gamma / epsilon
    z = _lap(rng, b, (n, f.size))
    neg = f < 0
    return np.where(neg[None, :], -(np.abs(f)[None, :] + z), f[None, :] + z).astype(np.float64)


laplace.batch = _batch
