"""Calibration of seed 000's sparse vector (Algorithm 1) and distance-to-instability release
(A_stab): exact laws, batch against single runs, power against broken variants, and the
spec <-> implementation contract."""

from __future__ import annotations

import numpy as np
import pytest
from distribution_checks import (
    ALPHA,
    N_BATCH,
    assert_agree,
    binom_p,
    gof_p,
    rng,
    single_runs,
    svt_transcript_probability,
)
from scipy import stats

from dptestbed.impl.model_agnostic import distance_to_instability as dti
from dptestbed.impl.model_agnostic import sparse_vector as sv

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
    assert gof_p(single_runs(sv.sparse_vector, q, 20_000, 131, **params), exact) > ALPHA  # one run's block sweep
    assert_agree(sv.sparse_vector, q, **params)


class _QueryByQuery(sv.SparseVectorRuns):
    """The core's rules unchanged, as a subclass: its sweep compares one query at a time (sv.SparseVectorRuns.sweep)."""


def test_one_runs_block_sweep_has_the_law_of_the_query_by_query_loop_on_long_streams():
    """Many blocks a run (300 answers around the threshold, a bottom every few, blocks of 64 doubled while none):
    the number of tops, the index of the halting bottom and the first 40 answers' tops agree."""
    params = dict(epsilon=1.0, delta=0.1, T=20, w=0.0)
    lam = sv.sparse_vector_lambda(params["epsilon"], params["delta"], params["T"])
    q = np.tile([3 * lam, 8 * lam, -lam, 10 * lam, 6 * lam], 60)
    fast = single_runs(sv.sparse_vector, q, 3000, 150, **params)
    token = sv.CORE.set(_QueryByQuery)
    try:
        loop = single_runs(sv.sparse_vector, q, 3000, 151, **params)
    finally:
        sv.CORE.reset(token)
    for stat in (lambda o: (o == 1).sum(1), lambda o: np.argmax(np.cumsum(o == 0, axis=1) > params["T"], axis=1)):
        assert stats.ks_2samp(stat(fast), stat(loop)).pvalue > ALPHA
    assert stats.chi2_contingency([(fast[:, :40] == 1).sum(0), (loop[:, :40] == 1).sum(0)])[1] > ALPHA


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




def test_segment_law_of_long_segments():
    """A segment of 40 comparisons against one threshold (the transcript checks' _segment): no enumeration of
    2^40 transcripts; its probabilities split exactly over the next comparison, and agree with the full
    transcript law where that is enumerable."""
    from dptestbed.audits.model_agnostic.transcripts import _segment, sequence_law
    from dptestbed.audits.privacy.exact import svt_distribution, svt_segment

    lam, w = 2.0, 10.0
    q = tuple(float(v) for v in np.linspace(0.0, 20.0, 40))
    outcomes = tuple(int(v > w) for v in q)
    p = _segment(q, outcomes, w, lam, 2.0)
    assert 0 < p < 1
    split = sum(svt_segment(q + (12.0,), outcomes + (o,), threshold=w, rho_scale=lam, nu_scale=2 * lam) for o in (1, 0))
    assert split == pytest.approx(p, rel=1e-9)
    law = svt_distribution(np.array(q[:6]), threshold=w, rho_scale=lam, nu_scale=2 * lam)
    for t, prob in law.items():
        assert svt_segment(q[:6], t, threshold=w, rho_scale=lam, nu_scale=2 * lam) == pytest.approx(prob, rel=1e-9)
    far = sequence_law(tuple([w + 60 * lam] * 25), w=w, lam=lam, T=1)   # 25 tops in one segment
    assert far[(1,) * 25] == pytest.approx(1.0, abs=1e-6)
