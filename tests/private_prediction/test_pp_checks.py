"""The seed-002 checks, mutants, profiles and errata: wiring and small runs (fixed seeds)."""

import numpy as np
import pytest

from dptestbed.audits.checks import theorems as thm
from dptestbed.audits.checks.errata import registered
from dptestbed.audits.checks.experiments import load_registry, run_check
from dptestbed.audits.privacy import audit
from dptestbed.audits.privacy.claims import from_json
from dptestbed.audits.privacy.exact import exact_epsilon
from dptestbed.audits.privacy.pairs import stress_pairs
from dptestbed.impl.private_prediction.mutants import MUTANTS
from dptestbed.spec import load_catalogue


@pytest.fixture(scope="module")
def catalogue():
    return load_catalogue()


def _paper_experiments(catalogue):
    return [e for (spec, _), exps in load_registry().items() if spec in catalogue
            and catalogue[spec].source.get("seed") == "002_d5eb9f32f0c0d0b4.txt" for e in exps]


SMALL = {"bound": 60, "calibration": 4000, "property": 60}


def test_every_check_runs_on_the_reference(catalogue):
    exps = _paper_experiments(catalogue)
    assert len(exps) >= 20
    for e in exps:
        # sample-only checks are cheap at their quick size; the rest run small
        trials = e.trials["quick"] if e.trials["quick"] >= 100_000 else min(e.trials["quick"], SMALL[e.kind])
        r = run_check(catalogue[e.spec], e, catalogue[e.spec].implementation, seed=1, trials=trials)
        thm.apply_multiple_testing([r])
        assert r["verdict"] in ("consistent", "inconclusive"), (e.id, r.get("error"), r.get("counterexample"))


def test_mutants_name_existing_checks(catalogue):
    ids = {e.id for e in _paper_experiments(catalogue)}
    assert len(MUTANTS) >= 15
    for m in MUTANTS:
        assert m.spec in catalogue
        assert m.equivalent or m.killed_by, m.id
        for k in m.killed_by:
            assert k == "privacy audit" or k in ids, (m.id, k)


@pytest.mark.parametrize("spec, name", [
    ("subsample_aggregate_prediction_corrected", "soft_majority_bagged_blocks"),
    ("subsample_aggregate_prediction_corrected", "soft_majority_leaks_margin"),
    ("stable_laplace_prediction_corrected", "laplace_half_scale"),
    ("convex_erm_prediction", "erm_local_sensitivity"),
    # measured at the stress cases added for them (issue 25): label_flip_last_record, W6_two_queries_apart at q = 2,
    # all_predictions_move with the fixed-length transcript
    ("subsample_aggregate_prediction_corrected", "soft_majority_label_sorted_partition"),
    ("stable_laplace_prediction_corrected", "laplace_noise_reused_across_queries"),
    ("budgeted_prediction_session", "session_never_refuses"),
    ("budgeted_prediction_session", "session_signed_refusals"),  # an all-infinite view has events (the signs)
    # issue 26: one coin for both answers of a two-query call (the joint law of the transcript)
    ("subsample_aggregate_prediction_corrected", "soft_majority_shared_coin"),
])
def test_privacy_mutants_are_flagged(catalogue, spec, name):
    res = audit(catalogue[spec], implementation=f"dptestbed.impl.private_prediction.mutants:{name}",
                samples=200_000, seed=0, progress=False)
    assert res.verdict == "violation"
    assert res.epsilon_lower_bound > res.to_json()["claim"]["epsilon"]


def test_a_data_dependent_partition_is_found_by_the_search(catalogue):
    """Records sorted by feature and dealt round-robin to the teachers: no stress case moves a record across
    blocks; the input-space search's magnitude generator does."""
    res = audit(catalogue["subsample_aggregate_prediction_corrected"], seed=0, progress=False, samples=200_000,
                implementation="dptestbed.impl.private_prediction.mutants:soft_majority_sorted_round_robin")
    assert res.verdict == "violation"
    assert res.counterexample["pair"]["source"] == "search", res.counterexample["pair"]["name"]


def test_randomness_from_numpy_after_the_probe_is_an_implementation_error(catalogue):
    res = audit(catalogue["stable_laplace_prediction_corrected"], seed=0, progress=False,
                implementation="dptestbed.impl.private_prediction.mutants:laplace_rng_first_50_runs")
    assert res.verdict == "implementation error"
    assert "randomness not from rng" in res.reason


@pytest.mark.slow
def test_gaussian_noise_one_and_a_half_times_too_small_is_a_claim_violation(catalogue):
    """At check's per-audit level (0.995 here): the spec's claim is its Gaussian's curve (mu-GDP, mu = 0.204), and
    the verdict's own rounds show the loss above it (issue 35: before, as one (epsilon, delta) point, only the
    confirmation round's 1.2e8 samples a side did). The mutant's exact mu is 1.5 times the claim's."""
    res = audit(catalogue["stable_gaussian_prediction"], seed=0, progress=False, confidence=0.995,
                implementation="dptestbed.impl.private_prediction.mutants:gaussian_two_thirds_noise")
    claim = from_json(res.claim)
    assert res.verdict == "violation" and claim.kind == "gdp"
    assert not any(r.get("confirmation") for r in res.rounds)
    assert claim.value < res.epsilon_lower_bound <= 1.5 * claim.value + 1e-9


def test_exact_profiles_on_the_stress_pairs(catalogue):
    spec = catalogue["subsample_aggregate_prediction_corrected"]
    values = {p.name: exact_epsilon(spec, p) for p in stress_pairs(spec)}
    assert values["W1_extreme"] == pytest.approx(1.0 - 1.74e-5, abs=1e-6)
    assert values["W1_centre"] == pytest.approx(0.5)
    assert values["W9_canary_dataset"] == pytest.approx(3.98219, abs=1e-4)
    broken = catalogue["subsample_aggregate_prediction_broken"]
    assert {p.name: exact_epsilon(broken, p) for p in stress_pairs(broken)}["near_centre_tail"] == pytest.approx(1.958, abs=1e-3)
    erm = catalogue["convex_erm_prediction"]
    assert {p.name: exact_epsilon(erm, p) for p in stress_pairs(erm)}["S7_label_flip_dflt"] == pytest.approx(0.5)


def test_errata_registered_and_fast_ones_decide():
    from dptestbed.audits.checks.errata import ErratumContext

    errata = registered()
    for eid in ("002-E1", "002-E2", "002-E3", "002-E4", "002-E5", "002-E6", "002-E7", "002-E8", "002-E9", "002-E10",
                "002-E11", "002-E12"):
        assert eid in errata
    ctx = ErratumContext(0, "quick", load_catalogue())
    assert errata["002-E4"].measure(ctx)["verdict"] == "confirmed"
    assert errata["002-E7"].measure(ctx)["verdict"] == "confirmed"
    assert np.isfinite(errata["002-E5"].measure(ctx)["details"]["averaged_mean"])
    for eid in ("002-E3", "002-E9", "002-E10", "002-E11"):
        assert errata[eid].measure(ctx)["verdict"] == "analytic"


@pytest.mark.slow
def test_every_erratum_states_both_versions(catalogue):
    """Every seed-002 erratum prints both versions and a verdict of the vocabulary that its record supports (runs
    the measurements, with the privacy audits of E1 and E2)."""
    from dptestbed.audits.checks.errata import errata_measurements

    ids = [e for e in registered() if e.startswith("002-")]
    spec_ids = {s for e in ids for s in registered()[e].involves}
    rows = [r for r in errata_measurements(0, "quick", catalogue=catalogue, spec_ids=spec_ids) if r["id"] in ids]
    assert {r["id"] for r in rows} == set(ids)
    for r in rows:
        assert r["printed_formula"] and r["corrected_formula"], r["id"]
        assert r["verdict"] in ("confirmed", "analytic"), (r["id"], r["verdict"], r["measurement"])


@pytest.mark.parametrize("spec_id, check, mutant, at_spec_point", [
    ("private_prediction_lower_bound_corrected", "instance-law-fewer-points", "lower_bound_without_replacement",
     "instance-law"),  # distinct points where n <= d: exact at the spec's n = 500 > d = 400
    ("averaged_learner_corrected", "block-average", "averaged_learner_vote_on_labels", None),  # 0/1 blocks voted
])
def test_bugs_of_an_input_regime_are_flagged_where_they_live(catalogue, spec_id, check, mutant, at_spec_point):
    exps = {e.name: e for (spec, _), es in load_registry().items() if spec == spec_id for e in es}
    impl = f"dptestbed.impl.private_prediction.mutants:{mutant}"
    r = run_check(catalogue[spec_id], exps[check], impl, seed=3, isolate=False)
    thm.apply_multiple_testing([r], n_audits=0)
    assert r["verdict"] == "violated", r
    if at_spec_point:
        r = run_check(catalogue[spec_id], exps[at_spec_point], impl, seed=3, isolate=False)
        thm.apply_multiple_testing([r], n_audits=0)
        assert r["verdict"] == "consistent", r
