"""The mutants run (audits/run/mutation.py): plan, kill matrix, exit codes, report section."""

import json

import pytest

from dptestbed.audits import report
from dptestbed.audits.run import mutation, planning, suite
from dptestbed.impl.mutant import Mutant
from dptestbed.spec import load_catalogue

LAPLACE = "dptestbed.impl.calibration"
MUTANTS = (
    Mutant("laplace_mechanism", "scale_x0.7", f"{LAPLACE}.laplace:laplace_mechanism_broken", "privacy",
           "noise scale 0.7 gamma/epsilon", ("privacy audit",)),
    Mutant("laplace_mechanism", "scale_x1.3", f"{LAPLACE}.controls:laplace_30pct_more_noise", "utility",
           "noise scale 1.3 gamma/epsilon", ("Fact A1 (Laplace tail) / exact-tail",)),
    Mutant("laplace_mechanism", "reference_copy", f"{LAPLACE}.laplace:laplace_mechanism", "utility",
           "no bug at all", equivalent="it is the reference"),
)


@pytest.fixture(scope="module")
def run(tmp_path_factory, monkeypatch_module=None):
    out = tmp_path_factory.mktemp("mutants")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mutation, "load_mutants", lambda: MUTANTS)
        cat = load_catalogue()
        plan = mutation.plan_mutants(cat, "quick", ["laplace_mechanism"])
        doc = suite.run(plan, cat, out, seed=2, isolate=False, command="mutants")
    return plan, doc, out


@pytest.mark.slow
def test_plan_runs_every_check_against_every_mutant(run):
    plan, _, _ = run
    assert len(plan.mutants) == 3
    per_mutant = len(plan.items) // 3
    audits = len(planning.audit_points(load_catalogue()["laplace_mechanism"], "quick"))  # defaults + first point
    assert audits == 2
    assert per_mutant == audits + len([i for i in plan.items if i.control.name == "scale_x0.7" and i.kind == "theorem"])
    assert all(i.target == "mutant" for i in plan.items)
    # killed at the level `check laplace_mechanism` would use
    assert plan.family == mutation.check_family(load_catalogue()["laplace_mechanism"])


def test_kill_matrix(run):
    _, doc, out = run
    rows = {r["name"]: r for r in doc["mutants"]["rows"]}
    assert rows["scale_x0.7"]["status"] == "killed" and "privacy audit" in rows["scale_x0.7"]["killed_by"]
    assert rows["scale_x1.3"]["status"] == "killed"
    assert rows["scale_x1.3"]["cells"]["privacy audit"] == "survived"  # more noise keeps privacy
    assert "privacy audit (epsilon=0.5, gamma=3.0, p=3)" in rows["scale_x1.3"]["cells"]
    assert rows["reference_copy"]["status"] == "equivalent"
    assert doc["mutants"]["rates"]["laplace_mechanism"] == {"mutants": 3, "equivalent": 1, "killed": 2, "rate": 1.0}
    assert doc["summary"]["exit_code"] == 0
    saved = json.loads((out / "results.json").read_text())
    assert saved["mutants"]["overall"]["privacy_breaking_killed"] == 1


def test_report_shows_the_matrix(run):
    _, doc, out = run
    assert report.render(doc, out, plots=False) == []
    html = (out / "index.html").read_text()
    assert "Kill matrix" in html and "scale_x0.7" in html and "2 of 2 non-equivalent" in html
    assert "## Kill matrix" in (out / "report.md").read_text()


def test_a_surviving_mutant_fails_the_run():
    matrix = mutation.kill_matrix(MUTANTS[1:2], [
        {"spec": "laplace_mechanism", "target": "mutant", "control": {"name": "scale_x1.3"}, "verdict": "no violation found"},
        {"spec": "laplace_mechanism", "target": "mutant", "control": {"name": "scale_x1.3"}, "ref": "r", "check": "c",
         "verdict": "consistent"}])
    assert matrix["rows"][0]["status"] == "survived"
    assert mutation.exit_code(matrix, complete=True) == 1
    refused = {"spec": "laplace_mechanism", "target": "mutant", "control": {"name": "scale_x1.3"}, "ref": "r",
               "check": "c", "verdict": "error", "error": "implementation error: returned NaN", "error_kind": "implementation"}
    assert mutation.kill_matrix(MUTANTS[1:2], [refused])["rows"][0]["status"] == "killed"
