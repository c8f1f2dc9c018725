"""Exponential mechanism, per call only (no .batch): log-weights shifted by the FIRST
candidate's loss (any constant shift leaves the normalised law unchanged), normalised with a
lazily imported logsumexp, sampled by inverse CDF; returns a numpy int64 scalar.
Pr[i] = exp(-eps*loss_i/(2*sens)) / sum_j exp(-eps*loss_j/(2*sens)), exactly the spec's law.
"""


def exponential_mechanism(data, *, rng, epsilon, sensitivity, num_candidates=None, beta=None, gap=None):
    import numpy as np
    from scipy.special import logsumexp
    losses = np.asarray(data, dtype=np.float64).reshape(-1)
    s = -epsilon * (losses - losses[0]) / (2.0 * sensitivity)
    logp = s - logsumexp(s)
    cdf = np.cumsum(np.exp(logp))
    u = rng.random() * cdf[-1]
    i = np.searchsorted(cdf, u, side="right")
    return np.int64(min(i, losses.size - 1))
