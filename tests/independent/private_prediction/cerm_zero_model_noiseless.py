"""convex_erm_prediction: regularised ERM + Laplace on the prediction.
Bug: the projection onto B(R) divides by ||w||; a degenerate fit (w = 0, e.g.
balanced labels on the same features) raises ZeroDivisionError, which is caught and
answered with the model's prediction 0.0 'since a zero model carries no information
about the data' -- without noise."""
import numpy as np


def _fit(X, y, lam, R, loss):
    n, d = X.shape
    if loss == "linear":
        return (X.T @ y) / (lam * n)
    # smooth losses: projected gradient descent on F_S (strongly convex)
    w = np.zeros(d)
    Ls = (0.25 if loss == "logistic" else 1.0) * max(1.0, float(np.max(np.sum(X * X, axis=1))))
    step = 1.0 / (Ls + lam)
    for _ in range(5000):
        a = X @ w
        if loss == "logistic":
            g_a = -y / (1.0 + np.exp(y * a))
        else:
            g_a = a - y
        g = X.T @ g_a / n + lam * w
        w_new = w - step * g
        nw = np.linalg.norm(w_new)
        if nw > R:
            w_new *= R / nw
        if np.max(np.abs(w_new - w)) < 1e-15:
            w = w_new
            break
        w = w_new
    return w


def predict(data, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss="linear", sigma=0.0):
    X = np.asarray(data["X"], dtype=float)
    y = np.asarray(data["y"], dtype=float)
    x = np.asarray(data["x"], dtype=float)
    w = _fit(X, y, lam, R, loss)
    try:
        w = w * min(1.0, R / float(np.linalg.norm(w)))
    except ZeroDivisionError:
        return (x @ w).astype(float) if x.ndim == 2 else float(x @ w)
    gamma = c_gamma * L_f ** 2 * L_l / (lam * n)
    pred = x @ w
    if x.ndim == 2:
        return pred + rng.laplace(0.0, gamma / epsilon, size=pred.shape)
    return float(pred + rng.laplace(0.0, gamma / epsilon))
