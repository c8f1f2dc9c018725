"""GenericLearner (Lemma 16) -- PRIVACY BUG: duplicate rows merged, representative picked by a
hash of the sample.

To avoid scoring identical truth tables twice, H is deduplicated (np.unique over rows, the mass of
a function = multiplicity * exp(-epsilon*err/2), which is right); but the row index returned for a
function with several copies is chosen "pseudo-randomly yet reproducibly" as crc32(sample bytes)
mod multiplicity.  The index is a deterministic function of the private sample: two neighbouring
samples whose checksums differ mod the multiplicity return different rows of the same function
with probability 1, so the output distinguishes them.
"""
import zlib

import numpy as np


def _setup(data, epsilon):
    H = np.asarray(data["H"], dtype=np.int8)
    x = np.asarray(data["x"], dtype=np.int64)
    y = np.asarray(data["y"], dtype=np.int8)
    uniq, inv, mult = np.unique(H, axis=0, return_inverse=True, return_counts=True)
    inv = np.asarray(inv).ravel()
    err = (uniq[:, x] != y[None, :]).sum(axis=1).astype(float)
    logw = np.log(mult) - 0.5 * epsilon * err
    p = np.exp(logw - logw.max())
    p /= p.sum()
    h = zlib.crc32(x.astype(np.int64).tobytes() + y.astype(np.int8).tobytes())
    rep = np.empty(uniq.shape[0], dtype=np.int64)
    for u in range(uniq.shape[0]):
        rows = np.flatnonzero(inv == u)
        rep[u] = rows[h % rows.size]             # BUG: data-dependent representative
    return p, rep


def generic_learner(data, *, rng, epsilon, alpha, beta, n, H_size):
    p, rep = _setup(data, epsilon)
    return int(rep[rng.choice(p.size, p=p)])


def generic_learner_batch(data, n_runs, /, *, rng, epsilon, alpha, beta, n, H_size):
    p, rep = _setup(data, epsilon)
    return rep[rng.choice(p.size, size=n_runs, p=p)]


generic_learner.batch = generic_learner_batch
