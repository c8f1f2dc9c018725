"""Stable histogram Hist (Lemma 15), counting with a dict in first-seen order.

Noise k goes to the k-th item seen (the noises are i.i.d., so which item gets which
draw does not matter); the released rows are then written in ascending id order.
"""
import math

import numpy as np


def _release(data, noise, epsilon, delta):
    counts = {}
    for v in data.tolist():
        counts[v] = counts.get(v, 0) + 1
    n = len(data)
    tau = 1.0 - (2.0 / epsilon) * math.log(delta)
    rel = []
    for j, (item, c) in enumerate(counts.items()):     # first-seen order
        c_noisy = c + float(noise[j])
        if c_noisy >= tau:
            rel.append((item, min(1.0, c_noisy / n)))
    rel.sort()
    out = np.tile(np.array([-1.0, 0.0]), (n, 1))
    for r, (item, a) in enumerate(rel):
        out[r, 0] = item
        out[r, 1] = a
    return out


def hist(data, *, rng, epsilon, delta, eta=None, beta=None, n=None):
    d = np.asarray(data, dtype=np.int64).reshape(-1)
    k = len(set(d.tolist()))
    noise = rng.laplace(0.0, 2.0 / epsilon, size=k)
    return _release(d, noise, epsilon, delta)


def _batch(data, N, *, rng, epsilon, delta, eta=None, beta=None, n=None):
    d = np.asarray(data, dtype=np.int64).reshape(-1)
    k = len(set(d.tolist()))
    noise = rng.laplace(0.0, 2.0 / epsilon, size=(N, k))
    return np.stack([_release(d, noise[i], epsilon, delta) for i in range(N)])


hist.batch = _batch
