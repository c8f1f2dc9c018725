"""BUG (expected class: claim violated, exit 1). svt_lyu_1.

Off-by-one in the query noise: the implementer draws nu for "the queries before the
last one" (m - 1 draws) and pads with 0.0, so the LAST query is compared against
T + rho with no query noise. rho = Lap(1/eps1) and nu_i = Lap(2c/eps2) are otherwise
exactly Lyu et al.'s Algorithm 1. The proof needs nu on every top (the threshold shift
rho' = rho + 1 that makes bottoms free must be paid by nu on the top); without nu the
last top cannot be re-coupled. Pair (epsilon = 1, c = 1, T = 0, m = 3):
D = [0, 0, 0], D' = [1, 1, -1], output (0, 0, 1): P_D = 0.0625, P_D' = 0.01395 (exact
numeric integration; Monte Carlo 0.0621 / 0.0140), loss = 1.50 > 1. Each extra leading
bottom adds about 1/4 more (tails of nu ~ Lap(4)), so longer vectors are worse.
For m = 1 the output is 1[q >= T + rho] alone, loss 1/2: fine.
"""
import numpy as np


def _run(q, u_rho, nu, threshold, c):
    m = q.size
    out = np.full(m, -1, dtype=np.int8)
    tops = 0
    thr = threshold + u_rho
    for i in range(m):
        if q[i] + nu[i] >= thr:
            out[i] = 1
            tops += 1
            if tops >= c:
                break
        else:
            out[i] = 0
    return out


def svt(data, *, rng, epsilon, threshold, c, **_):
    q = np.asarray(data, dtype=float).reshape(-1)
    m = q.size
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    rho = rng.laplace(0.0, 1.0 / eps1)
    nu = np.append(rng.laplace(0.0, 2.0 * c / eps2, size=max(m - 1, 0)), 0.0)[:m]
    return _run(q, rho, nu, threshold, c)


def _batch(data, n, *, rng, epsilon, threshold, c, **_):
    q = np.asarray(data, dtype=float).reshape(-1)
    m = q.size
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    rho = rng.laplace(0.0, 1.0 / eps1, size=n)
    nu = np.zeros((n, m))
    if m > 1:
        nu[:, : m - 1] = rng.laplace(0.0, 2.0 * c / eps2, size=(n, m - 1))
    above = (q[None, :] + nu) >= (threshold + rho)[:, None]
    ctops = np.cumsum(above, axis=1)
    # answered iff fewer than c tops strictly before i
    prev = ctops - above
    out = np.where(above, 1, 0).astype(np.int8)
    out[prev >= c] = -1
    return out


svt.batch = _batch
