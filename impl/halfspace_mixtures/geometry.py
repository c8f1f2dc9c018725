"""Offline helpers for the checks of seed 001 (outside the privacy boundary; never called by
the learner): exact ERM over closed halfspaces for d = 1, 2, the test distributions of the
note's setups S1/S2/S5 and the exact population error of every g in G on them.

Distributions (label-determined privacy model, p = 1 iff the observed y = 1):

* d = 1 (S1, S5): x ~ U(-1, cut) with probability pi_pub (clean label 0), else U(cut, 1) (clean
  label 1); the observed label is flipped with probability eta. (cut = 0 in the note; a cut away
  from 0 keeps the empty set's fixed halfspace {x <= 0} of Step 5 from being the target.)
* d = 2 (S2 zero-margin variant, S5): x ~ U([-1, 1]^2), clean label 1(u.x >= b) with
  u = (cos phi, sin phi); flipped with probability eta.

``population_error`` is exact: interval lengths in d = 1, polygon areas in d = 2 (vertex
enumeration over the square's edges and the <= d + 1 cutting lines, then the shoelace formula).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from dptestbed.impl.learners import threshold_erm

from .family import affine_hull, halfspace_family

# --------------------------------------------------------------------------- exact ERM


def _erm_1d(t: np.ndarray, y: np.ndarray) -> int:
    """Fewest mistakes of a closed 1-D halfspace {x >= a}, {x <= a} or a constant."""
    best = min(int(np.sum(y == 0)), int(np.sum(y == 1)))
    for s in (1.0, -1.0):
        a = threshold_erm((s * t)[None, :], y[None, :])[0]
        best = min(best, int(np.sum((s * t >= a).astype(int) != y)))
    return best


def erm_mistakes(X: np.ndarray, y: np.ndarray) -> int:
    """min over closed halfspaces h (constants included) of #{i : 1[x_i in h] != y_i}, exact,
    for d = 1 (sort) and d = 2 (every line through two points, the points on it split by the
    best 1-D threshold along the line)."""
    X, y = np.asarray(X, float), np.asarray(y, np.int64)
    n, d = X.shape
    if d == 1:
        return _erm_1d(X[:, 0], y)
    if d != 2:
        raise ValueError(f"exact ERM is implemented for d = 1, 2, got d = {d}")
    best = min(int(np.sum(y == 0)), int(np.sum(y == 1)))
    pairs = np.array([(i, j) for i, j in combinations(range(n), 2) if np.any(X[i] != X[j])], np.int64)
    if pairs.size == 0:
        return best
    direction = X[pairs[:, 1]] - X[pairs[:, 0]]
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    w = np.stack([-direction[:, 1], direction[:, 0]], axis=1)
    s = w @ X.T - np.einsum("pd,pd->p", w, X[pairs[:, 0]])[:, None]
    tol = 1e-9 * max(1.0, float(np.abs(X).max()))
    above, below, on = s > tol, s < -tol, np.abs(s) <= tol
    y1, y0 = (y == 1)[None, :], (y == 0)[None, :]
    off = np.minimum((y1 & below).sum(1) + (y0 & above).sum(1), (y1 & above).sum(1) + (y0 & below).sum(1))
    t = direction @ X.T                                              # positions along each line
    simple = on.sum(1) == 2                                          # just x_i, x_j: any split
    best = min(best, int(off[simple].min())) if simple.any() else best
    done = {}
    for p in np.flatnonzero(~simple):
        key = on[p].tobytes()
        if key not in done:
            done[key] = _erm_1d(t[p, on[p]], y[on[p]])
        best = min(best, int(off[p]) + done[key])
    return best


# --------------------------------------------------------------------------- distributions


@dataclass(frozen=True)
class Setup:
    """A test distribution D~ with the label-determined privacy model."""

    d: int
    pi_pub: float = 0.5      # d = 1: mass of the public (clean label 0) part
    cut: float = 0.0         # d = 1: the target's cut point (public part left of it)
    phi: float = 0.3         # d = 2: direction of u
    b: float = 0.0           # d = 2: offset of the target {u.x >= b}
    eta: float = 0.0         # label-noise rate

    @property
    def u(self) -> np.ndarray:
        return np.array([np.cos(self.phi), np.sin(self.phi)])

    def sample(self, n: int, rng: np.random.Generator) -> dict:
        """n i.i.d. PPM examples: {'X', 'y', 'p'} with p = y."""
        if self.d == 1:
            clean = (rng.random(n) >= self.pi_pub).astype(np.int64)
            u = rng.random(n)
            X = np.where(clean == 1, self.cut + u * (1 - self.cut), self.cut - u * (1 + self.cut))[:, None]
        else:
            X = rng.uniform(-1.0, 1.0, (n, 2))
            clean = (X @ self.u >= self.b).astype(np.int64)
        y = clean ^ (rng.random(n) < self.eta)
        return {"X": X, "y": y.astype(np.int64), "p": y.astype(np.int64)}

    def opt(self) -> float:
        """min over halfspaces of the population error (the clean target is Bayes-optimal)."""
        return min(self.eta, 0.5)


def _intervals(W: np.ndarray, J: np.ndarray, point_aff: bool) -> tuple[np.ndarray, np.ndarray]:
    """d = 1: the label-0 interval [lo, hi] of each g_J (empty: lo > hi)."""
    lo = np.full(J.shape[0], -np.inf)
    hi = np.full(J.shape[0], np.inf)
    for col in range(J.shape[1]):
        a = J[:, col]
        used = a >= 0
        w, w0 = W[np.maximum(a, 0), 0], W[np.maximum(a, 0), 1]
        lo = np.where(used & (w > 0), np.maximum(lo, w0 / np.where(w > 0, w, 1)), lo)
        hi = np.where(used & (w < 0), np.minimum(hi, w0 / np.where(w < 0, w, 1)), hi)
    empty = (J[:, 0] < 0) | point_aff
    return np.where(empty, 1.0, lo), np.where(empty, 0.0, hi)


def _overlap(lo, hi, a, b):
    return np.clip(np.minimum(hi, b) - np.maximum(lo, a), 0.0, None)


_SQUARE = np.array([[1.0, 0.0, -1.0], [-1.0, 0.0, -1.0], [0.0, 1.0, -1.0], [0.0, -1.0, -1.0]])


def polygon_areas(H: np.ndarray) -> np.ndarray:
    """Areas of [-1, 1]^2 cut by the halfplanes H (K, c, 3) (rows (w1, w2, w0): w.x >= w0;
    rows of zeros, w0 = -inf, are ignored)."""
    K = H.shape[0]
    lines = np.concatenate([np.broadcast_to(_SQUARE, (K, 4, 3)), H], axis=1)
    finite = np.isfinite(lines[..., 2])
    L = lines.shape[1]
    ii, jj = np.triu_indices(L, 1)
    A = np.stack([lines[:, ii, :2], lines[:, jj, :2]], axis=2)           # (K, P, 2, 2)
    rhs = np.stack([lines[:, ii, 2], lines[:, jj, 2]], axis=2)
    det = np.linalg.det(A)
    ok = (np.abs(det) > 1e-12) & finite[:, ii] & finite[:, jj]
    safe = np.where(ok[..., None, None], A, np.eye(2))
    pts = np.linalg.solve(safe, np.where(ok[..., None], rhs, 0.0)[..., None])[..., 0]
    slack = np.einsum("kpd,kld->kpl", pts, lines[..., :2]) - np.where(finite, lines[..., 2], -np.inf)[:, None, :]
    feasible = ok & np.all(slack >= -1e-9, axis=2)
    count = feasible.sum(axis=1)
    centre = np.einsum("kp,kpd->kd", feasible, pts) / np.maximum(count, 1)[:, None]
    angle = np.arctan2(pts[..., 1] - centre[:, None, 1], pts[..., 0] - centre[:, None, 0])
    order = np.argsort(np.where(feasible, angle, np.inf), axis=1)
    P = np.take_along_axis(pts, order[..., None], axis=1)
    last = np.take_along_axis(P, np.maximum(count - 1, 0)[:, None, None], axis=1)
    P = np.where((np.arange(P.shape[1])[None, :] < count[:, None])[..., None], P, last)
    Q = np.roll(P, -1, axis=1)
    area = 0.5 * np.abs(np.sum(P[..., 0] * Q[..., 1] - P[..., 1] * Q[..., 0], axis=1))
    return np.where(count >= 3, area, 0.0)


def population_error(setup: Setup, X_pub: np.ndarray, J: np.ndarray) -> np.ndarray:
    """Exact err(g_J; D~) for outputs J (k, d) built from the public points X_pub."""
    J = np.atleast_2d(np.asarray(J, np.int64))
    W = halfspace_family(X_pub)
    if W.shape[0] == 0:  # no public point: G = {constant 1}, every J is the empty set
        J, W = np.full_like(J, -1), np.zeros((1, setup.d + 1))
    aff = affine_hull(X_pub) if len(X_pub) else None
    proper = aff is None or aff.k < setup.d
    eta = setup.eta
    if setup.d == 1:
        lo, hi = _intervals(W, J, proper)
        t = setup.cut
        in0 = _overlap(lo, hi, -1.0, t) / (1 + t)               # the fraction of each part's mass inside
        in1 = _overlap(lo, hi, t, 1.0) / (1 - t)
        p0, p1 = setup.pi_pub, 1.0 - setup.pi_pub
        # P[x in P_g, y = 1] + P[x notin P_g, y = 0], masses p0 uniform on [-1, cut], p1 on [cut, 1].
        inside_one = p1 * in1 * (1 - eta) + p0 * in0 * eta
        outside_zero = p1 * (1 - in1) * eta + p0 * (1 - in0) * (1 - eta)
        return inside_one + outside_zero
    rows = np.where(J[..., None] >= 0, W[np.maximum(J, 0)], np.array([0.0, 0.0, -np.inf]))
    target = np.array([*setup.u, setup.b])
    a1 = polygon_areas(np.concatenate([rows, np.broadcast_to(target, (J.shape[0], 1, 3))], axis=1))
    a0 = polygon_areas(np.concatenate([rows, np.broadcast_to(-target, (J.shape[0], 1, 3))], axis=1))
    empty = (J[:, 0] < 0) | proper
    a1, a0 = np.where(empty, 0.0, a1), np.where(empty, 0.0, a0)
    h1 = polygon_areas(np.broadcast_to(target, (1, 1, 3)))[0]
    h0 = 4.0 - h1
    err = (1 - eta) * a1 + eta * a0 + (1 - eta) * (h0 - a0) + eta * (h1 - a1)
    return err / 4.0
