"""A_binClas (004 Algorithm 2), per-call only, pure-Python loop.

Two child generators from rng.spawn: one for the thresholds, one for the
query noise.  Laplace samples by inverse CDF from a uniform on the open unit
interval (53-bit grid shifted by half a step).  Returns a tuple of Python ints.
"""
import logging
import math

log = logging.getLogger("pcqc_valid")


def _uniform_open(g):
    return (int(g.integers(0, 2**53)) + 0.5) / 2.0**53


def _laplace(g, b):
    u = _uniform_open(g)
    if u < 0.5:
        return b * math.log(2.0 * u)
    return -b * math.log(2.0 - 2.0 * u)


def bin_clas(data, *, rng, epsilon, delta, T, m, beta, **unused):
    thr_gen, noise_gen = rng.spawn(2)
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    rows = [tuple(int(c) for c in r) for r in data]
    out = []
    c = 0
    w_hat = w + _laplace(thr_gen, lam)
    for c0, c1 in rows:
        if c > T:
            out.append(-2)
            continue
        label = 1 if c1 > c0 else 0
        dist = max(0, abs(c0 - c1) - 1)
        if dist + _laplace(noise_gen, 2.0 * lam) > w_hat:
            out.append(label)
        else:
            out.append(-1)
            c += 1
            w_hat = w + _laplace(thr_gen, lam)
    log.debug("answers %s", out)
    print("bin_clas:", len(out), "answers", flush=True)
    return tuple(out)


def _laplace_vec(g, b, size):
    import numpy as np
    u = (g.integers(0, 2**53, size=size).astype(np.float64) + 0.5) / 2.0**53
    return np.where(u < 0.5, b * np.log(2.0 * np.minimum(u, 0.5)),
                    -b * np.log(2.0 - 2.0 * np.maximum(u, 0.5)))


def _batch(data, n, *, rng, epsilon, delta, T, m, beta, **unused):
    import numpy as np
    thr_gen, noise_gen = rng.spawn(2)
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    v = np.asarray(data, dtype=np.int64).reshape(-1, 2)
    q = v.shape[0]
    out = np.full((n, q), -2, dtype=np.int64)
    c = np.zeros(n, dtype=np.int64)
    w_hat = w + _laplace_vec(thr_gen, lam, n)
    for i in range(q):
        c0, c1 = int(v[i, 0]), int(v[i, 1])
        label = 1 if c1 > c0 else 0
        dist = max(0, abs(c0 - c1) - 1)
        active = c <= T
        hit = active & (dist + _laplace_vec(noise_gen, 2.0 * lam, n) > w_hat)
        out[hit, i] = label
        miss = active & ~hit
        out[miss, i] = -1
        c[miss] += 1
        w_hat = np.where(miss, w + _laplace_vec(thr_gen, lam, n), w_hat)
    print("bin_clas.batch:", n, "runs", flush=True)
    return out


bin_clas.batch = _batch
