"""Tightness of the privacy audits on the references, per paper, between two runs (measured, never asserted).

    python benchmarks/tightness.py BEFORE/results.json AFTER/results.json [--markdown FILE]

For each reference privacy audit present in both runs (same item id: spec and audit point) it reads
the lower bound as a fraction of the claim (``tightness``) and of the exact loss where one is
computable (``exact_tightness``), and prints per paper the number of audits, the median and the
smallest of each fraction before and after, and the audits whose fraction of the exact loss moved by
more than 0.05. Audits of a single run are counted apart.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path


def _audits(path: Path) -> tuple[dict, dict]:
    document = json.loads(path.read_text(encoding="utf-8"))
    paper = {s["id"]: s.get("paper") or "" for s in document.get("specs", [])}
    audits = {r["id"]: r for r in document.get("privacy", []) if r.get("target") == "reference"}
    return audits, {i: paper.get(r["spec"], "") for i, r in audits.items()}


def _number(value) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _summary(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} / {min(values):.3f}" if values else "–"


def compare(before: Path, after: Path) -> str:
    first, paper = _audits(before)
    second, paper_after = _audits(after)
    paper.update(paper_after)
    common = sorted(set(first) & set(second))
    lines = [f"Reference privacy audits in both runs: {len(common)} (only before: {len(set(first) - set(second))}, "
             f"only after: {len(set(second) - set(first))}).", "",
             "| paper | audits | of the claim, before (median / min) | after | of the exact loss, before "
             "(median / min) | after |", "|---|---|---|---|---|---|"]
    moved = []
    for name in sorted({paper[i] for i in common}):
        ids = [i for i in common if paper[i] == name]
        cells = []
        for key in ("tightness", "exact_tightness"):
            for run in (first, second):
                cells.append(_summary([v for i in ids if (v := _number(run[i].get(key))) is not None]))
        lines.append(f"| {name} | {len(ids)} | " + " | ".join(cells) + " |")
        for i in ids:
            a, b = _number(first[i].get("exact_tightness")), _number(second[i].get("exact_tightness"))
            if a is not None and b is not None and abs(b - a) > 0.05:
                moved.append(f"- {i}: {a:.3f} -> {b:.3f} of the exact loss")
    if moved:
        lines += ["", "Fraction of the exact loss moved by more than 0.05:", *moved]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--markdown", type=Path, help="also write the table here")
    args = ap.parse_args(argv)
    text = compare(args.before, args.after)
    print(text, end="")
    if args.markdown:
        args.markdown.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
