"""PRIVACY BUG (a path taken only at huge vote counts): subsample_aggregate_prediction_corrected that switches,
for more than 1,000 teachers (c_0 + c_1 > 1000), to the "cheaper" Laplace vote of note ALG-1L but mis-derives
its scale: label 1 iff nu + Lap(1/epsilon) > 0 (ALG-1L needs Lap(2/epsilon) on nu, whose sensitivity is 2);
nu = 0 gives a fair coin. Up to 1,000 teachers (and always in the dataset form, where r = ceil(6 ln(4/alpha)/eps))
it is the spec's soft majority, logistic(eps nu/2), computed stably.
TRUTH: epsilon = 1, r = 1002 teachers. Pair [501, 501] (nu = 0) ~ [502, 500] (nu = -2), one vote moved:
P[out = 1] = 1/2 against P[Lap(1) > 2] = e^-2/2 = 0.0677: loss ln(0.5/0.0677) = 2.0 = 2 epsilon against the
claim epsilon = 1 (on mass 1/2). (Odd r, [501, 500] ~ [502, 499]: 1 - e^-1/2 = 0.816 against e^-1... loss 2 on
output 0 too.) At r <= 1000 the law is exactly the spec's.
Expected: claim violated if the audit moves votes near a tie in rows of more than 1,000 votes; otherwise pass.
"""
import numpy as np
from _softmaj_r19_common import is_dataset, votes_from_dataset

_MANY = 1000


def _p1(nu, epsilon):
    x = epsilon * np.asarray(nu, dtype=float) / 2.0
    return np.where(x >= 0, 1.0 / (1.0 + np.exp(-np.abs(x))), np.exp(-np.abs(x)) / (1.0 + np.exp(-np.abs(x))))


def _sample(c0, c1, epsilon, rng, size):
    c0 = np.asarray(c0, dtype=np.int64)
    c1 = np.asarray(c1, dtype=np.int64)
    nu = c1 - c0
    if np.all(c0 + c1 > _MANY):
        z = nu + rng.laplace(0.0, 1.0 / epsilon, size=size)
        return (z > 0).astype(np.int8)
    return (rng.random(size) < _p1(nu, epsilon)).astype(np.int8)


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
