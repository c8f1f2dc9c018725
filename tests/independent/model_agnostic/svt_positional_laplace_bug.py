"""A_sparseVec with numpy's Generator.laplace called positionally: rng.laplace(lam) sets loc=lam and keeps
scale=1 (the signature is laplace(loc=0.0, scale=1.0, size=None)). Threshold and query noise become
lam + Lap(1) and 2*lam + Lap(1): the shifts are public, the scale is 1 instead of lam / 2*lam."""
import numpy as np


def _run(q, noise_t, noise_q, w, T, m):
    out = np.full(m, -1, dtype=np.int8)
    c = 0
    j = 0
    w_hat = w + noise_t[j]
    for i in range(m):
        if q[i] + noise_q[i] >= w_hat:
            out[i] = 1
        else:
            out[i] = 0
            c += 1
            if c > T:
                break
            j += 1
            w_hat = w + noise_t[j]
    return out


def svt(data, *, rng, epsilon, delta, T, w, m, beta=None):
    q = np.asarray(data, dtype=float)
    lam = np.sqrt(32 * T * np.log(1 / delta)) / epsilon
    noise_t = np.array([rng.laplace(lam) for _ in range(T + 1)])      # BUG: loc, not scale
    noise_q = np.array([rng.laplace(2 * lam) for _ in range(len(q))])  # BUG: loc, not scale
    return _run(q, noise_t, noise_q, w, T, len(q))


def svt_batch(data, N, *, rng, epsilon, delta, T, w, m, beta=None):
    q = np.asarray(data, dtype=float)
    M = len(q)
    lam = np.sqrt(32 * T * np.log(1 / delta)) / epsilon
    noise_t = rng.laplace(lam, size=(N, T + 1))       # BUG: loc=lam, scale=1
    noise_q = rng.laplace(2 * lam, size=(N, M))       # BUG: loc=2*lam, scale=1
    out = np.full((N, M), -1, dtype=np.int8)
    c = np.zeros(N, dtype=np.int64)
    alive = np.ones(N, dtype=bool)
    rows = np.arange(N)
    for i in range(M):
        w_hat = w + noise_t[rows, np.minimum(c, T)]
        top = q[i] + noise_q[:, i] >= w_hat
        out[alive & top, i] = 1
        bot = alive & ~top
        out[bot, i] = 0
        c = c + bot
        alive = alive & (c <= T)
    return out


svt.batch = svt_batch
