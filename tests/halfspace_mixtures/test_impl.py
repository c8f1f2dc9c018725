"""Unit tests of seed 001's reference implementations (Algorithms 1-2 and offline helpers)."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest
from scipy import stats

from dptestbed.impl.halfspace_mixtures.family import (
    affine_hull,
    family_size,
    halfspace_family,
    inside,
    subset_rows,
    subsets,
)
from dptestbed.impl.halfspace_mixtures.geometry import (
    Setup,
    erm_mistakes,
    population_error,
)
from dptestbed.impl.halfspace_mixtures.learner import (
    all_mistakes,
    exact_law,
    from_output,
    histogram,
    ppm_halfspace_learner,
    predict,
    prepare,
    to_output,
)

N1 = {"X": np.array([[-1.0], [-2.0], [-3.0], [1.0], [2.0], [3.0], [6.0]]),
      "y": np.array([0, 0, 0, 1, 1, 1, 1]), "p": np.array([0, 0, 0, 1, 1, 1, 1])}


@pytest.mark.parametrize("n_pub,d", [(0, 1), (1, 1), (4, 1), (0, 2), (1, 2), (2, 2), (5, 2), (4, 3)])
def test_family_size_and_support(n_pub, d):
    X = np.random.default_rng(n_pub + 10 * d).normal(size=(n_pub, d))
    W = halfspace_family(X)
    assert W.shape == (family_size(n_pub, d), d + 1)
    assert np.allclose(W[0::2], -W[1::2])
    if n_pub:
        assert np.allclose(np.linalg.norm(W[:, :d], axis=1), 1.0)
        # every public point lies on the boundary of the halfspaces of its subsets: in both sides
        assert inside(W, affine_hull(X), X).sum() >= 2 * n_pub


def test_step5_generic_on_collinear_points():
    """Trap U1: singletons on a line get a normal inside Aff, never the line's own normal."""
    X = np.array([[-1.0, 0.0], [-2.0, 0.0], [-3.0, 0.0]])
    aff = affine_hull(X)
    assert aff.k == 1
    W = halfspace_family(X)
    singles = W[2:8:2]
    assert np.all(np.abs(singles[:, 0]) > 0.99)          # normal along the line (inside Aff)
    pair_rows = W[8::2]                                  # pairs span Aff: the hyperplane contains Aff
    assert np.allclose(np.abs(pair_rows[:, 1]), 1.0)


def test_aff_tolerance_from_public_scale_only():
    X = np.array([[5e3, 1e-3], [5e3 + 1e3, 2e-3], [5e3 + 2e3, 1e-3]])
    assert affine_hull(X).tol == pytest.approx(1e-9 * 7e3)
    assert affine_hull(X[:1]).k == 0
    assert affine_hull(np.zeros((0, 2))) is None


def test_bad_input_errors():
    with pytest.raises(ValueError, match="2-D"):
        halfspace_family(np.zeros(3))
    with pytest.raises(ValueError, match="'y'"):
        ppm_halfspace_learner({"X": N1["X"], "y": N1["y"][:3], "p": N1["p"]}, rng=np.random.default_rng(), epsilon=1)
    with pytest.raises(ValueError, match="only 0 and 1"):
        ppm_halfspace_learner({**N1, "p": N1["p"] * 2}, rng=np.random.default_rng(), epsilon=1)
    with pytest.raises(ValueError, match="epsilon"):
        ppm_halfspace_learner(N1, rng=np.random.default_rng(), epsilon=0)


def test_exact_law_n1_matches_spec_numbers():
    J, lp = exact_law(N1, 1.0)
    assert J.shape == (9, 1)
    flipped = {**N1, "y": np.array([0, 0, 0, 1, 1, 1, 0])}
    _, lq = exact_law(flipped, 1.0)
    g6 = predict(J, N1["X"][:3], np.array([[6.0]]))[:, 0]
    q, q2 = np.exp(lp)[g6 == 0].sum(), np.exp(lq)[g6 == 0].sum()
    assert q == pytest.approx(0.085, abs=5e-4)
    assert np.log(q2 / q) == pytest.approx(0.864, abs=1e-3)
    assert np.abs(lp - lq).max() <= 1.0 + 1e-12


def _positions(data, out):
    """Positions in exact_law's canonical order of outputs in the encoding."""
    J, lp = exact_law(data, 1.0)
    index = {tuple(j): i for i, j in enumerate(J)}
    sets, valid = from_output(out, data["p"], np.asarray(data["X"]).shape[1])
    assert valid.all()
    return np.array([index[tuple(j)] for j in sets]), lp


def test_sampler_matches_exact_law_d2():
    rng = np.random.default_rng(5)
    data = Setup(d=2, b=-0.3).sample(14, rng)
    out = ppm_halfspace_learner.batch(data, 40_000, rng=rng, epsilon=1.0)
    pos, lp = _positions(data, out)
    m = all_mistakes(data)
    counts = np.bincount(m[pos], minlength=m.max() + 1)
    expected = np.array([np.exp(lp)[m == k].sum() for k in range(m.max() + 1)]) * out.shape[0]
    keep = expected > 5
    chi2 = np.sum((counts[keep] - expected[keep]) ** 2 / expected[keep])
    assert stats.chi2.sf(chi2, keep.sum() - 1) > 1e-4


def test_mistakes_match_prediction_and_histogram():
    rng = np.random.default_rng(7)
    data = Setup(d=2, b=0.2, eta=0.1).sample(20, rng)
    J, _ = exact_law(data, 1.0)
    m = all_mistakes(data)
    direct = (predict(J, data["X"][data["p"] == 0], data["X"]) != data["y"][None, :]).sum(1)
    assert np.array_equal(m, direct)
    inst = prepare(data)
    assert histogram(inst).sum() == inst.G_size == 1 + comb(inst.M, 1) + comb(inst.M, 2)


def test_no_public_points_is_constant_one():
    data = {"X": np.array([[1.0], [2.0]]), "y": np.array([1, 0]), "p": np.array([1, 1])}
    out = ppm_halfspace_learner.batch(data, 5, rng=np.random.default_rng(0), epsilon=3.0)
    assert out.shape == (5, 1, 2)
    assert np.all(out[..., 0] == -1) and np.all(out[..., 1] == 0)


def test_large_n_no_underflow():
    """n = 10^5 rows, 40 public: mistakes in the tens of thousands, weights far below float64's
    range; the draws still concentrate within a few mistakes of the minimum."""
    rng = np.random.default_rng(2)
    data = Setup(d=1, pi_pub=0.5, eta=0.2).sample(100_000, rng)
    data["p"] = np.r_[np.zeros(40, np.int64), np.ones(100_000 - 40, np.int64)]
    out = ppm_halfspace_learner.batch(data, 200, rng=rng, epsilon=1.0)
    m = all_mistakes(data)
    assert m.min() > 10_000
    assert m[_positions(data, out)[0]].max() - m.min() < 40


def test_output_encoding_names_public_points_and_sides():
    """d = 1, public points at positions 0, 2, 5: {x >= a} is side +1 (V_0 > 0), {x <= a} side -1;
    the empty-set pair is {x >= 0} / {x <= 0}; constant 1 is all rows unused."""
    data = {"X": np.array([[-1.0], [4.0], [-2.0], [5.0], [6.0], [-3.0]]), "y": np.array([0, 1, 0, 1, 1, 0]),
            "p": np.array([0, 1, 0, 1, 1, 0])}
    inst = prepare(data)
    assert inst.public.tolist() == [0, 2, 5]
    J = np.array([[-1], [0], [1], [2], [3], [7]])
    out = to_output(J, inst.public, 1)
    assert out[:, 0].tolist() == [[-1, 0], [-1, 1], [-1, -1], [0, 1], [0, -1], [5, -1]]
    assert predict(J, data["X"][[0, 2, 5]], np.array([[-3.5], [-2.5]])).tolist() == [[1, 1], [1, 1], [0, 0], [1, 1],
                                                                                   [0, 0], [0, 1]]
    back, valid = from_output(out, data["p"], 1)
    assert valid.all() and np.array_equal(back, J)


def test_output_encoding_round_trip_and_invalid_outputs():
    rng = np.random.default_rng(3)
    data = Setup(d=2, b=-0.2).sample(12, rng)
    J, _ = exact_law(data, 1.0)
    out = to_output(J, prepare(data).public, 2)
    back, valid = from_output(out, data["p"], 2)
    assert valid.all() and np.array_equal(back, J)
    assert len({o.tobytes() for o in out}) == len(out)            # distinct members, distinct outputs
    private = int(np.flatnonzero(data["p"] == 1)[0])
    two = out[np.flatnonzero((J >= 0).all(axis=1))[0]]
    bad = [two[::-1], np.where(two == two[0, 0], private, two), np.where(two == 1, 2, two),
           np.r_[[[-1, -1, 0]], two[:1]], np.r_[two[:1], two[:1]]]
    assert not from_output(np.array(bad), data["p"], 2)[1].any()


@pytest.mark.parametrize("n_pub,d", [(1, 1), (5, 1), (6, 2), (7, 3), (4, 5), (30, 2)])
def test_subset_rows_inverts_subsets(n_pub, d):
    table = subsets(n_pub, d)
    assert len(table) == family_size(n_pub, d) // 2
    assert np.array_equal(subset_rows(table, n_pub), np.arange(len(table)))


def test_step5_rule_is_the_spec_closed_form():
    """Singletons get the normal V_0 = (sqrt 2, sqrt 3)/|.| (Aff = R^2), the empty set the pair through 0."""
    X = np.array([[0.0, 0.0], [1.0, 0.3], [0.2, 1.0]])
    W = halfspace_family(X)
    v = np.sqrt([2.0, 3.0]) / np.sqrt(5.0)
    assert np.allclose(W[0], [*v, 0.0]) and np.allclose(W[1], [*-v, 0.0])
    assert np.allclose(W[2:8:2, :2], v) and np.allclose(W[4, 2], v @ X[1])


def test_erm_d1_d2():
    assert erm_mistakes(np.array([[0.0], [1.0], [2.0]]), np.array([0, 1, 0])) == 1
    X = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])
    assert erm_mistakes(X, np.array([0, 0, 1, 1])) == 0       # collinear: split along the line
    assert erm_mistakes(X, np.array([0, 1, 0, 1])) == 1
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    assert erm_mistakes(X, (X @ [1.0, 2.0] >= 0.3).astype(int)) == 0


def test_population_error_constant_and_exact():
    setup = Setup(d=1, pi_pub=0.3)
    Xp = np.array([[-0.5], [-0.2]])
    W = halfspace_family(Xp)
    J = np.array([[-1], [2]])               # constant 1; {x >= -0.5}
    assert W[2, 0] > 0
    err = population_error(setup, Xp, J)
    assert err[0] == pytest.approx(0.3)
    assert err[1] == pytest.approx(0.3 * 0.5 + 0.7)   # wrong on [-0.5, 0) public and all of [0, 1)
