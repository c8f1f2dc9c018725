"""``dptestbed report``: the output folder gets a copy of results.json (it re-renders by itself),
a file given as ``--out`` is one line and exit 2, and the page has a table of contents with
collapsible sections, headings that name the spec, tables with captions and column scopes, plots
described in words, a viewport; events read in the user's terms."""

from __future__ import annotations

import json
import re

from dptestbed.audits.base import integrity
from dptestbed.audits.cli import main
from dptestbed.audits.report.model import counterexample_text, event_text


def _results(tmp_path):
    doc = {"format": "dptestbed-results/1",
           "run": {"command": "verify", "suite": "quick", "seed": 0, "commit": None, "versions": {}, "seconds": 1.0,
                   "started": "", "jobs": 1, "executor": "local", "implementation": None, "complete": True,
                   "items_planned": 1, "items_done": 1, "pending": []},
           "family": {"family_alpha": 0.01, "statement": "family-wise false-alarm rate <= 0.01"},
           "summary": {"items": 1, "as_expected": 1, "unexpected": 0, "no_power": 0, "errors": 0, "classes": {},
                       "controls": 0, "controls_flagged": 0, "without_power": [], "exit_code": 0},
           "specs": [{"id": "laplace_mechanism", "title": "Laplace", "paper": "calibration", "implementation": "x:y",
                      "parameters": {}, "derived": {}, "privacy": None, "theorems": []}],
           "privacy": [{"id": "privacy | laplace_mechanism", "spec": "laplace_mechanism", "target": "reference",
                        "verdict": "no violation found", "class": "pass", "outcome": "as expected",
                        "claim": {"epsilon": 1.0, "delta": 0.0}, "epsilon_lower_bound": 0.97, "exact_epsilon": "inf",
                        "implementation": "x:y", "expected": None}],
           "theorems": [], "not_checked": []}
    path = tmp_path / "run" / "results.json"
    path.parent.mkdir()
    path.write_text(json.dumps(integrity.seal(doc)))  # as this machine's dptestbed wrote it
    return path


def test_report_copies_results_json_and_renders_a_navigable_page(tmp_path):
    path = _results(tmp_path)
    assert main(["report", str(path), "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "results.json").read_bytes() == path.read_bytes()
    page = (tmp_path / "out" / "index.html").read_text()
    assert '<nav class="toc">' in page and 'href="#laplace-mechanism"' in page
    assert '<details class="spec" id="laplace-mechanism">' in page and "<script" not in page
    assert main(["report", str(path)]) == 0  # into its own folder: nothing to copy
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "<title>dptestbed verification report: laplace_mechanism</title>" in page
    assert re.search(r"<h3>laplace_mechanism: Laplace</h3>", page)
    tables = page.count("<table")
    assert tables and page.count("<caption>") == tables and "<th>" not in page  # every header cell has its scope
    alts = re.findall(r'<img class="plot" src="data:image/png;base64,[^"]*" alt="([^"]*)"', page)
    assert alts and all("epsilon lower bound 0.97 against a claim of 1 (pass)" in a for a in alts), alts  # words, for screen readers
    assert not any(a.endswith(".png") for a in alts)  # never the file's name


def test_events_read_in_the_users_terms():
    def event(view, kind, **detail):
        return {"event": f"{view} internal", "event_detail": {"view": view, "kind": kind, **detail}}

    assert event_text(event("nb", "le", threshold=-1.97949)) == (
        "a naive-Bayes score of the output (how much likelier it is on D than on D', entry by entry, fitted on other "
        "samples) is at most -1.979")
    assert event_text(event("coord[2]", "ge", threshold=3.018913)) == \
        "the output's coordinate 2 (counting from 0) is at least 3.019"
    assert event_text(event("value", "in", size=2, outcomes=[0.0, 1.0])) == "the output is one of 0; 1"
    assert event_text(event("row", "in", size=1, outcomes=[[1, 0, 0]])) == \
        "the row of the output's integer-valued entries is [1, 0, 0]"
    assert event_text(event("count(==1)", "ge", threshold=2)) == \
        "the number of the output's entries equal to 1 is at least 2"
    assert event_text(event("sum", "in", size=500)) == "the sum of the output's coordinates is one of 500 values (the auditor's selection)"
    assert event_text({"event": "something new"}) == "something new"  # an event without detail: as the auditor said
    result = {"confidence": 0.95, "counterexample": {
        **event("nb", "le", threshold=-1.97949), "pair": {"name": "p", "data": [0], "neighbour": [1]},
        "numerator": "neighbour", "p_lo": 0.1, "p_hi": 0.01, "count_data": 1, "count_neighbour": 10, "n_per_side": 100,
        "epsilon_lower_bound": 2.3, "claim": {"epsilon": 1.0, "delta": 0.0}}}
    text = counterexample_text(result)
    assert "nb internal" not in text and "naive-Bayes score" in text and "on D' and <= 0.01 on D" in text


def test_report_refuses_a_file_as_out_in_one_line(tmp_path, capsys):
    path = _results(tmp_path)
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert main(["report", str(path), "--out", str(afile)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "exists and is not a folder" in err


def test_formulas_are_images_with_plots_and_latex_source_without(tmp_path):
    """A spec's formulas are drawn (mathtext PNGs) in a report with plots; without plots (check/verify
    --no-plots) they are shown as their LaTeX source and matplotlib is not needed."""
    from dptestbed.audits.report.build import render

    doc = json.loads(_results(tmp_path).read_text())
    doc["specs"][0]["derived"] = {"scale": {"formula": "gamma / epsilon", "latex": r"\frac{\gamma}{\epsilon}",
                                            "value": 1.0, "description": "noise scale"}}
    for plots in (False, True):
        render(doc, tmp_path / str(plots), plots=plots)
        page = (tmp_path / str(plots) / "index.html").read_text()
        assert ('<img class="math"' in page) is plots
        assert plots or '<code title="gamma / epsilon">\\frac{\\gamma}{\\epsilon}</code>' in page


def test_a_no_power_line_gives_the_samples_and_seconds_that_would_reach_power():
    """The console of ``audit`` and of ``check`` (report model) name the measured remedy the same way."""
    from dptestbed.audits.report.model import power_remedy

    result = {"class": "no power", "power": {"samples_for_power": 2_334_137}, "timing": {"seconds_for_power": 150.0}}
    assert power_remedy(result) == ("no power; about 2,334,137 samples per side would reach it (about 2 min at this "
                                    "audit's pace): give --samples 2334137 or --time-budget 187")
    assert "invisible" in power_remedy({"power": {}})


def test_an_erratums_row_shows_the_references_audit_never_a_users(tmp_path):
    """A user's check of a printed spec: the errata table gives the reference's audit of each variant, and says the
    reference was not audited in the run when only the user's was (the user's violation is not the erratum's)."""
    path = _results(tmp_path)
    doc = json.loads(path.read_text())
    doc["specs"][0]["erratum"] = {"id": "E9", "description": "a printed constant", "printed": "n = 1", "corrected": "n = 2"}
    doc["privacy"][0].update(target="user", verdict="violation", **{"class": "claim violated"}, epsilon_lower_bound=7.75)
    path.write_text(json.dumps(integrity.seal(doc)))
    assert main(["report", str(path), "--out", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "index.html").read_text()
    assert "laplace_mechanism: reference not audited in this run" in page and "ε_lb 7.75" not in page


def test_a_curve_claims_counterexample_names_the_stated_point_on_the_same_event():
    c = {"pair": {"name": "p", "data": 0.0, "neighbour": 1.0}, "event": "value >= 0.5", "numerator": "neighbour",
         "p_lo": 0.568, "p_hi": 0.436, "count_data": 1, "count_neighbour": 2, "n_per_side": 3,
         "epsilon_lower_bound": 0.334, "claim": {"kind": "gdp", "mu": 0.204},
         "point_claim": {"epsilon": 0.99, "delta": 1e-5, "epsilon_lower_bound": 0.266, "broken": False}}
    text = counterexample_text({"counterexample": c, "verdict": "violation"})
    assert "the stated point epsilon = 0.99, delta = 1e-05 gives epsilon >= 0.266: not shown broken" in text
