"""VALID: subsample_aggregate_prediction_corrected (002 Thm 1 soft majority) sampled as report-noisy-max with
Gumbel noise: label = argmax_b (epsilon * c_b / 2 + G_b), G_b i.i.d. Gumbel(0, 1).

P[1] = e^(eps c_1/2)/(e^(eps c_0/2) + e^(eps c_1/2)) = logistic(eps nu/2): the spec's law exactly (note ALG-1,
"equivalent forms"); no overflow for any vote count. Handles the vote form [c_0, c_1] and the dataset form
(positional blocks of m = n // r records, A_min teachers, fresh coins per query).
TRUTH: identical law to the spec; epsilon-DP per query (q epsilon for q queries). Expected: pass (exit 0).
"""
import numpy as np
from _softmaj_r19_common import is_dataset, votes_from_dataset


def _sample(c0, c1, epsilon, rng, size):
    g = rng.gumbel(0.0, 1.0, size=size + (2,))
    s0 = epsilon * np.asarray(c0, dtype=float) / 2.0 + g[..., 0]
    s1 = epsilon * np.asarray(c1, dtype=float) / 2.0 + g[..., 1]
    return (s1 > s0).astype(np.int8)


def soft_majority(data, *, rng, epsilon, alpha, q=1):
    if is_dataset(data):
        c0, c1, scalar = votes_from_dataset(data, epsilon, alpha)
        out = _sample(c0, c1, epsilon, rng, (c0.size,))
        return int(out[0]) if scalar else out
    v = np.asarray(data).ravel()
    return int(_sample(v[0], v[1], epsilon, rng, ()))


def soft_majority_batch(data, n, *, rng, epsilon, alpha, q=1):
    if is_dataset(data):
        c0, c1, scalar = votes_from_dataset(data, epsilon, alpha)
        out = _sample(c0[None, :], c1[None, :], epsilon, rng, (n, c0.size))
        return out[:, 0] if scalar else out
    v = np.asarray(data).ravel()
    return _sample(v[0], v[1], epsilon, rng, (n,))


soft_majority.batch = soft_majority_batch
