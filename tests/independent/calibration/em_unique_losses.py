"""Exponential mechanism (loss form) that samples over the DISTINCT loss values.

Vectorised for long candidate lists with many equal error counts: the weights
exp(-epsilon*loss/(2*sensitivity)) are computed once per distinct loss value
(np.unique), a value is drawn, and the first candidate holding that value is
returned.  The multiplicity of a value is forgotten, and later candidates that
tie with an earlier one can never be selected.
"""
import numpy as np


def _table(data, epsilon, sensitivity):
    losses = np.asarray(data, dtype=float).ravel()
    vals, first = np.unique(losses, return_index=True)
    logits = -epsilon * vals / (2.0 * sensitivity)
    logits -= logits.max()
    w = np.exp(logits)
    return first, w / w.sum()


def exponential(data, *, rng, epsilon, sensitivity):
    first, p = _table(data, epsilon, sensitivity)
    k = rng.choice(len(p), p=p)
    return int(first[k])


def _batch(data, n, *, rng, epsilon, sensitivity):
    first, p = _table(data, epsilon, sensitivity)
    k = rng.choice(len(p), size=n, p=p)
    return first[k].astype(np.int64)


exponential.batch = _batch
