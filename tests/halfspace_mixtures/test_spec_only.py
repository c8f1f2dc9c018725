"""The learner's spec determines its law: an implementation written from the spec's text alone (its
output encoding, the closed-form Step-5 rule, Aff and the tolerance; G enumerated naively, d <= 2) has
exactly the reference's law of outputs, on general, degenerate and lattice public sets."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from scipy.special import logsumexp

from dptestbed.audits.halfspace_mixtures.common import wedge
from dptestbed.impl.halfspace_mixtures.geometry import Setup
from dptestbed.impl.halfspace_mixtures.learner import exact_law, prepare, to_output

V = np.sqrt([2.0, 3.0, 5.0, 7.0, 11.0])


def _null(E: np.ndarray, tol: float) -> np.ndarray:
    """Orthonormal rows spanning the null space of E (k columns)."""
    _, s, Vt = np.linalg.svd(E)
    return Vt[int(np.sum(s > tol)):]


def _step5(S: np.ndarray, u: np.ndarray, B: np.ndarray, tol: float, d: int) -> tuple[np.ndarray, float]:
    """The spec's rule: w = the unit projection of the first of V_0, e_1, ..., e_d onto A, the
    directions of Aff orthogonal to aff(S) (the complement of Aff when S spans it); w_0 = w.mean(S)."""
    if len(S) == 0:
        return V[:d] / np.linalg.norm(V[:d]), 0.0
    inside = _null(np.r_[(S[1:] - S[0]) @ B.T, np.zeros((1, B.shape[0]))], tol * max(1.0, np.sqrt(len(S)))) @ B
    A = inside if inside.shape[0] else _null(np.r_[B, np.zeros((1, d))], 0.5)
    for v in np.r_[V[None, :d], np.eye(d)]:
        proj = A.T @ (A @ v)
        if np.linalg.norm(proj) > 1e-6 * np.linalg.norm(v):
            w = proj / np.linalg.norm(proj)
            return w, float(w @ S.mean(axis=0))
    raise AssertionError("no direction projects")


def spec_law(data: dict, epsilon: float) -> dict[bytes, float]:
    """P[output] for every output of G, from the spec's text."""
    X, y, p = (np.asarray(data[k]) for k in ("X", "y", "p"))
    X = X.astype(float)
    d = X.shape[1]
    unused = [-1] * d + [0]
    rows, members = [], []
    pub = np.flatnonzero(p == 0)
    if pub.size:
        P = X[pub]
        tol = 1e-9 * max(1.0, float(np.abs(P).max()))
        u = P[0]
        _, s, Vt = np.linalg.svd(P - u)
        B = Vt[: int(np.sum(s > tol * max(1.0, np.sqrt(pub.size))))]
        D = X - u
        in_aff = np.linalg.norm(D - D @ B.T @ B, axis=1) <= tol
        for r in range(min(d, pub.size) + 1):
            for S in combinations(range(pub.size), r):
                w, w0 = _step5(P[list(S)], u, B, tol, d)
                for side in (1, -1):
                    rows.append([int(pub[i]) for i in S] + [-1] * (d - r) + [side])
                    members.append((side * X @ w >= side * w0 - tol) & in_aff)
    outs, m = [np.array([unused] * d)], [int(np.sum(y == 0))]
    for j in range(1, d + 1):
        for J in combinations(range(len(rows)), j):
            zero = np.logical_and.reduce([members[a] for a in J])
            m.append(int(np.sum(zero != (y == 0))))
            outs.append(np.array([rows[a] for a in J] + [unused] * (d - j)))
    logw = -epsilon / 2 * np.array(m, float)
    law: dict[bytes, float] = {}
    for o, lp in zip(outs, logw - logsumexp(logw)):
        law[o.astype(np.int64).tobytes()] = law.get(o.astype(np.int64).tobytes(), 0.0) + float(np.exp(lp))
    return law


def _ppm(X, public) -> dict:
    """Label-determined data: the public rows are labelled 0, the private ones 1."""
    y = np.where(public, 0, 1)
    return {"X": np.asarray(X, float), "y": y, "p": y.copy()}


def _instances():
    rng = np.random.default_rng(11)
    yield "d1-noisy", Setup(d=1, eta=0.2).sample(12, rng)
    yield "d2-general", Setup(d=2, b=-0.2, eta=0.1).sample(11, rng)
    t = -rng.uniform(0.1, 1, 4)
    yield "d2-collinear-public", _ppm(np.r_[np.c_[t, np.zeros(4)], rng.uniform(-1, 1, (5, 2))], np.arange(9) < 4)
    yield "d2-one-public-point", _ppm(np.r_[[[-0.5, 0.2]], rng.uniform(-1, 1, (5, 2))], np.arange(6) < 1)
    yield "d2-two-public-points", _ppm(np.r_[[[-0.5, 0.2], [-0.1, -0.7]], rng.uniform(-1, 1, (5, 2))], np.arange(7) < 2)
    g = np.array([(i, j) for i in range(3) for j in range(3)], float) - 1.0
    yield "d2-grid", _ppm(g, g[:, 0] < 0)
    yield "d2-wedge-duplicates", wedge(rng, apex=2, copies=2)


@pytest.mark.parametrize("name,data", list(_instances()), ids=[n for n, _ in _instances()])
def test_law_from_the_spec_text_equals_the_reference(name, data):
    J, logp = exact_law(data, 0.8)
    reference: dict[bytes, float] = {}
    for o, lp in zip(to_output(J, prepare(data).public, np.asarray(data["X"]).shape[1]), logp):
        reference[o.tobytes()] = reference.get(o.tobytes(), 0.0) + float(np.exp(lp))
    ours = spec_law(data, 0.8)
    assert ours.keys() == reference.keys()
    assert max(abs(ours[k] - reference[k]) for k in ours) < 1e-12
