"""The auditor's input-space search (audits/privacy/pairs.py: pairs generated from a spec's declared records)
and its bit-level view: leaks that no hand-written stress case targets are found, and the generator
that found each is named in the counterexample."""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pytest

from dptestbed.audits.privacy import VIOLATION, audit
from dptestbed.audits.privacy.pairs import (
    MAX_CONSTANT_PAIRS,
    MAX_COVER_PAIRS,
    MAX_LENGTH_PAIRS,
    MAX_ONE_END_PAIRS,
    MAX_RAMP_PAIRS,
    MAX_SHRUNK_PAIRS,
    candidate_pairs,
    searched_pairs,
    stress_pairs,
)
from dptestbed.audits.privacy.records import DISTINCT_COUNTS, LABEL_OFFSETS, LARGE_N, SHORTCUT_TAILS
from dptestbed.spec import SpecError, load_catalogue, load_spec

CATALOGUE = load_catalogue()


def test_every_searched_pair_replaces_exactly_one_record():
    spec = CATALOGUE["bounded_mean"]
    pairs = searched_pairs(spec, stress_pairs(spec))
    generators = {p.name.split("/")[1] for p in pairs}
    assert {"sort_order", "magnitude", "tie", "position", "random", "large_n"} <= generators
    for p in pairs:
        d, nb = np.asarray(p.data), np.asarray(p.neighbour)
        assert d.shape == nb.shape and int(np.sum(d != nb)) == 1, p.name
        assert p.source == "search" and len(d) == p.params["n"]
    assert max(len(np.asarray(p.data)) for p in pairs) >= LARGE_N  # the records replicated, n scaled with them


def test_the_search_is_capped_and_reproducible():
    spec = CATALOGUE["bounded_mean"]
    one, two = candidate_pairs(spec, max_searched=5), candidate_pairs(spec, max_searched=5)
    lengthened = [p for p in one if p.name.startswith("search/length/")]  # capped apart (pairs.MAX_LENGTH_PAIRS)
    constant = [p for p in one if p.name.startswith("search/constant/")]  # ... (pairs.MAX_CONSTANT_PAIRS)
    zero = [p for p in one if p.name.startswith("search/zero/")]  # ... (pairs.MAX_ZERO_PAIRS)
    ramp = [p for p in one if p.name.startswith("search/ramp/")]  # ... (pairs.MAX_RAMP_PAIRS)
    one_end = [p for p in one if p.name.startswith("search/one_end/")]  # ... (pairs.MAX_ONE_END_PAIRS)
    shrunk = [p for p in one if p.name.startswith("search/shrunk/")]  # ... (pairs.MAX_SHRUNK_PAIRS)
    assert 0 < len(ramp) <= MAX_RAMP_PAIRS and len(one_end) == MAX_ONE_END_PAIRS
    assert 0 < len(shrunk) <= MAX_SHRUNK_PAIRS
    apart = len(lengthened) + len(constant) + len(zero) + len(ramp) + len(one_end) + len(shrunk)
    assert sum(p.source == "search" for p in one) - apart == 5
    assert 0 < len(lengthened) <= MAX_LENGTH_PAIRS and 0 < len(constant) <= MAX_CONSTANT_PAIRS
    assert [p.name for p in one] == [p.name for p in two]
    assert all(np.array_equal(a.neighbour, b.neighbour) for a, b in zip(one, two))
    assert not any(p.source == "search" for p in candidate_pairs(spec))  # off unless asked


def test_a_scale_computed_from_private_rows_is_found_by_the_search(tmp_path):
    path = tmp_path / "mean.py"
    path.write_text(textwrap.dedent("""
        import numpy as np

        def mean(data, *, rng, epsilon, lower, upper):
            x = np.asarray(data, dtype=float)
            scale = (upper - lower) / (x.size * epsilon) * (1 + np.max(np.abs(x)) / 1000)  # from the private rows
            return float(np.clip(x, lower, upper).mean() + rng.laplace(0.0, scale))

        def mean_batch(data, n, *, rng, epsilon, lower, upper):
            x = np.asarray(data, dtype=float)
            scale = (upper - lower) / (x.size * epsilon) * (1 + np.max(np.abs(x)) / 1000)
            return np.clip(x, lower, upper).mean() + rng.laplace(0.0, scale, size=n)

        mean.batch = mean_batch
    """))
    result = audit(CATALOGUE["bounded_mean"], f"{path}:mean", samples=20_000, seed=1, max_parameter=0)
    assert result.verdict == VIOLATION
    assert result.counterexample["pair"]["source"] == "search"
    assert "/magnitude/" in result.counterexample["pair"]["name"]  # a record made huge (on a stress or random dataset)


def test_a_leak_in_the_sign_of_zero_is_an_event(tmp_path):
    path = tmp_path / "zero.py"
    path.write_text("import numpy as np\n\ndef leak(data, *, rng, epsilon, gamma):\n"
                    "    f = np.asarray(data, dtype=float)\n    return np.where(f > 0, 0.0, -0.0)\n")
    result = audit(CATALOGUE["laplace_mechanism"], f"{path}:leak", samples=2_000, seed=1)
    assert result.verdict == VIOLATION and result.counterexample["event_detail"]["view"] == "negative_zeros"


@pytest.mark.parametrize("domain, message", [("complex", "unknown domain"), ("norm<=undefined_name", "undefined_name")])
def test_a_bad_record_domain_is_a_one_line_error(tmp_path, domain, message):
    text = (CATALOGUE["bounded_mean"].file and open(CATALOGUE["bounded_mean"].file).read())
    text = text.replace('fields = { "." = "real" }', f'fields = {{ "." = "{domain}" }}')
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(SpecError, match=message) as info:
        load_spec(path)
    assert "input.records.fields" in str(info.value) and "\n" not in str(info.value)


def test_randomness_switched_to_global_entropy_after_the_probe_is_caught(tmp_path):
    path = tmp_path / "late.py"
    path.write_text(textwrap.dedent("""
        import numpy as np

        calls = 0

        def lap_batch(data, n, *, rng, epsilon, gamma):
            global calls
            calls += 1
            source = rng if calls <= 6 else np.random  # the contract probe sees rng; later calls do not
            return np.asarray(data, dtype=float) + source.laplace(0.0, gamma / epsilon, size=(n, np.size(data)))

        def lap(data, *, rng, epsilon, gamma):
            return lap_batch(data, 1, rng=rng, epsilon=epsilon, gamma=gamma)[0]

        lap.batch = lap_batch
    """))
    result = audit(CATALOGUE["laplace_mechanism"], f"{path}:lap", samples=20_000, seed=1)
    assert result.verdict == "implementation error" and "randomness not from rng" in result.reason
    assert audit(CATALOGUE["laplace_mechanism"], samples=20_000, seed=1).verdict != "implementation error"


def test_the_large_n_copy_of_a_labelled_dataset_is_balanced():
    """With label fields the large-n copy holds every changeable record with both labels equally often
    (every hypothesis errs on about half of them), and its two neighbours move one label, up and down."""
    spec = CATALOGUE["ppm_halfspace_learner"]
    pairs = [p for p in searched_pairs(spec, stress_pairs(spec)) if p.name.split("/")[1] == "large_n"]
    assert pairs and {p.name.split("/")[2] for p in pairs} == {"balanced_label_up", "balanced_label_down"}
    for p in pairs:
        y, p_bit = np.asarray(p.data["y"]), np.asarray(p.data["p"])
        private = y[p_bit == 1]
        assert private.size >= 2 * LARGE_N and int(private.sum()) * 2 == private.size  # balanced
        assert p.params["n"] == y.size
        assert np.array_equal(p.data["X"], p.neighbour["X"]) and np.array_equal(p_bit, p.neighbour["p"])
        changed = np.flatnonzero(y != np.asarray(p.neighbour["y"]))
        assert changed.size == 1 and p_bit[changed[0]] == 1
        assert y[changed[0]] == (0 if p.name.split("/")[2] == "balanced_label_up" else 1)


def test_the_two_ends_dataset_holds_the_pair_s_record_on_both_its_sides_and_moves_one_across():
    """bounded_mean's stress pair moves a record from 0 to 1: the two-ends dataset holds LARGE_N records, half at
    0 and half at 1, and its neighbours move one record from one end to the other (n set to the new count)."""
    spec = CATALOGUE["bounded_mean"]
    pairs = [p for p in searched_pairs(spec, stress_pairs(spec)) if p.name.split("/")[2:3] == ["two_ends"]]
    assert pairs
    for p in pairs:
        data, nb = np.asarray(p.data, dtype=float), np.asarray(p.neighbour, dtype=float)
        assert data.size == nb.size == p.params["n"] == LARGE_N and np.count_nonzero(data != nb) == 1
        assert len(np.unique(data)) == 2 and np.count_nonzero(data == data.min()) == LARGE_N // 2


def test_the_one_end_dataset_holds_every_record_at_one_end_of_the_pair_s_move_at_the_point_s_length():
    """At bounded_mean's first audit point (n = 2, epsilon = 0.4: noise wider than the range) the pair's moved record
    (lower to upper) is copied to every position, the last moved to the other end, both ways; n unchanged. Within the
    audit's candidates they are capped apart (MAX_ONE_END_PAIRS), beside the other searched pairs."""
    spec = CATALOGUE["bounded_mean"]
    point = spec.audit_points[0]
    pairs = [p for p in searched_pairs(spec, stress_pairs(spec, point)) if p.name.startswith("search/one_end/")]
    low = [p for p in pairs if p.name == "search/one_end/low_to_high/record_lower_to_upper"]
    assert len(low) == 1 and list(low[0].data) == [-2.0, -2.0] and list(low[0].neighbour) == [-2.0, 3.0]
    for p in pairs:
        data, nb = np.asarray(p.data, dtype=float), np.asarray(p.neighbour, dtype=float)
        assert data.size == nb.size == p.params["n"] == point["n"] and np.count_nonzero(data != nb) == 1
        assert len(np.unique(data)) == 1 and nb[-1] != data[-1]
    capped = [p for p in candidate_pairs(spec, point, max_searched=24) if p.name.startswith("search/one_end/")]
    assert len(capped) == MAX_ONE_END_PAIRS


@pytest.mark.measurement
def test_a_linear_space_softmax_that_underflows_is_found_by_the_large_n_search():
    """Seed 001's learner with float64 weights exp(-epsilon m/2) and an argmin fallback when they all underflow
    (m >= 1,491 at epsilon = 1): no stress case has that many mistakes; the balanced large-n copy does (2,048
    for every hypothesis), and moving one label breaks the tie of the first minimiser: infinite loss."""
    spec = CATALOGUE["ppm_halfspace_learner"]
    mutant = "dptestbed.impl.halfspace_mixtures.mutants:learner_float64_linear_weights"
    result = audit(spec, mutant, samples=20_000, seed=1)
    assert result.verdict == VIOLATION and result.epsilon_lower_bound > 4
    assert result.counterexample["pair"]["source"] == "search"
    assert result.counterexample["pair"]["name"].startswith("search/large_n/balanced_label_")
    assert audit(spec, samples=20_000, seed=1).verdict != VIOLATION  # the reference samples in log space


def test_every_stress_dataset_is_searched_even_past_the_cap():
    """ppm's stress datasets number 14; the generators, taking them in turn within the cap, reached the first four
    only, and its case without public rows (where a guard made private rows supports) was never searched."""
    pairs = candidate_pairs(CATALOGUE["ppm_halfspace_learner"], max_searched=24)
    searched = {p.name.rsplit("/", 1)[-1] for p in pairs if p.source == "search"}
    assert "N5_no_public_points" in searched
    assert sum(p.name.startswith("search/cover/") for p in pairs) <= MAX_COVER_PAIRS


def test_lists_of_many_distinct_ids_cross_the_counts_where_code_switches_paths():
    """A histogram that prunes its singletons above 64 distinct ids passed: no searched list held more than 10."""
    pairs = [p for p in candidate_pairs(CATALOGUE["stable_histogram"], max_searched=24)
             if p.name.startswith("search/distinct/")]
    assert sorted(len(p.data) for p in pairs) == sorted(DISTINCT_COUNTS)
    for p in pairs:
        d, nb = np.asarray(p.data), np.asarray(p.neighbour)
        assert int(np.sum(d != nb)) == 1 and p.params["n"] == d.size, p.name
        assert np.unique(d).size == d.size and np.unique(nb).size == d.size - 1
    bounded = [p for p in candidate_pairs(CATALOGUE["bounded_mean"], max_searched=24)]
    assert not any(p.name.startswith("search/distinct/") for p in bounded)  # real records have no ids


@pytest.mark.parametrize("spec_id, n", [("stable_histogram", 100), ("bounded_mean", 3), ("ppm_halfspace_learner", 40)])
def test_a_record_count_the_user_sets_resizes_the_stress_datasets(spec_id, n):
    """``--param n=100`` ran stable_histogram's reference on its 51-item list: "implementation error"."""
    from dptestbed.audits.privacy.neighbours import violation

    spec = CATALOGUE[spec_id]
    pairs = stress_pairs(spec, {"n": n})
    assert pairs
    for p in pairs:
        for side in (p.data, p.neighbour):
            assert {np.shape(v)[0] for k, v in (side.items() if isinstance(side, dict) else [(".", side)])
                    if k in ("X", "y", "p", ".")} == {n}, p.name
        assert violation(spec, p.data, p.neighbour, p.env) is None, p.name


def test_a_count_of_fixed_records_the_user_sets_keeps_the_cases_that_hold_it():
    """``--param n_pub=0`` audited ppm's cases with three public rows and printed "at n_pub=0"."""
    from dptestbed.audits.privacy.moves import parameter_points

    spec = CATALOGUE["ppm_halfspace_learner"]
    kept = stress_pairs(spec, {"n_pub": 0})
    assert kept and all(not np.any(np.asarray(p.data["p"]) == 0) for p in kept)
    with pytest.raises(ValueError, match="no stress case holds n_pub = 5"):
        stress_pairs(spec, {"n_pub": 5})
    assert not any("n_pub" in name for name, _ in parameter_points(spec, {}))  # the data sets it


def test_check_refuses_a_count_no_stress_case_holds_with_one_line(tmp_path, capsys):
    from dptestbed.audits.cli import main

    code = main(["check", "ppm_halfspace_learner", "--impl", "dptestbed.impl.halfspace_mixtures.learner:ppm_halfspace_learner",
                 "--param", "n_pub=5", "--out", str(tmp_path / "out"), "--no-plots"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err[-1].startswith("dptestbed: error:") and "n_pub = 5" in err[-1], err
    assert not (tmp_path / "out").exists()


def test_check_refuses_a_parameter_that_would_change_nothing(tmp_path, capsys):
    """``--param n=200`` on a spec without a privacy audit ran its theorem checks at their own points and printed
    PASS: a tester took that for a check at n = 200 (an instance drawn without replacement where n <= d went unseen)."""
    from dptestbed.audits.cli import main

    code = main(["check", "private_prediction_lower_bound_corrected", "--impl",
                 "dptestbed.impl.private_prediction.lower_bound:private_prediction_lower_bound", "--param", "n=200",
                 "--out", str(tmp_path / "out"), "--no-plots"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and err[-1].startswith("dptestbed: error: --param:") and "no privacy audit" in err[-1], err
    assert not (tmp_path / "out").exists()


def test_records_of_zero_features_are_searched():
    """An ERM dropping records of zero features (n counted after them) passed: no searched record was all zero."""
    pairs = [p for p in candidate_pairs(CATALOGUE["convex_erm_prediction"], max_searched=24)
             if p.name.startswith("search/zero/")]
    assert {p.name.split("/")[2] for p in pairs} == {"all_but_last", "middle_record"}
    for p in pairs:
        X, nb = np.asarray(p.data["X"]), np.asarray(p.neighbour["X"])
        assert int(np.sum(np.any(X != nb, axis=1))) == 1 and np.any(np.all(X == 0, axis=1) != np.all(nb == 0, axis=1))


def test_large_copies_are_also_searched_with_their_labels_off_balance():
    """Error rates rounded to 3 decimals passed: a balanced copy's rates sit on the grid's middle (one half). A
    learner dropping the candidates below 10^-3 of the best weight passed too: its cut, an error gap of
    2 ln(1000)/epsilon = 13.8 at epsilon = 1, lay between no searched pair's two gaps. The offsets 2..12 put every
    gap from 4 to 26 on one side of a pair (gaps 2t and 2t + 2 between two hypotheses that differ on a record)."""
    pairs = [p for p in candidate_pairs(CATALOGUE["generic_private_learner"], max_searched=24)
             if p.name.startswith("search/offset/")]
    assert [p.name.split("/")[2] for p in pairs] == [f"{t}_labels_off_balance" for t in LABEL_OFFSETS]
    assert set(range(2, 13)) <= set(LABEL_OFFSETS)
    for p in pairs:
        y, nb = np.asarray(p.data["y"]), np.asarray(p.neighbour["y"])
        assert int(np.sum(y != nb)) == 1 and len(y) >= LARGE_N and p.params["n"] == len(y)


def test_a_finite_class_is_searched_where_its_lead_crosses_a_shortcut_and_where_its_weights_underflow():
    """A learner returning the best row when every rival's weight is below 10^-3 passed (and one falling back to
    uniform when plain weights exp(-epsilon m/2) all underflow): no pair moved the lead across 2 ln(1000)/epsilon with
    a pilot that could show a rival, and no pair put the fewest mistakes at 1,490 against 1,491."""
    spec = CATALOGUE["generic_private_learner"]
    pairs = [p for p in candidate_pairs(spec, max_searched=24) if p.name.startswith("search/margin/")]
    leads = [p for p in pairs if "/lead_" in p.name]
    assert [p.name.split("/")[2] for p in leads] == [
        f"lead_{math.floor(2 * math.log(1 / tau)) + 1}_tail_{tau:g}" for tau in SHORTCUT_TAILS]
    for p, tau in zip(leads, SHORTCUT_TAILS):
        H = np.asarray(p.data["H"])
        err = np.sort((H[:, p.data["x"]] != p.data["y"]).sum(axis=1))
        moved = np.sort((H[:, p.neighbour["x"]] != p.neighbour["y"]).sum(axis=1))
        assert math.exp(-(err[1] - err[0]) / 2) < tau < math.exp(-(moved[1] - moved[0]) / 2)  # at epsilon = 1
        assert tau < p.extra["rare"] < 3 * tau and p.params["n"] == len(p.data["y"])
    under = [p for p in pairs if "/underflow_" in p.name]
    assert len(under) == 2
    for p in under:
        H = np.asarray(p.data["H"])
        err = (H[:, p.data["x"]] != p.data["y"]).sum(axis=1)
        moved = (H[:, p.neighbour["x"]] != p.neighbour["y"]).sum(axis=1)
        assert set(err) == {1491} and moved.min() == 1490
        assert np.all(np.exp(-err / 2) == 0) and np.exp(-moved.min() / 2) > 0


def test_a_finite_class_is_searched_where_weights_shifted_by_their_smallest_exponent_overflow():
    """A learner shifting its log-weights by their minimum (a slip for the maximum), whose weights then overflow and
    which falls back to its best row, passed: no pair spread the rows' mistakes past 2 x 709.78 / epsilon with two
    rows ahead together. The overflow pair does, on one side only, and is a neighbour."""
    spec = CATALOGUE["generic_private_learner"]
    pairs = [p for p in candidate_pairs(spec, max_searched=24) if p.name.startswith("search/overflow/")]
    assert pairs
    for p in pairs:
        H = np.asarray(p.data["H"])
        err = (H[:, p.data["x"]] != p.data["y"]).sum(axis=1)
        moved = (H[:, p.neighbour["x"]] != p.neighbour["y"]).sum(axis=1)
        with np.errstate(over="ignore"):
            assert not np.isfinite(np.sum(np.exp((err.max() - err) / 2)))  # at epsilon = 1
            assert np.isfinite(np.sum(np.exp((moved.max() - moved) / 2)))
        assert np.sum(err == err.min()) == 2 and int(np.sum(p.data["y"] != p.neighbour["y"])) == 1
        assert p.params["n"] == len(p.data["y"])


def _shortcut_learner(data, *, rng, epsilon, **_):
    """The exponential mechanism that returns the best row when every other row's probability is below 10^-3."""
    H, x, y = np.asarray(data["H"]), np.asarray(data["x"]), np.asarray(data["y"])
    logw = -epsilon * (H[:, x] != y).sum(axis=1) / 2.0
    p = np.exp(logw - logw.max())
    p /= p.sum()
    best = int(np.argmax(p))
    return best if np.all(np.delete(p, best) < 1e-3) else int(rng.choice(len(p), p=p))


@pytest.mark.measurement
def test_a_shortcut_below_a_rival_weight_of_a_thousandth_breaks_the_claim_on_a_margin_pair():
    result = audit(CATALOGUE["generic_private_learner"], _shortcut_learner, samples=100_000, seed=1)
    assert result.verdict == VIOLATION and result.epsilon_lower_bound > 1.5
    assert result.counterexample["pair"]["name"].startswith("search/margin/lead_14_tail_0.001/")
