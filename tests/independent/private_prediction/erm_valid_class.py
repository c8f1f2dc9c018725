"""Private prediction for convex regression (convex_erm_prediction) -- valid, unusual form.

A callable class instance (with a .batch method); numpy imported lazily on first call; the Laplace
noise is drawn as b*log(U1/U2) with U1, U2 uniform on (0, 1] (-log U ~ Exp(1), and the difference of
two independent Exp(1) is Laplace(1)); a one-line note on stderr on the first call; unused extra
keyword arguments accepted.  Same output law as the spec.
"""
import sys

np = None


def _np():
    global np
    if np is None:
        import numpy
        np = numpy
    return np


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


class ErmPredictor:
    def __init__(self):
        self._said = False

    def _prep(self, data, epsilon, lam, R, L_f, L_l, n, c_gamma, loss):
        np_ = _np()
        X = np_.asarray(data["X"], dtype=float)
        y = np_.asarray(data["y"], dtype=float)
        x = np_.asarray(data["x"], dtype=float)
        w = fit(X, y, lam, R, loss)
        if not self._said:
            print("ErmPredictor: fitted ridge-regularized model", file=sys.stderr)
            self._said = True
        return x @ w, c_gamma * L_f ** 2 * L_l / (lam * n) / epsilon

    @staticmethod
    def _lap(rng, b, shape):
        u1 = 1.0 - rng.random(shape)
        u2 = 1.0 - rng.random(shape)
        return b * _np().log(u1 / u2)

    def __call__(self, data, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss="linear", sigma=None, **extra):
        a, b = self._prep(data, epsilon, lam, R, L_f, L_l, n, c_gamma, loss)
        out = a + self._lap(rng, b, _np().shape(a))
        return out if _np().ndim(out) else float(out)

    def batch(self, data, N, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss="linear", sigma=None, **extra):
        a, b = self._prep(data, epsilon, lam, R, L_f, L_l, n, c_gamma, loss)
        return a + self._lap(rng, b, (N,) + _np().shape(a))


predict = ErmPredictor()
