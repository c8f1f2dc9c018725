"""Seed 000 Sec. 5 soft-label experiments: each reference passes and each control is flagged (fixed seed)."""

import pytest

from dptestbed.audits import theorems as thm
from dptestbed.audits.experiments import load_registry, run_check
from dptestbed.spec import load_catalogue

CATALOGUE = load_catalogue()
SOFT = [(spec, e) for (spec, ref), exps in load_registry().items() if spec.startswith("soft_label") for e in exps]
TRIALS = {"planted": 4000, "concentration": 4000, "steele": 8000, "ensemble": 60, "strong-quality": 120,
          "identity": 8000, "learned": 30, "straddle-e5": 4000}


def _run(spec_id, exp, control=None):
    impl = control.implementation if control else CATALOGUE[spec_id].implementation
    r = run_check(CATALOGUE[spec_id], exp, impl, seed=5, control=control, isolate=False,
                      trials=TRIALS.get(exp.name))
    thm.apply_multiple_testing([r], n_audits=0)
    return r


def test_registered():
    names = {e.name for _, e in SOFT}
    assert {"planted", "concentration", "steele", "ensemble", "strong-quality", "identity", "learned",
            "straddle-e5"} <= names
    assert all(e.controls for _, e in SOFT)


@pytest.mark.parametrize("spec_id,exp", SOFT, ids=[f"{s}-{e.name}" for s, e in SOFT])
def test_reference_passes_and_controls_flagged(spec_id, exp):
    r = _run(spec_id, exp)
    assert r["verdict"] in ("consistent", "inconclusive"), r.get("error") or r
    for control in exp.controls:
        rc = _run(spec_id, exp, control)
        assert rc["verdict"] == "violated", (control.name, rc.get("error"), rc.get("failures"))


def test_straddle_reports_stated_bound_exceeded():
    exp = next(e for s, e in SOFT if e.name == "straddle-e5")
    r = _run("soft_label_classifier", exp)
    inst = r["instance"]
    assert inst["stated_bound_failure_rate"] > 0.9 and inst["e5_bound_failure_rate"] < 0.01
