"""Exponential mechanism by the Gumbel-max trick, per call only, with a log line.

argmax_i (-epsilon*loss_i/(2*sensitivity) + G_i), G_i i.i.d. standard Gumbel, selects i
with probability exactly proportional to exp(-epsilon*loss_i/(2*sensitivity)) (ties have
probability 0).  Every call writes one line to stderr.
"""
import sys


def exponential(data, *, rng, epsilon, sensitivity, **unused):
    import numpy as np  # lazy import

    losses = np.asarray(data, dtype=float).ravel()
    scores = -epsilon * losses / (2.0 * sensitivity)
    g = rng.gumbel(size=losses.size)
    k = np.argmax(scores + g)
    print(f"[em] {losses.size} candidates -> {int(k)}", file=sys.stderr)
    return k  # numpy int64 scalar
