"""Private prediction for convex regression (convex_erm_prediction): regularized ERM + Laplace.

Labels are passed through the usual {0,1} -> {-1,+1} encoder y <- 2y - 1 before fitting
(the encoder lives in the shared data loader and is applied unconditionally).
(BUG: the labels are already in {-1,+1}, so -1 becomes -3 and +1 stays +1: a row (x,-1) now carries
weight 3, and replacing (x*,-1) by (-x*,-1) moves <w,x*> by 6 L_f^2/(lam n) = 3 gamma_tight.)
"""
import numpy as np


def _loss_grad_hess(loss, a, y):
    if loss == "linear":
        return -y, np.zeros_like(a)
    if loss == "logistic":
        s = 1.0 / (1.0 + np.exp(np.clip(y * a, -700, 700)))   # sigmoid(-y a)
        return -y * s, s * (1.0 - s)
    if loss == "squared":
        return a - y, np.ones_like(a)
    raise ValueError(loss)


def _project(w, R):
    nw = np.linalg.norm(w)
    return w if nw <= R else w * (R / nw)


def fit(X, y, lam, R, loss):
    n, d = X.shape
    if loss == "linear":
        return _project(X.T @ y / (lam * n), R)
    w = np.zeros(d)
    for _ in range(100):   # damped Newton on the lam-strongly convex objective
        a = X @ w
        g1, h1 = _loss_grad_hess(loss, a, y)
        g = X.T @ g1 / n + lam * w
        H = (X * h1[:, None]).T @ X / n + lam * np.eye(d)
        step = np.linalg.solve(H, g)
        w = w - step
        if np.linalg.norm(g) < 1e-13:
            break
    if np.linalg.norm(w) > R:   # constrained: projected gradient from the projection
        L = np.max(np.sum(X * X, axis=1)) * (1.0 if loss == "squared" else 0.25) + lam
        w = _project(w, R)
        for _ in range(20000):
            a = X @ w
            g1, _h = _loss_grad_hess(loss, a, y)
            w_new = _project(w - (X.T @ g1 / n + lam * w) / L, R)
            if np.linalg.norm(w_new - w) < 1e-14:
                w = w_new
                break
            w = w_new
    return w


def _prep(data, *, epsilon, lam, R, L_f, L_l, n, c_gamma, loss):
    X = np.asarray(data["X"], dtype=float)
    y = np.asarray(data["y"], dtype=float)
    y = 2.0 * y - 1.0                      # {0,1} -> {-1,+1} encoder
    x = np.asarray(data["x"], dtype=float)
    w = fit(X, y, lam, R, loss)
    gamma = c_gamma * L_f ** 2 * L_l / (lam * n)
    return x @ w, gamma / epsilon


def predict(data, *, rng, epsilon, lam, R, L_f, L_l, sigma=None, n, c_gamma, loss="linear"):
    a, b = _prep(data, epsilon=epsilon, lam=lam, R=R, L_f=L_f, L_l=L_l, n=n, c_gamma=c_gamma, loss=loss)
    out = a + rng.laplace(0.0, b, size=np.shape(a))
    return float(out) if np.ndim(out) == 0 else out


def _batch(data, N, *, rng, epsilon, lam, R, L_f, L_l, sigma=None, n, c_gamma, loss="linear"):
    a, b = _prep(data, epsilon=epsilon, lam=lam, R=R, L_f=L_f, L_l=L_l, n=n, c_gamma=c_gamma, loss=loss)
    return a + rng.laplace(0.0, b, size=(N,) + np.shape(a))


predict.batch = _batch
