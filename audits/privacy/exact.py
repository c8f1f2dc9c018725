"""Exact privacy profiles: the true epsilon at a given delta of a mechanism on one pair.

Contract
--------
``exact_epsilon(spec, pair, delta)`` returns the smallest epsilon >= 0 such that for every
event S, P[M(D) in S] <= e^eps P[M(D') in S] + delta and the same with D, D' swapped, for the
mechanism *as the spec defines it* (its reference implementation), on ``pair`` at
``pair.env``; ``math.inf`` when no finite epsilon works; ``None`` when unknown (no profile for
the mechanism, or the instance is too large). The auditor's lower bound must not exceed it
(up to its confidence), which is how its own tightness is shown.

Profiles are registered by the spec's reference implementation (``module:function``), since
that is what fixes the mechanism; each paper registers its own (``audits/<paper>/``) from the
laws here:

* Laplace ``f(D) + Lap(b)^p``: ``||f(D) - f(D')||_1 / b`` at delta = 0; at delta > 0 the
  closed form ``delta(eps) = 1 - exp((eps - s/b)/2)`` when one coordinate moves by s; when
  several move, the privacy loss is the sum of the coordinates' independent losses, whose law is
  convolved on a lattice (:func:`product_epsilon`, each loss rounded up to the lattice: the
  result is an upper bound of the exact epsilon, at most one lattice step per moved coordinate
  above it: ``PRODUCT_TOLERANCE`` in all, unless that lattice would exceed ``PRODUCT_MAX_POINTS``
  points and is coarsened). Computed here rather than taken from dp-accounting, a test-only
  dependency that serves as the independent oracle of every profile (tests/calibration).
* Geometric (discrete Laplace) ``f(D) + Z^p``, ``P[Z = k]`` proportional to ``exp(-|k|/b)`` on
  the integers, integer shifts: the losses live on the lattice ``Z/b`` exactly, so the same
  convolution is exact (:func:`geometric_epsilon`).
* Gaussian ``f(D) + N(0, sigma^2 I)``: Balle and Wang 2018 (Theorem 8), solved for eps:
  ``delta(eps) = Phi(D/(2 sigma) - eps sigma/D) - e^eps Phi(-D/(2 sigma) - eps sigma/D)``.
* discrete outputs (randomized response, exponential mechanism, report noisy max, distance to
  instability, sparse-vector transcripts): the two output distributions are computed exactly
  (closed forms, or 1-D Gauss-Legendre quadrature over the threshold / maximum noise, split at
  every kink so that the integrands are smooth), then the hockey-stick divergence
  ``H(eps) = sum_o max(0, P(o) - e^eps Q(o))`` is inverted: eps(delta) = min{eps : H <= delta
  both ways}.
* report noisy max that releases the value: the density of the noisy maximum, on a grid,
  at delta = 0.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from functools import cache

import numpy as np

__all__ = [
    "exact_epsilon", "exact_bound", "register", "discrete_epsilon", "smallest_epsilon", "hockey_stick", "laplace_epsilon",
    "geometric_epsilon", "product_epsilon", "PRODUCT_TOLERANCE", "gaussian_epsilon", "gaussian_delta",
    "svt_distribution", "noisy_max_distribution", "noisy_max_value_epsilon", "dist_epsilon", "lap_sf", "as_vector",
    "PROFILES",
]

PROFILES: dict[str, Callable] = {}
KIND_PROFILES: dict[tuple[str, str], Callable] = {}  # (claim kind, implementation) -> fn(data, neighbour, env)


def register(*refs: str, kind: str = "dp"):
    """Register an exact profile of the implementations ``refs``: for ``kind`` "dp" (default) a function
    ``(data, neighbour, env, delta) -> epsilon``; for "gdp", "zcdp" ``(data, neighbour, env) -> mu or rho`` (the
    smallest mu or rho the pair meets)."""
    def deco(fn):
        for ref in refs:
            if kind == "dp":
                PROFILES[ref] = fn
            else:
                KIND_PROFILES[(kind, ref)] = fn
        return fn
    return deco


def exact_bound(spec, pair, claim):
    """The exact value on ``pair`` of the parameter of ``claim`` (an :class:`.claims.Claim`) for the spec's
    mechanism: epsilon at the claim's delta; a curve's scale max_i eps_i(delta_i) / eps_i (from the epsilon
    profile at every delta_i); mu or rho from a profile of that kind; a Renyi list's scale max_i rho-free
    divergences are not profiled (None). None when unknown."""
    if claim.kind == "dp":
        return exact_epsilon(spec, pair, claim.delta)
    if claim.kind == "curve":
        values = [exact_epsilon(spec, pair, d) for _, d in claim.points]
        if any(v is None for v in values):
            return None
        return max(v / e for v, (e, _) in zip(values, claim.points))
    ref = spec.implementation
    if not ref:
        return None
    if (claim.kind, ref) not in KIND_PROFILES:
        _load_profiles(ref)
    fn = KIND_PROFILES.get((claim.kind, ref))
    value = None if fn is None else fn(pair.data, pair.neighbour, pair.env)
    return None if value is None else float(value)


def exact_epsilon(spec, pair, delta: float | None = None):
    """Exact epsilon at ``delta`` (default: the spec's claimed delta) on ``pair``, or None."""
    ref = spec.implementation
    fn = PROFILES.get(ref) if ref else None
    if fn is None and ref:
        _load_profiles(ref)
        fn = PROFILES.get(ref)
    if fn is None:
        return None
    if delta is None:
        delta = float(spec.privacy.delta.evaluate(pair.env))
    value = fn(pair.data, pair.neighbour, pair.env, float(delta))
    return None if value is None else float(value)


def _load_profiles(ref: str) -> None:
    """Register the exact profiles that may cover ``ref``: a paper registers the profiles of its
    own implementations, so ``dptestbed.impl.<paper>...`` needs only
    ``dptestbed.audits.<paper>.exact_profiles`` (importing every paper's costs seconds); any
    other reference loads them all."""
    import importlib
    import importlib.util

    from ..base.discovery import load_papers

    parts = ref.split(":")[0].split(".")
    if len(parts) > 3 and parts[:2] == ["dptestbed", "impl"]:
        if importlib.util.find_spec(f"dptestbed.audits.{parts[2]}") is not None:
            name = f"dptestbed.audits.{parts[2]}.exact_profiles"
            if importlib.util.find_spec(name) is not None:
                importlib.import_module(name)
        return
    load_papers("exact_profiles")  # the papers register their profiles when imported


# =========================================================================== generic tools


def hockey_stick(p: np.ndarray, q: np.ndarray, eps: float) -> float:
    """sum_o max(0, p(o) - e^eps q(o))."""
    return float(np.maximum(np.asarray(p) - math.exp(eps) * np.asarray(q), 0.0).sum())


def discrete_epsilon(p, q, delta: float = 0.0) -> float:
    """Exact epsilon at ``delta`` between two distributions on the same outcomes (both ways)."""
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    tiny = 1e-300
    if delta <= 0:
        both = (p > 0) | (q > 0)
        if np.any((p > 0) & (q <= 0)) or np.any((q > 0) & (p <= 0)):
            # only outcomes of positive probability count; mass below 1e-300 is numerically zero
            if np.any((p > tiny) & (q <= 0)) or np.any((q > tiny) & (p <= 0)):
                return math.inf
        sel = both & (p > 0) & (q > 0)
        if not np.any(sel):
            return 0.0
        return float(max(0.0, np.max(np.abs(np.log(p[sel]) - np.log(q[sel])))))

    def h(eps):
        return max(hockey_stick(p, q, eps), hockey_stick(q, p, eps))

    # once e^eps >= max ratio over outcomes with mass, H(eps) is the mass where q == 0
    return smallest_epsilon(h, delta, max(p[q <= 0].sum(), q[p <= 0].sum()))


def smallest_epsilon(h: Callable[[float], float], delta: float, floor: float = 0.0) -> float:
    """The smallest eps >= 0 with h(eps) <= delta, for a continuous non-increasing hockey-stick curve ``h``
    that tends to ``floor`` (math.inf when floor > delta, or when h(1e4) > delta)."""
    if h(0.0) <= delta:
        return 0.0
    if floor > delta:
        return math.inf
    hi = 1.0
    while h(hi) > delta:
        hi *= 2
        if hi > 1e4:
            return math.inf
    from scipy import optimize  # loaded on first use: a fast start for commands that never need it

    return float(optimize.brentq(lambda e: h(e) - delta, 0.0, hi, xtol=1e-12, rtol=1e-12))


PRODUCT_TOLERANCE = 1e-5  # laplace_epsilon's products: the exact epsilon is at most this much below the result
PRODUCT_MAX_POINTS = 1 << 21  # lattice points of a product's loss law (beyond: a coarser lattice, a wider bracket)


def laplace_epsilon(shift, b: float, delta: float = 0.0) -> float:
    """Laplace mechanism with scale ``b`` and L1 shift vector ``shift``."""
    s = np.abs(np.atleast_1d(np.asarray(shift, dtype=float)))
    eps0 = float(s.sum() / b)
    if delta <= 0 or eps0 == 0:
        return eps0
    if delta >= 1:
        return 0.0
    moved = s[s > 0] / b
    if moved.size == 1:
        # one coordinate: delta(eps) = 1 - exp((eps - eps0)/2) for 0 <= eps <= eps0
        return max(0.0, eps0 + 2.0 * math.log1p(-delta))
    step = max(PRODUCT_TOLERANCE / moved.size, 2 * eps0 / PRODUCT_MAX_POINTS)
    return product_epsilon([_laplace_loss(a, step) for a in moved], step, delta)


def _laplace_loss(a: float, step: float) -> tuple[int, np.ndarray]:
    """The privacy loss L of Lap(b) against Lap(b) shifted by s, a = s/b, on the lattice step*Z, each value
    rounded up: (k0, masses), P[L rounded = (k0 + j) step] = masses[j]. Under D, L = a w.p. 1/2 (x <= 0),
    L = -a w.p. e^-a/2 (x >= s), and in between L = (s - 2x)/b with P[L <= l] = e^((l - a)/2)/2 for -a <= l < a."""
    lo, hi = math.floor(-a / step), math.ceil(a / step)
    edges = np.arange(lo, hi + 1) * step
    cdf = np.where(edges >= a, 1.0, np.where(edges >= -a, 0.5 * np.exp((edges - a) / 2), 0.0))
    return lo, np.diff(cdf, prepend=0.0)  # the mass of (edge_{j-1}, edge_j] sits on edge_j


def geometric_epsilon(shift, b: float, delta: float = 0.0) -> float | None:
    """Geometric (discrete Laplace) mechanism, P[Z = k] proportional to exp(-|k|/b) per coordinate, integer
    ``shift`` vector (None for a non-integer one: not a pair of integer inputs)."""
    s = np.abs(np.atleast_1d(np.asarray(shift, dtype=float)))
    if not np.all(s == np.round(s)):
        return None
    eps0 = float(s.sum() / b)
    if delta <= 0 or eps0 == 0:
        return eps0
    alpha = math.exp(-1 / b)
    return product_epsilon([_geometric_loss(int(k), alpha) for k in s if k > 0], 1 / b, delta)


def _geometric_loss(s: int, alpha: float) -> tuple[int, np.ndarray]:
    """The privacy loss of the discrete Laplace law P[k] = (1 - alpha)/(1 + alpha) alpha^|k| against the same
    law shifted by s >= 1, in units of 1/b (alpha = e^(-1/b)): loss s - 2k on x = k in 1..s-1, s on x <= 0,
    -s on x >= s; returned as (k0, masses) on the consecutive integers -s..s."""
    k = np.arange(s + 1)
    mass = (1 - alpha) / (1 + alpha) * alpha ** k.astype(float)
    mass[0], mass[s] = 1 / (1 + alpha), alpha ** s / (1 + alpha)
    out = np.zeros(2 * s + 1)
    out[2 * s - 2 * k] = mass  # loss s - 2k at index (s - 2k) + s
    return -s, out


def product_epsilon(coordinates: list[tuple[int, np.ndarray]], step: float, delta: float) -> float:
    """Exact epsilon at ``delta`` of a product mechanism from the privacy-loss laws of its independent
    coordinates, each on the lattice ``step``*Z: ``(k0, masses)`` with P_D[L_i = (k0 + j) step] = masses[j].
    The pair's loss is the sum of the coordinates' losses, its law their convolution (FFT beyond small
    sizes); outcomes grouped by their loss keep both hockey-stick divergences (the likelihood ratio is
    constant on a group), with P_D'(group) = P_D(group) e^-loss. Coordinates given with their losses
    rounded up (a continuous loss) make the result an upper bound, exact up to one step per coordinate. Symmetric
    noise is assumed: the pair (D', D) has the same loss law (then the backward curve, underestimated by the
    rounding, is never the larger one)."""
    from scipy import signal

    k0 = sum(c[0] for c in coordinates)
    mass = coordinates[0][1]
    for _, m in coordinates[1:]:
        mass = np.convolve(mass, m) if min(mass.size, m.size) < 512 else signal.fftconvolve(mass, m)
    mass = np.clip(mass, 0.0, None)  # FFT round-off around 1e-17
    loss = (k0 + np.arange(mass.size)) * step  # ascending
    other = np.zeros_like(mass)  # P_D'(group) = P_D(group) e^-loss
    np.exp(np.log(mass, where=mass > 0, out=np.full_like(mass, -np.inf)) - loss, out=other, where=mass > 0)
    # H(D||D')(eps) sums p - e^eps q over the groups of loss > eps, H(D'||D)(eps) q - e^eps p over loss < -eps:
    # tail and head sums, one binary search per evaluation
    p_tail, q_tail = np.cumsum(mass[::-1])[::-1], np.cumsum(other[::-1])[::-1]
    p_head, q_head = np.cumsum(mass), np.cumsum(other)

    def h(eps):
        i, j = np.searchsorted(loss, eps, "right"), np.searchsorted(loss, -eps, "left")
        forward = p_tail[i] - math.exp(eps) * q_tail[i] if i < loss.size else 0.0
        backward = q_head[j - 1] - math.exp(eps) * p_head[j - 1] if j > 0 else 0.0
        return max(forward, backward, 0.0)

    return smallest_epsilon(h, delta)


def gaussian_delta(eps, l2: float, sigma: float):
    """Balle-Wang: the smallest delta at ``eps`` for a shift of L2 norm ``l2``, noise ``sigma``."""
    if l2 == 0:
        return 0.0
    a = l2 / (2 * sigma)
    b = eps * sigma / l2
    # e^eps Phi(-a - b) computed in log space (ndtr, log_ndtr: the normal cdf without loading scipy.stats)
    from scipy import special

    return special.ndtr(a - b) - np.exp(eps + special.log_ndtr(-a - b))


def gaussian_epsilon(shift, sigma: float, delta: float) -> float:
    l2 = float(np.linalg.norm(np.atleast_1d(np.asarray(shift, dtype=float))))
    if l2 == 0:
        return 0.0
    if delta <= 0:
        return math.inf
    return smallest_epsilon(lambda e: gaussian_delta(e, l2, sigma), delta)


# --------------------------------------------------------------------------- quadrature


_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(64)


def _pieces(breaks, lo, hi):
    pts = np.unique(np.clip(np.concatenate([[lo, hi], np.asarray(breaks, dtype=float)]), lo, hi))
    return pts


def _quad_grid(breaks, lo, hi, sub: int = 4):
    """Gauss-Legendre nodes/weights on [lo, hi], split at ``breaks`` and into ``sub`` parts each."""
    pts = _pieces(breaks, lo, hi)
    xs, ws = [], []
    for a, b in zip(pts[:-1], pts[1:]):
        if b <= a:
            continue
        edges = np.linspace(a, b, sub + 1)
        for c, d in zip(edges[:-1], edges[1:]):
            half = (d - c) / 2
            xs.append(c + half * (_GL_NODES + 1))
            ws.append(half * _GL_WEIGHTS)
    return np.concatenate(xs), np.concatenate(ws)


def lap_sf(x, b):
    """P[Lap(b) > x] (= P[Lap(b) >= x])."""
    x = np.asarray(x, dtype=float)
    return np.where(x >= 0, 0.5 * np.exp(-np.abs(x) / b), 1 - 0.5 * np.exp(-np.abs(x) / b))


def _lap_pdf(x, b):
    return np.exp(-np.abs(x) / b) / (2 * b)


# =========================================================================== sparse vector family


def svt_distribution(q, *, threshold: float, rho_scale: float, nu_scale: float | None,
                     resample_after: int | None = None, resample_scale: float | None = None,
                     count_symbol: int = 1, limit: int | None = None,
                     max_transcripts: int = 200_000) -> dict | None:
    """Exact transcript distribution of a sparse-vector variant with a shared noisy threshold.

    Query i is answered top (1) iff ``q_i + nu_i >= threshold + rho`` (nu_i ~ Lap(nu_scale), or
    0 when ``nu_scale`` is None), else bottom (0). ``rho`` ~ Lap(rho_scale) at the start and,
    when ``resample_after`` is 1 or 0, is re-drawn ~ Lap(resample_scale) after each such answer.
    After ``limit`` answers equal to ``count_symbol`` the run halts; later entries are -1.
    Returns {transcript tuple: probability}, or None if there are more than
    ``max_transcripts`` transcripts.
    """
    q = np.asarray(q, dtype=float)
    m = q.size
    scales = {rho_scale} | ({resample_scale} if resample_after is not None else set())
    span = 60 * max(scales)
    breaks = [0.0] + list(q - threshold)
    u, wts = _quad_grid(breaks, min(breaks) - span, max(breaks) + span)
    dens = {s: _lap_pdf(u, s) * wts for s in scales}
    if nu_scale is None:
        top = (q[:, None] >= threshold + u[None, :]).astype(float)
    else:
        top = lap_sf(threshold + u[None, :] - q[:, None], nu_scale)
    probs = {1: top, 0: 1.0 - top}
    if limit is None and resample_after is None and m > 1:
        if 2**m > max_transcripts:
            return None
        # one threshold draw, no cutoff: P[a, b] = sum_u w(u) A[a](u) B[b](u) over the transcripts a of
        # the first half of the queries and b of the second, A and B their products of answer
        # probabilities: one matrix product instead of 2^m integrals
        h = m // 2
        first, second = _answer_products(probs, 0, h), _answer_products(probs, h, m)
        joint = (first * dens[rho_scale]) @ second.T
        halves = [list(itertools.product((1, 0), repeat=k)) for k in (h, m - h)]  # rows' order: tops first
        return {a + b: p for a, row in zip(halves[0], joint.tolist()) for b, p in zip(halves[1], row)}

    @cache
    def segment(start: int, outcomes: tuple, scale: float) -> float:
        integrand = dens[scale].copy()
        for k, o in enumerate(outcomes):
            integrand *= probs[o][start + k]
        return float(integrand.sum())

    out: dict[tuple, float] = {}

    def walk(pos: int, transcript: tuple, count: int):
        if len(out) > max_transcripts:
            raise OverflowError
        halted = limit is not None and count >= limit
        if pos == m or halted:
            out[transcript + (-1,) * (m - pos)] = 0.0
            return
        for o in (1, 0):
            walk(pos + 1, transcript + (o,), count + (o == count_symbol))

    try:
        walk(0, (), 0)
    except OverflowError:
        return None
    for t in out:
        answered = [o for o in t if o != -1]
        prob, start, scale, seg = 1.0, 0, rho_scale, []
        for i, o in enumerate(answered):
            seg.append(o)
            if resample_after is not None and o == resample_after:
                prob *= segment(start, tuple(seg), scale)
                start, scale, seg = i + 1, resample_scale, []
        if seg:
            prob *= segment(start, tuple(seg), scale)
        out[t] = prob
    return out


def svt_segment(q, outcomes, *, threshold: float, rho_scale: float, nu_scale: float) -> float:
    """P[the answers to ``q`` against one noisy threshold ``threshold`` + Lap(rho_scale) are ``outcomes``]
    (1 top: q_i + Lap(nu_scale) >= the threshold, 0 bottom): one integral over the threshold noise on
    :func:`svt_distribution`'s grid, for any number of comparisons (that function enumerates all 2^m
    transcripts and gives up beyond ``max_transcripts``)."""
    q = np.asarray(q, dtype=float)
    breaks = [0.0] + list(q - threshold)
    u, wts = _quad_grid(breaks, min(breaks) - 60 * rho_scale, max(breaks) + 60 * rho_scale)
    integrand = _lap_pdf(u, rho_scale) * wts
    top = lap_sf(threshold + u[None, :] - q[:, None], nu_scale)
    for k, o in enumerate(outcomes):
        integrand = integrand * (top[k] if o == 1 else 1.0 - top[k])
    return float(integrand.sum())


def _answer_products(probs: dict, lo: int, hi: int) -> np.ndarray:
    """Rows ∏_{lo <= i < hi} probs[o_i][i] on the grid, one per answer tuple (o_lo, ..., o_{hi-1}),
    in the order of ``itertools.product((1, 0), repeat=hi - lo)``."""
    rows = np.ones((1, probs[1].shape[1]))
    for i in range(lo, hi):
        rows = np.stack([rows * probs[1][i], rows * probs[0][i]], axis=1).reshape(-1, rows.shape[1])
    return rows


def dist_epsilon(d1: dict, d2: dict, delta: float) -> float:
    keys = sorted(set(d1) | set(d2))
    p = np.array([d1.get(k, 0.0) for k in keys])
    q = np.array([d2.get(k, 0.0) for k in keys])
    return discrete_epsilon(np.maximum(p, 0), np.maximum(q, 0), delta)


# =========================================================================== noisy max


def noisy_max_distribution(q, scale: float, noise: str = "laplace") -> np.ndarray:
    """P[argmax_i (q_i + Z_i) = i] for i.i.d. Laplace(scale) or Gumbel(scale) noise."""
    from scipy import special

    q = np.asarray(q, dtype=float)
    if noise == "gumbel":
        return special.softmax(q / scale)
    span = 60 * scale
    x, w = _quad_grid(q, q.min() - span, q.max() + span)
    cdf = 1 - lap_sf(x[None, :] - q[:, None], scale)          # F(x - q_j)
    pdf = _lap_pdf(x[None, :] - q[:, None], scale)
    logcdf = np.log(np.maximum(cdf, 1e-300))
    total = logcdf.sum(0)
    p = np.array([(pdf[i] * np.exp(total - logcdf[i]) * w).sum() for i in range(q.size)])
    return p / p.sum()


def noisy_max_value_epsilon(q1, q2, scale: float) -> float:
    """delta = 0 epsilon of releasing max_i (q_i + Lap(scale)): sup over x of the log density
    ratio of the two maxima (evaluated in log space on a fine grid; the sup is attained at the
    far left, where the log ratio is constant, or at a finite point)."""
    q1, q2 = np.asarray(q1, float), np.asarray(q2, float)
    lo = min(q1.min(), q2.min()) - 30 * scale
    hi = max(q1.max(), q2.max()) + 30 * scale
    x = np.linspace(lo, hi, 40_001)

    def logdens(q):
        z = x[None, :] - q[:, None]
        logpdf = -np.abs(z) / scale - math.log(2 * scale)
        logcdf = np.where(z < 0, z / scale - math.log(2), np.log1p(-0.5 * np.exp(-np.abs(z) / scale)))
        terms = logpdf + (logcdf.sum(0) - logcdf)  # log of density_i(x) * prod_{j != i} F_j(x), all finite
        top = terms.max(0)
        return top + np.log(np.exp(terms - top).sum(0))  # log-sum-exp over i (scipy's costs 10x on this 5 x 40,001 grid)

    return float(np.max(np.abs(logdens(q1) - logdens(q2))))


def as_vector(x) -> np.ndarray:
    """``x`` as a flat float vector."""
    return np.atleast_1d(np.asarray(x, dtype=float)).ravel()
