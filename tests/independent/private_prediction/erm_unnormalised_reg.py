"""Private prediction for convex regression (paper 002, Corollaries 2-4): regularised ERM over the
ball B(R), then Lap(gamma/eps) on <w, x> with the certified gamma = c L_f^2 L_l/(lam n).

The fit minimises  sum_i l(<w, x_i>, y_i) + (lam/2)|w|^2  over B(R)  (sklearn-style objective:
data term summed, regulariser added once).
"""
import numpy as np


def _proj(w, R):
    nw = np.linalg.norm(w)
    return w if nw <= R else w * (R / nw)


def _fit(X, y, lam, R, loss):
    n, d = X.shape
    if loss == "linear":
        return _proj((y[:, None] * X).sum(axis=0) / lam, R)
    s = 0.25 if loss == "logistic" else 1.0
    Lg = s * (np.linalg.norm(X, axis=1) ** 2).sum() + lam
    w = np.zeros(d)
    for _ in range(20000):
        a = X @ w
        if loss == "logistic":
            g = X.T @ (-y / (1.0 + np.exp(y * a)))
        else:
            g = X.T @ (a - y)
        w_new = _proj(w - (g + lam * w) / Lg, R)
        if np.linalg.norm(w_new - w) < 1e-14 * max(1.0, np.linalg.norm(w)):
            w = w_new
            break
        w = w_new
    return w


def _pred(data, lam, R, loss):
    X = np.atleast_2d(np.asarray(data["X"], dtype=float))
    y = np.asarray(data["y"], dtype=float)
    x = np.asarray(data["x"], dtype=float)
    w = _fit(X, y, lam, R, loss)
    return x @ w


def _b(epsilon, lam, L_f, L_l, n, c_gamma):
    return c_gamma * L_f ** 2 * L_l / (lam * n) / epsilon


def predict(data, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss="linear", **_):
    p = _pred(data, lam, R, loss)
    b = _b(epsilon, lam, L_f, L_l, n, c_gamma)
    if np.ndim(p) == 0:
        return float(p + rng.laplace(0.0, b))
    return p + rng.laplace(0.0, b, size=p.shape)


def _batch(data, N, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss="linear", **_):
    p = _pred(data, lam, R, loss)
    b = _b(epsilon, lam, L_f, L_l, n, c_gamma)
    return p + rng.laplace(0.0, b, size=(N, *np.shape(p)))


predict.batch = _batch
