"""Unit tests of the seed-003 reference implementations (impl/littlestone)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dptestbed.impl.littlestone import classes as C
from dptestbed.impl.littlestone import generic, histogram, learner, soa, stable


def test_ldim_reference_values():
    for N in range(1, 16):
        assert soa.littlestone_dimension(C.thresholds(N)) == math.floor(math.log2(N + 1))
        assert soa.littlestone_dimension(C.thresholds(N, all_cuts=False)) == math.floor(math.log2(N))
        assert soa.littlestone_dimension(C.points(N)) == min(1, N - 1)
        assert soa.littlestone_dimension(C.points(N, with_empty=True)) == 1
    assert [soa.littlestone_dimension(C.intervals(N)) for N in range(1, 10)] == [1, 2, 2, 3, 3, 4, 4, 4, 5]
    assert [soa.littlestone_dimension(C.cube(N)) for N in range(1, 5)] == [1, 2, 3, 4]
    assert soa.littlestone_dimension(np.zeros((0, 3), np.int8)) == -1
    assert soa.littlestone_dimension([[1, -1, 1]]) == 0


def test_ldim_bad_input():
    with pytest.raises(ValueError, match="entries"):
        soa.littlestone_dimension([[1, 0]])
    with pytest.raises(ValueError, match="shape"):
        soa.littlestone_dimension([1, -1])


def test_soa_optimal_and_consistent():
    for H in (C.thresholds(3), C.intervals(3), C.points(5, True), C.cube(3)):
        cls = soa.Class(H)
        assert cls.worst_case_mistakes() == cls.ldim()
    rng = np.random.default_rng(1)
    H = C.intervals(4)
    cls = soa.Class(H)
    for _ in range(50):
        c = H[rng.integers(len(H))]
        x = rng.integers(0, 4, size=12)
        out = soa.standard_optimal_algorithm({"H": H, "x": x, "y": c[x]})
        h, mistakes = out[:4], out[-1]
        assert mistakes <= cls.ldim()
        assert np.all(h[x] == c[x])                                   # consistent with S


def test_soa_definition8_never_raises_and_agrees_with_the_tail():
    H = C.thresholds(3)
    rng = np.random.default_rng(2)
    for _ in range(50):
        S_x = rng.integers(0, 3, size=6)
        S_y = rng.choice([-1, 1], size=6)                             # usually non-realizable
        c = H[rng.integers(len(H))]
        T_x = rng.integers(0, 3, size=5)
        x, y = np.concatenate([S_x, T_x]), np.concatenate([S_y, c[T_x]])
        h = soa.standard_optimal_algorithm({"H": H, "x": x, "y": y})[:3]
        assert np.all(h[T_x] == c[T_x])                               # Observation 11(2)
    # closed form: predictor after the longest realizable prefix, patched by later examples
    out = soa.standard_optimal_algorithm({"H": H, "x": [0, 0, 1], "y": [1, -1, -1]})
    assert list(out[:3]) == [-1, -1, 1] and out[-1] >= 1


def test_g_budget_fail_and_reads_only_its_batch():
    H = [[1, 1], [-1, 1], [-1, -1]]
    x, y = np.zeros(2600, np.int64), np.ones(2600, np.int8)
    rng = np.random.default_rng(3)
    outs = stable.globally_stable_learner.batch({"H": H, "x": x, "y": y}, 400, rng=rng, d=1, alpha=0.2, c=4)
    ids = C.hypothesis_id(outs)
    # level 0: SOA(T) = t_1; level 1: f_0 = f_1 always, so the budget runs out: Fail
    assert set(np.unique(ids)) == {C.FAIL_ID, int(C.hypothesis_id(np.array([1, 1])))}
    single = [stable.globally_stable_learner({"H": H, "x": x[:80], "y": y[:80]}, rng=rng, d=1, alpha=0.2, c=4)
              for _ in range(20)]
    assert all(np.all(s == 0) or np.all(s == 1) for s in single)


def test_g_law_matches_runs():
    H = C.points(6, with_empty=True)
    p, c = C.boundary_distribution(H, 2, 0.05)
    rng = np.random.default_rng(4)
    x, y = C.draw(p, c, 4000, rng)
    cls = stable.class_of(H)
    n, N = stable.g_sizes(1, 0.2, 4)
    law = stable.output_law(cls, x, y, d=1, n=n, N=N)
    assert len(law) >= 2
    assert law is not None and abs(sum(law.values()) - 1) < 1e-12
    runs = C.hypothesis_id(np.array([stable.globally_stable_learner({"H": H, "x": x, "y": y}, rng=rng, d=1,
                                                                    alpha=0.2, c=4) for _ in range(2000)]))
    for key, prob in law.items():
        assert abs(np.mean(runs == key) - prob) < 0.05


def test_tournament_invariants_observation_11():
    H = C.thresholds(3)
    p, c = C.boundary_distribution(H, 2, 0.02)
    rng = np.random.default_rng(5)
    cls = soa.Class(H)
    for k in range(3):
        for _ in range(20):
            src = stable.Sampler(p, c, rng)
            S = stable.tournament_sample(cls, k, 10, src, stable.RngCoins(rng), keep=True)
            assert len(S.x) == k * 11 and len(S.tournaments) == k
            T = C.draw(p, c, 10, rng)
            x, y = np.concatenate([S.x, T[0]]).astype(np.int64), np.concatenate([S.y, T[1]]).astype(np.int8)
            pred, state = cls.trace(x, y)
            assert np.all(pred[S.tournaments] != y[S.tournaments])  # each tournament forces a mistake
            assert np.all(cls.hypothesis(state)[T[0]] == T[1])


def test_histogram_release_law_and_encoding():
    rng = np.random.default_rng(6)
    S = np.array([5] * 9 + [3])
    out = histogram.stable_histogram.batch(S, 200_000, rng=rng, epsilon=1.0, delta=0.02, n=10)
    assert out.shape == (200_000, 10, 2)
    assert abs(np.mean((out[:, :, 0] == 3).any(axis=1)) - 0.01) < 0.002      # delta/2 exactly
    assert not (out[:, :, 0] == 4).any()                                        # zero counts never released
    both = (out[:, 0, 0] == 3) & (out[:, 1, 0] == 5)
    assert both.any() and not ((out[:, 0, 0] == 5) & (out[:, 1, 0] == 3)).any()  # ascending ids
    with pytest.raises(ValueError, match="n = 4"):
        histogram.stable_histogram(S, rng=rng, epsilon=1.0, delta=0.1, n=4)


def test_generic_learner_softmax():
    rng = np.random.default_rng(7)
    data = {"H": [[1, 1], [-1, -1]], "x": [0, 1, 1], "y": [1, -1, -1]}
    p = generic.probabilities(np.array(data["H"]), np.array(data["x"]), np.array(data["y"]), 1.0)
    assert np.allclose(p, np.array([math.exp(-1), math.exp(-0.5)]) / (math.exp(-1) + math.exp(-0.5)))
    out = generic.generic_private_learner.batch(data, 100_000, rng=rng, epsilon=1.0)
    assert abs(np.mean(out == 0) - p[0]) < 0.01
    big = {"H": [[1], [-1]], "x": [0] * 5000, "y": [1] * 5000}
    assert generic.probabilities(np.array(big["H"]), np.zeros(5000, int), np.ones(5000), 1.0)[0] == 1.0


def _m_data(idx_value):
    return {"H": [[1, 1], [-1, 1], [-1, -1]], "fill_x": 0, "fill_y": 1, "idx": [0], "x": [idx_value[0]],
            "y": [idx_value[1]]}


M_PARAMS = {"epsilon": 1.0, "delta": 0.02, "alpha": 0.4, "d": 1, "eta": 0.25, "c": 4.0, "k": 16, "n_prime": 300}


def test_learner_batch_matches_single_runs():
    rng = np.random.default_rng(8)
    data = _m_data((1, -1))
    batch = learner.private_littlestone_learner.batch(data, 4000, rng=rng, **M_PARAMS)
    single = np.array([learner.private_littlestone_learner(data, rng=rng, **M_PARAMS) for _ in range(150)])
    for row in np.unique(np.concatenate([batch, single]), axis=0):
        pb, ps = np.mean((batch == row).all(1)), np.mean((single == row).all(1))
        assert abs(pb - ps) < 0.12


def test_learner_input_forms_and_default():
    rng = np.random.default_rng(9)
    n_aux, N, m = learner.sizes(1, 0.4, 4.0)
    assert (n_aux, N, m) == (40, 2560, 2600)
    n_M = 16 * m + 300
    dense = {"H": [[1, 1], [-1, 1], [-1, -1]], "x": np.zeros(n_M, int), "y": np.ones(n_M, int)}
    a = learner.private_littlestone_learner.batch(dense, 500, rng=np.random.default_rng(1), **M_PARAMS)
    b = learner.private_littlestone_learner.batch(_m_data((0, 1)), 500, rng=np.random.default_rng(1), **M_PARAMS)
    assert np.array_equal(a, b)
    # tiny k: nothing reaches the threshold, so the data-independent default (all -1) is output
    out = learner.private_littlestone_learner.batch(_m_data((0, 1)), 200, rng=rng, **{**M_PARAMS, "k": 2,
                                                                                       "delta": 1e-9})
    assert np.all(out == -1)
    with pytest.raises(ValueError, match="k\\*m \\+ n_prime"):
        learner.private_littlestone_learner({**dense, "x": dense["x"][:-1], "y": dense["y"][:-1]}, rng=rng,
                                            **M_PARAMS)
    assert learner.sizes_printed(1, 0.4, 4.0) == (40, 120, 160)
