"""Stable histogram Hist (Lemma 15; algorithm and constants reconstructed in note 003 A8).

Input: a list of n integer item ids (>= 0). Each item with a non-zero count c_x gets
c~_x = c_x + Lap(2/epsilon) (replace-one moves two counts by 1); it is released iff
c~_x >= tau = 1 + (2/epsilon) ln(1/delta), with the noisy estimate a_x = min(1, c~_x/n).
Only noisy values are released; the released set is in ascending id order (P-M4).

Output encoding (fixed width, so that runs stack): float64 array (n, 2), row j = (id, a_id) of
the j-th released item in ascending id order, then rows (-1, 0) as padding.
"""

from __future__ import annotations

import math

import numpy as np

from dptestbed.impl.contract import batched
from dptestbed.impl.noise import laplace


def threshold(epsilon: float, delta: float) -> float:
    """tau = 1 + (2/epsilon) ln(1/delta) (note 003 A8 step 2)."""
    return 1 + (2 / epsilon) * math.log(1 / delta)


def release(counts: np.ndarray, n: int, epsilon: float, delta: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """Noisy counts of ``counts`` (..., u) (zero counts get nothing and are never released):
    (released mask, estimates a = min(1, c~/n)), same shape."""
    noisy = counts + laplace(rng, 2 / epsilon, counts.shape)        # step 1
    released = (counts > 0) & (noisy >= threshold(epsilon, delta))  # steps 2-3
    return released, np.minimum(1.0, noisy / n)


def items(data, n) -> np.ndarray:
    """The list as an int64 vector, validated against the spec's n."""
    S = np.asarray(data).reshape(-1)
    if S.size != n:
        raise ValueError(f"data has {S.size} items but n = {n}")
    if S.size and (S.dtype.kind not in "biu" and not np.all(S == np.round(S))):
        raise ValueError("items must be integer ids")
    S = S.astype(np.int64)
    if S.size and S.min() < 0:
        raise ValueError("item ids must be >= 0 (-1 is the output padding)")
    return S


def encode(S: np.ndarray, ids: np.ndarray, released: np.ndarray, a: np.ndarray, n: int) -> np.ndarray:
    """(runs, n, 2) rows (id, a) of the released items of each run, ascending ids, padded
    (``S``, the input list, is not used: the order is canonical)."""
    runs = released.shape[0]
    order = np.argsort(~released, axis=1, kind="stable")            # released first, ids stay sorted
    rel = np.take_along_axis(released, order, axis=1)
    out = np.zeros((runs, n, 2))
    out[:, :, 0] = -1
    width = min(n, ids.size)
    out[:, :width, 0] = np.where(rel, ids[order], -1)[:, :width]
    out[:, :width, 1] = np.where(rel, np.take_along_axis(a, order, axis=1), 0.0)[:, :width]
    return out


def make_histogram(release_fn=release, encode_fn=encode, doc: str = ""):
    """Hist from its two steps: ``release_fn`` (noisy counts and threshold) and ``encode_fn``."""

    def batch(data, size, *, rng, epsilon, delta, n):
        S = items(data, n)
        ids, counts = np.unique(S, return_counts=True)               # canonical (ascending) order
        released, a = release_fn(np.broadcast_to(counts, (size, ids.size)).astype(float), n, epsilon, delta, rng)
        return encode_fn(S, ids, released, a, n)

    @batched(batch)
    def histogram(data, *, rng, epsilon, delta, n) -> np.ndarray:
        return batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, n=n)[0]

    histogram.__doc__ = doc
    return histogram


stable_histogram = make_histogram(
    doc="Hist(S) at privacy (epsilon, delta) on the list ``data`` of n item ids; see the module doc.")
