"""Private prediction for convex regression (Corollaries 2-4): regularised ERM + Laplace.

All-zero feature rows carry no signal for <w, x>, so they are dropped before the fit
(sparse data sets are mostly zero rows); n is the number of rows actually fitted.
"""
import numpy as np

L_F, L_L, R = 1.0, 1.0, 10.0


def _fit(X, y, lam, loss):
    n, d = X.shape
    if n == 0:
        return np.zeros(d)
    if loss == "linear":
        w = (y[:, None] * X).sum(axis=0) / (lam * n)
    elif loss == "squared":
        A = X.T @ X / n + lam * np.eye(d)
        w = np.linalg.solve(A, X.T @ y / n)
    else:  # logistic, Newton
        w = np.zeros(d)
        for _ in range(50):
            m = y * (X @ w)
            s = 1.0 / (1.0 + np.exp(m))          # sigma(-m)
            g = -(X * (y * s)[:, None]).sum(axis=0) / n + lam * w
            h = (X * (s * (1 - s))[:, None]).T @ X / n + lam * np.eye(d)
            step = np.linalg.solve(h, g)
            w = w - step
            if np.max(np.abs(step)) < 1e-15:
                break
    nrm = np.linalg.norm(w)
    if nrm > R:
        w = w * (R / nrm)
    return w


def _pred(data, lam, c_gamma, loss):
    X = np.atleast_2d(np.asarray(data["X"], dtype=float))
    y = np.asarray(data["y"], dtype=float)
    nz = np.any(X != 0.0, axis=1)          # drop rows without features
    X, y = X[nz], y[nz]
    n_eff = max(int(X.shape[0]), 1)
    w = _fit(X, y, lam, loss)
    x = np.asarray(data["x"], dtype=float)
    gamma = c_gamma * L_F ** 2 * L_L / (lam * n_eff)
    return x @ w, gamma


def erm_predict(data, *, rng, epsilon, lam, sigma=0.0, n=None, c_gamma=4.0, loss="linear", **kw):
    p, gamma = _pred(data, lam, c_gamma, loss)
    return p + rng.laplace(0.0, gamma / epsilon, size=np.shape(p))


def _batch(data, N, *, rng, epsilon, lam, sigma=0.0, n=None, c_gamma=4.0, loss="linear", **kw):
    p, gamma = _pred(data, lam, c_gamma, loss)
    return p + rng.laplace(0.0, gamma / epsilon, size=(N, *np.shape(p)))


erm_predict.batch = _batch
