"""The trade-off curve of an audit's best pair, for the report (descriptive: no verdict rests on it).

A test that rejects "the output came from D'" when an event E happens has type I error alpha = P[M(D') in E]
and type II error beta = 1 - P[M(D) in E]; the pair's trade-off curve T(alpha) is the least beta over tests of
type I error at most alpha (Dong, Roth and Su 2022, Definition 2.1), and a privacy claim holds on the pair
only if T lies on or above the curve the claim implies (f_{eps,delta}, G_mu, ...).

Estimated curve. Beside the verdict's events, the estimation split counts the threshold events {s <= t} of
the best candidate's scalar view s at CURVE_POINTS thresholds (quantiles of its rank half): the empirical
CDFs of s on both sides. With Dvoretzky-Kiefer-Wolfowitz bands (Massart's constant), both CDFs are within
e = sqrt(ln(4/a) / (2n)) of their estimates at every threshold at once with probability at least 1 - a, so
every point (alpha_hi, beta_hi) = (P_hat[D' in E] + e, 1 - P_hat[D in E] + e) of the family lies on or above
the true curve T together: an upper band on T (the data show T at least that low), for E = {s <= t} and its
complement. The band is drawn beside the claimed curve and, where an exact profile is known, the exact one.
"""

from __future__ import annotations

import math

import numpy as np

from .claims import Claim

CURVE_POINTS = 48
CURVE_CONFIDENCE = 0.95  # the band's own simultaneous level (descriptive; not in the verdict's family)
CURVE_TAIL = 0.01  # levels within this of 0 or 1 are exact order statistics (curve_thresholds)
CURVE_SUBSAMPLE = 1 << 16  # ... the others quantiles of about this many evenly strided values
GRID = np.concatenate([[0.0], np.geomspace(1e-6, 1.0, 120)])  # the alphas the claimed and exact curves are drawn at


def curve_thresholds(values: np.ndarray) -> np.ndarray:
    """CURVE_POINTS thresholds of a scalar view: quantiles of ``values`` at levels reaching into both tails. Any
    thresholds chosen on the rank half would do (the band holds for them all); on a large sample the tails' levels
    are exact order statistics (one partition) and the middle ones quantiles of an evenly strided subsample of
    CURVE_SUBSAMPLE values (np.quantile at 48 levels of 3.3e6 values took 0.28 s, and ran once a view a pair)."""
    values = values[np.isfinite(values)]
    n = values.size
    if n == 0:
        return np.empty(0)
    tail = np.geomspace(1.0 / n, 0.5, CURVE_POINTS // 2)
    levels = np.unique(np.concatenate([tail, 1 - tail]))
    if n <= 4 * CURVE_SUBSAMPLE:
        return np.unique(np.quantile(values, levels))
    m = int(math.ceil(CURVE_TAIL * n))  # the m + 1 smallest and largest values, each sorted
    parted = np.partition(values, [m, n - 1 - m])
    low, high = np.sort(parted[:m + 1]), np.sort(parted[n - 1 - m:])
    middle = np.quantile(values[::n // CURVE_SUBSAMPLE], levels)
    pos = levels * (n - 1)
    lo, frac = np.floor(pos).astype(np.int64), pos - np.floor(pos)
    out = middle.copy()
    for part, first, where in ((low, 0, lo + 1 <= m), (high, n - 1 - m, lo >= n - 1 - m)):
        i = lo[where] - first
        nxt = np.minimum(i + 1, part.size - 1)
        out[where] = part[i] + frac[where] * (part[nxt] - part[i])  # np.quantile's linear interpolation
    return np.unique(out)


def estimated_points(counts: np.ndarray, n: int, orient: int) -> dict:
    """The band's points (module doc) from ``counts`` of {s <= t} (one row per threshold, a column per side) on
    ``n`` runs a side; ``orient`` +1 when the data side is the likelier (the numerator)."""
    e = math.sqrt(math.log(4 / (1 - CURVE_CONFIDENCE)) / (2 * n))
    f_num, f_den = (counts[:, 0] / n, counts[:, 1] / n)[::orient]
    points = []
    for p1, p2 in ((f_num, f_den), (1 - f_num, 1 - f_den)):  # {s <= t} and its complement
        alpha = np.minimum(1.0, p2 + e)
        beta = np.minimum(1.0, 1 - p1 + e)
        # points on or above the diagonal beta = 1 - alpha show no loss (the other orientation's events)
        points += [[float(a), float(b)] for a, b in zip(alpha, beta) if a + b < 1]
    return {"points": sorted(points), "dkw_epsilon": e, "confidence": CURVE_CONFIDENCE, "n_per_side": int(n)}


def claimed_curve(claim: Claim, alphas: np.ndarray = GRID) -> list[float] | None:
    """The trade-off curve the claim implies at ``alphas`` (beta at least this): f_{eps, delta}(alpha) =
    max(0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)) for (epsilon, delta) and the pointwise maximum
    over a curve's points; G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu) for mu-GDP; for a Renyi-type claim the
    maximum of f over the (epsilon, delta) points it implies at deltas 1e-9..0.5 (Mironov 2017, Proposition 3:
    (a, eps_a)-RDP gives (eps_a + ln(1/delta)/(a - 1), delta); rho-zCDP is rho a at every order a)."""
    alphas = np.asarray(alphas, dtype=float)
    if claim.kind == "gdp":
        from scipy import special

        return list(map(float, special.ndtr(special.ndtri(1 - alphas) - claim.value)))
    if claim.kind == "dp":
        points = [(claim.value, claim.delta)]
    elif claim.kind == "curve":
        points = list(claim.points)
    else:
        orders = (claim.points if claim.kind == "renyi" else
                  [(a, claim.value * a) for a in (1.25, 1.5, 2, 3, 4, 6, 8, 16, 32, 64)])
        points = [(e + math.log(1 / d) / (a - 1), d) for a, e in orders for d in np.geomspace(1e-9, 0.5, 30)]
    out = np.zeros_like(alphas)
    for eps, delta in points:
        f = np.maximum.reduce([np.zeros_like(alphas), 1 - delta - math.exp(eps) * alphas,
                               math.exp(-eps) * (1 - delta - alphas)])
        out = np.maximum(out, f)
    return list(map(float, out))
