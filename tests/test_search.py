"""The implementation-guided search (audits/privacy/moves.py, audits/privacy/neighbours.py, audits/privacy/records.py,
audits/privacy/linesearch.py): every pair it makes is a neighbour under the spec's relation, its lines and
parameter points reach where the spec's stress cases do not, and bugs that live there are found."""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pytest

from dptestbed.audits.adhoc import adhoc_spec
from dptestbed.audits.privacy import NO_POWER, NO_VIOLATION, VIOLATION, audit
from dptestbed.audits.privacy.moves import (
    LONGER_LENGTHS,
    TINY_VOTES,
    derived_scale_points,
    lines,
    mirrored,
    parameter_points,
    patterns,
    repeated,
    shortened,
    single_moves,
    stepped,
    stretched,
    tied_top,
    with_all_rows,
    with_few_votes,
    with_more_labels,
)
from dptestbed.audits.privacy.neighbours import violation
from dptestbed.audits.privacy.pairs import candidate_pairs, parameter_pairs, searched_pairs, stress_pairs
from dptestbed.audits.privacy.procedure import _resized_pairs
from dptestbed.spec import load_catalogue

CATALOGUE = load_catalogue()
AUDITED = [s for s in CATALOGUE.values() if s.privacy is not None]


@pytest.mark.parametrize("spec", AUDITED, ids=lambda s: s.id)
def test_every_generated_searched_and_moved_pair_is_a_neighbour(spec):
    """(Stress cases, at any parameter point, are the spec's own: a label may change where its distance is 0.)"""
    anchors = stress_pairs(spec)
    made = [p for p in candidate_pairs(spec, max_searched=24) if p.source != "stress"]
    for anchor in anchors:
        made += [e for e in (with_all_rows(spec, anchor), with_few_votes(spec, anchor),
                             *(with_few_votes(spec, anchor, votes) for votes in TINY_VOTES)) if e is not None]
        made += shortened(spec, anchor) + with_more_labels(spec, anchor)
        for name, nb in patterns(spec, anchor.data, anchor.env):
            assert violation(spec, anchor.data, nb, anchor.env) is None, (spec.id, anchor.name, name)
    for p in made:
        assert violation(spec, p.data, p.neighbour, p.env) is None, (spec.id, p.name)
    for line in lines(spec, anchors):
        grid = line.grid + line.partners()
        for t in grid:
            for u in grid:
                if t < u and line.neighbours(t, u):
                    assert violation(spec, line.point(t), line.point(u), line.anchor.env) is None, (line.name, t, u)


def test_the_relation_s_rules():
    lap = CATALOGUE["laplace_mechanism"]
    env = lap.bind({"gamma": 1.0, "p": 2})
    assert violation(lap, np.array([0.0, 0.0]), np.array([0.5, 0.5]), env) is None
    assert "L1 distance is 2" in violation(lap, np.array([0.0, 0.0]), np.array([1.0, 1.0]), env)
    assert "finite" in violation(lap, np.array([np.inf, 0.0]), np.array([1.0, 0.0]), env)
    votes = CATALOGUE["subsample_aggregate"]
    venv = votes.bind({})
    assert violation(votes, np.array([[5, 3]]), np.array([[4, 4]]), venv) is None
    assert "one vote" in violation(votes, np.array([[5, 3]]), np.array([[3, 5]]), venv)
    oqr = CATALOGUE["online_query_release"]  # moves = "index 1": the label column is fixed
    assert violation(oqr, np.array([[0, 3.0]]), np.array([[0, 4.0]]), oqr.bind({})) is None
    assert "fixes" in violation(oqr, np.array([[0, 3.0]]), np.array([[1, 3.0]]), oqr.bind({}))


@pytest.mark.parametrize("relation, kind, pair, message", [
    ("vector_l1", "vector", ([0], [100]), "L1 distance is 100"),
    ("vector_l1", "vector", ([1e999], [1]), "finite"),
    ("replace_one", "dataset", ([0, 0, 0, 0], [1, 1, 0, 0]), "2 records differ"),
    ("add_remove", "dataset", ([0, 0, 0, 0], [1, 0, 0, 0]), "add/remove changes the count by one"),
])
def test_an_ad_hoc_pair_that_is_not_a_neighbour_is_refused(relation, kind, pair, message):
    with pytest.raises(ValueError, match=message) as info:
        adhoc_spec(epsilon=1.0, relation=relation, input_kind=kind, pairs=[pair])
    assert "\n" not in str(info.value) and "pairs[0]" in str(info.value)


def test_the_add_remove_search_adds_and_removes_records_and_never_replaces_one():
    spec = adhoc_spec(epsilon=1.0, relation="add_remove", input_kind="dataset", pairs=[([0, 1, 2, 3], [0, 1, 2])])
    found = searched_pairs(spec, stress_pairs(spec))
    assert found and all(abs(np.size(p.data) - np.size(p.neighbour)) == 1 for p in found)
    assert {p.name.split("/")[1] for p in found} >= {"add", "remove"}


def test_the_first_entry_s_line_steps_across_fixed_width_integer_wraps():
    geo = CATALOGUE["geometric_mechanism"]
    line = next(L for L in lines(geo, stress_pairs(geo)) if L.name == "line/first")
    a = float(np.asarray(line.anchor.data).ravel()[0])
    values = {a + t for t in line.grid}
    assert {2.0**31 - 1, 2.0**31, 2.0**32 - 1, 2.0**32, -(2.0**31), -(2.0**31) - 1} <= values


def test_the_claim_s_epsilon_is_also_audited_far_from_its_default():
    names = [name for name, _ in parameter_points(CATALOGUE["laplace_mechanism"], {})]
    assert {"epsilon=4", "epsilon=0.25", "epsilon=8", "epsilon=0.125", "epsilon=0.0625"} <= set(names)
    # off the whole numbers below and above 1 (a keep probability taken at ceil(epsilon) above 1 is exact at 4 and 8)
    assert {"epsilon=0.7", "epsilon=2.7"} <= set(names)
    assert len(names) == len(set(names))


def test_vote_rows_are_widened_to_more_labels_only_where_the_spec_allows_them():
    pcq = CATALOGUE["private_classification_queries"]
    anchor = stress_pairs(pcq)[0]
    between, first = with_more_labels(pcq, anchor)
    a, b = np.asarray(anchor.data)[0]
    assert np.asarray(between.data)[0].tolist() == [a, 0, b] and np.asarray(first.data)[0].tolist() == [0, a, b]
    assert np.array_equal(np.asarray(between.neighbour)[:, [0, 2]], np.asarray(anchor.neighbour))
    binary = CATALOGUE["private_classification_queries_conference"]  # A_binClas: two labels only
    assert with_more_labels(binary, stress_pairs(binary)[0]) == []


def test_lines_reach_far_from_the_anchor_and_keep_the_domain():
    svt = CATALOGUE["sparse_vector"]
    (line, *_), = [lines(svt, stress_pairs(svt))[:1]]
    assert min(line.grid) <= -2**19 and max(line.grid) >= 2**19 and 0.25 in line.grid
    votes = CATALOGUE["subsample_aggregate"]
    for line in lines(votes, stress_pairs(votes)):
        assert all(float(t).is_integer() for t in line.grid)
        assert np.asarray(line.point(min(line.grid))).min() >= 0 and np.asarray(line.point(max(line.grid))).min() >= 0


def test_parameter_points_lie_on_both_sides_of_one_and_only_for_parameters_the_code_takes():
    gauss = CATALOGUE["gaussian_mechanism"]
    sigmas = sorted(p["sigma"] for name, p in parameter_points(gauss, {}) if name.startswith("sigma="))
    assert sigmas[0] < 1 < sigmas[-1]
    assert not any(name.startswith("sigma=") for name, _ in parameter_points(gauss, {"sigma": 2.0}))  # --param wins
    kept = parameter_pairs(gauss, {}, accepts=lambda name: name != "sigma")
    assert kept and not any("@sigma=" in p.name for p in kept)
    adhoc = adhoc_spec(epsilon=1.0, relation="vector_l1", pairs=[([0.0], [1.0])], params={"gamma": 1.0})
    assert parameter_points(adhoc, {}) == []  # an ad-hoc claim is stated at its one point


def test_a_derived_noise_scale_is_also_audited_on_the_other_side_of_one():
    """A Gaussian prediction drawing with the variance as its standard deviation passed: sigma_G is 9.7 at the audit
    point and between 1.2 and 39 at every point that moves one parameter, where sigma_G^2 > sigma_G adds noise."""
    spec = CATALOGUE["stable_gaussian_prediction"]
    points = parameter_points(spec, {})
    name, point = points[0]
    assert name.startswith("gamma=") and "(sigma_G=" in name
    assert 1 / 16 <= spec.bind(point)["sigma_G"] <= 1 / 2 < 1 < spec.bind({})["sigma_G"]
    assert len({n.split(" ")[0] for n, _ in points}) == len(points)  # no point twice
    assert not [n for n, _ in parameter_points(spec, {"gamma": 1.0}) if n.startswith("gamma=")]  # --param wins
    scales = [n for n, _ in derived_scale_points(CATALOGUE["svt_lyu_4"], {})]
    assert scales and not any("true_epsilon" in n or "eps1" in n for n in scales)  # losses grow with epsilon


def test_a_parameter_that_sizes_the_input_is_moved_even_when_the_code_reads_it_from_the_data():
    """The Gaussian's p (input.length) is not a keyword of an implementation that reads it from the data's shape,
    but it changes that implementation's law (noise drawn for 3 coordinates and tiled breaks from p = 4): its
    points are audited, the stress case that sets p = 1 itself resized (padded with zeros on both sides)."""
    gauss = CATALOGUE["gaussian_mechanism"]
    moved = {p.name: p for p in parameter_pairs(gauss, {}, accepts=lambda name: name == "sigma")}
    wide = moved["shift_by_sensitivity@p=4"]
    assert wide.data.tolist() == [0.0] * 4 and wide.neighbour.tolist() == [1.0, 0.0, 0.0, 0.0]
    assert "shift_by_sensitivity@p=2" in moved and not any("@sensitivity=" in name for name in moved)


MECHANISMS = textwrap.dedent('''
    import numpy as np

    def fast_path(data, *, rng, epsilon, gamma):   # no noise far above 10: invisible from the stress case at 0
        f = np.atleast_1d(np.asarray(data, dtype=float))
        return f.copy() if f[0] > 10 else f + rng.laplace(0.0, gamma / epsilon, size=f.shape)

    def correct(data, *, rng, epsilon, gamma):
        f = np.atleast_1d(np.asarray(data, dtype=float))
        return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)
''')


@pytest.fixture
def mechanisms(tmp_path):
    path = tmp_path / "mechanisms.py"
    path.write_text(MECHANISMS)
    path.chmod(0o644)
    return path


def test_a_fast_path_far_from_the_stress_case_is_found_by_the_line_search(mechanisms):
    spec = CATALOGUE["laplace_mechanism"]
    # (without the input-space search: its float32 midpoints, far above 10, find the fast path too)
    bug = audit(spec, f"{mechanisms}:fast_path", samples=20_000, seed=1, max_parameter=0, max_searched=0)
    assert bug.verdict == VIOLATION and bug.counterexample["pair"]["name"].startswith("search/line/")
    ok = audit(spec, f"{mechanisms}:correct", samples=20_000, seed=1, max_parameter=0, max_searched=0)
    assert ok.verdict in (NO_VIOLATION, NO_POWER)


def _one_sided_by_rows(x1, x2, claim):
    """one_sided_evidence as its docstring states it, over the distinct rows of np.unique(axis=0)."""
    import math

    rows = []
    for x in (x1, x2):
        distinct, counts = np.unique(x.reshape(len(x), -1), axis=0, return_counts=True)
        rows.append(dict(zip(map(bytes, distinct), counts)))
    best = 0.0
    for (mine, other, n_mine, n_other) in ((rows[0], rows[1], len(x1), len(x2)), (rows[1], rows[0], len(x2), len(x1))):
        for row, k in mine.items():
            if row not in other:
                best = max(best, max(k / n_mine - claim.delta, 0.0) * math.exp(-claim.value) * n_other)
    return best if best > math.log(len(set(rows[0]) | set(rows[1])) / 0.05) else 0.0


def test_a_one_sided_output_no_pilot_can_show_under_a_large_epsilon_is_forecast_for_the_round():
    """0.017 against 0 at epsilon 4 (a coin on a grid of 1/1000, r = 4): 34 of 2,000 pilot runs on one side, none on
    the other, is no evidence at the pilot's size (0.6 expected were the claim true) but is for a round of 66,667
    runs a side (21 expected); a row seen fewer than ONE_SIDED_RUNS times is never forecast."""
    from types import SimpleNamespace

    from dptestbed.audits.privacy.rounds import ONE_SIDED_RUNS, one_sided_evidence

    claim = SimpleNamespace(kind="dp", delta=0.0, value=4.0)
    x1 = np.zeros(2000, dtype=np.int8)
    x1[:34] = 1
    x2 = np.zeros(2000, dtype=np.int8)
    assert one_sided_evidence(x1, x2, claim) == 0.0
    assert one_sided_evidence(x1, x2, claim, at=66_667) == pytest.approx(34 / 2000 * np.exp(-4) * 66_667)
    x1[ONE_SIDED_RUNS - 1:34] = 0
    assert one_sided_evidence(x1, x2, claim, at=10**9) == 0.0


def test_the_pair_searchs_one_sided_evidence_counts_rows_exactly():
    """The pilot's rows counted by code (few values: the code itself; up to 2^62: their index; beyond: a sort of
    the columns) as by distinct rows, for every integer dtype and width."""
    from types import SimpleNamespace

    from dptestbed.audits.privacy.rounds import one_sided_evidence

    rng, shown = np.random.default_rng(1), 0
    for _ in range(400):
        width, n1, n2, high = rng.integers(1, 6), rng.integers(1, 300), rng.integers(1, 300), rng.integers(1, 8)
        x1, x2 = rng.integers(0, high, size=(n1, width)), rng.integers(0, high, size=(n2, width))
        if rng.random() < 0.3:
            x1[:rng.integers(0, n1 + 1)] = 99
        if rng.random() < 0.2:
            x1[:, 0] = rng.integers(0, 10**6, size=n1)
        if rng.random() < 0.2:
            x1[:3], x2[-2:] = 2**62, -2**62
        if rng.random() < 0.1:
            x1, x2 = x1.astype(np.uint8), x2.astype(np.uint8)
        if rng.random() < 0.05:
            x1, x2 = x1 > 0, x2 > 1
        if rng.random() < 0.3:
            x1, x2 = x1[:, 0], x2[:, 0]
        claim = SimpleNamespace(kind="dp", delta=float(rng.choice([0, 1e-3, 0.05])),
                                value=float(rng.choice([0.01, 0.1, 1])))
        expected = _one_sided_by_rows(x1, x2, claim)
        assert one_sided_evidence(x1, x2, claim) == pytest.approx(expected, abs=1e-12)
        shown += expected > 0
    assert shown > 100


@pytest.mark.parametrize("spec_id", ["agnostic_private_prediction", "agnostic_private_prediction_corrected"])
def test_pairs_found_on_lines_lie_where_the_reference_runs(spec_id):
    """The lines through the other gap parity add a vote to a row (21 votes where r = 20); an edge pair found there,
    kept whatever its score, made the reference's own audit an implementation error (the quick suite's two errors)."""
    result = audit(CATALOGUE[spec_id], seed=0)
    assert result.verdict == NO_VIOLATION, result.to_json().get("error")


def test_vote_rows_are_also_tried_with_a_few_votes_a_row():
    """A path for small ensembles (rows of fewer than 10 votes answered with their mode) passed: the fewest votes a
    row any pair held was 10."""
    spec = CATALOGUE["subsample_aggregate_corrected"]
    for votes in TINY_VOTES:
        pair = with_few_votes(spec, stress_pairs(spec)[0], votes)
        assert pair is not None and pair.name.endswith(f"@{votes}_votes")
        rows, moved = np.asarray(pair.data), np.asarray(pair.neighbour)
        assert set(rows.sum(axis=1)) == {votes} and set(moved.sum(axis=1)) == {votes}
        assert np.all(np.abs(rows - moved).sum(axis=1) <= 2)  # one vote moved a row


def test_the_relation_s_sensitivity_is_also_audited_far_above_its_default():
    """A discrete Gaussian whose sigma is searched on a bracket [0.1, 100] is exact up to sensitivity 26."""
    from dptestbed.audits.privacy.moves import FAR_SENSITIVITY_FACTOR

    for spec_id, name in (("discrete_gaussian_mechanism", "sensitivity"), ("laplace_mechanism", "gamma")):
        spec = CATALOGUE[spec_id]
        far = spec.defaults()[name] * FAR_SENSITIVITY_FACTOR
        assert any(point.get(name) == far for _, point in parameter_points(spec, {})), spec_id
    # ... and a vector's length past 64 (one noise draw broadcast over a long vector)
    assert any(point.get("p") == 65 for _, point in parameter_points(CATALOGUE["laplace_mechanism"], {}))


def test_a_single_answer_is_moved_down_as_well_as_up():
    """A sparse vector comparing a lone answer with the threshold without noise passed: the stress cases cut to one
    answer moved it up only ([0] against [1], both tops under q >= T)."""
    spec = CATALOGUE["svt_lyu_1"]
    short = shortened(spec, stress_pairs(spec)[0])[0]
    assert short.data.size == 1
    assert {tuple(p.neighbour) for p in single_moves(spec, short)} == {(1.0,), (-1.0,)}


def test_a_constant_long_vector_is_split_for_every_period_of_a_reused_noise():
    """A sparse vector reusing its query noise every 50 answers (np.resize of 50 draws) passed: the long pairs repeated
    a 5- or 10-answer move, the same in answers i and i + 50. The stepped pairs hold answers i and i + p equal on one
    side and moved apart on the other, for every period p below their length, and are neighbours."""
    spec = CATALOGUE["svt_lyu_2"]
    pairs = stepped(spec, stress_pairs(spec)[0])
    assert len(pairs) == 1
    for pair in pairs:
        data, moved = np.asarray(pair.data), np.asarray(pair.neighbour)
        assert violation(spec, data, moved, pair.env) is None and np.ptp(data) == 0
        step = moved - data
        assert all(np.any(step[:-p] != step[p:]) for p in range(1, data.size))
    assert stepped(CATALOGUE["laplace_mechanism"], stress_pairs(CATALOGUE["laplace_mechanism"])[0]) == []


def test_the_first_long_vector_is_stretched_past_a_noise_buffer_and_a_ledger_window():
    """A sparse vector that cycles a buffer of 128 noise draws (query 129 answered with query 1's) and a session whose
    ledger remembers the last 100 queries passed: every searched vector held at most 65 answers. The first stress case
    is also repeated to 129 and 257 answers, and stretched: its first answer at both ends, moved apart, the answers
    between far past any noise (tops on one path, bottoms on the other), each a neighbour."""
    spec = CATALOGUE["sparse_vector"]
    anchor = stress_pairs(spec)[0]
    pairs = stretched(spec, anchor)
    assert sorted(np.asarray(p.data).size for p in pairs) == sorted(2 * list(LONGER_LENGTHS))
    for pair in pairs:
        data, moved = np.asarray(pair.data), np.asarray(pair.neighbour)
        assert violation(spec, data, moved, pair.env) is None
        assert np.flatnonzero(data != moved).tolist() == [0, data.size - 1] and data[0] == data[-1]
        assert abs(data[1] - data[0]) >= 2 ** 20
    assert {np.asarray(p.data).size for p in repeated(spec, anchor, LONGER_LENGTHS)} == set(LONGER_LENGTHS)
    names = {p.name.split("@")[-1] for p in _resized_pairs(spec, stress_pairs(spec)[:1])}
    assert {"repeated_257", "stretched_129_above", "stretched_257_below"} <= names
    assert stretched(CATALOGUE["laplace_mechanism"], stress_pairs(CATALOGUE["laplace_mechanism"])[0]) == []


def test_records_far_inside_their_bound_are_searched_with_one_moved_to_the_bound():
    """An ERM that rescales its rows so that the largest has norm L_f passed: every stress row had norm 1 already.
    The shrunk pair holds every row at a thousandth of its size and moves one to norm L_f the other way."""
    spec = CATALOGUE["convex_erm_prediction"]
    pairs = [p for p in candidate_pairs(spec, max_searched=24) if p.name.startswith("search/shrunk/")]
    assert pairs
    for p in pairs:
        X, nb = np.asarray(p.data["X"]), np.asarray(p.neighbour["X"])
        assert np.max(np.linalg.norm(X, axis=1)) <= 1e-3 + 1e-12
        changed = np.flatnonzero(np.any(X != nb, axis=1))
        assert changed.size == 1 and math.isclose(float(np.linalg.norm(nb[changed[0]])), 1.0)
        assert violation(spec, p.data, p.neighbour, p.env) is None


def test_a_vote_row_tied_at_the_top_is_recognised():
    spec = CATALOGUE["subsample_aggregate_corrected"]
    anchor = stress_pairs(spec)[0]
    tied = anchor.derived(name="tied", data=np.array([[5, 5, 0]] * 4), neighbour=np.array([[6, 4, 0]] * 4))
    assert tied_top(spec, tied)
    untied = anchor.derived(name="untied", data=np.array([[6, 4, 0]] * 4), neighbour=np.array([[7, 3, 0]] * 4))
    assert not tied_top(spec, untied)


def test_vote_rows_are_mirrored_unless_a_stress_case_holds_the_mirror():
    """subsample_aggregate_prediction's few-teacher case (r = 4 at epsilon 4) has every teacher voting 0; its mirror
    (every teacher voting 1, one flipped) is where a coin drawn on a grid of 1/1000 leaks (0.017 against 0). The
    default point's extreme case has a mirror among the stress cases already: none is added."""
    spec = CATALOGUE["subsample_aggregate_prediction"]
    stress = stress_pairs(spec)
    small = next(p for p in stress if p.name == "W1_extreme_small_r")
    m = mirrored(spec, small, stress)
    assert m is not None and m.params == small.params and m.name == "W1_extreme_small_r@mirrored"
    assert list(m.data) == [0, 4] and list(m.neighbour) == [1, 3]
    assert violation(spec, m.data, m.neighbour, m.env) is None
    assert mirrored(spec, next(p for p in stress if p.name == "W1_extreme"), stress) is None
    assert mirrored(CATALOGUE["laplace_mechanism"], stress_pairs(CATALOGUE["laplace_mechanism"])[0], []) is None


def _gaussian_one_query(data, *, rng, epsilon, delta, gamma, **_):
    """The paper's Gaussian prediction, one query a call (a scalar: float() of an array raises)."""
    return float(data) + rng.normal(0.0, gamma * math.sqrt(2 * math.log(1.25 / delta)) / epsilon)


def _gaussian_variance_as_sd(data, *, rng, epsilon, delta, gamma, **_):
    return float(data) + rng.normal(0.0, (gamma * math.sqrt(2 * math.log(1.25 / delta)) / epsilon) ** 2)


@pytest.mark.slow
def test_one_query_a_call_is_not_audited_at_q_and_a_variance_as_sd_breaks_the_claim_below_sigma_one():
    spec = CATALOGUE["stable_gaussian_prediction"]
    right = audit(spec, _gaussian_one_query, seed=3)
    assert right.verdict == NO_VIOLATION
    left_out = [n for n in right.notes if "left out" in n]
    assert {n.split(":")[0] for n in left_out} == {"two_queries_together", "two_queries_apart", "three_queries_together"}
    assert all("testbed's extension" in n for n in left_out)
    wrong = audit(spec, _gaussian_variance_as_sd, samples=100_000, seed=3)
    assert wrong.verdict == VIOLATION and wrong.counterexample["pair"]["params"]["gamma"] < 0.1
