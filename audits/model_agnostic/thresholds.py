"""The learning setup of seed 000 Sec. 4 shared by its experiments (notes Sec. 4): 1-D thresholds
h_t(x) = 1[x >= t], X ~ U[0, 1], target t* = 0.5 (a constant label then errs 1/2, above T/m at the
realizable point m = 800, T/m = 0.375); err(h_t) = |t - t*| (realizable) and
eta + (1 - 2 eta)|t - t*| under flip noise eta (agnostic).

In the realizable case, consistent ERM with ties to the smallest t returns the smallest positive
training point, so a chunk's threshold has the exact law t_j = t* + s, P[s > u] = (1 - u)^n'
(t_j = +inf when no point is >= t*); experiments marked "exact ERM law" sample t_j from it (this
is the law of impl.learners.threshold_erm on the chunk, not an approximation) instead of
materialising k n' records. Agnostic experiments train impl.learners.threshold_erm on records.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from dptestbed.audits.api import Context

T_STAR = 0.5
T_STAR_APRIV = 0.2  # the noiseless v-bar setup validation only
# A_Priv instances: X ~ U[lo, lo + 0.4] with (lo, t*) alternating between (0, 0.05) and (0.6, 0.95) over
# the trials, so that every constant threshold errs 7/8 of the mass in half the trials (> 7 alpha, 15 alpha)
APRIV_SUPPORTS = ((0.0, 0.125), (0.6, 0.875))  # (lo, t* in units of the support) per trial parity
APRIV_WIDTH = 0.4


# =========================================================================== 1-D thresholds, Sec. 4


def erm_thresholds_exact(rng, k: int, n_prime: int, t_star: float = T_STAR, size=None) -> np.ndarray:
    """k chunk thresholds with the exact law of realizable consistent ERM (ties to the smallest t)
    on n' uniform points: t* + s, P[s > u] = (1 - u)^n', +inf when no point lies above t*."""
    shape = (k,) if size is None else (size, k)
    s = -np.expm1(np.log(rng.random(shape)) / n_prime)  # 1 - U^(1/n')
    return np.where(s <= 1 - t_star, t_star + s, np.inf)


def erm_thresholds_records(rng, k: int, n_prime: int, eta: float, t_star: float = T_STAR) -> np.ndarray:
    """k chunk thresholds from impl.learners.threshold_erm on k x n' uniform records with flip noise eta."""
    from dptestbed.impl.learners import threshold_erm

    X = rng.random((k, n_prime))
    y = (X >= t_star).astype(np.int64)
    y ^= (rng.random((k, n_prime)) < eta).astype(np.int64)
    return threshold_erm(X, y)


def erm_thresholds_window(rng, k: int, n_prime: int, eta: float, t_star: float = T_STAR,
                          half_width: float = 0.1) -> np.ndarray:
    """k chunk thresholds with the law of impl.learners.threshold_erm on n' uniform records with flip
    noise eta, materialising only the records in W = [t* - h, t* + h] (clipped to [0, 1]; their number
    is Binomial(n', |W|)). A record outside W adds the same count to the empirical error of every cut
    inside W, so the minimiser is the same unless the error walk, whose drift is 1 - 2 eta per record
    away from t*, comes back over about h n' (1 - 2 eta) records (probability about
    (eta/(1 - eta))^(h n' (1 - 2 eta)), below 1e-50 at the instances here); +inf stands for 'the first
    record right of W' (no record in [t*, t* + h]: probability (1 - h)^n' per chunk)."""
    from dptestbed.impl.learners import threshold_erm_sorted

    lo, hi = max(0.0, t_star - half_width), min(1.0, t_star + half_width)
    count = rng.binomial(n_prime, hi - lo, size=k)
    slots = max(1, int(count.max()))
    # the records of a chunk in increasing order, drawn as such: c uniform order statistics are the first c
    # partial sums of c + 1 standard exponential gaps over their total (no sort)
    sums = np.cumsum(rng.standard_exponential((k, slots + 1)), axis=1)
    present = np.arange(slots)[None, :] < count[:, None]
    X = np.where(present, lo + (hi - lo) * (sums[:, :slots] / np.take_along_axis(sums, count[:, None], axis=1)),
                 np.inf)  # absent: (inf, 1), no error below inf
    y = np.where(present, (X >= t_star) ^ (rng.random((k, slots)) < eta), 1)
    return threshold_erm_sorted(X, y)


def threshold_error(t, eta: float = 0.0, t_star: float = T_STAR) -> np.ndarray:
    """err(h_t) = eta + (1 - 2 eta)|t - t*| on U[0, 1] (t = inf: everything 0, |1 - t*|)."""
    t = np.asarray(t, dtype=float)
    d = np.where(np.isfinite(t), np.abs(np.clip(t, 0, 1) - t_star), 1 - t_star)
    return eta + (1 - 2 * eta) * d


def votes_on(thresholds: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Votes (m, 2) of the chunk thresholds on the queries x (label 1 iff x >= t_j)."""
    ones = np.searchsorted(np.sort(thresholds), x, side="right")
    return np.stack([thresholds.size - ones, ones], axis=-1).astype(np.int64)


def classification_trial(ctx: Context, agnostic: bool, n_prime: int, k: int, window: float | None = None):
    """One data set: chunk thresholds, queries with hidden labels, votes (agnostic chunk thresholds from
    records, or with ``window`` from :func:`erm_thresholds_window`)."""
    eta = float(ctx.params.get("gamma", 0.0)) if agnostic else 0.0
    if agnostic and window is not None:
        t = erm_thresholds_window(ctx.rng, k, n_prime, eta, half_width=window)
    elif agnostic:
        t = erm_thresholds_records(ctx.rng, k, n_prime, eta)
    else:
        t = erm_thresholds_exact(ctx.rng, k, n_prime)
    m = int(ctx.params["m"])
    x = ctx.rng.random(m)
    y = (x >= T_STAR).astype(np.int64) ^ (ctx.rng.random(m) < eta).astype(np.int64)
    return t, x, y, votes_on(t, x), eta



def erm_failure_bound(n_prime: int, eta: float, radius: float) -> float:
    """An exact upper bound on P[|t_hat - t*| > radius] for threshold ERM (impl.learners.threshold_erm, ties to
    the smallest t) on n' uniform records with flip noise eta (t* at least ``radius`` from 0 and 1).

    Right side: t_hat > t* + radius needs E(t_hat) <= E(t*) (E the empirical error; the cut at the first record
    >= t* has E(t*)), i.e. among the j records in [t*, t_hat), all N_R records of [t*, t* + radius] among them,
    at most half carry their true label 1: the walk S_j = sum of (+1 true label, -1 flipped) is <= 0 for some
    j >= N_R (j = 0 possible only when N_R = 0). Left side: the same with the records of [t_hat, t*), j >= 1.
    Union over j: P <= sum_a P[N = a] min(1, sum_{j >= a} P[Bin(j, eta) >= j/2]) per side, N ~ Bin(n', radius)."""
    j = np.arange(0, n_prime + 1)
    walk = np.where(j > 0, stats.binom.sf(np.ceil(j / 2) - 1, j, eta), 1.0)  # P[S_j <= 0]
    tail = np.cumsum(walk[::-1])[::-1]                                        # sum over j >= a
    weights = stats.binom.pmf(j, n_prime, radius)
    right = np.sum(weights * np.minimum(1.0, tail))
    left = np.sum(weights * np.minimum(1.0, np.where(j > 0, tail, tail[min(1, n_prime)])))
    return float(left + right)
