"""convex_erm_prediction (seed 002 Section 3.4): regularised ERM over the ball |w| <= R, answer
<w^_S, x> + Lap(gamma/epsilon), gamma = c_gamma L_f^2 L_l/(lam n).

PRIVACY BUG (group privacy-bug): a common regression habit -- "a prediction should never leave the range
of the labels we trained on" -- so the noisy answer is clipped to [min_i y_i, max_i y_i] of the TRAINING
labels. Clipping looks like post-processing, but the clipping interval is read from the private data.

TRUTH (exact, the author's script, not kept), stress pair S7_label_flip_dflt at the default point
(epsilon = 1, lam = 0.5, n = 4, L_f = L_l = 1, c_gamma = 4, linear loss; gamma = 2, b = 2):
  D : X = [(1,0),(0,1),(0,1),(1,0)], y = (+1,+1,+1,+1), query x = (1,0): labels all +1, so the clip
      interval is [1, 1] and the output is the constant 1.0 (probability 1).
  D': the first label flipped to -1: w^ = (0, 1), prediction 0, interval [-1, 1]:
      P[output = 1.0] = P[Lap(2) >= 1] = 0.5 e^(-1/2) = 0.3033, P[output < 1] = 0.6967.
  The event {output < 1} has probability 0 on D and 0.6967 on D': infinite privacy loss
  (claim epsilon = 1, delta = 0). Any (epsilon, delta) with delta < 0.6967 is violated.
The fit itself is the correct one (closed form for the linear loss, Newton + projection otherwise).
"""
import numpy as np


def _fit(X, y, lam, R, loss):
    n, d = X.shape
    if loss == "linear":
        w = (y[:, None] * X).sum(axis=0) / (lam * n)
        nr = np.linalg.norm(w)
        return w if nr <= R else w * (R / nr)

    def newton(mu):
        # minimise F_S(w) + (mu/2)|w|^2 (strongly convex): damped Newton
        w = np.zeros(d)
        for _ in range(200):
            a = X @ w
            if loss == "logistic":
                s = 1.0 / (1.0 + np.exp(np.clip(y * a, -700, 700)))
                g1, g2 = -y * s, s * (1.0 - s)
            else:
                g1, g2 = a - y, np.ones(n)
            g = X.T @ g1 / n + (lam + mu) * w
            Hm = (X * g2[:, None]).T @ X / n + (lam + mu) * np.eye(d)
            step = np.linalg.solve(Hm, g)
            w = w - step
            if np.linalg.norm(step) < 1e-14:
                break
        return w

    w = newton(0.0)
    if np.linalg.norm(w) <= R:
        return w
    lo, hi = 0.0, 1.0
    while np.linalg.norm(newton(hi)) > R:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if np.linalg.norm(newton(mid)) > R:
            lo = mid
        else:
            hi = mid
    w = newton(hi)
    return w * min(1.0, R / np.linalg.norm(w))


def _prep(data, lam, R, L_f, L_l, c_gamma, loss):
    X = np.atleast_2d(np.asarray(data["X"], dtype=float))
    y = np.asarray(data["y"], dtype=float).ravel()
    x = np.asarray(data["x"], dtype=float)
    n = X.shape[0]
    w = _fit(X, y, lam, R, loss)
    gamma = c_gamma * L_f ** 2 * L_l / (lam * n)
    lo, hi = float(y.min()), float(y.max())      # "keep predictions inside the label range"
    # one query x of shape (d,) (the spec's input), or q queries (q, d) (what the theorem checks pass)
    mu = float(w @ x.ravel()) if x.ndim <= 1 else x.reshape(-1, X.shape[1]) @ w
    return mu, gamma, lo, hi


def predict(data, *, rng, epsilon, lam, R, L_f, L_l, c_gamma, loss):
    mu, gamma, lo, hi = _prep(data, lam, R, L_f, L_l, c_gamma, loss)
    z = np.clip(mu + rng.laplace(0.0, gamma / epsilon, size=np.shape(mu)), lo, hi)
    return float(z) if np.ndim(z) == 0 else z


def _batch(data, N, *, rng, epsilon, lam, R, L_f, L_l, c_gamma, loss):
    mu, gamma, lo, hi = _prep(data, lam, R, L_f, L_l, c_gamma, loss)
    return np.clip(mu + rng.laplace(0.0, gamma / epsilon, size=(N,) + np.shape(mu)), lo, hi)


predict.batch = _batch
