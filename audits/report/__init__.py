"""Verification reports, rendered from ``results.json`` alone.

``render(document, out_dir)`` writes into ``out_dir``:

* ``index.html``: self-contained (CSS inline, plots and formulas embedded as base64 PNG data
  URIs; no scripts, no network), readable offline: the status and the summary table first,
  then the multiple-testing statement, the self-test section (negative controls), errata,
  theorems not yet checked, and one section per spec with its formulas rendered
  (matplotlib mathtext; the LaTeX source is shown when mathtext cannot draw it), claims,
  measurements, verdicts and plots;
* ``report.md``: the same summary table, for terminals and code review;
* ``junit.xml``: one testcase per item (a ``failure`` for an unexpected outcome, an
  ``error`` for an item that could not run);
* ``plots/*.png``: privacy (epsilon lower bound and exact epsilon against the claim, per
  spec family), theorem checks (failure rate with Clopper-Pearson bars against beta, per
  theorem; calibration cells against their exact probabilities), sweeps (measured error
  quantile or failure rate against the theorem's bound).

A plot that fails is reported as an error (``render`` returns the list) and the rest of the
report is still written. Nothing here runs an experiment: ``dptestbed report RESULTS.json``
re-renders a report from the JSON.
"""

from .build import render
from .model import counterexample_text, exit_code, item_rows, status_text

__all__ = ["render", "exit_code", "item_rows", "counterexample_text", "status_text"]
