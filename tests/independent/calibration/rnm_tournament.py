"""Report noisy max, Lap(2/epsilon).  Long answer vectors (k > 16) are handled as a two-round
tournament so each vectorised pass stays 16 wide: the noisy max of every block of 16 answers,
then the noisy max (fresh Lap(2/epsilon) noise) among the block winners' answers."""
import numpy as np

BLOCK = 16


def _rnm(q, rng, scale, n):
    return np.argmax(q + rng.laplace(0.0, scale, size=(n, q.shape[-1])), axis=-1)


def _batch(data, n, *, rng, epsilon, **_):
    q = np.asarray(data, dtype=float).ravel()
    scale = 2.0 / epsilon
    k = q.size
    if k <= BLOCK:
        return _rnm(q, rng, scale, n).astype(np.int64)
    starts = np.arange(0, k, BLOCK)
    winners = np.empty((n, starts.size), dtype=np.int64)
    for j, s in enumerate(starts):
        winners[:, j] = s + _rnm(q[s:s + BLOCK], rng, scale, n)
    final = np.argmax(q[winners] + rng.laplace(0.0, scale, size=winners.shape), axis=1)
    return winners[np.arange(n), final].astype(np.int64)


def report_noisy_max(data, *, rng, epsilon, **kw):
    return int(_batch(data, 1, rng=rng, epsilon=epsilon)[0])


report_noisy_max.batch = _batch
