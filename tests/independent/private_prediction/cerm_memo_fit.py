"""convex_erm_prediction (seed 002 Section 3.4, Corollaries 2-4): exact minimiser w^_S of
F_S(w) = (1/n) sum l(<w, x_i>, y_i) + (lam/2)|w|^2 over |w| <= R, answer <w^_S, x> + Lap(gamma/epsilon),
gamma = c_gamma L_f^2 L_l/(lam n). Losses: linear -y a (closed form, projected), squared (a - y)^2/2
and logistic ln(1 + e^(-y a)) (Newton; if the unconstrained minimiser leaves the ball, the KKT
multiplier mu of the ball constraint is found by bisection on |w(mu)| = R, w(mu) = argmin F_S + (mu/2)|w|^2).

VALID VARIANT (group valid-variant): how a user makes a per-call implementation fast without a batch
sampler: the DETERMINISTIC fit is memoised across calls (a bounded dict keyed by the bytes of X, y and
the fit's parameters), and only the Laplace noise is fresh per call, drawn as a random sign times
b * Exp(1) (Exp(1) = -ln(1 - U)), two uniforms from rng. State kept across calls holds no randomness and
depends only on the key it is looked up with, so every call's output law is the spec's.
Per call only, no batch sampler.

TRUTH: same law as the spec. Exact loss on S7_label_flip_dflt (defaults, c_gamma = 4): the prediction
moves from 1 to 0 = gamma_tight = 1, b = gamma/epsilon = 2: loss epsilon * 1/2 = 0.5 < 1; on
S7_label_flip_tight (c_gamma = 2, b = 1): exactly epsilon = 1 (the author's script, not kept checks the fit and the
noise law).
"""
import numpy as np

_CACHE = {}
_CACHE_MAX = 512


def _fit(X, y, lam, R, loss):
    n, d = X.shape
    if loss == "linear":
        w = (y[:, None] * X).sum(axis=0) / (lam * n)
        nr = np.linalg.norm(w)
        return w if nr <= R else w * (R / nr)

    def solve(mu):
        if loss == "squared":
            A = X.T @ X / n + (lam + mu) * np.eye(d)
            return np.linalg.solve(A, X.T @ y / n)
        w = np.zeros(d)
        for _ in range(200):
            a = X @ w
            s = 1.0 / (1.0 + np.exp(np.clip(y * a, -700, 700)))
            g = X.T @ (-y * s) / n + (lam + mu) * w
            Hm = (X * (s * (1.0 - s))[:, None]).T @ X / n + (lam + mu) * np.eye(d)
            step = np.linalg.solve(Hm, g)
            w = w - step
            if np.linalg.norm(step) <= 1e-15 * max(1.0, np.linalg.norm(w)):
                break
        return w

    w = solve(0.0)
    if np.linalg.norm(w) <= R:
        return w
    lo, hi = 0.0, 1.0
    while np.linalg.norm(solve(hi)) > R:
        lo, hi = hi, hi * 2.0
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if np.linalg.norm(solve(mid)) > R:
            lo = mid
        else:
            hi = mid
    w = solve(hi)
    return w * min(1.0, R / np.linalg.norm(w))


def _prediction(data, lam, R, loss):
    X = np.ascontiguousarray(np.atleast_2d(np.asarray(data["X"], dtype=float)))
    y = np.ascontiguousarray(np.asarray(data["y"], dtype=float).ravel())
    x = np.asarray(data["x"], dtype=float)
    key = (X.shape, X.tobytes(), y.tobytes(), float(lam), float(R), str(loss))
    w = _CACHE.get(key)
    if w is None:
        w = _fit(X, y, lam, R, loss)
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = w
    # one query x of shape (d,) (the spec's input), or q queries (q, d) (what the theorem checks pass)
    mu = float(w @ x.ravel()) if x.ndim <= 1 else x.reshape(-1, X.shape[1]) @ w
    return mu, X.shape[0]


def predict(data, *, rng, epsilon, lam, R, L_f, L_l, c_gamma, loss):
    mu, n = _prediction(data, lam, R, loss)
    b = c_gamma * L_f ** 2 * L_l / (lam * n) / epsilon
    shape = np.shape(mu)
    e = -np.log1p(-rng.random(size=shape))               # Exp(1), finite: 1 - U in (0, 1]
    sign = np.where(rng.random(size=shape) < 0.5, 1.0, -1.0)
    z = mu + sign * b * e
    return float(z) if np.ndim(z) == 0 else z
