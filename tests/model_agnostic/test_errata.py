"""Errata 000-E1 / E2 / E4 settled by measurement (audits/model_agnostic/errata.py), and the
engine's errata registry (audits/checks/errata.py)."""

import json

from dptestbed.audits.checks import errata as registry
from dptestbed.audits.model_agnostic import errata as E
from dptestbed.spec import load_catalogue


def test_e1_deterministic_confirmed():
    ex = E.e1_exhaustive(8)
    assert ex["max_change_printed"] == 2 and ex["max_change_corrected"] == 1
    assert ex["mode_flips_with_nonzero_dist_printed"] > 0 and ex["mode_flips_with_nonzero_dist_corrected"] == 0


def test_e1_exact_below_claim():
    exact = E.e1_exact(load_catalogue())
    p, c = exact["subsample_aggregate"], exact["subsample_aggregate_corrected"]
    assert p["exact_epsilon"] > c["exact_epsilon"] and p["exact_epsilon"] < p["claim_epsilon"]


def test_e2_leak_confirmed():
    leak = E.e2_leak(0, 50_000)
    p, c = leak["soft_label_queries"], leak["soft_label_queries_corrected"]
    assert p["D"]["cp999"][0] > p["delta"] and p["D_prime"]["events"] == 0
    assert c["D"]["cp999"][1] <= c["delta"]


def test_e2_survives_a_failed_audit(monkeypatch):
    """The Monte Carlo decides E2; an audit that failed is named in the text and keeps its error."""
    monkeypatch.setattr(E, "E2_SAMPLES", {"quick": 50_000})
    failed = {"spec": "soft_label_queries", "verdict": "error", "error": "IndexError: boom"}
    monkeypatch.setattr(registry.ErratumContext, "audit", lambda self, spec_id: {**failed, "spec": spec_id})
    out = E.measure_e2(registry.ErratumContext(0, "quick", load_catalogue(), {}))
    assert out["verdict"] == "confirmed" and "Audit soft_label_queries: error." in out["measurement"]
    assert out["details"]["audit_printed"]["error"] == "IndexError: boom"


def test_reclassify_only_confirmed_printed_privacy_errata():
    rows = [{"spec": "soft_label_queries", "verdict": "violation", "outcome": "unexpected"},
            {"spec": "soft_label_queries_corrected", "verdict": "violation", "outcome": "unexpected"},
            {"spec": "subsample_aggregate", "verdict": "violation", "outcome": "unexpected"}]
    registry.reclassify(rows, [
        {"id": "000-E2", "kind": "privacy", "printed": "soft_label_queries", "corrected": "soft_label_queries_corrected",
         "verdict": "confirmed"},
        {"id": "000-E1", "kind": "proof", "printed": "subsample_aggregate", "verdict": "confirmed"}])
    assert rows[0]["outcome"] == "as expected" and rows[0]["erratum_confirmed"] == "000-E2"
    assert rows[1]["outcome"] == "unexpected"
    assert rows[2]["outcome"] == "unexpected"  # a proof erratum never silences a privacy violation


def test_registry_holds_the_seed000_errata():
    errata = registry.registered()
    assert {"000-E1", "000-E2", "000-E4"} <= errata.keys()
    assert errata["000-E2"].kind == "privacy" and errata["000-E1"].kind == "proof"


def test_errata_array_in_results_json(tmp_path):
    from dptestbed.audits.run import planning, suite

    cat = load_catalogue()
    plan = planning.plan(cat, "quick", ["soft_label_queries_corrected"], audits=False, controls=False)
    plan.items = [i for i in plan.items if i.experiment.name == "planted"]
    registry.AUDIT_SAMPLES["quick"] = 20_000
    E.E2_SAMPLES["quick"] = 50_000
    doc = suite.run(plan, cat, tmp_path, seed=1, isolate=False)
    saved = json.loads((tmp_path / "results.json").read_text())
    ids = {e["id"]: e for e in saved["errata"]}
    assert set(ids) == {"000-E2"}  # only the errata involving the selected spec
    assert ids["000-E2"]["verdict"] == "confirmed" and ids["000-E2"]["kind"] == "privacy"
    assert doc["errata"] == saved["errata"]


def test_e4_statement_not_refuted(monkeypatch):
    from types import SimpleNamespace

    monkeypatch.setitem(E.E4_END_TO_END_TRIALS, "quick", 30)
    ctx = SimpleNamespace(seed=0, suite="quick", catalogue=load_catalogue(), audit=lambda spec_id: None)
    end = E.e4_statement(ctx)
    assert end["statement"] == "not refuted" and end["failures"] == 0
    assert end["mean_misclassification"] > 0.06   # about 1.5 (gamma + alpha): the check is not vacuous
    assert end["wrong_cutoff"]["T"] == 40 and end["wrong_cutoff"]["failures"] == 30  # it rejects T = (gamma + alpha) m
    assert end["proof_count_exceeds_B_004"] > 0.5  # the proof's counting step fails on the same runs


def test_e5_instance_admissible():
    from dptestbed.audits.checks.experiments import load_registry, run_check

    cat = load_catalogue()
    exp = next(e for e in load_registry()[("soft_label_classifier", "Theorem 5.14")] if e.name == "straddle-e5")
    r = run_check(cat["soft_label_classifier"], exp, cat["soft_label_classifier"].implementation, seed=2,
                  isolate=False, trials=4000)
    inst = r["instance"]
    assert inst["admissible"] and inst["admissibility_at_offset"]["spread_over_steele"] <= 1
    assert 0 < inst["excess_over_stated_over_r"] < 0.5


def test_printed_alg6_audit_expects_and_finds_its_violation():
    """The printed Algorithm 6 (erratum 000-E2) is a known violation: its audit must flag it, on a
    pair whose claim is epsilon = 0.5 or 1 (at epsilon = 8 the delta-event is not certifiable)."""
    from dptestbed.audits.privacy import audit

    spec = load_catalogue()["soft_label_queries"]
    assert spec.expected_privacy_verdict == "violation"
    r = audit(spec, samples=100_000, seed=0).to_json()
    assert r["verdict"] == "violation" and r["expected"] == "violation"
    assert r["counterexample"]["claim"]["epsilon"] <= 1.0 < r["epsilon_lower_bound"]
