"""VALID: exponential mechanism by the Gumbel-max trick: argmax_i (-epsilon*loss_i/(2*sensitivity)
+ G_i) with G_i i.i.d. standard Gumbel selects i with probability exactly proportional to
exp(-epsilon*loss_i/(2*sensitivity)); ties among continuous Gumbels have probability 0.
A different sampler, same law.  Expected class: pass.
"""
import numpy as np


def em(data, *, rng, epsilon, sensitivity, **_):
    loss = np.asarray(data, dtype=float)
    g = rng.gumbel(size=loss.size)
    return int(np.argmax(-epsilon * loss / (2.0 * sensitivity) + g))


def em_batch(data, n, *, rng, epsilon, sensitivity, **_):
    loss = np.asarray(data, dtype=float)
    g = rng.gumbel(size=(n, loss.size))
    return np.argmax(-epsilon * loss / (2.0 * sensitivity) + g, axis=1).astype(np.int64)


em.batch = em_batch
