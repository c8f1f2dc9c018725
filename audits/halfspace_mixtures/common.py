"""Shared pieces of seed 001's checks: decoding outputs, exact mistake counts and laws, the
instance families (note 001 section 4), all computed with the reference family (offline,
outside the privacy boundary)."""

from __future__ import annotations

import numpy as np

from dptestbed.impl.halfspace_mixtures.family import family_size, halfspace_family
from dptestbed.impl.halfspace_mixtures.learner import (
    Instance,
    exact_law,
    mistake_blocks,
    prepare,
)

IMPL = "dptestbed.impl.halfspace_mixtures"


def data_rng(ctx) -> np.random.Generator:
    """The instances' own stream, split from ctx.rng before any sampling, so the data do not
    depend on how many draws the implementation under test consumes."""
    return np.random.default_rng(ctx.rng.integers(2**63))


def public_part(data: dict) -> np.ndarray:
    return np.asarray(data["X"], float)[np.asarray(data["p"]) == 0]


def valid_outputs(J: np.ndarray, X_pub: np.ndarray) -> np.ndarray:
    """Which outputs encode a member of G: indices in [0, |C~_pub|), strictly increasing, -1
    padding only at the end (all -1 = constant 1)."""
    J = np.atleast_2d(np.asarray(J, np.int64))
    M = family_size(*np.asarray(X_pub).shape)
    used = J >= 0
    ok = np.all((J >= -1) & (J < M), axis=1)
    ok &= np.all(used[:, :-1] | ~used[:, 1:], axis=1)                  # no index after a -1
    ok &= np.all((np.diff(J, axis=1) > 0) | ~used[:, 1:], axis=1)       # sorted, distinct
    return ok


def keys(J: np.ndarray, M: int) -> np.ndarray:
    """One integer per index set (rows of J, -1 padded): sum_i (J_i + 1) (M + 1)^i."""
    J = np.atleast_2d(np.asarray(J, np.int64))
    base = (M + 1) ** np.arange(J.shape[1], dtype=np.int64)
    return (J + 1) @ base


class Law:
    """The reference's G on one dataset: every J in canonical order, its m(J) and exact
    log-probability at ``epsilon``; ``lookup`` maps outputs to positions (-1: not in G)."""

    def __init__(self, data: dict, epsilon: float, family=halfspace_family):
        self.inst: Instance = prepare(data, family=family)
        self.J, self.logp = exact_law(data, epsilon, self.inst)
        self.m = np.concatenate([m for _, m in mistake_blocks(self.inst)])
        self.n = int(np.asarray(data["y"]).size)
        self._keys = keys(self.J, self.inst.M)
        self._order = np.argsort(self._keys)

    def lookup(self, out: np.ndarray) -> np.ndarray:
        k = keys(out, self.inst.M)
        pos = np.searchsorted(self._keys[self._order], k)
        pos = np.minimum(pos, self._keys.size - 1)
        found = self._keys[self._order][pos] == k
        valid = np.all((np.asarray(out) >= -1) & (np.asarray(out) < self.inst.M), axis=1)
        return np.where(found & valid, self._order[pos], -1)

    def mistakes(self, out: np.ndarray) -> np.ndarray:
        """m(g^) of outputs (n + 1 for an output outside G: counted as wrong everywhere)."""
        idx = self.lookup(out)
        return np.where(idx >= 0, self.m[np.maximum(idx, 0)], self.n + 1)

    def at_most(self, level: float) -> float:
        """P[m(g^) <= level], exact."""
        return float(np.exp(self.logp[self.m <= level]).sum())


def min_mistakes(data: dict, **choices) -> int:
    """min over G of m(g) on data (``choices``: the family or membership to use, see prepare)."""
    return int(min(m.min() for _, m in mistake_blocks(prepare(data, **choices))))


def halfspace_mistakes(w: np.ndarray, w0: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Mistakes of the closed halfspaces {w_k.x >= w0_k} (label 1 inside) on (X, y)."""
    return np.sum(((X @ np.atleast_2d(w).T) >= np.asarray(w0)[None, :]).astype(int) != y[:, None], axis=0)


def random_halfspaces(X: np.ndarray, count: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Halfspaces with random normals through random data points (both orientations)."""
    w = rng.standard_normal((count, X.shape[1]))
    w0 = np.einsum("kd,kd->k", w, X[rng.integers(0, X.shape[0], count)])
    return np.concatenate([w, -w]), np.concatenate([w0, -w0])
