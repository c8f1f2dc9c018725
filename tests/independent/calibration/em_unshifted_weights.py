"""Exponential mechanism over candidate losses, weights computed directly (no log-sum-exp shift).

w_i = exp(-epsilon * loss_i / (2 * sensitivity)); p = w / w.sum(). On error counts of a
few hundred this is fine. When the losses are large (error counts on a few thousand
examples: loss > ~1490 at epsilon = 1) every weight underflows to 0 (or, for very negative
losses, overflows to inf) and p is NaN; rng.choice then raised, so a guard was added:
"degenerate weights -> the best candidate is overwhelmingly likely anyway, return argmin".
That fallback is deterministic, and which candidate is the argmin is data-dependent.
"""
import numpy as np


def _probs(loss, epsilon, sensitivity):
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        w = np.exp(-epsilon * loss / (2.0 * sensitivity))
        tot = w.sum()
        p = w / tot
    if not np.isfinite(tot) or tot <= 0.0 or not np.all(np.isfinite(p)):
        return None
    return p


def exp_mech(data, *, rng, epsilon, sensitivity, **_):
    loss = np.asarray(data, dtype=float).ravel()
    p = _probs(loss, epsilon, sensitivity)
    if p is None:
        return int(np.argmin(loss))
    return int(rng.choice(loss.size, p=p))


def _batch(data, n, *, rng, epsilon, sensitivity, **_):
    loss = np.asarray(data, dtype=float).ravel()
    p = _probs(loss, epsilon, sensitivity)
    if p is None:
        return np.full(n, int(np.argmin(loss)), dtype=np.int64)
    return rng.choice(loss.size, size=n, p=p).astype(np.int64)


exp_mech.batch = _batch
