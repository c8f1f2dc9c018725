"""Shared pieces of seed 001's checks: decoding outputs, exact mistake counts and laws, the
instance families (note 001 section 4), all computed with the reference family and the spec's
Step-5 rule (offline, outside the privacy boundary)."""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from dptestbed.impl.halfspace_mixtures.learner import (
    Instance,
    exact_law,
    from_output,
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


def decode(data: dict, out: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Outputs of the implementation under test on ``data`` -> (index sets J over the reference
    family, -1 padded; valid: the output encodes a member of G), see ``learner.from_output``."""
    d = np.asarray(data["X"]).shape[1]
    return from_output(out, np.asarray(data["p"]), d)


def keys(J: np.ndarray, M: int) -> np.ndarray:
    """One integer per index set (rows of J, -1 padded): sum_i (J_i + 1) (M + 1)^i."""
    J = np.atleast_2d(np.asarray(J, np.int64))
    base = (M + 1) ** np.arange(J.shape[1], dtype=np.int64)
    return (J + 1) @ base


class Law:
    """The reference's G on one dataset: every J in canonical order and its m(J); ``logp`` is the
    exact law at an epsilon; ``lookup`` maps outputs (the encoding) to positions (-1: not in G)."""

    def __init__(self, data: dict):
        self.inst: Instance = prepare(data)
        self.J, _ = exact_law(data, 1.0, self.inst)
        self.m = np.concatenate([m for _, m in mistake_blocks(self.inst)])
        self.n = int(np.asarray(data["y"]).size)
        self.p = np.asarray(data["p"])
        self._keys = keys(self.J, self.inst.M)
        self._order = np.argsort(self._keys)

    def logp(self, epsilon: float) -> np.ndarray:
        """log P[g^ = J] at ``epsilon`` for every J, exact."""
        logw = -0.5 * float(epsilon) * self.m
        return logw - logsumexp(logw)

    def lookup(self, out: np.ndarray) -> np.ndarray:
        """Positions in G of outputs in the encoding (-1: not a member of G)."""
        J, valid = from_output(out, self.p, self.inst.d)                 # a valid J is a member of G
        pos = np.searchsorted(self._keys[self._order], keys(J, self.inst.M))
        return np.where(valid, self._order[np.minimum(pos, self._keys.size - 1)], -1)

    def mistakes(self, positions: np.ndarray) -> np.ndarray:
        """m(g^) of outputs at ``positions`` (``lookup``; n + 1 for an output outside G: counted as
        wrong everywhere)."""
        return np.where(positions >= 0, self.m[np.maximum(positions, 0)], self.n + 1)

    def at_most(self, level: float, epsilon: float) -> float:
        """P[m(g^) <= level] at ``epsilon``, exact."""
        return float(np.exp(self.logp(epsilon)[self.m <= level]).sum())


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


def _isometry(X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """X turned by a uniform angle and moved by a standard normal offset (d = 2)."""
    phi = rng.uniform(0, 2 * np.pi)
    R = np.array([[np.cos(phi), -np.sin(phi)], [np.sin(phi), np.cos(phi)]])
    return X @ R.T + rng.standard_normal(2)


def wedge(rng: np.random.Generator, apex: int, copies: int) -> dict:
    """Lemma 4.5's core (Helly: g* is an intersection of d = 2 halfspaces), realizable: public
    points at the apex (0, 0) (``apex`` copies) and at (-1, 1), (-1, -1); private clusters of
    ``copies`` rows at (0.01, 3) and (0.01, -3) (x_1 = 0.005 separates); the picture turned and
    moved at random, the rows shuffled. The wedge {x_1 + x_2 <= 0} cap {x_1 - x_2 <= 0} of the two
    public edges at the apex makes no mistake; every single supported halfspace (or their
    intersection with Aff = R^2) leaves out the apex or takes in a private cluster, and constant 1
    errs on every public row: min over j = 1 of m = min(apex, copies, n_pub) (unless the turn puts
    the Step-5 direction V_0 within atan(0.01/3) of the wedge's axis, probability 0.2%: then the
    singleton halfspace at the apex separates)."""
    public = np.r_[np.zeros((apex, 2)), [[-1.0, 1.0], [-1.0, -1.0]]]
    private = np.repeat([[0.01, 3.0], [0.01, -3.0]], copies, axis=0)
    y = np.r_[np.zeros(len(public), np.int64), np.ones(len(private), np.int64)]
    order = rng.permutation(y.size)
    return {"X": _isometry(np.r_[public, private], rng)[order], "y": y[order], "p": y[order].copy()}
