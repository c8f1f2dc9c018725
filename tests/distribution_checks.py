"""Distribution checks shared by the implementation tests: a correct sampler must pass each
(p > ALPHA), a broken one fail it. Seeds are fixed, so every test is deterministic; ALPHA is tiny
so that a seed change cannot produce a false alarm except with probability ~1e-6 per check."""

from __future__ import annotations

import numpy as np
from scipy import stats

ALPHA = 1e-6      # a correct mechanism must give p > ALPHA; a broken one p < ALPHA
N_BATCH = 100_000
N_SINGLE = 3_000


def rng(seed):
    return np.random.default_rng(seed)


def _rows(x):
    x = np.asarray(x)
    return x.reshape(len(x), -1)


def two_sample_p(a, b):
    """p-value that two samples of discrete outputs (scalars or rows) share one law: chi-square on
    the 2 x K table of output categories, categories with small expected counts pooled."""
    a, b = _rows(a), _rows(b)
    cats, inv = np.unique(np.concatenate([a, b]), axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    table = np.stack([np.bincount(inv[: len(a)], minlength=len(cats)),
                      np.bincount(inv[len(a):], minlength=len(cats))]).astype(float)
    table = _pool(table, table.sum(0) * min(len(a), len(b)) / (len(a) + len(b)))
    if table.shape[1] < 2:
        return 1.0
    return stats.chi2_contingency(table)[1]


def _pool(table, expected, floor=5.0):
    small = expected < floor
    if small.sum() == 0:
        return table
    return np.concatenate([table[:, ~small], table[:, small].sum(1, keepdims=True)], axis=1)


def gof_p(samples, probs: dict):
    """Chi-square goodness of fit of discrete samples (scalars or rows) to exact probabilities
    ``{category tuple or scalar: p}``; categories never observed and not listed count as misses."""
    rows = _rows(samples)
    keys = list(probs)
    key_rows = np.array([np.atleast_1d(k) for k in keys], dtype=float)
    observed = np.zeros(len(keys) + 1)
    cats, counts = np.unique(rows, axis=0, return_counts=True)
    for cat, count in zip(cats, counts):
        hit = np.flatnonzero(np.all(key_rows == cat, axis=1))
        observed[hit[0] if hit.size else -1] += count
    p = np.array([probs[k] for k in keys] + [0.0])
    p[-1] = max(0.0, 1.0 - p[:-1].sum())
    assert abs(p.sum() - 1) < 1e-6
    expected = p * len(rows)
    keep = expected >= 5
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    if exp[-1] == 0:
        if obs[-1] > 0:
            return 0.0  # an impossible output occurred
        obs, exp = obs[:-1], exp[:-1]
    return stats.chisquare(obs, exp * obs.sum() / exp.sum())[1]


def binom_p(successes, n, p):
    return stats.binomtest(int(successes), int(n), p).pvalue


def single_runs(mechanism, data, n, seed, **params):
    g = rng(seed)
    return np.array([mechanism(data, rng=g, **params) for _ in range(n)])


def assert_agree(mechanism, data, *, continuous=False, seed=11, n_single=N_SINGLE, **params):
    """The batch sampler and the single-run function draw from the same law."""
    single = single_runs(mechanism, data, n_single, seed, **params)
    batch = mechanism.batch(data, N_BATCH // 2, rng=rng(seed + 1), **params)
    assert batch.shape[0] == N_BATCH // 2 and batch.shape[1:] == single.shape[1:]
    assert batch.dtype.kind == single.dtype.kind
    if continuous:
        for j in range(_rows(single).shape[1]):
            p = stats.ks_2samp(_rows(single)[:, j], _rows(batch)[:, j]).pvalue
            assert p > ALPHA, f"batch and single-run disagree on coordinate {j} (KS p = {p:.2g})"
    else:
        p = two_sample_p(single, batch)
        assert p > ALPHA, f"batch and single-run disagree (chi-square p = {p:.2g})"


def svt_transcript_probability(q, pattern, threshold, rho_scale, nu_scale, redraw, top_strict=False):
    """Exact transcript probability, by 1-D quadrature over the threshold noise of each segment
    (segments end at a re-draw of the threshold; given the threshold the answers are independent).
    top iff q_i + nu_i >= threshold + rho (Lyu) or > (seed 000, top_strict; same law)."""
    segments, current = [], []
    for qi, o in zip(q, pattern):
        if o == -1:
            break
        current.append((qi, o))
        if redraw(o):
            segments.append(current)
            current = []
    if current:
        segments.append(current)
    total = 1.0
    for seg in segments:
        if nu_scale is None:  # no query noise: the segment fixes an interval for rho
            lo = max([qi - threshold for qi, o in seg if o == 0], default=-np.inf)
            hi = min([qi - threshold for qi, o in seg if o == 1], default=np.inf)
            total *= max(0.0, stats.laplace.cdf(hi, scale=rho_scale) - stats.laplace.cdf(lo, scale=rho_scale))
            continue
        r = np.linspace(-40 * rho_scale, 40 * rho_scale, 40_001)
        integrand = stats.laplace.pdf(r, scale=rho_scale)
        for qi, o in seg:
            p_top = stats.laplace.sf(threshold + r - qi, scale=nu_scale)
            integrand = integrand * (p_top if o == 1 else 1 - p_top)
        total *= np.trapezoid(integrand, r)
    return total
