"""Helper for tester ta's files: vectorised A_OQR loop over n runs (used only by .batch)."""
import numpy as np


def oqr_runs(labels, dists, n, rng, lam, w, T, halt_after, out_dtype=np.int64):
    """labels, dists: per-row arrays; a run stops answering once c > halt_after - 1 bottoms...
    halt_after = T + 1 for the spec's guard (c <= T); T for the guard c < T."""
    m = len(dists)
    out = np.full((n, m), -2, dtype=out_dtype)
    w_hat = w + rng.laplace(0.0, lam, size=n)
    c = np.zeros(n, dtype=np.int64)
    for i in range(m):
        active = c < halt_after
        noisy = dists[i] + rng.laplace(0.0, 2.0 * lam, size=n)
        rel = active & (noisy > w_hat)
        bot = active & ~rel
        out[rel, i] = labels[i]
        out[bot, i] = -1
        c += bot
        w_hat = np.where(bot, w + rng.laplace(0.0, lam, size=n), w_hat)
    return out
