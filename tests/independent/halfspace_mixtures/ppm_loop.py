"""A_LearnHalf (seed 001 Algorithm 2), first version: a plain loop over itertools.combinations (no matrix
trick), so each call costs O(|G| n) Python work (|G| ~ 2e4 at d = 2).

VALID VARIANT (same law as ppm_correct); kept to see how the checker treats a correct but slow
implementation.

 public rows = status bit 0; C~_pub and Aff from the public points
(the spec's output encoding indexes the rows of dptestbed.impl.halfspace_mixtures.family.halfspace_family,
so that public function is called, as the contract says; its code was not read); G = index sets J of
1..d distinct rows plus the constant-1 hypothesis; exponential mechanism on all n examples with
weights exp(-eps * m(g)/2), m(g) = mistakes of g. Output: J sorted, padded with -1 to length d."""
import itertools
import os
import sys

import numpy as np

from dptestbed.impl.halfspace_mixtures.family import affine_hull, halfspace_family

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ppm_correct import encode, encoder


def _candidates(X, y, p, tol_scale_rows=None):
    X = np.asarray(X, dtype=np.float64)
    n, d = X.shape
    y = np.asarray(y).reshape(-1).astype(np.int64)
    pub = np.asarray(p).reshape(-1) == 0
    Xp = X[pub]
    cands = [()]
    if Xp.shape[0] == 0:
        return cands, np.array([int(np.sum(y != 1))]), d
    W = np.asarray(halfspace_family(Xp), dtype=np.float64).reshape(-1, d + 1)
    aff = affine_hull(Xp)
    scale_rows = Xp if tol_scale_rows is None else tol_scale_rows
    tol = 1e-9 * max(1.0, float(np.max(np.abs(scale_rows))) if scale_rows.size else 1.0)
    inside_h = (X @ W[:, :d].T) >= (W[:, d][None, :] - tol)          # (n, |W|)
    B = np.asarray(aff.B, dtype=np.float64).reshape(-1, d)
    diff = X - np.asarray(aff.u, dtype=np.float64).reshape(1, d)
    resid = diff - (diff @ B.T) @ B
    in_aff = np.linalg.norm(resid, axis=1) <= tol
    mistakes = [int(np.sum(y != 1))]                                    # constant 1
    for size in range(1, d + 1):
        for J in itertools.combinations(range(W.shape[0]), size):
            zero = in_aff & np.all(inside_h[:, J], axis=1)
            pred = np.where(zero, 0, 1)
            cands.append(J)
            mistakes.append(int(np.sum(pred != y)))
    return cands, np.asarray(mistakes, dtype=np.float64), d


def _encode(J, d, data):
    """The spec's (d, d + 1) output of the row indices J (ppm_correct.encode)."""
    padded = np.full(d, -1, dtype=np.int64)
    padded[: len(J)] = sorted(J)
    return encode(padded, encoder(data, d), d)[0]


def _probs(m, epsilon):
    s = -0.5 * epsilon * m
    w = np.exp(s - s.max())
    return w / w.sum()


def learn(data, *, rng, epsilon):
    cands, m, d = _candidates(data["X"], data["y"], data["p"])
    c = np.cumsum(_probs(m, epsilon))
    i = int(min(np.searchsorted(c, rng.random() * c[-1], side="right"), len(cands) - 1))
    return _encode(cands[i], d, data)


def _batch(data, N, *, rng, epsilon):
    cands, m, d = _candidates(data["X"], data["y"], data["p"])
    c = np.cumsum(_probs(m, epsilon))
    idx = np.minimum(np.searchsorted(c, rng.random(N) * c[-1], side="right"), len(cands) - 1)
    padded = np.full((N, d), -1, dtype=np.int64)
    for k, i in enumerate(idx):
        padded[k, :len(cands[i])] = sorted(cands[i])
    return encode(padded, encoder(data, d), d)


learn.batch = _batch
