"""exponential_mechanism, VALID, written differently: the Gumbel-max trick.

argmax_i ( -epsilon*loss_i/(2*sensitivity) + G_i ), G_i i.i.d. standard Gumbel, selects i with probability
exactly exp(-epsilon*loss_i/(2 sensitivity)) / sum_j exp(-epsilon*loss_j/(2 sensitivity)) (ties have
probability 0). The Gumbel variables are drawn by inversion from uniforms: G = -log(-log(U)), U in (0, 1)
(rng.random() is in [0, 1): U = 0 is mapped to the next float up, probability 2^-53 per draw).
TRUTH: valid (same law as the spec).
"""

import numpy as np


def em(data, *, rng, epsilon, sensitivity):
    loss = np.asarray(data, dtype=float).ravel()
    u = rng.random(loss.size)
    u = np.where(u <= 0.0, np.nextafter(0.0, 1.0), u)
    g = -np.log(-np.log(u))
    score = -epsilon * loss / (2.0 * sensitivity) + g
    return int(np.argmax(score))
