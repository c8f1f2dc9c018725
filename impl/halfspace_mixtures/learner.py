"""Algorithm 2 of seed 001 (A_LearnHalf): PPM learning of halfspaces.

Contract: ``ppm_halfspace_learner(data, *, rng, epsilon)``; ``data`` = dict with 'X' (n, d)
floats, 'y' (n,) labels in {0, 1}, 'p' (n,) status bits (1 = private, 0 = public). Output: int64
array (d, d + 1), one row per halfspace of g^ (at most d): the input positions (row indices of
'X') of the public points of S^ that support it, sorted, padded with -1, then its side: +1 for
the halfspace {w.x >= w_0} of the spec's Step-5 rule (``family.supported_normals``), -1 for the
opposite one; rows in the order of C~_pub (|S^|, then the positions lexicographically, +1 before
-1), unused rows (-1, ..., -1, 0) at the end; all rows unused is the constant-1 hypothesis (always
the output when n_pub = 0). g^(x) = 0 iff some row is used, x lies in every listed (closed)
halfspace and in Aff; else 1. Nothing else is released (no scores, no m(g^)).
Pure epsilon-DP with respect to the private rows (Lemma 4.1).

Internally, G (Step 8) is the multiset of index sets J of 1..d distinct rows of
``halfspace_family(X_pub)`` plus J = () (constant 1), in canonical order (|J| = 0, 1, ..., d,
each in combinations order); :func:`to_output` and :func:`from_output` translate J to the
encoding and back. G is never materialised when large: mistake counts m(J) over all n rows
(Step 9's score, -err^ = -m/n, sensitivity 1/n) are produced in blocks by 0/1 matrix products
(pairs: B_pos B_pos^T and B_neg B_neg^T). The exponential mechanism P[g^ = J] =
exp(-epsilon m(J)/2)/Z is sampled exactly in two passes: the histogram c_m of m over G, then m*
with probability c_m exp(-epsilon m/2)/Z (log space, log-sum-exp), then J uniform among the c_m*
sets with m(J) = m* (second pass). No weight is ever exponentiated in linear space, so nothing
underflows at any n or |G|.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from math import comb

import numpy as np
from scipy.special import logsumexp

from dptestbed.impl.contract import batched

from .family import Aff, affine_hull, halfspace_family, inside, subset_rows, subsets

BLOCK_ELEMENTS = 1 << 22      # mistake counts per block (float32 products: exact below 2^24 rows)
MAX_EXACT_LAW = 2_000_000     # |G| up to which the white-box law is materialised


@dataclass
class Instance:
    """One PPM dataset after Steps 1-8: the family, Aff and the membership matrices."""

    d: int
    W: np.ndarray            # C~_pub rows (M, d + 1)
    aff: Aff | None
    pos: np.ndarray          # float32 (M, u1): distinct membership columns [x_i in h_a and Aff] of rows with y_i = 1
    pos_w: np.ndarray        # float32 (u1,): how many rows share each column
    neg: np.ndarray          # float32 (M, u0), neg_w (u0,): the same for the rows with y_i = 0
    neg_w: np.ndarray
    n0: int                  # number of y = 0 rows (the mistakes of constant 1)
    n: int                   # number of rows scored (all n rows of S')
    public: np.ndarray       # input positions of the points C~_pub is built from (S_pub, in order)

    @property
    def M(self) -> int:
        return self.W.shape[0]

    @property
    def G_size(self) -> int:
        return 1 + sum(comb(self.M, j) for j in range(1, self.d + 1))


def ppm_data(data) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X, y, p) validated: X finite (n, d), y and p in {0, 1}, equal lengths."""
    if not isinstance(data, dict) or not {"X", "y", "p"} <= data.keys():
        raise ValueError("PPM data must be a dict with keys 'X' (n, d), 'y' (n,) and 'p' (n,)")
    X = np.asarray(data["X"], dtype=float)
    y, p = np.asarray(data["y"]), np.asarray(data["p"])
    if X.ndim != 2 or X.shape[1] < 1:
        raise ValueError(f"'X' must be a 2-D array (n, d) with d >= 1, got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError("'X' must be finite")
    for name, v in (("y", y), ("p", p)):
        if v.shape != (X.shape[0],):
            raise ValueError(f"'{name}' must have shape ({X.shape[0]},) like X's rows, got {v.shape}")
        if not np.all((v == 0) | (v == 1)):
            raise ValueError(f"'{name}' must contain only 0 and 1")
    return X, y.astype(np.int64), p.astype(np.int64)


def _distinct_columns(B: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Columns of the bool matrix B (M, k) without repeats, as float32, and their counts: rows of
    S' with the same membership pattern and label contribute identically to every m(J)."""
    M, k = B.shape
    if M == 0 or k == 0:
        return np.zeros((M, min(k, 1)), np.float32), np.full(min(k, 1), float(k), np.float32)
    packed = np.ascontiguousarray(np.packbits(B, axis=0).T)
    keys = packed.view(np.dtype((np.void, packed.shape[1]))).ravel()
    _, first, counts = np.unique(keys, return_index=True, return_counts=True)
    return B[:, first].astype(np.float32), counts.astype(np.float32)


def prepare(data, family=halfspace_family, public=None, membership=inside, scored=None) -> Instance:
    """Steps 1-8: partition by the status bit, C~_pub and Aff from the public points, membership
    of all n rows (``public``, ``membership``, ``scored``: other choices, for the mutants only)."""
    X, y, p = ppm_data(data)
    positions = np.flatnonzero(p == 0 if public is None else public)
    X_pub = X[positions]
    W = family(X_pub)
    aff = affine_hull(X_pub) if X_pub.shape[0] else None
    rows = np.ones(y.size, bool) if scored is None else scored
    B = membership(W, aff, X[rows])
    pos, pos_w = _distinct_columns(B[:, y[rows] == 1])
    neg, neg_w = _distinct_columns(B[:, y[rows] == 0])
    return Instance(d=X.shape[1], W=W, aff=aff, pos=pos, pos_w=pos_w, neg=neg, neg_w=neg_w,
                    n0=int(np.sum(y[rows] == 0)), n=int(rows.sum()), public=positions)


def mistake_blocks(inst: Instance) -> Iterator[tuple[tuple, np.ndarray]]:
    """m(J) over G in canonical order, in blocks: yields (prefix, m) where ``prefix`` is a tuple
    of fixed leading indices and m (int64, 1-D) runs over the completions (see :func:`block_sets`)."""
    n0, M = inst.n0, inst.M
    yield ("const",), np.array([n0], np.int64)                      # J = (): constant 1
    if M == 0:
        return
    pos_in, neg_in = inst.pos @ inst.pos_w, inst.neg @ inst.neg_w
    yield ("single",), np.rint(pos_in + n0 - neg_in).astype(np.int64)
    for j in range(2, inst.d + 1):
        for prefix in combinations(range(M), j - 2):
            start = prefix[-1] + 1 if prefix else 0
            P, N = inst.pos[start:], inst.neg[start:]
            if prefix:
                P = P * np.prod(inst.pos[list(prefix)], axis=0)
                N = N * np.prod(inst.neg[list(prefix)], axis=0)
            rows = max(1, BLOCK_ELEMENTS // max(1, M))
            for a0 in range(0, P.shape[0] - 1, rows):
                a1 = min(a0 + rows, P.shape[0] - 1)
                pp = (P[a0:a1] * inst.pos_w) @ P.T
                nn = (N[a0:a1] * inst.neg_w) @ N.T
                m = np.rint(pp + n0 - nn).astype(np.int64)
                upper = np.arange(P.shape[0])[None, :] > np.arange(a0, a1)[:, None]
                yield ("pairs", prefix, start + a0, start + a1, start), m[upper]


def block_sets(key: tuple, positions: np.ndarray, M: int) -> list[tuple]:
    """Index sets J at ``positions`` within the block ``key`` of :func:`mistake_blocks`."""
    if key[0] == "const":
        return [() for _ in positions]
    if key[0] == "single":
        return [(int(a),) for a in positions]
    _, prefix, a0, a1, start = key
    width = M - start
    counts = width - 1 - np.arange(a0 - start, a1 - start)          # pairs (a, b > a) per row a
    ends = np.cumsum(counts)
    rows = np.searchsorted(ends, positions, side="right")
    before = ends[rows] - counts[rows]
    a = a0 + rows
    b = a + 1 + (positions - before)
    return [prefix + (int(x), int(z)) for x, z in zip(a, b)]


def pad_sets(Js: list[tuple], d: int) -> np.ndarray:
    """Index sets -> int64 (len, d), sorted, padded with -1."""
    out = np.full((len(Js), d), -1, np.int64)
    for i, J in enumerate(Js):
        out[i, :len(J)] = J
    return out


def histogram(inst: Instance) -> np.ndarray:
    """Pass 1: c_m = #{J in G : m(J) = m}, m = 0..n."""
    c = np.zeros(inst.n + 1, np.int64)
    for _, m in mistake_blocks(inst):
        c += np.bincount(m, minlength=inst.n + 1)
    return c


def level_log_law(c: np.ndarray, epsilon: float) -> np.ndarray:
    """log P[m(g^) = m] = log c_m - epsilon m/2 - log Z (-inf where c_m = 0)."""
    with np.errstate(divide="ignore"):
        logw = np.log(c.astype(float)) - 0.5 * float(epsilon) * np.arange(c.size)
    return logw - logsumexp(logw)


def level_law(hist: np.ndarray, epsilon: float) -> np.ndarray:
    """P[m(g^) = m] (float64, from the log-space law)."""
    return np.exp(level_log_law(hist, epsilon))


def select(inst: Instance, count: int, rng: np.random.Generator, epsilon: float, law=level_law,
           uniform_within: bool = True) -> np.ndarray:
    """Step 9 for ``count`` independent draws: m* with probability c_m exp(-epsilon m/2)/Z
    (pass 1), then J uniform among the c_m* sets of that level (pass 2); int64 (count, d).
    (``law``, ``uniform_within``: other choices, for the mutants only.)"""
    hist = histogram(inst)
    p = law(hist, epsilon)
    levels = rng.choice(hist.size, size=count, p=p / p.sum())
    ranks = np.floor(rng.random(count) * hist[levels]).astype(np.int64) if uniform_within else np.zeros(count, np.int64)
    out = np.full((count, inst.d), -1, np.int64)
    seen = np.zeros(hist.size, np.int64)
    pending = np.arange(count)
    for key, m in mistake_blocks(inst):
        if pending.size == 0:
            break
        here = np.bincount(m, minlength=hist.size)
        lv = levels[pending]
        local = ranks[pending] - seen[lv]
        hit = local < here[lv]
        for level in np.unique(lv[hit]):
            idx = pending[hit][lv[hit] == level]
            positions = np.flatnonzero(m == level)[ranks[idx] - seen[level]]
            out[idx] = pad_sets(block_sets(key, positions, inst.M), inst.d)
        pending = pending[~hit]
        seen += here
    return out


def _check_epsilon(epsilon) -> float:
    eps = float(epsilon)
    if not eps > 0 or not np.isfinite(eps):
        raise ValueError(f"epsilon must be a finite number > 0, got {epsilon!r}")
    return eps


def to_output(J: np.ndarray, public: np.ndarray, d: int) -> np.ndarray:
    """Index sets J (k, d) (-1 padded) over C~_pub built from the points at input positions
    ``public`` -> the output encoding, int64 (k, d, d + 1) (see the module docstring)."""
    J = np.atleast_2d(np.asarray(J, np.int64))
    out = np.full(J.shape + (d + 1,), -1, np.int64)
    out[..., d] = 0
    used = J >= 0
    if used.any():
        ranks = subsets(public.size, d)[J[used] // 2]
        out[used, :d] = np.where(ranks >= 0, public[np.maximum(ranks, 0)], -1)
        out[used, d] = 1 - 2 * (J[used] % 2)
    return out


def from_output(out: np.ndarray, p: np.ndarray, d: int) -> tuple[np.ndarray, np.ndarray]:
    """Outputs in the encoding (k, d, d + 1) on data with status bits ``p`` -> (J (k, d), the index
    sets over halfspace_family(X[p == 0]), -1 padded; valid (k,), whether the output encodes a
    member of G: listed positions public, sorted and distinct, at most d, sides +-1, rows in
    canonical order without repeats, unused rows (-1, ..., -1, 0) at the end). Invalid: J = -1."""
    out = np.asarray(out, np.int64).reshape(-1, d, d + 1)
    p = np.asarray(p)
    public = np.flatnonzero(p == 0)
    pos, side = out[..., :d], out[..., d]
    used, listed = side != 0, pos >= 0
    rank = np.full(p.size, -1, np.int64)
    rank[public] = np.arange(public.size)
    r = np.where(listed & (pos < p.size), rank[np.clip(pos, 0, p.size - 1)], -1)
    valid = np.all(np.abs(side) <= 1, axis=1) & np.all(pos >= -1, axis=(1, 2))
    valid &= np.all(~listed | (r >= 0), axis=(1, 2))                         # public points only
    valid &= np.all(used[..., None] | ~listed, axis=(1, 2))                   # unused rows list nothing
    valid &= np.all(listed[..., :-1] | ~listed[..., 1:], axis=(1, 2))         # -1 padding at the end
    valid &= np.all((np.diff(pos, axis=2) > 0) | ~listed[..., 1:], axis=(1, 2))
    s = subset_rows(r, public.size) if public.size else np.full(side.shape, -1)   # n_pub = 0: no halfspace
    valid &= np.all(~used | (s >= 0), axis=1)
    J = np.where(used & (s >= 0), 2 * s + (side == -1), -1)
    valid &= np.all(used[:, :-1] | ~used[:, 1:], axis=1)                      # used rows first
    valid &= np.all((np.diff(J, axis=1) > 0) | ~used[:, 1:], axis=1)          # canonical, distinct
    return np.where(valid[:, None], J, -1), valid


def sample_sets(inst: Instance, count: int, rng: np.random.Generator, epsilon: float, **step9) -> np.ndarray:
    """``count`` draws of Step 9 as index sets (count, d) (``step9``: select's mutant hooks);
    constant 1 when C~_pub is empty (n_pub = 0: G = {constant 1}, no fallback)."""
    if inst.M == 0:
        return np.full((int(count), inst.d), -1, np.int64)
    return select(inst, int(count), rng, epsilon, **step9)


def _batch(data, n, *, rng, epsilon):
    inst = prepare(data)
    return to_output(sample_sets(inst, n, rng, _check_epsilon(epsilon)), inst.public, inst.d)


@batched(_batch)
def ppm_halfspace_learner(data, *, rng, epsilon):
    """A_LearnHalf: one draw of g^ (int64 (d, d + 1), see the module docstring)."""
    return _batch(data, 1, rng=rng, epsilon=epsilon)[0]


def exact_law(data, epsilon: float, inst: Instance | None = None) -> tuple[np.ndarray, np.ndarray]:
    """White-box law of g^: (J (|G|, d) in canonical order, log P[g^ = J]); small G only (the
    output of J is ``to_output(J, inst.public, d)``)."""
    inst = inst or prepare(data)
    if inst.G_size > MAX_EXACT_LAW:
        raise ValueError(f"|G| = {inst.G_size} is too large for the exact law (at most {MAX_EXACT_LAW})")
    keys, ms = zip(*mistake_blocks(inst))
    m = np.concatenate(ms)
    logw = -0.5 * _check_epsilon(epsilon) * m
    Js = [J for key, mm in zip(keys, ms) for J in block_sets(key, np.arange(mm.size), inst.M)]
    return pad_sets(Js, inst.d), logw - logsumexp(logw)


def all_mistakes(data, inst: Instance | None = None) -> np.ndarray:
    """m(J) for every J of G in canonical order (small G only; for the checks)."""
    inst = inst or prepare(data)
    if inst.G_size > MAX_EXACT_LAW:
        raise ValueError(f"|G| = {inst.G_size} is too large to list (at most {MAX_EXACT_LAW})")
    return np.concatenate([m for _, m in mistake_blocks(inst)])


def predict(J: np.ndarray, data_public: np.ndarray, X: np.ndarray) -> np.ndarray:
    """g_J(x) for outputs J (k, d) on points X (n, d): int8 (k, n); data_public = X_pub."""
    J = np.atleast_2d(np.asarray(J, np.int64))
    W = halfspace_family(data_public)
    aff = affine_hull(data_public) if np.asarray(data_public).shape[0] else None
    B = inside(W, aff, X)
    zero = np.ones((J.shape[0], np.asarray(X).shape[0]), bool)
    for col in range(J.shape[1]):
        a = J[:, col]
        used = a >= 0
        if (a >= W.shape[0]).any():
            raise ValueError(f"output index {int(a.max())} out of range for |C~_pub| = {W.shape[0]}")
        zero[used] &= B[a[used]]
    zero[J[:, 0] < 0] = False                             # J = (): constant 1
    return (~zero).astype(np.int8)
