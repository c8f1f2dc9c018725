"""Lyu-Su-Li Algorithm 1 (SVT): rho = Lap(2/epsilon) once, nu_i = Lap(4c/epsilon) per query, top iff
q_i + nu_i >= T + rho, abort after the c-th top (later entries -1). Written differently: ALL m query
noises are drawn first (before rho), each as the difference of two rng.exponential draws (Exp(b) - Exp(b)
is Lap(b)), rho from rng.laplace afterwards; noises of queries after the abort are drawn and unused. The
per-call function returns a plain Python list of ints. Batch: the same scheme, int8 (N, m). Law: the spec's
(the noises are i.i.d. and independent of rho whatever the draw order)."""
import numpy as np


def svt(data, *, rng, epsilon, threshold, c):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    m = q.size
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    b_nu = 2.0 * c / eps2
    nu = rng.exponential(b_nu, size=m) - rng.exponential(b_nu, size=m)
    rho = rng.laplace(0.0, 1.0 / eps1)
    out = []
    tops = 0
    for i in range(m):
        if tops >= c:
            out.append(-1)
            continue
        if q[i] + nu[i] >= threshold + rho:
            out.append(1)
            tops += 1
        else:
            out.append(0)
    return out


def _batch(data, N, *, rng, epsilon, threshold, c):
    q = np.asarray(data, dtype=np.float64).reshape(-1)
    m = q.size
    eps1 = epsilon / 2.0
    eps2 = epsilon - eps1
    b_nu = 2.0 * c / eps2
    nu = rng.exponential(b_nu, size=(N, m)) - rng.exponential(b_nu, size=(N, m))
    rho = rng.laplace(0.0, 1.0 / eps1, size=(N, 1))
    top = (q[None, :] + nu >= threshold + rho)
    cum = np.cumsum(top, axis=1)
    before = cum - top            # tops strictly before query i
    out = np.where(top, 1, 0).astype(np.int8)
    out[before >= c] = -1
    return out


svt.batch = _batch
