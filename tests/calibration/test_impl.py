"""Calibration of the reference mechanisms (the calibration corpus and seed 000's A_sparseVec and
A_stab).

For every mechanism:
- the vectorised batch sampler and the single-run function agree in distribution (two-sample
  chi-square on discrete outputs / transcripts, Kolmogorov-Smirnov on real outputs);
- where a closed form exists, the output law matches it exactly (KS against scipy.stats, chi-square
  against exact probabilities computed here independently of the implementation, binomial tests);
- every calibration check has power: the same check rejects a broken variant (30% too little
  noise, a dropped factor, a threshold kept when it must be re-drawn, ...), so a check that
  cannot fail would be caught here.

Seeds are fixed, so every test is deterministic; ALPHA is tiny so that a seed change cannot
produce a false alarm except with probability ~1e-6 per check, and the broken variants fail
with p-values far below it.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from scipy import stats

from dptestbed.impl.calibration import exponential, gaussian, laplace, noisy_max, svt_lyu
from dptestbed.impl.calibration import randomized_response as rr
from dptestbed.impl.model_agnostic import distance_to_instability as dti
from dptestbed.impl.model_agnostic import sparse_vector as sv
from dptestbed.spec import load_catalogue
from dptestbed.spec.schema import resolve_stress_values

ALPHA = 1e-6      # a correct mechanism must give p > ALPHA; a broken one p < ALPHA
N_BATCH = 100_000
N_SINGLE = 3_000


def rng(seed):
    return np.random.default_rng(seed)


# --------------------------------------------------------------------------- statistics helpers


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


# --------------------------------------------------------------------------- Laplace


def laplace_ks_p(mechanism, epsilon=1.0, gamma=1.0, seed=1):
    x = mechanism.batch([3.0], N_BATCH, rng=rng(seed), epsilon=epsilon, gamma=gamma)[:, 0]
    return stats.kstest(x, stats.laplace(loc=3.0, scale=gamma / epsilon).cdf).pvalue


def test_laplace_scale_is_exact_and_the_check_has_power():
    assert laplace_ks_p(laplace.laplace_mechanism) > ALPHA
    assert laplace_ks_p(laplace.laplace_mechanism, epsilon=0.3, gamma=2.0) > ALPHA
    assert laplace_ks_p(laplace.laplace_mechanism_broken) < ALPHA  # scale 30% too small


def test_laplace_single_run_matches_closed_form_and_batch():
    x = single_runs(laplace.laplace_mechanism, [0.0, 5.0], N_SINGLE, 3, epsilon=0.5, gamma=1.0)
    assert x.shape == (N_SINGLE, 2)
    for j, loc in enumerate([0.0, 5.0]):
        assert stats.kstest(x[:, j], stats.laplace(loc=loc, scale=2.0).cdf).pvalue > ALPHA
    assert_agree(laplace.laplace_mechanism, [0.0, 5.0], continuous=True, epsilon=0.5, gamma=1.0)
    assert_agree(laplace.laplace_mechanism_broken, [1.0], continuous=True, epsilon=1.0, gamma=1.0)


def test_laplace_tails_are_symmetric_and_exponential():
    x = laplace.laplace_mechanism.batch([0.0], 1_000_000, rng=rng(4), epsilon=1.0, gamma=1.0)[:, 0]
    for t in (4.0, 8.0):  # P[X > t] = P[X < -t] = exp(-t)/2
        expected = 0.5 * np.exp(-t) * x.size
        assert binom_p((x > t).sum(), x.size, 0.5 * np.exp(-t)) > ALPHA, (t, (x > t).sum(), expected)
        assert binom_p((x < -t).sum(), x.size, 0.5 * np.exp(-t)) > ALPHA


# --------------------------------------------------------------------------- Gaussian


def gaussian_ks_p(mechanism, seed=5, **params):
    x = mechanism.batch([0.0], N_BATCH, rng=rng(seed), **params)[:, 0]
    return stats.kstest(x, stats.norm(scale=params["sigma"]).cdf).pvalue


def test_gaussian_noise_scale_is_exact_and_the_check_has_power():
    params = dict(sigma=2.5)
    assert gaussian_ks_p(gaussian.gaussian_mechanism, **params) > ALPHA
    assert gaussian_ks_p(gaussian.gaussian_mechanism_broken, **params) < ALPHA  # sigma 30% too small
    assert_agree(gaussian.gaussian_mechanism, [0.0, 1.0], continuous=True, **params)


# --------------------------------------------------------------------------- randomized response


def test_randomized_response_keep_probability_is_exact_and_the_check_has_power():
    eps = 1.0
    keep = np.exp(eps) / (1 + np.exp(eps))
    for bit in (0, 1):
        out = rr.randomized_response.batch(bit, N_BATCH, rng=rng(6 + bit), epsilon=eps)
        assert out.dtype == np.int8 and set(np.unique(out)) <= {0, 1}
        assert binom_p((out == bit).sum(), N_BATCH, keep) > ALPHA
    # power: an epsilon 30% off (0.7*epsilon) is rejected by the same test
    wrong = rr.randomized_response.batch(0, N_BATCH, rng=rng(8), epsilon=0.7 * eps)
    assert binom_p((wrong == 0).sum(), N_BATCH, keep) < ALPHA
    single = single_runs(rr.randomized_response, 1, N_SINGLE, 9, epsilon=eps)
    assert all(isinstance(v, (int, np.integer)) for v in single[:5])
    assert binom_p((single == 1).sum(), N_SINGLE, keep) > ALPHA
    assert_agree(rr.randomized_response, 0, epsilon=eps)


# --------------------------------------------------------------------------- report noisy max


def noisy_max_probabilities(q, b):
    """P[argmax_i q_i + Lap(b) = i] = integral f(x - q_i) prod_{j != i} F(x - q_j) dx."""
    x = np.linspace(min(q) - 40 * b, max(q) + 40 * b, 200_001)
    cdfs = np.array([stats.laplace.cdf(x - qj, scale=b) for qj in q])
    probs = {}
    for i, qi in enumerate(q):
        dens = stats.laplace.pdf(x - qi, scale=b) * np.prod(np.delete(cdfs, i, axis=0), axis=0)
        probs[i] = np.trapezoid(dens, x)
    return probs


def test_report_noisy_max_matches_exact_probabilities_and_the_check_has_power():
    q, eps = [1.0, 1.0, 2.0, 0.0, 1.5], 1.0
    exact = noisy_max_probabilities(q, 2.0 / eps)
    assert abs(sum(exact.values()) - 1) < 1e-6
    out = noisy_max.report_noisy_max.batch(q, N_BATCH, rng=rng(10), epsilon=eps)
    assert out.shape == (N_BATCH,) and out.dtype.kind == "i"
    assert gof_p(out, exact) > ALPHA
    # power: 30% too little noise (scale 0.7*2/epsilon, i.e. epsilon/0.7) is rejected
    low_noise = noisy_max.report_noisy_max.batch(q, N_BATCH, rng=rng(11), epsilon=eps / 0.7)
    assert gof_p(low_noise, exact) < ALPHA
    assert isinstance(noisy_max.report_noisy_max(q, rng=rng(0), epsilon=eps), int)
    assert_agree(noisy_max.report_noisy_max, q, epsilon=eps)


def test_report_noisy_max_broken_releases_the_value_with_the_exact_law():
    q, eps = [0.0, 1.0, 0.5], 1.0
    b = 2.0 / eps

    def cdf(t):  # P[max_i q_i + Lap(b) <= t]
        return np.prod([stats.laplace.cdf(t - qi, scale=b) for qi in q], axis=0)

    value = noisy_max.report_noisy_max_broken.batch(q, N_BATCH, rng=rng(12), epsilon=eps)
    assert value.dtype == np.float64 and value.shape == (N_BATCH,)
    assert stats.kstest(value, cdf).pvalue > ALPHA
    assert stats.kstest(noisy_max.report_noisy_max_broken.batch(q, N_BATCH, rng=rng(13), epsilon=eps / 0.7),
                        cdf).pvalue < ALPHA
    # the left tail attains k*epsilon/2: P[max <= 0] on all-zero vs all-one answers
    k = 5
    lo = noisy_max.report_noisy_max_broken.batch([0.0] * k, N_BATCH, rng=rng(14), epsilon=eps)
    assert binom_p((lo <= 0).sum(), N_BATCH, 0.5 ** k) > ALPHA
    assert_agree(noisy_max.report_noisy_max_broken, q, continuous=True, epsilon=eps)


# --------------------------------------------------------------------------- exponential mechanism


def softmax_probs(losses, epsilon, sensitivity, factor):
    w = np.exp(-epsilon * np.asarray(losses) / (factor * sensitivity))
    return dict(enumerate(w / w.sum()))


def test_exponential_mechanism_probabilities_are_exact_and_the_check_has_power():
    u, eps, s = [0.0, 1.0, 1.0, 3.0, 0.5], 1.0, 1.0
    exact = softmax_probs(u, eps, s, 2.0)
    np.testing.assert_allclose(exponential.exponential_mechanism_probabilities(u, epsilon=eps, sensitivity=s),
                               list(exact.values()), rtol=1e-12)
    gumbel = exponential.exponential_mechanism.batch(u, N_BATCH, rng=rng(15), epsilon=eps, sensitivity=s)
    assert gof_p(gumbel, exact) > ALPHA
    single = single_runs(exponential.exponential_mechanism, u, N_SINGLE, 16, epsilon=eps, sensitivity=s)
    assert gof_p(single, exact) > ALPHA
    # power: the broken variant (factor 2 dropped) fails the same check, and matches its own law
    broken = exponential.exponential_mechanism_broken.batch(u, N_BATCH, rng=rng(17), epsilon=eps, sensitivity=s)
    assert gof_p(broken, exact) < ALPHA
    assert gof_p(broken, softmax_probs(u, eps, s, 1.0)) > ALPHA
    assert_agree(exponential.exponential_mechanism, u, epsilon=eps, sensitivity=s)
    assert_agree(exponential.exponential_mechanism_broken, u, epsilon=eps, sensitivity=s)


def test_exponential_mechanism_is_stable_for_huge_losses():
    u = [1e6, 1e6 + 1.0, 2e6]
    p = exponential.exponential_mechanism_probabilities(u, epsilon=1.0, sensitivity=1.0)
    assert np.all(np.isfinite(p)) and abs(p.sum() - 1) < 1e-12 and p[0] > p[1] > p[2]
    assert exponential.exponential_mechanism.batch(u, 10, rng=rng(0), epsilon=1.0, sensitivity=1.0).max() < 2


# --------------------------------------------------------------------------- Lyu-Su-Li SVT variants

#   variant: (rho scale, nu scale (None = no noise), cutoff (None = none), re-draw after a top)
def lyu_scales(n, epsilon, c):
    return {
        1: (2 / epsilon, 4 * c / epsilon, c, False),
        2: (2 * c / epsilon, 4 * c / epsilon, c, True),
        3: (2 / epsilon, 2 * c / epsilon, c, False),
        4: (4 / epsilon, 4 / (3 * epsilon), c, False),
        5: (2 / epsilon, None, None, False),
        6: (2 / epsilon, 2 / epsilon, None, False),
    }[n]


def svt_patterns(m, c):
    """All transcripts in {1, 0, -1}^m: answered until the c-th top (no cutoff if c is None)."""
    out = []

    def rec(prefix, tops):
        if len(prefix) == m:
            out.append(tuple(prefix))
        elif c is not None and tops >= c:
            out.append(tuple(prefix + [-1] * (m - len(prefix))))
        else:
            rec(prefix + [0], tops)
            rec(prefix + [1], tops + 1)

    rec([], 0)
    return out


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


def lyu_exact(n, q, epsilon, threshold, c):
    rho_scale, nu_scale, cutoff, redraw_after_top = lyu_scales(n, epsilon, c)
    redraw = (lambda o: o == 1) if redraw_after_top else (lambda o: False)
    return {p: svt_transcript_probability(q, p, threshold, rho_scale, nu_scale, redraw)
            for p in svt_patterns(len(q), cutoff)}


LYU_Q = [0.5, -1.0, 1.0, 0.0, 2.0]


def lyu_codes(n, out, m):
    return out[:, :m] if n == 3 else out


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_svt_lyu_transcripts_match_exact_probabilities_and_the_check_has_power(n):
    mechanism = getattr(svt_lyu, f"svt_lyu_{n}")
    eps, T, c = 1.0, 0.5, (2 if n == 2 else 1)
    m = len(LYU_Q)
    exact = lyu_exact(n, LYU_Q, eps, T, c)
    assert abs(sum(exact.values()) - 1) < 1e-4
    out = mechanism.batch(LYU_Q, N_BATCH, rng=rng(20 + n), epsilon=eps, threshold=T, c=c)
    assert out.shape == ((N_BATCH, 2 * m) if n == 3 else (N_BATCH, m))
    assert out.dtype == (np.float64 if n == 3 else np.int8)
    assert gof_p(lyu_codes(n, out, m), exact) > ALPHA
    # power: every noise scale 30% too small (epsilon/0.7) fails the same check
    low = mechanism.batch(LYU_Q, N_BATCH, rng=rng(30 + n), epsilon=eps / 0.7, threshold=T, c=c)
    assert gof_p(lyu_codes(n, low, m), exact) < ALPHA


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_svt_lyu_single_run_and_batch_agree(n):
    mechanism = getattr(svt_lyu, f"svt_lyu_{n}")
    params = dict(epsilon=1.0, threshold=0.5, c=2)
    m = len(LYU_Q)
    single = single_runs(mechanism, LYU_Q, N_SINGLE, 40 + n, **params)
    batch = mechanism.batch(LYU_Q, N_BATCH // 2, rng=rng(50 + n), **params)
    assert single.dtype == batch.dtype and single.shape[1:] == batch.shape[1:]
    assert two_sample_p(lyu_codes(n, single, m), lyu_codes(n, batch, m)) > ALPHA
    if n == 3:  # released values: KS per position on the runs where that position is a top
        for i in range(m):
            a, b = single[single[:, i] == 1, m + i], batch[batch[:, i] == 1, m + i]
            if len(a) > 50:
                assert stats.ks_2samp(a, b).pvalue > ALPHA


def test_svt_lyu_2_redraws_the_threshold_after_each_top():
    """Alg. 2 with c = 2: the exact law with a re-draw after the first top is matched, and the same
    check rejects a sampler that keeps rho (the exact law without re-draw differs)."""
    q, eps, T, c = [1.0, 1.0, 1.0, 1.0], 1.0, 0.0, 2
    exact = lyu_exact(2, q, eps, T, c)
    rho_scale, nu_scale, _, _ = lyu_scales(2, eps, c)
    kept, _ = svt_lyu._batch_codes(np.asarray(q), N_BATCH, rng(60), threshold=T, rho_scale=rho_scale,
                                   nu_scale=nu_scale, c=c)  # no resample_scale: rho kept (wrong)
    assert gof_p(kept, exact) < ALPHA
    good = svt_lyu.svt_lyu_2.batch(q, N_BATCH, rng=rng(61), epsilon=eps, threshold=T, c=c)
    assert gof_p(good, exact) > ALPHA


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_svt_lyu_cutoff_semantics(n):
    mechanism = getattr(svt_lyu, f"svt_lyu_{n}")
    q = np.linspace(-3, 3, 12)
    for c in (1, 3):
        out = mechanism.batch(q, 20_000, rng=rng(70 + n + c), epsilon=2.0, threshold=0.0, c=c)
        codes = lyu_codes(n, out, q.size).astype(int)
        tops = (codes == 1).sum(1)
        assert tops.max() <= c
        halted = codes == -1
        # -1 exactly after the c-th top: never before it, always after it
        tops_before = np.cumsum(codes == 1, axis=1) - (codes == 1)
        assert np.array_equal(halted, tops_before >= c)
        assert halted.any() and not halted.all()
        if n == 3:
            values = out[:, q.size:]
            assert np.all(np.isfinite(out)) and np.all(values[codes != 1] == 0.0)
            assert np.all(values[codes == 1] != 0.0)


@pytest.mark.parametrize("n", [5, 6])
def test_svt_lyu_without_cutoff_answers_everything(n):
    out = getattr(svt_lyu, f"svt_lyu_{n}").batch(np.ones(12), 5_000, rng=rng(80 + n), epsilon=1.0, threshold=0.0, c=1)
    assert out.min() >= 0 and (out.sum(1) > 1).any()


def test_svt_lyu_3_released_value_has_the_exact_law():
    """m = 1, c = 1: P[top, value <= t] = integral_{-inf}^t f_nu(v - q) F_rho(v - T) dv."""
    q, eps, T = 0.3, 1.0, 0.0
    rho_scale, nu_scale = 2 / eps, 2 / eps
    v = np.linspace(-60, 60, 120_001)
    dens = stats.laplace.pdf(v - q, scale=nu_scale) * stats.laplace.cdf(v - T, scale=rho_scale)
    cum = np.concatenate([[0.0], np.cumsum((dens[1:] + dens[:-1]) / 2 * np.diff(v))])
    cdf = lambda t: np.interp(t, v, cum / cum[-1])  # noqa: E731
    out = svt_lyu.svt_lyu_3.batch([q], N_BATCH, rng=rng(90), epsilon=eps, threshold=T, c=1)
    top = out[:, 0] == 1
    assert binom_p(top.sum(), N_BATCH, cum[-1]) > ALPHA
    assert stats.kstest(out[top, 1], cdf).pvalue > ALPHA
    low = svt_lyu.svt_lyu_3.batch([q], N_BATCH, rng=rng(91), epsilon=eps / 0.7, threshold=T, c=1)
    assert stats.kstest(low[low[:, 0] == 1, 1], cdf).pvalue < ALPHA


def test_svt_lyu_3_stress_event_attains_m_epsilon_over_2c():
    """bottoms_then_value_m5: the log-ratio of the event is exactly m*epsilon/(2c) = 2.5."""
    d, dp = [1.0, 1.0, 1.0, 1.0, 0.0], [2.0, 2.0, 2.0, 2.0, -1.0]
    hits = []
    for k, data in enumerate((d, dp)):
        out = svt_lyu.svt_lyu_3.batch(data, 2_000_000, rng=rng(92 + k), epsilon=1.0, threshold=0.0, c=1)
        event = np.all(out[:, :4] == 0, axis=1) & (out[:, 4] == 1) & (out[:, 9] >= 0) & (out[:, 9] <= 1)
        hits.append(event.sum())
    # conditional on the event being hit, which side hit it is Bernoulli(e^2.5/(1+e^2.5))
    assert binom_p(hits[0], sum(hits), np.exp(2.5) / (1 + np.exp(2.5))) > ALPHA
    assert hits[0] > 5 * hits[1]


# --------------------------------------------------------------------------- sparse vector (seed 000 Alg 1)


def S(t, lam):
    """Notes App. A2: P[Lap(2 lam) - Lap(lam) > t] = (2/3)e^{-t/(2 lam)} - (1/6)e^{-t/lam} (t >= 0)."""
    t = np.asarray(t, dtype=float)
    pos = (2 / 3) * np.exp(-np.abs(t) / (2 * lam)) - (1 / 6) * np.exp(-np.abs(t) / lam)
    return np.where(t >= 0, pos, 1 - pos)


SV = dict(epsilon=1.0, delta=0.1, T=1, w=0.0)


def test_sparse_vector_single_query_top_probability_is_S_and_the_check_has_power():
    lam = sv.sparse_vector_lambda(SV["epsilon"], SV["delta"], SV["T"])
    assert abs(lam - np.sqrt(32 * np.log(10))) < 1e-12
    for k, q in enumerate((0.0, 0.5 * lam, -lam, 2 * lam)):
        out = sv.sparse_vector.batch([q], N_BATCH, rng=rng(100 + k), **SV)
        assert out.shape == (N_BATCH, 1) and out.dtype == np.int8
        assert binom_p((out == 1).sum(), N_BATCH, float(S(SV["w"] - q, lam))) > ALPHA
    # power: all noise 30% too small (epsilon/0.7) is rejected off the threshold
    low = sv.sparse_vector.batch([lam], N_BATCH, rng=rng(110), **{**SV, "epsilon": SV["epsilon"] / 0.7})
    assert binom_p((low == 1).sum(), N_BATCH, float(S(-lam, lam))) < ALPHA


def test_sparse_vector_threshold_is_kept_after_top_and_redrawn_after_bottom():
    """Two queries at the threshold. Kept after a top: P[top, top] = E_u[P(Lap(2 lam) > u)^2] > 1/4.
    Re-drawn after a bottom: P[bottom, top] = (1 - S(0)) S(0) = 1/4 exactly. The transcripts of a
    sampler that re-draws after tops, or keeps the threshold after bottoms, are rejected."""
    lam = sv.sparse_vector_lambda(SV["epsilon"], SV["delta"], SV["T"])
    top_seed = lambda o: o == 0  # noqa: E731  seed 000: re-draw after a bottom
    exact = {p: svt_transcript_probability([0.0, 0.0], p, 0.0, lam, 2 * lam, top_seed)
             for p in [(1, 1), (1, 0), (0, 1), (0, 0)]}
    assert abs(exact[(0, 1)] - 0.25) < 1e-6 and exact[(1, 1)] > 0.26
    out = sv.sparse_vector.batch([0.0, 0.0], N_BATCH, rng=rng(120), **SV)
    assert gof_p(out, exact) > ALPHA
    wrong_redraw_after_top = {p: svt_transcript_probability([0.0, 0.0], p, 0.0, lam, 2 * lam, lambda o: o == 1)
                              for p in exact}
    assert gof_p(out, wrong_redraw_after_top) < ALPHA
    never_redraw = {p: svt_transcript_probability([0.0, 0.0], p, 0.0, lam, 2 * lam, lambda o: False)
                    for p in exact}
    assert gof_p(out, never_redraw) < ALPHA


def test_sparse_vector_exact_transcripts_and_single_run_agree():
    params = dict(epsilon=1.0, delta=0.1, T=2, w=0.0)
    lam = sv.sparse_vector_lambda(params["epsilon"], params["delta"], params["T"])
    q = [0.0, lam, -lam, 0.5 * lam, 0.0, 2 * lam]
    patterns = []

    def rec(prefix, bottoms):  # answered while bottoms <= T
        if len(prefix) == len(q):
            patterns.append(tuple(prefix))
        elif bottoms > params["T"]:
            patterns.append(tuple(prefix + [-1] * (len(q) - len(prefix))))
        else:
            rec(prefix + [1], bottoms)
            rec(prefix + [0], bottoms + 1)

    rec([], 0)
    exact = {p: svt_transcript_probability(q, p, 0.0, lam, 2 * lam, lambda o: o == 0) for p in patterns}
    assert abs(sum(exact.values()) - 1) < 1e-4
    assert gof_p(sv.sparse_vector.batch(q, N_BATCH, rng=rng(130), **params), exact) > ALPHA
    assert_agree(sv.sparse_vector, q, **params)


def test_sparse_vector_halting_semantics():
    T = 3
    params = dict(epsilon=1.0, delta=0.1, T=T, w=0.0)
    lam = sv.sparse_vector_lambda(1.0, 0.1, T)
    # far below the threshold: exactly T+1 bottoms, then nothing
    far = sv.sparse_vector.batch([-100 * lam] * 8, 2_000, rng=rng(140), **params)
    assert np.all(far == np.array([0] * (T + 1) + [-1] * (8 - T - 1)))
    single = sv.sparse_vector([-100 * lam] * 8, rng=rng(141), **params)
    assert single.dtype == np.int8 and np.array_equal(single, far[0])
    # random answers: at most T+1 bottoms; -1 exactly after the (T+1)-th bottom
    q = rng(142).normal(0, lam, 15)
    for out in (sv.sparse_vector.batch(q, 20_000, rng=rng(143), **params),
                single_runs(sv.sparse_vector, q, 500, 144, **params)):
        bottoms_before = np.cumsum(out == 0, axis=1) - (out == 0)
        assert ((out == 0).sum(1) <= T + 1).all()
        assert np.array_equal(out == -1, bottoms_before >= T + 1)
        assert (out == -1).any() and (out == 1).any()


# --------------------------------------------------------------------------- distance to instability (seed 000 Alg 2)


def release_probability(d, epsilon, delta):
    Gamma = np.log(1 / delta) / epsilon
    return 0.5 * np.exp(-epsilon * (Gamma - d)) if d <= Gamma else 1 - 0.5 * np.exp(-epsilon * (d - Gamma))


def test_distance_to_instability_release_probability_and_the_check_has_power():
    eps, delta = 1.0, 1e-2  # Gamma = ln(100) = 4.6
    for k, d in enumerate((0, 2, 4, 6)):
        out = dti.distance_to_instability.batch([7, d], N_BATCH, rng=rng(150 + k), epsilon=eps, delta=delta)
        assert out.shape == (N_BATCH,) and set(np.unique(out)) <= {7, -1}
        assert binom_p((out == 7).sum(), N_BATCH, release_probability(d, eps, delta)) > ALPHA
    # P[release | dist = 0] = delta/2 (the delta-event)
    out = dti.distance_to_instability.batch([0, 0], 400_000, rng=rng(155), epsilon=eps, delta=delta)
    assert binom_p((out == 0).sum(), 400_000, delta / 2) > ALPHA
    # power: noise 30% too small with the same Gamma (epsilon/0.7, delta^(1/0.7)) is rejected
    low = dti.distance_to_instability.batch([7, 2], N_BATCH, rng=rng(156), epsilon=eps / 0.7,
                                            delta=delta ** (1 / 0.7))
    assert abs(dti.stability_threshold(eps / 0.7, delta ** (1 / 0.7)) - dti.stability_threshold(eps, delta)) < 1e-9
    assert binom_p((low == 7).sum(), N_BATCH, release_probability(2, eps, delta)) < ALPHA
    assert isinstance(dti.distance_to_instability([3, 9], rng=rng(0), epsilon=eps, delta=delta), int)
    assert_agree(dti.distance_to_instability, [3, 4], epsilon=eps, delta=delta)
    with pytest.raises(ValueError):
        dti.distance_to_instability([-1, 3], rng=rng(0), epsilon=eps, delta=delta)


# --------------------------------------------------------------------------- specs <-> implementations

MY_SPECS = """laplace_mechanism laplace_mechanism_broken gaussian_mechanism gaussian_mechanism_broken
randomized_response report_noisy_max report_noisy_max_broken exponential_mechanism exponential_mechanism_broken
svt_lyu_1 svt_lyu_2 svt_lyu_3 svt_lyu_4 svt_lyu_5 svt_lyu_6 sparse_vector distance_to_instability""".split()
CATALOGUE = load_catalogue()


def _load(ref):
    import importlib

    module, name = ref.split(":")
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("spec_id", MY_SPECS)
def test_spec_implementation_contract(spec_id):
    """Each spec's implementation imports, names only spec parameters (plus rng), has a batch
    sampler with the same names, and runs on every stress case at the spec's defaults with the
    documented output shape and no NaN."""
    if spec_id not in CATALOGUE:
        pytest.skip(f"{spec_id} spec not in the catalogue yet")
    spec = CATALOGUE[spec_id]
    fn = _load(spec.implementation)
    for f in (fn, fn.batch):
        names = [p.name for p in inspect.signature(f).parameters.values() if p.kind is p.KEYWORD_ONLY]
        assert "rng" in names and set(names) - {"rng"} <= set(spec.parameters), (f, names)
    assert spec.stress_cases, "a spec with a privacy claim needs stress cases"
    for case in spec.stress_cases:
        env = spec.bind(case.params)
        params = {k: env[k] for k in inspect.signature(fn).parameters if k in spec.parameters}
        for side in (case.data, case.neighbour):
            data = resolve_stress_values(side, env)
            one = np.asarray(fn(data, rng=rng(0), **params))
            many = np.asarray(fn.batch(data, 7, rng=rng(1), **params))
            assert many.shape == (7,) + one.shape, (case.name, many.shape, one.shape)
            assert not (many.dtype.kind == "f" and np.isnan(many).any())
            if spec.output["kind"] == "sequence" and spec_id != "svt_lyu_3":
                assert one.dtype == np.int8 and one.shape == (len(data),)
            if spec_id == "svt_lyu_3":
                assert one.dtype == np.float64 and one.shape == (2 * len(data),)
