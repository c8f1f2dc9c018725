"""``dptestbed verify`` / ``check`` / ``report``: outputs, exit codes, seeds, and robustness
(a check that crashes, an implementation that hangs, a plot that fails)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from dptestbed.audits import report
from dptestbed.audits.checks import experiments as E
from dptestbed.audits.cli import main
from dptestbed.audits.privacy import tight
from dptestbed.audits.report import build as report_build
from dptestbed.audits.run import execution, planning, results, suite
from dptestbed.spec import load_catalogue

CATALOGUE = load_catalogue()


@pytest.fixture(scope="module")
def verified(tmp_path_factory):
    """One small verify run shared by the output tests."""
    out = tmp_path_factory.mktemp("verify")
    code = main(["verify", "--spec", "laplace_mechanism", "distance_to_instability", "--out", str(out),
                 "--seed", "3", "--jobs", "2", "--quiet"])
    return code, out, json.loads((out / "results.json").read_text())


@pytest.mark.slow
def test_verify_writes_every_output_and_passes(verified):
    code, out, doc = verified
    assert code == 0, doc["summary"]
    for name in ("index.html", "report.md", "results.json", "junit.xml"):
        assert (out / name).stat().st_size > 0
    pngs = list((out / "plots").glob("*.png"))
    assert any(p.name.startswith("privacy-") for p in pngs)
    assert any(p.name.startswith("theorem-") for p in pngs)
    assert any(p.name.startswith("sweep-") for p in pngs)


@pytest.mark.slow
def test_results_json_holds_the_required_fields(verified):
    _, _, doc = verified
    run = doc["run"]
    assert run["seed"] == 3 and run["complete"] is True and "commit" in run and run["seconds"] > 0
    assert {"numpy", "scipy", "dptestbed"} <= run["versions"].keys()
    assert doc["privacy"] and doc["theorems"]
    for a in doc["privacy"]:
        for key in ("spec", "claim", "epsilon_lower_bound", "confidence", "verdict", "expected", "outcome"):
            assert key in a, key
    specs = {a["spec"]: a for a in doc["privacy"]}
    assert specs["laplace_mechanism_broken"]["expected"] == "violation"  # broken variants ride along
    for t in doc["theorems"]:
        for key in ("spec", "ref", "trials", "failures", "beta", "failure_rate_upper", "p_value", "verdict", "slack",
                    "expected", "outcome"):
            assert key in t, key
        assert t["verdict"] in ("consistent", "violated", "inconclusive")
        assert t["expected"] in (None, "violated")
    refs = {(t["spec"], t["ref"]) for t in doc["theorems"]}
    assert ("distance_to_instability", "Theorem 3.5") in refs and ("distance_to_instability", "Theorem 3.2") in refs
    assert "over" in doc["family"]["statement"] and doc["family"]["family_alpha"] == 0.01
    s = doc["summary"]
    assert s["controls"] >= 5 and s["controls_flagged"] == s["controls"] and s["exit_code"] == 0


@pytest.mark.slow
def test_controls_are_violated_and_references_consistent(verified):
    _, _, doc = verified
    for t in doc["theorems"]:
        assert t["verdict"] == ("violated" if t["control"] else "consistent"), t["id"]


@pytest.mark.slow
def test_report_is_self_contained_with_summary_first(verified):
    _, out, doc = verified
    page = (out / "index.html").read_text()
    assert page.index('<nav class="toc">') < page.index('<h2 id="summary">Summary</h2>') < page.index('id="self-test"')
    s = doc["summary"]
    assert f"controls flagged: {s['controls_flagged']} of {s['controls']}" in page
    assert "family-wise false-alarm rate" in page
    assert "data:image/png;base64," in page
    assert "<script" not in page and 'src="http' not in page and "href=\"http" not in page
    md = (out / "report.md").read_text()
    assert "| spec | item |" in md and "controls flagged" in md


@pytest.mark.slow
def test_junit_has_one_testcase_per_item(verified):
    _, out, doc = verified
    root = ET.parse(out / "junit.xml").getroot()
    cases = root.findall(".//testcase")
    assert len(cases) == len(doc["privacy"]) + len(doc["theorems"])
    assert root.get("failures") == "0" and root.get("errors") == "0"


@pytest.mark.slow
def test_report_rerenders_from_json_alone(verified, tmp_path, monkeypatch):
    _, out, _ = verified
    monkeypatch.setattr(suite, "run", lambda *a, **k: pytest.fail("report must not run anything"))
    code = main(["report", str(out / "results.json"), "--out", str(tmp_path)])
    assert code == 0
    assert (tmp_path / "index.html").read_text().count("<tr") > 10
    assert (tmp_path / "junit.xml").exists() and list((tmp_path / "plots").glob("*.png"))


def test_report_rejects_a_file_that_is_not_results(tmp_path, capsys):
    bad = tmp_path / "x.json"
    bad.write_text("{}")
    assert main(["report", str(bad)]) == 2
    assert "not a dptestbed results file" in capsys.readouterr().err


def test_unknown_spec_is_a_one_line_error(capsys):
    assert main(["verify", "--spec", "no_such_spec", "--quiet"]) == 2
    assert "unknown spec id" in capsys.readouterr().err


# --------------------------------------------------------------------------- check


BAD_STAB = '''
import math
import numpy as np

def stab(data, *, rng, epsilon, delta):
    label, dist = int(data[0]), float(data[1])
    gamma = math.log(1 / delta) / epsilon
    # bug: the threshold ignores delta's log (natural log replaced by log10)
    gamma = math.log10(1 / delta) / epsilon
    return label if dist + rng.laplace(0, 1 / epsilon) > gamma else -1
'''


@pytest.mark.slow
def test_check_runs_against_an_implementation_given_by_file_path(tmp_path):
    impl = tmp_path / "mine.py"
    impl.write_text(BAD_STAB)
    out = tmp_path / "out"
    code = main(["check", "distance_to_instability", "--impl", f"{impl}:stab", "--out", str(out), "--quiet",
                 "--no-plots", "--no-controls"])
    doc = json.loads((out / "results.json").read_text())
    assert code == 1
    assert doc["run"]["command"] == "check" and doc["run"]["implementation"] == f"{impl}:stab"
    assert all(t["target"] == "user" for t in doc["theorems"])
    verdicts = {t["check"]: t["verdict"] for t in doc["theorems"]}
    assert verdicts["exact-release"] == "violated" and verdicts["delta-event"] == "violated"
    assert doc["privacy"][0]["verdict"] == "violation"  # the smaller threshold leaks more than delta


def test_check_and_audit_with_a_bad_reference_are_a_user_error(tmp_path, capsys):
    for command in ("check", "audit"):  # one line, exit 2, from both
        assert main([command, "laplace_mechanism", "--impl", str(tmp_path / "nope.py") + ":f"]) == 2
        err = capsys.readouterr().err
        assert f"--impl {tmp_path / 'nope.py'}:f: no such file" in err and len(err.splitlines()) == 1


@pytest.mark.slow
def test_an_implementation_that_fails_while_imported_is_an_implementation_error(tmp_path, capsys):
    """A reference that names code which raises when imported is no usage error: exit 5 from both."""
    (tmp_path / "fails.py").write_text("raise RuntimeError('broken at import')\n")
    for command in ("check", "audit"):
        assert main([command, "laplace_mechanism", "--impl", f"{tmp_path / 'fails.py'}:f",
                     *(["--out", str(tmp_path / "out"), "--no-controls", "--no-plots", "--quiet"]
                       if command == "check" else [])]) == 5
        assert "broken at import" in capsys.readouterr().out
    (tmp_path / "mine.py").write_text("def other(data, *, rng):\n    return 0.0\n")
    assert main(["audit", "--mechanism", f"{tmp_path / 'mine.py'}:mean", "--epsilon", "1", "--relation", "vector_l1",
                 "--pair", "[0]", "[1]"]) == 2
    assert "--mechanism: implementation" in capsys.readouterr().err


# --------------------------------------------------------------------------- robustness


def _register(monkeypatch, name, run, seconds=30.0, controls=()):
    exp = E.Experiment("laplace_mechanism", "Fact A1 (Laplace tail)", name, "bound", f"test {name}", "i", "p", run,
                       {"quick": 100, "full": 100}, seconds={"quick": seconds, "full": seconds}, controls=controls)
    key = ("laplace_mechanism", "Fact A1 (Laplace tail)")
    monkeypatch.setitem(E.REGISTRY, key, E.load_registry()[key] + [exp])
    return exp


def _crash(ctx):
    raise RuntimeError("deliberate crash")


def _hang(ctx):
    time.sleep(600)


def _die(ctx):
    os._exit(3)


@pytest.mark.slow
def test_crashes_hangs_and_deaths_are_errors_and_the_run_completes(tmp_path, monkeypatch):
    _register(monkeypatch, "crashes", _crash)
    _register(monkeypatch, "hangs", _hang, seconds=2.0)
    _register(monkeypatch, "dies", _die)
    plan = planning.plan(CATALOGUE, "quick", ["laplace_mechanism"], audits=False)
    snapshots = []
    original = results.write_json_atomic

    def checked_write(path, document, **options):
        original(path, document, **options)
        snapshots.append(json.loads(path.read_text()))  # a valid, complete JSON file after every write

    monkeypatch.setattr(suite, "write_json_atomic", checked_write)
    t0 = time.monotonic()
    doc = suite.run(plan, CATALOGUE, tmp_path, seed=0, jobs=2)
    assert time.monotonic() - t0 < 60
    by_check = {}
    for t in doc["theorems"]:
        by_check.setdefault(t["check"], []).append(t)
    assert "deliberate crash" in by_check["crashes"][0]["error"]
    assert "timed out" in by_check["hangs"][0]["error"]
    assert "died" in by_check["dies"][0]["error"]
    for name in ("crashes", "hangs", "dies"):
        assert by_check[name][0]["verdict"] == "error" and by_check[name][0]["outcome"] == "error"
    # the real checks completed, with their controls
    assert [t["verdict"] for t in by_check["tail-bound"]] == ["consistent", "violated"]
    assert doc["summary"]["exit_code"] == 6 and doc["run"]["complete"]  # checks that cannot run: run errors
    done = [s["run"]["items_done"] for s in snapshots]
    assert done == sorted(done) and done[0] == 0 and done[-1] == len(plan.items)
    assert json.loads((tmp_path / "results.json").read_text())["run"]["items_done"] == len(plan.items)


HANGS = '''
import time

def mech(data, *, rng, epsilon, gamma):
    time.sleep(600)
'''


@pytest.mark.slow
def test_a_hanging_implementation_is_an_error_for_every_item(tmp_path):
    impl = tmp_path / "hang.py"
    impl.write_text(HANGS)
    out = tmp_path / "out"
    t0 = time.monotonic()
    code = main(["check", "laplace_mechanism", "--impl", f"{impl}:mech", "--out", str(out), "--quiet",
                 "--no-plots", "--no-controls", "--call-timeout", "1"])
    assert time.monotonic() - t0 < 60
    doc = json.loads((out / "results.json").read_text())
    assert code == 5  # the implementation's fault: implementation error
    items = doc["privacy"] + doc["theorems"]
    assert items and all(r["outcome"] == "error" for r in items)
    assert all("timed out" in (r.get("error") or r.get("reason") or "") for r in items)
    assert (out / "index.html").exists()


def test_a_control_that_is_not_flagged_fails_the_run(tmp_path, monkeypatch):
    weak = E.Control("not_broken", "dptestbed.impl.calibration.laplace:laplace_mechanism", "the reference itself")
    exp = next(e for e in E.load_registry()[("laplace_mechanism", "Fact A1 (Laplace tail)")] if e.name == "exact-tail")
    monkeypatch.setitem(E.REGISTRY, ("laplace_mechanism", "Fact A1 (Laplace tail)"),
                        [E.Experiment(**{**exp.__dict__, "controls": (weak,)})])
    plan = planning.plan(CATALOGUE, "quick", ["laplace_mechanism"], audits=False)
    doc = suite.run(plan, CATALOGUE, tmp_path, seed=0, isolate=False)
    control = next(t for t in doc["theorems"] if t["control"])
    assert control["verdict"] == "consistent" and control["outcome"] == "unexpected"
    assert doc["summary"]["exit_code"] == 1


@pytest.mark.slow
def test_plots_drawn_in_parallel_are_the_same_files(verified, tmp_path):
    _, _, doc = verified
    for jobs in (1, 2):
        assert report.render(doc, tmp_path / str(jobs), jobs=jobs) == []
    files = sorted(p.relative_to(tmp_path / "1") for p in (tmp_path / "1").rglob("*") if p.is_file())
    assert len(files) > 5 and files == sorted(p.relative_to(tmp_path / "2") for p in (tmp_path / "2").rglob("*")
                                             if p.is_file())
    assert all((tmp_path / "1" / f).read_bytes() == (tmp_path / "2" / f).read_bytes() for f in files)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_plot_is_a_report_error_and_the_rest_is_written(verified, tmp_path, monkeypatch, jobs):
    _, out, doc = verified

    def broken_plot(*args):
        raise ValueError("deliberate plot failure")

    monkeypatch.setattr(report_build, "plot_sweep", broken_plot)
    errors = report.render(doc, tmp_path, jobs=jobs)
    assert errors and all("deliberate plot failure" in e["error"] for e in errors)
    assert report.exit_code(doc, errors) == 6  # a run error: the report is incomplete
    assert "deliberate plot failure" in (tmp_path / "index.html").read_text()
    assert ET.parse(tmp_path / "junit.xml").getroot().get("errors") == str(len(errors))
    assert list((tmp_path / "plots").glob("theorem-*.png"))


# --------------------------------------------------------------------------- seeds


def test_item_seeds_depend_only_on_the_run_seed_and_the_item():
    a = np.random.default_rng(planning.item_seed(5, "x | y")).integers(0, 2**32, 4)
    b = np.random.default_rng(planning.item_seed(5, "x | y")).integers(0, 2**32, 4)
    c = np.random.default_rng(planning.item_seed(6, "x | y")).integers(0, 2**32, 4)
    d = np.random.default_rng(planning.item_seed(5, "x | z")).integers(0, 2**32, 4)
    assert (a == b).all() and not (a == c).all() and not (a == d).all()


@pytest.mark.slow
def test_results_do_not_depend_on_jobs_or_selection(tmp_path):
    small = planning.plan(CATALOGUE, "quick", ["distance_to_instability"], audits=False, controls=False)
    big = planning.plan(CATALOGUE, "quick", ["distance_to_instability", "laplace_mechanism"], audits=False)
    one = suite.run(small, CATALOGUE, tmp_path / "a", seed=9, isolate=False)
    two = suite.run(big, CATALOGUE, tmp_path / "b", seed=9, jobs=2)
    counts = {t["id"]: (t["failures"], t["trials"]) for t in two["theorems"]}
    for t in one["theorems"]:
        assert counts[t["id"]] == (t["failures"], t["trials"])


def _verdicts(document):
    keys = ("verdict", "outcome", "epsilon_lower_bound", "failures", "trials", "p_value", "p_value_adjusted")
    return {r["id"]: tuple(r.get(k) for k in keys) for part in ("privacy", "theorems") for r in document[part]}


@pytest.mark.slow
def test_resume_keeps_finished_items_and_equals_an_uninterrupted_run(tmp_path, monkeypatch):
    plan_ = planning.plan(CATALOGUE, "quick", ["laplace_mechanism"])
    whole = suite.run(plan_, CATALOGUE, tmp_path / "whole", seed=4, isolate=False)
    # an interrupted run: the first two items finished, one ended in an error, the rest pending
    done = [(item, r) for item in plan_.items[:3] for r in whole["privacy"] + whole["theorems"] if r["id"] == item.id]
    done[2] = (done[2][0], execution.error_result(done[2][0], "interrupted"))
    partial = results.assemble(plan_, done, seed=4, started=time.time(), complete=False)
    results.write_json_atomic(tmp_path / "cut" / "results.json", partial)
    ran = []
    resumed = suite.run(plan_, CATALOGUE, tmp_path / "cut", seed=4, isolate=False, resume=True)
    assert resumed["run"]["complete"] and _verdicts(resumed) == _verdicts(whole)
    # the two finished items were re-used, the error and the pending ones ran again
    results.write_json_atomic(tmp_path / "cut" / "results.json", partial)
    monkeypatch.setattr(suite, "execute", lambda p, *a, skip, **k: ran.extend(i.id for i in p.items if i.id not in skip))
    suite.run(plan_, CATALOGUE, tmp_path / "cut", seed=4, isolate=False, resume=True)
    assert ran == [i.id for i in plan_.items[2:]]


def test_resume_refuses_another_seed_plan_or_folder(tmp_path, capsys):
    out = tmp_path / "r"
    plan_ = planning.plan(CATALOGUE, "quick", ["laplace_mechanism"], audits=False)
    suite.run(plan_, CATALOGUE, out, seed=1, isolate=False)
    with pytest.raises(results.ResumeError, match="seed 1"):
        suite.run(plan_, CATALOGUE, out, seed=2, isolate=False, resume=True)
    other = planning.plan(CATALOGUE, "quick", ["laplace_mechanism"])
    with pytest.raises(results.ResumeError, match="plan differs"):
        suite.run(other, CATALOGUE, out, seed=1, isolate=False, resume=True)
    assert main(["verify", "--spec", "laplace_mechanism", "--resume"]) == 2
    assert "--resume needs --out" in capsys.readouterr().err
    assert main(["verify", "--spec", "laplace_mechanism", "--resume", "--out", str(tmp_path / "empty")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_tight_runs_every_audit_with_its_tight_round(tmp_path, monkeypatch):
    monkeypatch.setattr(tight, "TIGHT_MAX_SAMPLES", 200_000)
    plan_ = planning.plan(CATALOGUE, "quick", ["laplace_mechanism"], theorems=False, controls=False)
    plan_.tight = True
    plan_.items = plan_.items[:1]  # the defaults' audit (the point at epsilon = 0.5 took three times as long)
    item = plan_.items[0]
    assert planning.limit(plan_, item) == planning.TIGHT_TIME_FACTOR * item.timeout
    document = suite.run(plan_, CATALOGUE, tmp_path / "t", seed=3, isolate=False)
    audit = document["privacy"][0]
    assert document["run"]["tight"] and audit["rounds"][-1]["tight"] and audit["exact_tightness"] > 0.8
    plan_.tight = False  # a tight run is not resumed by a default one
    with pytest.raises(results.ResumeError, match="tight True"):
        suite.run(plan_, CATALOGUE, tmp_path / "t", seed=3, isolate=False, resume=True)


def test_no_controls_plans_the_reference_items_alone():
    full = planning.plan(CATALOGUE, "quick", ["laplace_mechanism"])
    bare = planning.plan(CATALOGUE, "quick", ["laplace_mechanism"], controls=False)
    assert {i.id for i in bare.items} == {i.id for i in full.items if i.target == "reference" and not i.expected}
    assert not any(s.broken for s in bare.specs) and any(s.broken for s in full.specs)
    assert bare.family == full.family  # the controls are not in the multiple-testing family




def _draw(data, *, rng):
    return float(rng.normal())


def test_items_forked_after_this_process_sampled_in_workers_start_with_their_own(tmp_path):
    """A process whose call_batch cache is full of runners with worker processes, then runs a
    suite: a forked item must not evict (close) those runners, whose workers are the parent's
    children ('can only test a child process')."""
    from dptestbed.audits.sandbox.runner import call_batch

    for timeout in (10.0, 11.0, 12.0, 13.0):  # four cache entries (the cache's size), each with workers
        assert call_batch(_draw, None, 10, rng=np.random.default_rng(0), timeout=timeout, isolate=True).shape == (10,)
    assert main(["verify", "--spec", "laplace_mechanism", "--out", str(tmp_path), "--quiet", "--no-plots"]) == 0


@pytest.mark.slow
def test_ctrl_c_while_the_report_draws_its_plots_is_one_line(verified, tmp_path):
    import signal
    import subprocess
    import sys
    import time

    _, out, _ = verified
    proc = subprocess.Popen([sys.executable, "-m", "dptestbed", "report", str(out / "results.json"), "--out",
                             str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            # a shell's background job ignores SIGINT, and so would the command: a terminal's default
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while not (tmp_path / "plots").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the command and the plot workers it forked
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert err.strip().count("\n") == 0 and "interrupted" in err, err


@pytest.mark.slow
def test_the_header_counts_sum_to_the_items_and_lines_written_to_a_file_are_whole(tmp_path, capsys):
    """The progress header's counts add up to its item count; the summary written to a file (not a
    terminal) keeps its long lines whole (a terminal cuts them at its width)."""
    import re

    out = tmp_path / "out"
    mechanism = Path(__file__).resolve().parent.parent / "examples" / "ci" / "mechanism.py"
    assert main(["check", "laplace_mechanism", "--impl", f"{mechanism}:laplace", "--out", str(out),
                 "--no-plots", "--progress", "--jobs", "1"]) == 0
    captured = capsys.readouterr()
    header = re.search(r"(\d+) items \((\d+) privacy audits and (\d+) theorem checks; (\d+) of them negative controls",
                       captured.err)
    assert header, captured.err
    items, audits, checks, controls = map(int, header.groups())
    assert items == audits + checks == len(json.loads((out / "results.json").read_text())["privacy"]) + len(
        json.loads((out / "results.json").read_text())["theorems"]) and 0 < controls < items
    long = [line for line in captured.out.splitlines() if len(line) > 120]
    assert long and not any(line.endswith("...") for line in long), captured.out
    # the summary's paragraphs too: one line each (a terminal wraps them at its width)
    assert any(line.startswith("family-wise") and "negative controls are tested" in line for line in long), captured.out
    assert any(line.startswith("controls flagged: ") and line.endswith(" 0 errors") for line in long), captured.out
    assert sorted(os.listdir(out)) == ["index.html", "junit.xml", "report.md", "results.json"]  # nothing else


def _fabricated(plan_, power_of):
    """A result for every theorem item of ``plan_``: a bound check with ``power_of(experiment)`` trials."""
    from dptestbed.audits.checks import theorems as T

    done = []
    for item in plan_.items:
        if item.kind != "theorem":
            continue
        e = item.experiment
        r = {"id": item.id, "spec": item.spec, "ref": e.ref, "check": e.name, "kind": "bound", "title": e.title,
             "target": item.target, "control": None, "expected": None, "tests": e.tests,
             "setup_validation": e.setup, "calls_implementation": not e.setup, "params": {}, "verdict": None}
        r.update(T.summarize_bound(0, power_of(e), 0.05))
        done.append((item, r))
    return done


def test_setup_validations_never_set_a_checks_exit_code_and_allow_says_what_it_allowed():
    """Issue 39: a setup validation without power is reported apart; --allow no-power never reads 'every check
    measured with power'."""
    from dptestbed.audits.base import verdict as oc
    from dptestbed.audits.report.model import status_text
    from dptestbed.audits.run import planning
    from dptestbed.audits.run.results import assemble

    plan_ = planning.plan(load_catalogue(), "quick", ["ppm_halfspace_learner"], implementation="mine.py:f",
                          controls=False, audits=False)
    assert any(i.experiment.setup for i in plan_.items)
    done = _fabricated(plan_, lambda e: 2 if e.setup else 5000)              # setup validations: no power
    doc = assemble(plan_, done, seed=0, started=0.0, complete=True, command="check")
    assert doc["summary"]["exit_code"] == 0 and doc["summary"]["apart"]
    assert all(r["class"] == oc.NO_POWER for r in doc["theorems"] if r["setup_validation"])
    assert status_text(doc, 0).startswith("PASS: every check measured with power")
    done = _fabricated(plan_, lambda e: 2 if e.name == "vs-reference-d1" else 5000)  # one of the user's: no power
    assert assemble(plan_, done, seed=0, started=0.0, complete=True, command="check")["summary"]["exit_code"] == 4
    plan_.allow = (oc.NO_POWER,)
    doc = assemble(plan_, done, seed=0, started=0.0, complete=True, command="check")
    assert doc["summary"]["exit_code"] == 0
    text = status_text(doc, 0)
    assert "with power" not in text and text.startswith("PASS WITH --allow: 1 item 'no power' counted as pass")


def test_an_audits_claim_and_parameters_are_those_of_the_pair_that_decided_it():
    """Issue 40: an audit's top-level claim and parameters printed beside the spec's defaults (n = 7, epsilon 0.5)
    while its deciding pair ran at others; now the pair's, the defaults kept apart."""
    from dptestbed.audits.privacy.result import at_decision

    audit = {"claim": {"epsilon": 0.5, "delta": 0.0}, "params": {"epsilon": 0.5, "n": 7},
             "best": {"claim": {"epsilon": 1.0, "delta": 0.0}, "pair": {"name": "p", "params": {"epsilon": 1.0, "n": 10}}}}
    decided = at_decision(audit)
    assert decided["claim"] == {"epsilon": 1.0, "delta": 0.0} and decided["params"] == {"epsilon": 1.0, "n": 10}
    assert decided["defaults"] == {"claim": audit["claim"], "params": audit["params"]}
    assert at_decision(decided)["params"] == decided["params"]
    assert at_decision({"claim": {"epsilon": 1}, "params": {}}) == {"claim": {"epsilon": 1}, "params": {}}


def test_items_start_longest_first_by_their_measured_seconds(monkeypatch):
    tail = "laplace_mechanism | Fact A1 (Laplace tail) | tail-bound"
    measured = {"privacy | laplace_mechanism": 5.0, f"{tail} | reference": 9.0}
    monkeypatch.setattr(planning, "measured_costs", lambda: {"quick": measured})
    costs = {i.id: i.cost for i in planning.plan(CATALOGUE, "quick", ["laplace_mechanism"]).items}
    assert costs["privacy | laplace_mechanism"] == 5.0 and costs[f"{tail} | reference"] == 9.0
    assert all(cost >= planning.UNMEASURED for item, cost in costs.items() if item not in measured)  # unknown: first
    user = planning.plan(CATALOGUE, "quick", ["laplace_mechanism"], implementation="mine.py:f").items
    assert {i.id: i.cost for i in user}[f"{tail} | user"] == 9.0  # a user's item as long as the reference's


def test_results_json_is_rewritten_as_items_finish_for_at_most_a_tenth_of_the_time(tmp_path, monkeypatch):
    now, writes = [0.0], []

    def write(path, document, **options):
        writes.append((now[0], options))
        now[0] += 2.0  # a write takes 2 s: the next waits 18 s

    monkeypatch.setattr(suite, "write_json_atomic", write)
    writer = suite.Writer(tmp_path / "results.json", dict, clock=lambda: now[0])
    for _ in range(10):  # ten items finish within 10 s: written once, at the first
        writer.changed()
        now[0] += 1.0
    assert [t for t, _ in writes] == [0.0] and writes[0][1] == {"compact": True}
    now[0] = 20.0
    writer.due()  # the executor's idle call: 18 s after the write ended, the new items are written
    assert [t for t, _ in writes] == [0.0, 20.0]
    writer.flush()  # nothing new since
    writer.changed()
    writer.flush()  # the run's end or an interruption: at once
    assert len(writes) == 3 and writer.writes == 3 and writer.seconds == 6.0


def test_every_item_says_when_it_ran_and_the_run_its_serial_phases(verified):
    _, _, doc = verified
    for r in doc["privacy"] + doc["theorems"]:
        c = r["clock"]
        assert 0 <= c["start"] <= c["began"] <= c["ran"] <= c["sent"] <= c["received"] and c["cpu"] > 0, r["id"]
    profile = doc["run"]["profile"]
    assert profile["writes"] >= 2 and profile["items"] <= doc["run"]["seconds"]  # the first write and the end's
    assert set(profile) == {"prepare", "items", "writing", "writes", "errata"}


@pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox's user differs from the caller only when run by root")
def test_a_file_in_a_private_folder_of_root_is_checked_from_a_copy(tmp_path):
    """Run by root, the sandbox's user may not enter a 0700 folder (mktemp -d): the README's per-call Laplace there
    is checked from a copy readable by that user (isolation.staged), exit 0; what the run shows and signs is the
    file's own name; the copy is gone when the command ends."""
    import glob
    import tempfile

    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    (private / "lap.py").write_text("import numpy as np\n\ndef ok(data, *, rng, epsilon, gamma):\n"
                                    "    f = np.atleast_1d(np.asarray(data, dtype=float))\n"
                                    "    return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)\n")
    before = set(glob.glob(os.path.join(tempfile.gettempdir(), "dptestbed-implementation-*")))
    code = subprocess.run([sys.executable, "-m", "dptestbed", "check", "laplace_mechanism", "--impl",
                           f"{private / 'lap.py'}:ok", "--out", str(tmp_path / "out"), "--no-plots", "--quiet"],
                          capture_output=True, text=True, timeout=600)
    assert code.returncode == 0, code.stderr[-2000:]
    doc = json.loads((tmp_path / "out" / "results.json").read_text())
    assert doc["run"]["implementation"] == f"{private / 'lap.py'}:ok"
    assert "dptestbed-implementation" not in (tmp_path / "out" / "results.json").read_text()
    assert set(glob.glob(os.path.join(tempfile.gettempdir(), "dptestbed-implementation-*"))) <= before


def test_a_check_of_the_references_own_convention_never_sets_a_users_exit_code():
    """Another tie rule or a more conservative calibration is a valid implementation (the charter): the checks
    that pin the reference's own choice (SOA's ties to +1, the stable histogram's threshold) hold the reference
    and its controls to it, and a user's result is reported apart (a helper's valid SOA with ties to -1 and a
    histogram with a more conservative tau had exit 3; now 0)."""
    from dptestbed.audits.checks.experiments import registered_experiment
    from dptestbed.audits.run.results import reported_apart

    for spec_id, ref, name in (("standard_optimal_algorithm", "Definition 8 (non-realizable extension)",
                                "reference-tie-rule"), ("stable_histogram", "Lemma 15 (privacy)", "reference-release-law")):
        assert registered_experiment(spec_id, ref, name).convention
    item = {"convention": True, "target": "user", "class": "differs from the spec"}
    assert reported_apart(item) and not reported_apart({**item, "target": "reference"})
    assert not reported_apart({**item, "convention": False})
