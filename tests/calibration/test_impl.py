"""Calibration of the reference mechanisms of the calibration corpus (statistics helpers in
``tests/distribution_checks.py``).

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
from distribution_checks import (
    ALPHA,
    N_BATCH,
    N_SINGLE,
    assert_agree,
    binom_p,
    gof_p,
    rng,
    single_runs,
    svt_transcript_probability,
    two_sample_p,
)
from scipy import stats

from dptestbed.impl.calibration import exponential, gaussian, laplace, noisy_max, svt_lyu
from dptestbed.impl.calibration import randomized_response as rr
from dptestbed.spec import load_catalogue
from dptestbed.spec.schema import resolve_stress_values

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
    draws = exponential.exponential_mechanism.batch(u, N_BATCH, rng=rng(15), epsilon=eps, sensitivity=s)
    assert gof_p(draws, exact) > ALPHA
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


@pytest.mark.slow
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


# --------------------------------------------------------------------------- specs <-> implementations

MY_SPECS = """laplace_mechanism laplace_mechanism_broken gaussian_mechanism gaussian_mechanism_broken
randomized_response report_noisy_max report_noisy_max_broken exponential_mechanism exponential_mechanism_broken
svt_lyu_1 svt_lyu_2 svt_lyu_3 svt_lyu_4 svt_lyu_5 svt_lyu_6 geometric_mechanism discrete_gaussian_mechanism
gaussian_mechanism_classical gaussian_mechanism_analytic bounded_mean bounded_sum""".split()
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
