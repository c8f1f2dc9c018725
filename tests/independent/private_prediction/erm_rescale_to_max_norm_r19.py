"""PRIVACY BUG (global preprocessing from the private rows): convex_erm_prediction that first rescales the training
features so that the largest row norm equals L_f ("normalise to the bound the certified gamma assumes"):
X <- X * L_f / max_i |x_i| (when that maximum is > 0), then the exact regularized ERM over B(R) and
<w, x> + Lap(gamma/eps), gamma = c_gamma L_f^2 L_l/(lam n). The query x is not rescaled.
When some training row already has norm L_f the rescaling is the identity (every stress case of the spec).

TRUTH: defaults (linear loss, eps 1, lam 0.5, n 4, L_f = L_l = 1, c_gamma 4: gamma = 2, gamma_tight = 1), query
x = (1, 0). D: X = four rows (0.001, 0), y = (+1, +1, +1, +1): rescaled to rows (1, 0), w = (1/(lam n)) sum y_i x_i
= (2, 0), prediction 2. D': the first row replaced by (-1, 0), y_1 = +1 (norm 1 <= L_f: a replace_one neighbour):
no rescaling, w = ((-1 + 0.003)/2, 0), prediction -0.4985. |Delta| = 2.4985 > gamma: exact loss
eps |Delta|/gamma = 1.249 against the claim 1 (half-line event {z >= 2}). With c_gamma = 2: 2.50 against 1; it
grows with n (n = 16, c_gamma 4: 4.25).
Expected: claim violated if the search builds rows all well inside the ball beside a row at norm L_f; otherwise
pass (a miss) or a utility failure.
"""
import numpy as np


def _project(w, R):
    nw = np.linalg.norm(w)
    return w if nw <= R else w * (R / nw)


def _sigmoid(t):
    return np.where(t >= 0, 1.0 / (1.0 + np.exp(-np.abs(t))), np.exp(-np.abs(t)) / (1.0 + np.exp(-np.abs(t))))


def _logistic_fit(X, y, reg):
    n, d = X.shape
    w = np.zeros(d)
    for _ in range(200):
        z = X @ w
        s = _sigmoid(-y * z)                       # sigma(-y z)
        g = -(X.T @ (y * s)) / n + reg * w
        if np.linalg.norm(g) < 1e-13:
            break
        h = s * (1.0 - s)
        H = (X.T * h) @ X / n + reg * np.eye(d)
        step = np.linalg.solve(H, g)
        # damped Newton with backtracking on F
        def F(v):
            return np.mean(np.logaddexp(0.0, -y * (X @ v))) + 0.5 * reg * v @ v
        f0 = F(w)
        t = 1.0
        while t > 1e-10 and F(w - t * step) > f0 - 0.25 * t * g @ step:
            t *= 0.5
        w = w - t * step
    return w


def _squared_fit(X, y, reg):
    n, d = X.shape
    A = X.T @ X / n + reg * np.eye(d)
    return np.linalg.solve(A, X.T @ y / n)


def _constrained(fit, X, y, lam, R):
    w = fit(X, y, lam)
    if np.linalg.norm(w) <= R:
        return w
    lo, hi = 0.0, 1.0
    while np.linalg.norm(fit(X, y, lam + hi)) > R:
        hi *= 2.0
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if np.linalg.norm(fit(X, y, lam + mid)) > R:
            lo = mid
        else:
            hi = mid
    w = fit(X, y, lam + hi)
    return _project(w, R)


def _fit(data, lam, R, L_f, loss):
    X = np.atleast_2d(np.asarray(data["X"], dtype=float))
    y = np.asarray(data["y"], dtype=float).ravel()
    mx = np.linalg.norm(X, axis=1).max() if X.size else 0.0
    if mx > 0:
        X = X * (L_f / mx)                          # the bug: a scale read from the private rows
    n = X.shape[0]
    if loss == "linear":
        return _project((X.T @ y) / (lam * n), R)
    if loss == "squared":
        return _constrained(_squared_fit, X, y, lam, R)
    if loss == "logistic":
        return _constrained(_logistic_fit, X, y, lam, R)
    raise ValueError(loss)


def erm(data, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss):
    w = _fit(data, lam, R, L_f, loss)
    x = np.asarray(data["x"], dtype=float)
    gamma = c_gamma * L_f ** 2 * L_l / (lam * n)
    pred = x @ w
    out = pred + rng.laplace(0.0, gamma / epsilon, size=np.shape(pred))
    return float(out) if np.ndim(out) == 0 else out


def erm_batch(data, N, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss):
    w = _fit(data, lam, R, L_f, loss)
    x = np.asarray(data["x"], dtype=float)
    gamma = c_gamma * L_f ** 2 * L_l / (lam * n)
    pred = x @ w
    return pred + rng.laplace(0.0, gamma / epsilon, size=(N,) + np.shape(pred))


erm.batch = erm_batch
