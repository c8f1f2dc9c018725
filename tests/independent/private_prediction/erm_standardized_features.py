"""Private prediction for convex regression (paper 002, Corollaries 2-4) with sklearn-style
feature standardisation fitted on the training set.

Pipeline habit: fit a StandardScaler on the training features (column mean, column std; a
constant column gets scale 1, as sklearn does), train the regularised ERM on the standardised
features, standardise the query with the same scaler, add Lap(gamma/epsilon) to <w, z(x)>.
gamma is the certified stability c_gamma L_f^2 L_l / (lam n), which assumes rows of norm
<= L_f; but the scaler is itself a function of the private data: replacing one record moves
the mean and the std, and the standardised query z(x) = (x - mean)/std is not bounded at all.
"""
import numpy as np


def _fit(Z, y, lam, R, loss):
    n, d = Z.shape
    if loss == "linear":
        w = (y[:, None] * Z).sum(0) / (lam * n)
    elif loss == "squared":
        w = np.linalg.solve(Z.T @ Z / n + lam * np.eye(d), Z.T @ y / n)
    else:  # logistic, Newton on the strongly convex objective
        w = np.zeros(d)
        for _ in range(50):
            m = y * (Z @ w)
            s = 1.0 / (1.0 + np.exp(m))
            g = -(Z * (y * s)[:, None]).sum(0) / n + lam * w
            h = (Z * (s * (1 - s))[:, None]).T @ Z / n + lam * np.eye(d)
            step = np.linalg.solve(h, g)
            w = w - step
            if np.abs(step).max() < 1e-13:
                break
    nw = np.linalg.norm(w)
    if nw > R:
        if loss == "linear":
            w = w * (R / nw)
        else:  # projected gradient on the ball
            L = (np.linalg.norm(Z, 2) ** 2) / n + lam
            for _ in range(5000):
                if loss == "squared":
                    g = Z.T @ (Z @ w - y) / n + lam * w
                else:
                    s = 1.0 / (1.0 + np.exp(y * (Z @ w)))
                    g = -(Z * (y * s)[:, None]).sum(0) / n + lam * w
                w = w - g / L
                nw = np.linalg.norm(w)
                if nw > R:
                    w = w * (R / nw)
    return w


def _predict_exact(data, lam, R, loss):
    X = np.asarray(data["X"], dtype=float)
    if X.ndim == 1:
        X = X[:, None]
    y = np.asarray(data["y"], dtype=float)
    x = np.asarray(data["x"], dtype=float)
    mu = X.mean(0)
    sd = X.std(0)
    sd = np.where(sd > 0, sd, 1.0)                 # sklearn: zero variance -> scale 1
    w = _fit((X - mu) / sd, y, lam, R, loss)
    return ((x - mu) / sd) @ w                     # scalar for x of shape (d,), (q,) for (q, d)


def _gamma(L_f, L_l, lam, n, c_gamma):
    return c_gamma * L_f ** 2 * L_l / (lam * n)


def erm_predict(data, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss="linear", sigma=0.0, **_):
    a = np.asarray(_predict_exact(data, lam, R, loss), dtype=float)
    b = _gamma(L_f, L_l, lam, n, c_gamma) / epsilon
    out = a + rng.laplace(0.0, b, size=a.shape)
    return float(out) if out.ndim == 0 else out


def _batch(data, N, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss="linear", sigma=0.0, **_):
    a = np.asarray(_predict_exact(data, lam, R, loss), dtype=float)
    b = _gamma(L_f, L_l, lam, n, c_gamma) / epsilon
    return a + rng.laplace(0.0, b, size=(N, *a.shape))


erm_predict.batch = _batch
