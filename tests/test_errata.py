"""Errata 000-E1 / E2 / E4 settled by measurement (audits/errata.py)."""

import json

from dptestbed.audits import errata as E
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


def test_reclassify_only_confirmed_printed():
    rows = [{"spec": "soft_label_queries", "verdict": "violation", "outcome": "unexpected"},
            {"spec": "soft_label_queries_corrected", "verdict": "violation", "outcome": "unexpected"}]
    E.reclassify(rows, [{"id": "000-E2", "printed": "soft_label_queries", "corrected": "soft_label_queries_corrected",
                         "verdict": "confirmed"}])
    assert rows[0]["outcome"] == "as expected" and rows[0]["erratum_confirmed"] == "000-E2"
    assert rows[1]["outcome"] == "unexpected"


def test_errata_array_in_results_json(tmp_path):
    from dptestbed.audits import suite

    cat = load_catalogue()
    plan = suite.plan(cat, "quick", ["soft_label_queries_corrected"], audits=False, controls=False)
    plan.items = [i for i in plan.items if i.experiment.name == "planted"]
    E.AUDIT_SAMPLES["quick"] = 20_000
    E.E2_SAMPLES["quick"] = 50_000
    doc = suite.run(plan, cat, tmp_path, seed=1, isolate=False)
    saved = json.loads((tmp_path / "results.json").read_text())
    ids = {e["id"]: e for e in saved["errata"]}
    assert set(ids) == {"000-E1", "000-E2", "000-E4"}
    assert ids["000-E1"]["verdict"] == "confirmed" and ids["000-E2"]["verdict"] == "confirmed"
    assert doc["errata"] == saved["errata"]
