"""Unit tests of the seed-002 reference implementations (exact laws, fixed seeds)."""

import math

import numpy as np
import pytest
from scipy import stats

from dptestbed.impl.private_prediction import (
    convex_erm,
    lower_bound,
    session,
    soft_majority,
    stable,
    teachers,
)


def rng(seed=0):
    return np.random.default_rng(seed)


def test_soft_majority_matches_logistic_of_half_margin():
    out = soft_majority.subsample_aggregate_prediction_corrected.batch([14, 9], 200_000, rng=rng(), epsilon=1.0, alpha=0.1)
    assert out.dtype == np.int8 and out.shape == (200_000,)
    p = 1 / (1 + math.exp(-1.0 * (-5) / 2))
    assert abs(out.mean() - p) < 5 * math.sqrt(p * (1 - p) / 200_000)


def test_broken_uses_full_margin_and_extreme_margins_are_stable():
    out = soft_majority.subsample_aggregate_prediction_broken.batch([14, 9], 200_000, rng=rng(1), epsilon=1.0, alpha=0.1)
    p = 1 / (1 + math.exp(5.0))
    assert abs(out.mean() - p) < 5 * math.sqrt(p * (1 - p) / 200_000)
    assert soft_majority.vote_probability(-10_000, 1.0) == 0.0
    assert soft_majority.vote_probability(10_000, 1.0) == 1.0
    assert soft_majority.n_teachers(1.0, 0.1) == 23


def test_soft_majority_on_a_dataset_uses_fixed_blocks():
    # r = 4 at (epsilon, alpha) = (4, 0.5); 8 records -> blocks of 2
    X = np.array([0.9, 0.9, 0.3, 0.9, 0.3, 0.9, 0.3, 0.9])
    y = np.ones(8)
    nu = soft_majority.teacher_votes({"X": X, "y": y, "x": [0.5, 0.95]}, 4)
    assert nu.tolist() == [2, 4]
    out = soft_majority.subsample_aggregate_prediction_corrected.batch(
        {"X": X, "y": y, "x": [0.5, 0.95]}, 1000, rng=rng(), epsilon=4.0, alpha=0.5)
    assert out.shape == (1000, 2)
    with pytest.raises(ValueError, match="votes"):
        soft_majority.subsample_aggregate_prediction_corrected([1.5, 2], rng=rng(), epsilon=1.0, alpha=0.1)


def test_teachers():
    X = np.array([[0.2, 0.6, 0.7], [0.1, 0.05, 0.3]])
    y = np.array([[0, 1, 1], [0, 0, 0]])
    assert teachers.threshold_min_positive(X, y).tolist() == [0.6, np.inf]
    assert teachers.m_thresholds(0.025, 0.05 / 23) == 243
    t = teachers.threshold_min_positive_law(rng(), 0.5, 20, 200_000)
    assert abs(np.mean(t - 0.5 > 0.05) - 0.95 ** 20) < 0.005
    tables = teachers.lookup(np.array([[0, 0, 1, 1, 1]]), np.array([[1, 0, 1, 1, 0]]), 3)
    assert tables.tolist() == [[0, 1, 0]]
    grid = np.linspace(0, 1, 11)
    Xg = rng().random((1, 2000))
    idx = teachers.grid_erm(Xg, (Xg >= 0.3).astype(int), grid)
    assert grid[idx[0]] == pytest.approx(0.3)


def test_laplace_and_gaussian_noise_scales():
    out = stable.stable_laplace_prediction.batch(2.0, 100_000, rng=rng(), epsilon=0.5, gamma=1.0)
    assert stats.kstest(out - 2.0, stats.laplace(scale=2.0).cdf).pvalue > 1e-3
    multi = stable.stable_laplace_prediction.batch([0.0, 0.0], 50_000, rng=rng(), epsilon=1.0, gamma=1.0)
    assert multi.shape == (50_000, 2) and abs(np.corrcoef(multi.T)[0, 1]) < 0.03
    g = stable.stable_gaussian_prediction.batch(0.0, 100_000, rng=rng(), epsilon=0.5, delta=1e-5, gamma=10.0)
    assert np.std(g) == pytest.approx(stable.sigma_gaussian(0.5, 1e-5, 10.0), rel=0.02)
    assert stable.sigma_gaussian(1.0, 1e-5, 10.0) / stable.sigma_gaussian_printed(1.0, 1e-5, 10.0) == pytest.approx(4.5, rel=0.01)


def test_averaged_learner_and_agnostic_law():
    assert stable.averaged_learner([1.0, 0.0, 0.0, 0.0], r=4) == 0.25
    with pytest.raises(ValueError, match="r = 3"):
        stable.averaged_learner([1.0, 0.0], r=3)
    r = stable.agnostic_teachers(1.0, 0.1)
    assert r == 20
    b = 1 / r
    for c1 in (0, 1, 10, 20):
        out = stable.agnostic_private_prediction_corrected.batch([r - c1, c1], 200_000, rng=rng(c1), epsilon=1.0, alpha=0.1)
        p = float(stable.rounding_probability(c1 / r, b))
        assert abs(out.mean() - p) < 5 * math.sqrt(p * (1 - p) / 200_000) + 1e-4


def test_convex_erm_linear_tight_sensitivity_and_ridge():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    params = {"lam": 0.5, "R": 10.0, "L_f": 1.0, "L_l": 1.0, "n": 4, "c_gamma": 2.0}
    w1 = convex_erm.fit(X, np.ones(4), loss="linear", lam=0.5, R=10.0, L_f=1.0)
    w2 = convex_erm.fit(X, np.array([-1.0, 1, 1, 1]), loss="linear", lam=0.5, R=10.0, L_f=1.0)
    assert abs((w1 - w2) @ X[0]) == pytest.approx(convex_erm.certified_gamma(**{k: params[k] for k in ("L_f", "L_l", "lam", "n", "c_gamma")}))
    out = convex_erm.convex_erm_prediction.batch({"X": X, "y": np.ones(4), "x": X[0]}, 50_000, rng=rng(), epsilon=1.0, loss="linear", **params)
    assert np.median(out) == pytest.approx(1.0, abs=0.03)
    Z = rng().normal(size=(50, 3))
    Z /= np.linalg.norm(Z, axis=1, keepdims=True)
    yz = Z @ np.array([1.0, -0.5, 0.2])
    w = convex_erm.fit(Z, yz, loss="squared", lam=0.1, R=10.0, L_f=1.0)
    assert np.allclose(w, np.linalg.solve(Z.T @ Z / 50 + 0.1 * np.eye(3), Z.T @ yz / 50))
    w_small = convex_erm.fit(Z, yz, loss="squared", lam=0.1, R=0.2, L_f=1.0)
    assert np.linalg.norm(w_small) == pytest.approx(0.2)
    with pytest.raises(ValueError, match="norm"):
        convex_erm.convex_erm_prediction({"X": 2 * X, "y": np.ones(4), "x": X[0]}, rng=rng(), epsilon=1.0, loss="linear", **params)


def test_logistic_gd_stability_certificate():
    g = rng(3)
    X = g.normal(size=(40, 2))
    X /= np.maximum(1, np.linalg.norm(X, axis=1, keepdims=True))
    y = np.where(g.random(40) < 0.5, -1.0, 1.0)
    y2 = y.copy()
    y2[0] = -y2[0]
    w1 = convex_erm.fit(X, y, loss="logistic", lam=0.1, R=10.0, L_f=1.0)
    w2 = convex_erm.fit(X, y2, loss="logistic", lam=0.1, R=10.0, L_f=1.0)
    assert np.linalg.norm(w1 - w2) <= 2 * 1.0 / (0.1 * 40) + 1e-12


def test_lower_bound_instance_and_bound():
    S = lower_bound.decode(lower_bound.private_prediction_lower_bound(None, rng=rng(), d=400, n=500), 500)
    assert np.array_equal(S["y"], S["b"][S["X"]])
    i = int(S["X"][0])
    flipped = lower_bound.flip_point(S, i)
    assert np.all(flipped["y"][S["X"] == i] != S["y"][S["X"] == i])
    assert lower_bound.instance_bound(0.1, 0.1 / 3, 500, 400, 2) == pytest.approx(0.358, abs=1e-3)
    assert lower_bound.best_instance_bound(0.1, 0.0, 500, 400)[0] == pytest.approx(0.409, abs=1e-3)
    assert lower_bound.proof_tail(0.1, 400) > 1 / 24 > lower_bound.proof_tail(0.04, 400)


def test_budgeted_session_refuses_after_budget_and_caches():
    calls = []
    s = session.PredictionSession(stable.stable_laplace_prediction, lambda x: calls.append(x) or float(x),
                                  epsilon_total=2.0, epsilon=1.0, rng=rng(), params={"gamma": 1.0})
    a = s.query(1)
    assert s.query(1) == a and s.spent == 1.0
    s.query(2)
    with pytest.raises(session.BudgetExhausted):
        s.query(3)
    assert calls == [1, 2]


def test_budgeted_session_transcript_refuses_at_the_budget():
    one = session.budgeted_session([0.0, 1.0, 2.0], rng=rng(), epsilon_total=2.0, epsilon=1.0, gamma=1.0)
    assert one.shape == (3,) and np.isfinite(one[:2]).all() and one[2] == session.REFUSED
    many = session.budgeted_session.batch([0.0, 1.0, 2.0], 100_000, rng=rng(), epsilon_total=2.0, epsilon=1.0, gamma=1.0)
    assert many.shape == (100_000, 3) and np.all(many[:, 2] == session.REFUSED)
    assert np.allclose(np.median(many[:, :2], axis=0), [0.0, 1.0], atol=0.03)


def test_the_lag_two_mutants_exact_loss_is_four_against_three():
    """Mutant laplace_noise_lag_two (its exact_loss): (n_1, n_3) = (e_3 - e_1, e_5 - e_3) has density
    e^(n_1 - n_3 - 3 max(0, n_1, -n_3))/3 (e_3 integrated out), checked against the sampler; with n_2's Laplace, the log
    ratio of (0, 0, 0) against (1, 1, 1) peaks at 4 (the claim at q = 3 is 3)."""
    from dptestbed.impl.private_prediction import mutants

    def log_density(n1, n2, n3):
        return n1 - n3 - 3 * np.maximum(0, np.maximum(n1, -n3)) - math.log(3) - np.abs(n2) - math.log(2)

    z = mutants.laplace_noise_lag_two.batch(np.zeros(3), 400_000, rng=np.random.default_rng(4), epsilon=1.0, gamma=1.0)
    # there max(0, n_1, -n_3) = -n_3: the density integrates to (int e^n_1, n_1 <= 0) (int e^(2 n_3)/3, n_3 <= -1) = e^-2/6
    inside = (z[:, 0] <= 0) & (z[:, 2] <= -1)
    assert inside.mean() == pytest.approx(math.exp(-2) / 6, rel=0.03)
    grid = np.linspace(-6, 6, 121)
    n1, n2, n3 = (g.ravel() for g in np.meshgrid(grid, grid, grid, indexing="ij"))
    ratio = log_density(n1, n2, n3) - log_density(n1 - 1, n2 - 1, n3 - 1)
    assert ratio.max() == pytest.approx(4.0) and "4 against 3" in next(
        m for m in mutants.MUTANTS if m.name == "laplace_noise_lag_two").exact_loss
