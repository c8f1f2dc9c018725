"""generic_private_learner, privacy bug: agreement counts accumulated in int16.

err_S(h) = (n - sum_i H[h, x_i] y_i) / 2.  H and y are int8 (the spec's encoding); the int8 matmul
overflowed in the engineer's tests at n = 3300, so they widened to int16 ("enough for our
samples").  The int16 matmul wraps silently once |agreement| > 32767, i.e. for n >= 32768 with a
hypothesis that fits almost every example.  Exact otherwise (log-sum-exp sampling).

Truth: H = [[+1], [-1]] (|X| = 1), x = 0 (n = 32769 examples).  D: 32768 labels +1, one -1:
agreement(h0) = 32767, mistakes 1 / 32768.  D' (the -1 label replaced by +1): agreement(h0) = 32769
wraps to -32767 -> mistakes(h0) = 32768, mistakes(h1) = 1.  P_D[h0] = 1 - e^-16383.5,
P_D'[h0] = e^-16383.5: loss 16383.5 (inf in float) against epsilon = 1.
"""
import numpy as np


def _logits(data, epsilon):
    H = np.asarray(data["H"], dtype=np.int8)
    x = np.asarray(data["x"], dtype=np.int64)
    y = np.asarray(data["y"], dtype=np.int8)
    n = x.shape[0]
    agree = H[:, x].astype(np.int16) @ y.astype(np.int16)      # int16 accumulate (the bug)
    mistakes = (np.int64(n) - agree.astype(np.int64)) // 2
    return -epsilon * mistakes.astype(float) / 2.0


def learner(data, *, rng, epsilon, **params):
    lw = _logits(data, epsilon)
    lw = lw - lw.max()
    p = np.exp(lw)
    p /= p.sum()
    return int(np.searchsorted(np.cumsum(p), rng.random() * p.sum(), side="right").clip(0, p.size - 1))


def _batch(data, n, *, rng, epsilon, **params):
    lw = _logits(data, epsilon)
    lw = lw - lw.max()
    p = np.exp(lw)
    c = np.cumsum(p)
    u = rng.random(n) * c[-1]
    return np.searchsorted(c, u, side="right").clip(0, p.size - 1).astype(np.int64)


learner.batch = _batch
