"""``dptestbed report``: the output folder gets a copy of results.json (it re-renders by itself),
a file given as ``--out`` is one line and exit 2, and the page has a table of contents with
collapsible sections."""

from __future__ import annotations

import json

from dptestbed.audits import integrity
from dptestbed.audits.cli import main


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


def test_report_refuses_a_file_as_out_in_one_line(tmp_path, capsys):
    path = _results(tmp_path)
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert main(["report", str(path), "--out", str(afile)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "exists and is not a folder" in err
