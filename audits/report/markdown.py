"""``report.md``: the summary table and the kill matrix, for terminals and code review.

CI systems and code-review tools render report.md, so no text in it may act: every string that is not
the testbed's own vocabulary or a number (an implementation's messages, a spec's text, parameter
values) is written as it is only when it holds nothing Markdown or HTML gives a meaning to
(:func:`cell`), and as an inert code span otherwise: no image, link, autolink, HTML, emphasis or
table row can come from it.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..base import sanitize
from ..base.verdict import ERROR, OUTCOME_NO_POWER, UNEXPECTED
from .model import exit_code, expected_text, fmt_num, item_rows, report_title, reproducibility_text, status_text

# characters that mean nothing in Markdown (GitHub's included) or HTML; "_" only inside a word
_PLAIN = re.compile(r"[\w .,;:=+\-−–×≤≥∞%/()·'\"]*")
_LIVE = re.compile(r"www\.|://|(?<![^\W_])_|_(?![^\W_])", re.IGNORECASE)


def md(text) -> str:
    """The testbed's own text (its vocabulary, numbers) in a table cell."""
    return str(text if text is not None else "–").replace("|", "\\|").replace("\n", " ")


def cell(text) -> str:
    """Text from outside the testbed, inert in report.md (module docstring): on one line, and as a code
    span (delimited by more backticks than it holds in a row, its "|" escaped for the table) unless it
    holds only characters with no meaning."""
    if text is None or text == "":
        return "–"
    text = sanitize.line(text)
    if _PLAIN.fullmatch(text) and not _LIVE.search(text):
        return text
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    return f"{fence} {text.replace('|', chr(92) + '|')} {fence}"


def render_markdown(document: dict, figures: dict, errors: list[dict], out_dir: Path) -> str:
    run = document.get("run", {})
    summary = document.get("summary", {})
    code = exit_code(document, errors)
    lines = [f"# {report_title(document, quote=cell)}", "",
             f"suite **{run.get('suite')}**, seed {run.get('seed')}, commit {run.get('commit') or 'unknown'}, "
             f"{fmt_num(run.get('seconds'))} s", "",
             f"**{status_text(document, code)}** (exit code {code}): {summary.get('items', 0)} items, "
             f"{summary.get('as_expected', 0)} as expected, {summary.get('unexpected', 0)} unexpected, "
             f"{summary.get('no_power', 0)} without power, {summary.get('errors', 0)} errors; controls flagged: {summary.get('controls_flagged', 0)} of "
             f"{summary.get('controls', 0)}", "",
             f"{(document.get('family') or {}).get('statement', '')}.", ""]
    if not run.get("complete", True):
        lines += [f"**Incomplete run**: {run.get('items_done')} of {run.get('items_planned')} items finished.", ""]
    if document.get("mutants"):
        lines = lines[:4] + [f"**{status_text(document, code)}** (exit code {code})", ""] + _kill_matrix_md(document["mutants"])
    if reproducibility_text(run):
        lines[4:4] = [f"**{reproducibility_text(run)}**", ""]
    lines += ["| paper | spec | item | implementation | claim | measurement | class | expected | outcome |",
              "|---|---|---|---|---|---|---|---|---|"]
    paper_of = {s["id"]: s.get("paper") or "" for s in document.get("specs", [])}
    for row in item_rows(document):
        measured = f"{row['measured']} ({row['error']})" if row.get("error") else row["measured"]
        outcome = {UNEXPECTED: "**UNEXPECTED**", ERROR: "**error**", OUTCOME_NO_POWER: f"**{OUTCOME_NO_POWER}**"}.get(
            row["outcome"], row["outcome"])
        lines.append(f"| {cell(paper_of.get(row['spec'], ''))} | {cell(row['spec'])} | {cell(row['item'])} | "
                     f"{cell(row['target'])} | {cell(row['claim'])} | {cell(measured)} | {md(row['class'])} | "
                     f"{md(expected_text(row['expected']))} | {outcome} |")
    notes = [(r, note) for r in document.get("privacy", []) for note in r.get("notes") or []]
    if notes:
        lines += ["", "## How the audits ran", ""] + [f"- {cell(r['spec'])}, {cell(r.get('target', 'reference'))}: "
                                                      f"{cell(note)}" for r, note in notes]
    if errors:
        lines += ["", "## Report errors", ""] + [f"- {cell(e['item'])}: {cell(e['error'])}" for e in errors]
    if document.get("errata"):
        lines += ["", "## Errata settled by measurement (printed beside corrected)", "",
                  "| erratum | printed | corrected | measurement | verdict |", "|---|---|---|---|---|"]
        for e in document["errata"]:
            lines.append(f"| {cell(e.get('id'))} | {cell(e.get('printed'))}: {cell(e.get('printed_formula'))} | "
                         f"{cell(e.get('corrected'))}: {cell(e.get('corrected_formula'))} | "
                         f"{cell(e.get('measurement'))} (deciding: {cell(e.get('deciding'))}) | "
                         f"**{cell(e.get('verdict'))}** |")
    notc = [n for n in document.get("not_checked", []) if n.get("status") != "covered by the privacy audit"]
    if notc:
        lines += ["", "## Theorems not yet checked", ""] + [
            f"- {cell(n['spec'])}: {cell(n['ref'])} ({cell(n['kind'])}): {cell(n['status'])}" for n in notc]
    if figures:
        lines += ["", "## Plots", ""]
        for _spec_id, figs in figures.items():
            for caption, _alt, path in figs:
                lines.append(f"- [{path.name}](plots/{path.name}): {cell(caption)}")  # (names: slugs)
    lines.append("")
    return "\n".join(lines)




def _kill_matrix_md(matrix: dict) -> list[str]:
    o = matrix.get("overall") or {}
    rate = "n/a" if o.get("rate") is None else f"{o['rate']:.1%}"
    by_class = ", ".join(f"{c} {n}" for c, n in (o.get("killed_by_class") or {}).items())
    lines = ["## Kill matrix", "",
             f"{o.get('killed', 0)} of {o.get('mutants', 0) - o.get('equivalent', 0)} non-equivalent mutants killed "
             f"({rate}); by the class of the strongest killer: {by_class}; a privacy audit measured the loss above "
             f"the claim for {o.get('privacy_shown', 0)}, an exact computation for {o.get('privacy_exact_only', 0)} more "
             f"({o.get('privacy_breaking', 0)} declared privacy-breaking); "
             f"per-cell level {fmt_num(o.get('per_cell_level'))}, at most {fmt_num(o.get('expected_spurious_kills'))} "
             f"spurious kills expected over {fmt_num(o.get('statistical_cells'))} statistical cells.", "",
             "| spec | mutants | killed | equivalent | kill rate |", "|---|---|---|---|---|"]
    for spec, r in (matrix.get("rates") or {}).items():
        shown = "n/a" if r.get("rate") is None else f"{r['rate']:.0%}"
        lines.append(f"| {cell(spec)} | {r['mutants']} | {r['killed']} | {r['equivalent']} | {shown} |")
    lines += ["", "| mutant | breaks (declared) | privacy loss measured | status | kill class | killed by |",
              "|---|---|---|---|---|---|"]
    for r in matrix.get("rows", []):
        shown = r.get("privacy_shown")
        measured = (f"{fmt_num(shown['epsilon_lower_bound'])} ({shown['audit']})" if shown
                    else f"exact {r['privacy_exact']}" if r.get("privacy_exact") else "–")
        lines.append(f"| {cell(r['id'])} | {r['breaks']} | {cell(measured)} | {r['status']} | {md(r.get('kill_class') or '–')} | "
                     f"{cell(', '.join(r['killed_by']) or r['equivalent'])} |")
    return lines + [""]
