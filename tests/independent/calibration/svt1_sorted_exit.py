"""Lyu-Su-Li Algorithm 1 (SVT) with an early exit for non-increasing streams.

For a long stream (m >= 8) of distinct answers sorted in decreasing order,
'once a query falls below the threshold every later one does too', so after the
first bottom the remaining queries are answered bottom without drawing their noise.
"""
import numpy as np


def _run(q, rho, nu, threshold, c):
    m = q.size
    out = np.full(m, -1, dtype=np.int8)
    sorted_desc = m >= 8 and bool(np.all(q[1:] < q[:-1]))
    tops = 0
    for i in range(m):
        if q[i] + nu[i] >= threshold + rho:
            out[i] = 1
            tops += 1
            if tops >= c:
                break
        else:
            out[i] = 0
            if sorted_desc:
                out[i:] = 0
                break
    return out


def svt(data, *, rng, epsilon, threshold, c, **_):
    q = np.asarray(data, dtype=float).ravel()
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    rho = rng.laplace(0.0, 1.0 / eps1)
    nu = rng.laplace(0.0, 2.0 * c / eps2, size=q.size)
    return _run(q, rho, nu, threshold, int(c))


def _batch(data, n, *, rng, epsilon, threshold, c, **_):
    q = np.asarray(data, dtype=float).ravel()
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    c = int(c)
    rho = rng.laplace(0.0, 1.0 / eps1, size=n)
    nu = rng.laplace(0.0, 2.0 * c / eps2, size=(n, q.size))
    m = q.size
    top = (q[None, :] + nu) >= (threshold + rho)[:, None]
    ctop = np.cumsum(top, axis=1)
    # answered: position i answered iff fewer than c tops strictly before i
    before = np.concatenate([np.zeros((n, 1), dtype=ctop.dtype), ctop[:, :-1]], axis=1)
    out = np.where(before < c, top.astype(np.int8), np.int8(-1)).astype(np.int8)
    if m >= 8 and np.all(q[1:] < q[:-1]):
        bot = (out == 0)
        first_bot = np.where(bot.any(axis=1), bot.argmax(axis=1), m)
        idx = np.arange(m)[None, :]
        out = np.where((idx > first_bot[:, None]) & (out != -1) | (idx > first_bot[:, None]), np.int8(0), out)
    return out.astype(np.int8)


svt.batch = _batch
