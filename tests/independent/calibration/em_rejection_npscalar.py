"""Exponential mechanism (loss form): Pr[i] proportional to exp(-epsilon*loss_i/(2*sensitivity)).
Per call: rejection sampling, propose i uniformly (rng.integers), accept with probability
exp(-epsilon*(loss_i - min loss)/(2*sensitivity)) <= 1; the accepted index has exactly the target law
(the acceptance probability is proportional to the weight). Returns a numpy int64 scalar. Accepts the
theorem-only keywords (num_candidates, beta, gap) through **_. Batch: Gumbel-max from rng.gumbel,
argmax of -epsilon*loss/(2 sensitivity) + G_i (the same law). Law: the spec's."""
import numpy as np


def _logw(data, epsilon, sensitivity):
    loss = np.asarray(data, dtype=np.float64).reshape(-1)
    s = -epsilon * loss / (2.0 * sensitivity)
    return s - s.max()


def em(data, *, rng, epsilon, sensitivity, **_):
    lw = _logw(data, epsilon, sensitivity)
    k = lw.size
    while True:
        i = rng.integers(k)
        if np.log(rng.random()) < lw[i]:   # P[accept | i] = exp(lw[i])
            return np.int64(i)


def _batch(data, N, *, rng, epsilon, sensitivity, **_):
    lw = _logw(data, epsilon, sensitivity)
    g = rng.gumbel(0.0, 1.0, size=(N, lw.size))
    return np.argmax(lw[None, :] + g, axis=1).astype(np.int64)


em.batch = _batch
