"""Noise samplers shared by the reference implementations.

Every sampler takes the caller's ``numpy.random.Generator`` (all randomness comes from it)
and a ``size`` (``None`` for one draw, returned as a Python float).

Laplace: ``Lap(b)`` has density ``exp(-|x|/b) / (2b)``; ``b`` is a *scale*, not a variance
(seed notes, P18). An array of draws is ``b * S * E`` with ``E`` a standard exponential
(numpy's ziggurat sampler) and ``S`` the sign of an independent uniform byte (eight per raw
64-bit word of the same generator; 128 of the 256 byte values are negative): that product has
exactly the Laplace law, is symmetric, and its tails are exact down to probability ~2^-53 (the
ziggurat's tail is ``r - log1p(-U)`` with a 53-bit ``U``; |x| up to ~44 b, beyond which the
mass is ~1e-19). It costs ~4.5 ns a draw, against ~6 ns with one raw word per sign and ~13 ns
for ``Generator.laplace`` (an inverse CDF with a logarithm per draw), which draws fewer than
FAST_LAPLACE_SIZE values (its single call costs less there). (P19: our SVT variants release
only comparisons, so floating-point attacks on released noisy values do not apply to them; the
Laplace mechanism and Lyu's Algorithm 3 do release noisy floats, as the papers do.)
"""

from __future__ import annotations

import math

import numpy as np

FAST_LAPLACE_SIZE = 512  # arrays this large are drawn as S * E (below, numpy's laplace: one call, less overhead)


def laplace(rng: np.random.Generator, scale: float, size=None):
    """Draws from Lap(scale): density exp(-|x|/scale)/(2 scale)."""
    if not scale > 0:
        raise ValueError(f"Laplace scale must be > 0, got {scale!r}")
    if size is None:
        return float(rng.laplace(0.0, scale))
    if (size if isinstance(size, (int, np.integer)) else math.prod(size)) < FAST_LAPLACE_SIZE:
        return rng.laplace(0.0, scale, size)
    draw = rng.standard_exponential(size)                                       # E ~ Exp(1)
    sign = rng.bit_generator.random_raw(-(-draw.size // 8)).view(np.int8)[:draw.size]  # uniform bytes
    np.copysign(draw, sign.reshape(draw.shape), out=draw)                       # S * E, S = sign of a byte
    draw *= scale
    return draw


def gaussian(rng: np.random.Generator, sigma: float, size=None):
    """Draws from N(0, sigma^2) (sigma is the standard deviation)."""
    if not sigma > 0:
        raise ValueError(f"Gaussian sigma must be > 0, got {sigma!r}")
    draw = rng.normal(0.0, sigma, size)
    return float(draw) if size is None else draw


def as_vector(data, name: str = "data") -> np.ndarray:
    """``data`` as a 1-D float64 array (a scalar becomes length 1); rejects non-finite values."""
    x = np.atleast_1d(np.asarray(data, dtype=float))
    if x.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of numbers, got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name} must be finite")
    return x
