"""Exponential mechanism (loss form) by the Gumbel-max trick, per call with a lazy import.

argmax_i (-epsilon loss_i / (2 Delta) + G_i), G_i i.i.d. standard Gumbel, selects i with
probability exp(-epsilon loss_i/(2 Delta)) / sum_j exp(-epsilon loss_j/(2 Delta)) exactly
(the Gumbel-max identity); it needs no normalisation, so no overflow for large losses.
Ties between the perturbed scores have probability 0; np.argmax takes the first.
G = -log(E), E ~ Exp(1) from rng.standard_exponential (E > 0 almost surely).
"""


def em(data, *, rng, epsilon, sensitivity, num_candidates=None, beta=None, gap=None, **_):
    import numpy as np
    loss = np.asarray(data, dtype=float).reshape(-1)
    g = -np.log(rng.standard_exponential(loss.size))
    return int(np.argmax(-epsilon * loss / (2.0 * sensitivity) + g))


def _batch(data, n, *, rng, epsilon, sensitivity, **_):
    import numpy as np
    loss = np.asarray(data, dtype=float).reshape(-1)
    g = -np.log(rng.standard_exponential((n, loss.size)))
    return np.argmax(-epsilon * loss / (2.0 * sensitivity) + g, axis=1).astype(np.int64)


em.batch = _batch
