"""Lyu-Su-Li Algorithm 1 (SVT), per-call only, written the README's way.

Unusual but valid: no ``batch``; the Laplace draws are made as the difference of two
Exp(1) variables scaled by the Laplace scale (Lap(b) = b*(E1 - E2) in law), numpy is
imported lazily inside the call, and the function accepts (and ignores) unknown keywords.
"""


def svt(data, *, rng, epsilon, threshold, c, **unused):
    import numpy as np  # lazy import on purpose

    q = np.asarray(data, dtype=float).reshape(-1)
    c = int(c)
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    rho = (1.0 / eps1) * (rng.exponential() - rng.exponential())
    nu_scale = 2.0 * c / eps2
    out = np.full(q.shape[0], -1, dtype=np.int8)
    count = 0
    for i in range(q.shape[0]):
        nu = nu_scale * (rng.exponential() - rng.exponential())
        if q[i] + nu >= threshold + rho:
            out[i] = 1
            count += 1
            if count >= c:
                break
        else:
            out[i] = 0
    return out
