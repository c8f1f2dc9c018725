"""Interval statistics for the privacy auditor.

Contract
--------
* :func:`cp_lower` / :func:`cp_upper` are the one-sided Clopper-Pearson bounds (exact binomial:
  quantiles of the beta distribution, ``scipy.special.betaincinv`` = ``scipy.stats.beta.ppf``
  without its per-call overhead; cross-checked against statsmodels in the tests): ``P[p < cp_lower(K, n, a)] <= a`` and ``P[p > cp_upper(K, n, a)] <= a``
  for ``K ~ Bin(n, p)``, every ``p``. Both vectorise over ``k`` and ``n``; fractional ``k`` is
  accepted (used only to *predict* a bound from estimated probabilities, never for a verdict).
* What an event's two bounds show about a claim (ln((p_lo - delta) / p_hi) for (epsilon, delta)-DP, and
  the other kinds of claim) is :mod:`..privacy.claims`; :func:`best_predicted` finds, in groups of candidate events,
  the one whose predicted bound on a claim is largest.
* scipy.special is imported on first use, not with this module: it costs a command's start
  0.1 s, and ``dptestbed audit`` imports it in a background thread while it samples.
* :func:`bonferroni` splits a family-wise error ``alpha`` over ``m`` tests; the auditor applies it
  over exactly the (pair, event) candidates it evaluates on fresh data, and over the rounds.
"""

from __future__ import annotations

import functools
import math

import numpy as np

__all__ = [
    "cp_lower", "cp_upper", "clopper_pearson", "wilson_bounds", "bonferroni", "binomial_false_alarm_limit",
    "best_predicted",
]


def cp_lower(k, n, alpha):
    """One-sided lower Clopper-Pearson bound at level ``1 - alpha`` (0 where ``k == 0``)."""
    from scipy import special  # on first use (module docstring)
    k, n, alpha = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (k, n, alpha)))
    out = np.zeros(k.shape)
    pos = k > 0
    if np.any(pos):
        out[pos] = special.betaincinv(k[pos], n[pos] - k[pos] + 1, alpha[pos])  # Beta(k, n-k+1).ppf(alpha)
    return out if out.ndim else float(out)


def cp_upper(k, n, alpha):
    """One-sided upper Clopper-Pearson bound at level ``1 - alpha`` (1 where ``k == n``)."""
    from scipy import special  # on first use (module docstring)
    k, n, alpha = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (k, n, alpha)))
    out = np.ones(k.shape)
    below = k < n
    if np.any(below):
        out[below] = special.betaincinv(k[below] + 1, n[below] - k[below], 1 - alpha[below])  # Beta(k+1, n-k).ppf(1-alpha)
    return out if out.ndim else float(out)


def clopper_pearson(k, n, confidence=0.95):
    """Two-sided Clopper-Pearson interval ``(lo, hi)`` at ``confidence`` (alpha/2 per tail);
    the same as ``statsmodels.stats.proportion.proportion_confint(k, n, 1 - confidence, "beta")``."""
    a = (1 - confidence) / 2
    return cp_lower(k, n, a), cp_upper(k, n, a)


def wilson_bounds(p, n, alpha=0.05):
    """One-sided Wilson score bounds ``(lower, upper)``, each at level ``1 - alpha``, of a proportion observed
    as ``p`` in ``n`` trials: a fast stand-in for Clopper-Pearson, used only to screen candidate events."""
    z = _normal_quantile(1 - float(alpha))
    k = np.clip(np.asarray(p, dtype=float), 0, 1) * n
    z2 = z * z
    half = z * np.sqrt(np.maximum(k * (n - k) / n, 0) + z2 / 4)
    return (k + z2 / 2 - half) / (n + z2), (k + z2 / 2 + half) / (n + z2)


@functools.lru_cache(maxsize=64)
def _normal_quantile(q: float) -> float:
    from scipy import special  # on first use (module docstring)

    return float(special.ndtri(q))  # without loading scipy.stats


SELECTION_SHRINK = 0.16  # one-sided level (about one sigma) of the shrunk selection estimates


def best_predicted(groups, n, claim, alpha=0.05, screen: int = 4, n_est: int | None = None) -> list[tuple[int, float]]:
    """For each group ``(p1, p2)`` of candidate arrays, ``(index, bound)`` of the candidate with
    the largest predicted bound on ``claim`` (a :class:`..privacy.claims.Claim`: ``claim.predicted``): screened
    with the Wilson approximation (``claim.approx_predicted``), the best ``screen`` of each group scored
    exactly, all groups in one exact call. (The exact bound costs 2-3 us a candidate at n = 10^6; over
    10 audits' 2,282 groups the best of the Wilson top 4 was the best of its top 8 every time.)

    ``n_est``: the runs the probabilities were estimated on. They are then shrunk to their one-sigma Wilson
    bounds first, so that among a thousand thresholds the one whose few tail counts fell luckily does not win:
    a bound predicted for ``n`` runs takes an estimate as exact, and a tail of 5 runs against 0 predicts a loss
    that no other threshold reaches (a Gaussian's mu-bound is mu at every threshold; a mean on a subsample of
    1,000 of 2,048 records, loss 1.46 on a threshold with 6% of the runs, lost to a tail 4.6 scales out that
    predicted 2.6 from 65,452 runs a side and showed nothing on fresh ones)."""
    groups = [(np.asarray(p1, dtype=float), np.asarray(p2, dtype=float)) for p1, p2 in groups]
    if n_est:
        groups = [(wilson_bounds(p1, n_est, SELECTION_SHRINK)[0], wilson_bounds(p2, n_est, SELECTION_SHRINK)[1])
                  for p1, p2 in groups]
    big = [g for g in groups if g[0].size > screen]
    if big:  # every group's approximation in one call
        approx = claim.approx_predicted(np.concatenate([g[0] for g in big]), np.concatenate([g[1] for g in big]),
                                        n, alpha)
    picked, start = [], 0
    for p1, p2 in groups:
        if p1.size <= screen:
            idx = np.arange(p1.size)
        else:
            idx = np.argpartition(-approx[start:start + p1.size], screen)[:screen]
            start += p1.size
        picked.append((idx, p1[idx], p2[idx]))
    exact = np.atleast_1d(claim.predicted(np.concatenate([p[1] for p in picked]),
                                          np.concatenate([p[2] for p in picked]), n, alpha))
    out, start = [], 0
    for idx, _, _ in picked:
        mine = exact[start:start + idx.size]
        start += idx.size
        if not idx.size:  # a group without candidates (a view whose values are all infinite) shows nothing
            out.append((0, -math.inf))
            continue
        j = int(np.argmax(mine))
        out.append((int(idx[j]), float(mine[j])))
    return out


def bonferroni(alpha: float, m: int) -> float:
    """Per-test level for ``m`` tests at family-wise error ``alpha``."""
    return alpha / max(int(m), 1)


def binomial_false_alarm_limit(trials: int, rate: float, level: float = 1e-3) -> int:
    """The largest alarm count in ``trials`` runs that a one-sided exact binomial test at
    ``level`` still accepts as consistent with a false-alarm rate <= ``rate``."""
    # isf gives the smallest k with P[Bin > k] <= level: alarms above k are rejected.
    from scipy import stats

    return int(stats.binom.isf(level, trials, rate))
