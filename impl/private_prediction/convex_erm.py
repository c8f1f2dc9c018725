"""Convex ERM prediction (seed 002 Section 3.4, Corollaries 2-4; notes ALG-5, -5b, -6, -7, S6-S8).

Contract: ``convex_erm_prediction(data, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss)``.
``data = {"X": (n, d), "y": (n,), "x": (d,) or (q, d)}`` with every row of norm <= L_f. Fit
w^_S = argmin_{|w| <= R} F_S(w), F_S(w) = (1/n) sum_i l(<w, x_i>, y_i) + (lam/2)|w|^2, then answer
<w^_S, x> + Lap(gamma/epsilon), gamma = c_gamma L_f^2 L_l/(lam n) (Theorem 3; c_gamma = 2 is the
tight constant, 4 Dwork-Feldman's). Output float (or (q,)); the batch sampler returns (N,) (or
(N, q)): one fit, N fresh noises.

Minimisers (each exact or with a deterministic stability certificate, note ALG-5):
- ``linear`` l = -y a (S7): w^ = Pi_K(sum_i y_i x_i/(lam n)) exactly (F_S = lam/2 |w - g/lam|^2 + c);
- ``squared`` l = (a - y)^2/2 (S8): ridge in closed form; when the unconstrained solution leaves K
  the multiplier mu with |w(mu)| = R is found by root finding on the eigen-decomposition;
- ``logistic`` l = ln(1 + e^(-y a)) (S6): full-batch projected gradient descent from w_0 = 0 with
  eta = 1/beta_F, beta_F = L_f^2/4 + lam, for GD_STEPS steps. For every fixed T,
  |w_T(S) - w_T(S')| <= (2 L_f L_l/(lam n))(1 - (1 - eta lam)^T) (ALG-5b): gamma stays certified
  without convergence.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize
from scipy.special import expit

from dptestbed.impl.contract import batched
from dptestbed.impl.noise import laplace

LOSSES = ("linear", "logistic", "squared")
GD_STEPS = 300  # testbed constant (the stability certificate holds for every T)


def certified_gamma(*, L_f, L_l, lam, n, c_gamma) -> float:
    """gamma = c_gamma L_f^2 L_l/(lam n)."""
    return c_gamma * L_f ** 2 * L_l / (lam * n)


def _dataset(data, n, L_f):
    try:
        X = np.atleast_2d(np.asarray(data["X"], dtype=float))
        y = np.asarray(data["y"], dtype=float)
        x = np.asarray(data["x"], dtype=float)
    except KeyError as missing:
        raise ValueError(f"dataset must have keys 'X', 'y', 'x'; missing {missing}") from None
    if X.shape[0] != int(n) or y.shape != (X.shape[0],):
        raise ValueError(f"X must have n = {n} rows and y n entries, got X {X.shape}, y {y.shape}")
    norms = np.linalg.norm(np.vstack([X, np.atleast_2d(x)]), axis=1)
    if np.any(norms > L_f * (1 + 1e-9)):
        raise ValueError(f"every training and query point must have norm <= L_f = {L_f}, max {norms.max():.6g}")
    if x.shape[-1] != X.shape[1]:
        raise ValueError(f"query dimension {x.shape[-1]} != data dimension {X.shape[1]}")
    return X, y, x


def _project(w, R):
    norm = np.linalg.norm(w)
    return w if norm <= R else w * (R / norm)


def fit(X, y, *, loss, lam, R, L_f) -> np.ndarray:
    """The minimiser w^_S of F_S over the ball of radius R."""
    n = X.shape[0]
    if loss == "linear":
        return _project(X.T @ y / (lam * n), R)
    if loss == "squared":
        evals, evecs = np.linalg.eigh(X.T @ X / n)
        b = evecs.T @ (X.T @ y / n)

        def w_of(mu):
            return evecs @ (b / (evals + lam + mu))

        w = w_of(0.0)
        if np.linalg.norm(w) <= R:
            return w
        hi = np.linalg.norm(b) / R
        mu = optimize.brentq(lambda m: np.linalg.norm(w_of(m)) - R, 0.0, hi + 1e-12, xtol=1e-14)
        return _project(w_of(mu), R)
    if loss == "logistic":
        eta = 1.0 / (L_f ** 2 / 4 + lam)
        w = np.zeros(X.shape[1])
        for _ in range(GD_STEPS):
            grad = -(X.T @ (y * expit(-y * (X @ w)))) / n + lam * w
            w = _project(w - eta * grad, R)
        return w
    raise ValueError(f"loss must be one of {LOSSES}, got {loss!r}")


def answers(data, N, *, rng, epsilon, lam, R, L_f, n, loss, gamma) -> np.ndarray:
    """N answers <w^_S, x> + Lap(gamma/epsilon) (one fit, fresh noise each) with the given gamma."""
    X, y, x = _dataset(data, n, L_f)
    if loss in ("linear", "logistic") and not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(f"labels must be -1 or +1 for the {loss} loss")
    return released(X, y, x, N, rng=rng, epsilon=epsilon, lam=lam, R=R, L_f=L_f, loss=loss, gamma=gamma)


def released(X, y, x, N, *, rng, epsilon, lam, R, L_f, loss, gamma) -> np.ndarray:
    """:func:`answers` on a dataset already read (labels not checked)."""
    w = fit(X, y, loss=loss, lam=lam, R=R, L_f=L_f)
    a = np.atleast_1d(np.atleast_2d(x) @ w)
    out = a[None, :] + laplace(rng, gamma / epsilon, (int(N), a.size))   # Theorem 3: Lap(gamma/eps)
    return out[:, 0] if x.ndim == 1 else out


def _batch(data, N, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss, **_):
    gamma = certified_gamma(L_f=L_f, L_l=L_l, lam=lam, n=n, c_gamma=c_gamma)
    return answers(data, N, rng=rng, epsilon=epsilon, lam=lam, R=R, L_f=L_f, n=n, loss=loss, gamma=gamma)


@batched(_batch)
def convex_erm_prediction(data, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss, **_):
    """<w^_S, x> + Lap(gamma/epsilon) with the certified gamma = c_gamma L_f^2 L_l/(lam n)."""
    out = _batch(data, 1, rng=rng, epsilon=epsilon, lam=lam, R=R, L_f=L_f, L_l=L_l, n=n,
                 c_gamma=c_gamma, loss=loss)[0]
    return float(out) if np.ndim(out) == 0 else out
