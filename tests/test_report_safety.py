"""Every string that reaches the HTML report is escaped: a spec or results.json holding markup
renders inert (``dptestbed report`` re-renders files it did not write)."""

from dptestbed.audits import report

EVIL = "<script>alert(1)</script>"


def _document() -> dict:
    spec = {"id": "evil_spec", "title": EVIL, "paper": EVIL, "summary": EVIL, "implementation": EVIL,
            "source": {"reference": EVIL, "section": "<img src=x onerror=alert(1)>", "algorithm": EVIL},
            "parameters": {"epsilon": EVIL}, "derived": {}, "privacy": None, "theorems": [], "variant_of": None,
            "broken": None, "erratum": None}
    audit = {"id": "privacy | evil_spec", "spec": "evil_spec", "target": EVIL, "verdict": "no violation found",
             "outcome": "as expected", "claim": {"epsilon": 1.0, "delta": 0.0}, "epsilon_lower_bound": 0.5,
             "implementation": EVIL, "expected": None, "reason": EVIL, "pairs": [], "candidates": []}
    return {"format": "dptestbed-results/1",
            "run": {"command": EVIL, "suite": EVIL, "seed": EVIL, "commit": EVIL, "versions": {EVIL: EVIL},
                    "seconds": 1.0, "started": EVIL, "jobs": EVIL, "implementation": EVIL, "complete": False,
                    "items_planned": EVIL, "items_done": EVIL, "pending": []},
            "family": {"statement": EVIL}, "summary": {"items": 1, "as_expected": 1, "unexpected": 0, "errors": 0,
                                                       "controls": 0, "controls_flagged": 0, "inconclusive": [EVIL],
                                                       "exit_code": 0},
            "specs": [spec], "privacy": [audit], "theorems": [], "not_checked": [{"spec": EVIL, "ref": EVIL,
                                                                                 "kind": EVIL, "status": EVIL}],
            "errata": [{"id": EVIL, "title": EVIL, "kind": "proof", "description": EVIL, "printed": EVIL,
                        "corrected": EVIL, "verdict": EVIL, "measurement": EVIL, "deciding": EVIL}]}


def test_markup_in_specs_and_results_is_inert(tmp_path):
    report.render(_document(), tmp_path, plots=False)
    html = (tmp_path / "index.html").read_text()
    assert "<script>" not in html and "<img src=x" not in html
    assert "&lt;script&gt;" in html


def test_the_title_of_report_md_shows_an_implementations_name_inert(tmp_path):
    """report.md's heading names the implementation (a file name is anything): as a code span, never an image,
    HTML or emphasis; index.html escapes it."""
    doc = _document()
    doc["run"].update({"command": "check", "implementation": "/x/![i](x) <img src=x> `x` _y_.py:laplace"})
    report.render(doc, tmp_path, plots=False)
    heading = (tmp_path / "report.md").read_text().splitlines()[0]
    assert heading == "# dptestbed check of evil_spec: `` /x/![i](x) <img src=x> `x` _y_.py:laplace ``", heading
    assert "<h1>dptestbed check of evil_spec: /x/![i](x) &lt;img src=x&gt;" in (tmp_path / "index.html").read_text()
