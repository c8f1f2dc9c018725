"""``index.html``: self-contained (CSS inline, plots and formulas embedded as data URIs, no
scripts, no network)."""

from __future__ import annotations

import base64
import json
import re
from collections import Counter
from pathlib import Path

from dptestbed.spec.model import source_text

from ..base.verdict import AS_EXPECTED, ERROR, OUTCOME_NO_POWER, UNEXPECTED, expects_flag
from .formulas import Formulas
from .model import (
    as_float,
    classes_text,
    counterexample_text,
    esc,
    exit_code,
    expected_text,
    fmt_num,
    item_rows,
    report_title,
    reproducibility_text,
    slug,
    status_text,
)

CSS = """
body{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px auto;max-width:1180px;color:#222;line-height:1.4;padding:0 12px}
h1{font-size:1.6em;margin-bottom:4px} h2{border-bottom:2px solid #ddd;padding-bottom:3px;margin-top:34px} h3{margin-bottom:6px}
table{border-collapse:collapse;margin:8px 0;font-size:13px;width:100%} th,td{border:1px solid #ddd;padding:4px 7px;text-align:left;vertical-align:top}
tr.paper th{background:#e8eef6;font-size:14px}
th{background:#f4f4f4} tr.unexpected td{background:#fde8e8} tr.error td{background:#fff4d6}
.badge{display:inline-block;padding:1px 7px;border-radius:9px;font-size:12px;font-weight:600;white-space:nowrap}
.consistent,.no-violation-found,.pass{background:#dff3e0;color:#17632a} .violated,.violation,.claim-violated{background:#fbd9d9;color:#9b1c1c}
.differs-from-the-spec{background:#fde7cf;color:#8a4300} .no-power{background:#e6e6f5;color:#33336b} .run-error{background:#ffe9b3;color:#7a5200}
.inconclusive{background:#eee;color:#555} .error,.implementation-error{background:#ffe9b3;color:#7a5200}
.ok{color:#17632a;font-weight:600} .bad{color:#b00020;font-weight:700}
.status{font-size:1.15em;padding:10px 14px;border-radius:6px;margin:10px 0} .status.s0{background:#dff3e0} .status.s1{background:#fbd9d9} .status.s2{background:#ffe9b3}
img.plot{max-width:100%;border:1px solid #eee;margin:6px 0} img.math{vertical-align:middle}
.meta{color:#666;font-size:12px} code{background:#f6f6f6;padding:0 3px;font-size:12px} pre{background:#f6f6f6;padding:8px;overflow-x:auto;font-size:12px}
figure{margin:10px 0} figcaption{font-size:12px;color:#555}
.mathbox{display:inline-block;max-width:100%;overflow-x:auto;vertical-align:middle}
td .mathbox{max-width:560px}
nav.toc{background:#f7f9fc;border:1px solid #dde4ee;border-radius:6px;padding:6px 14px;margin:12px 0;font-size:13px}
nav.toc ul{margin:2px 0;padding-left:18px} nav.toc li{margin:1px 0}
details.section>summary,details.spec>summary{cursor:pointer;font-size:1.15em;font-weight:600;margin-top:18px;padding:4px 0;border-bottom:2px solid #ddd}
details.spec>summary{font-size:1em;border-bottom:1px solid #e4e4e4}
table.rows{table-layout:fixed} table.rows td{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
table.rows td details[open]{white-space:normal} table.rows summary{overflow:hidden;text-overflow:ellipsis;cursor:pointer}
.count{color:#555;font-weight:400;font-size:13px}
caption{text-align:left;font-size:12px;color:#555;padding:2px 0}
summary h2,summary h3{display:inline;font-size:inherit;margin:0;border:0;padding:0}
"""


def _badge(verdict: str | None, detail: str | None = None) -> str:
    """A class (or verdict) as a coloured badge; ``detail`` (the check's own verdict) on hover."""
    v = verdict or "–"
    title = f' title="{esc(detail)}"' if detail and detail != v else ""
    return f'<span class="badge {slug(v)}"{title}>{esc(v)}</span>'


def _outcome_html(outcome: str) -> str:
    if outcome == AS_EXPECTED:
        return '<span class="ok">as expected</span>'
    if outcome == UNEXPECTED:
        return '<span class="bad">UNEXPECTED</span>'
    if outcome == OUTCOME_NO_POWER:
        return f'<span class="bad">{OUTCOME_NO_POWER}</span>'
    return '<span class="bad">error</span>'


def _img(path: Path, alt: str) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img class="plot" src="data:image/png;base64,{data}" alt="{esc(alt)}">'


def _table(caption: str, *headers: str, attrs: str = "", colgroup: str = "") -> str:
    """A table's opening: its caption, and a header row of column headers (``scope="col"``);
    ``headers`` are HTML."""
    return (f"<table{attrs}><caption>{esc(caption)}</caption>{colgroup}<tr>"
            + "".join(f'<th scope="col">{h}</th>' for h in headers) + "</tr>")


def render_html(document: dict, figures: dict, errors: list[dict], out_dir: Path,
                formulas: Formulas | None = None) -> str:
    """The page (``formulas``: the formula images drawn so far, the others drawn here)."""
    run = document.get("run", {})
    summary = document.get("summary", {})
    family = document.get("family", {})
    code = exit_code(document, errors)
    formulas = formulas or Formulas()
    rows = item_rows(document)
    title = report_title(document)
    h = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
         '<meta name="viewport" content="width=device-width, initial-scale=1">',
         f"<title>{esc(title)}</title><style>{CSS}</style></head><body>", f"<h1>{esc(title)}</h1>"]
    h.append(f'<div class="meta">suite <b>{esc(run.get("suite"))}</b> · seed {esc(run.get("seed"))} · '
             f'commit {esc(run.get("commit") or "unknown")} · {fmt_num(run.get("seconds"))} s · jobs {esc(run.get("jobs"))} · '
             f'started {esc(run.get("started"))} · versions '
             + ", ".join(f"{esc(k)} {esc(v)}" for k, v in (run.get("versions") or {}).items()) + "</div>")
    if reproducibility_text(run):
        h.append(f'<div class="meta" id="reproducibility"><b>{esc(reproducibility_text(run))}</b></div>')
    if not run.get("complete", True):
        h.append(f'<div class="status s2">INCOMPLETE RUN: {esc(run.get("items_done"))} of {esc(run.get("items_planned"))} items '
                 "finished; the rest are missing from this report.</div>")
    if document.get("mutants"):  # a mutants run: each check is a trial of a mutant, the banner is the kill rate
        o = document["mutants"].get("overall") or {}
        counted = o.get("mutants", 0) - o.get("equivalent", 0)
        h.append(f'<div class="status s{code}"><b>{esc(status_text(document, code))}</b> (exit code {code}) · '
                 f'{esc(o.get("killed", 0))} of {esc(counted)} non-equivalent mutants killed, '
                 f'{esc(summary.get("items", 0))} check runs</div>')
    else:
        h.append(f'<div class="status s{code}"><b>{esc(status_text(document, code))}</b> (exit code {code}) · '
                 f'{summary.get("items", 0)} items ({esc(classes_text(summary))}): {summary.get("as_expected", 0)} as '
                 f'expected, {summary.get("unexpected", 0)} unexpected, {summary.get("no_power", 0)} without power, '
                 f'{summary.get("errors", 0)} errors'
                 + (f", {len(errors)} report errors" if errors else "") +
                 f' · controls flagged: {summary.get("controls_flagged", 0)} of {summary.get("controls", 0)}'
                 + _no_power_html(summary) + '</div>')
    if document.get("mutants"):
        h.extend(_kill_matrix_html(document["mutants"], family))
        h.append("<details><summary>every item of the run</summary>")
    else:
        h.append(f"<p>{esc(family.get('statement', ''))}.</p>")

    paper_of = {s["id"]: s.get("paper") or "" for s in document.get("specs", [])}
    if document.get("mutants"):
        h.append(_rows_table(rows, "Every item of the run") + "</details></body></html>")
        return "\n".join(h)
    h.append(_toc(document, rows, paper_of))
    attention = [r for r in rows if r["outcome"] != AS_EXPECTED]
    h.append('<h2 id="attention">Needs attention</h2>')
    h.append(f"<p>{len(attention)} item{'' if len(attention) == 1 else 's'} did not end as expected (unexpected, without power, or could not run); "
             "each row opens for its claim and measurement, its link goes to the item.</p>"
             + _rows_table(attention, "Items that did not end as expected")
             if attention else "<p>None: every item ended as expected.</p>")
    h.append('<h2 id="summary">Summary</h2><p class="meta">Every item, one line each, by paper; a row opens for '
             "its claim, measurement and expectation.</p>")
    by_paper: dict[str, list[dict]] = {}
    for row in rows:
        by_paper.setdefault(paper_of.get(row["spec"], ""), []).append(row)
    for name, group in by_paper.items():
        h.append(f'<details class="section" id="summary-{slug(name or "other")}"><summary>'
                 f'<h3>{esc(name or "specs outside the catalogue")}</h3> <span class="count">{_counts(group)}</span>'
                 f"</summary>{_rows_table(group, 'Every item of ' + (name or 'the specs outside the catalogue'))}</details>")
    if errors:
        h.append("<h3>Report errors</h3><ul>" + "".join(
            f"<li>{esc(e['item'])}: {esc(e['error'])}</li>" for e in errors) + "</ul>")

    # self-test
    controls = [r for r in rows if expects_flag(r)]
    flagged = sum(1 for r in controls if r["outcome"] == AS_EXPECTED)
    pipeline = [r for r in controls if r["target"].startswith("pipeline control")]
    h.append(f'<details class="section" id="self-test"><summary><h2>Self-test: negative controls</h2> <span class="count">'
             f"{flagged} of {len(controls)} flagged</span></summary><p><b>controls flagged: {flagged} of {len(controls)}</b>"
             + (f" ({len(pipeline)} of them pipeline controls, {sum(r['outcome'] == 'as expected' for r in pipeline)} "
                "flagged: the reference mechanism with the testbed's own plumbing broken; they show a check's power "
                "but are no implementation bug, see <code>dptestbed mutants</code> for those)" if pipeline else "") + ". "
             "Every check ships a deliberately broken implementation that it must report as violated "
             "(theorem checks) and every privacy audit has the broken specs of the calibration corpus "
             "(expected: claim violated). A control that is not flagged means the check lacks power: the run fails.</p>")
    if controls:
        h.append(_table("Negative controls: each must be flagged", "spec", "check", "control", "measurement", "class",
                        "flagged"))
        for r in controls:
            ok = r["outcome"] == AS_EXPECTED
            h.append(f'<tr class="{"" if ok else "unexpected"}"><td>{esc(r["spec"])}</td><td>{esc(r["item"])}</td>'
                     f'<td>{esc(r["target"])}</td><td>{esc(r["measured"])}</td><td>{_badge(r["class"], r["verdict"])}</td>'
                     f'<td>{"yes" if ok else "<b>NO</b>"}</td></tr>')
        h.append("</table>")
    h.append("</details>")

    h.append('<details class="section" id="statistics"><summary><h2>Statistics: how to read the classes</h2></summary><ul>'
             f"<li>{esc(family.get('statement', ''))}.</li>"
             "<li><b>bound</b> checks: one-sided exact binomial test of H0: P[failure] ≤ β (scipy binomtest); "
             "Clopper-Pearson intervals (beta quantiles, scipy); <b>claim violated</b> iff the Holm-corrected test "
             "rejects; <b>no power</b> when not rejected but the test's power at the per-check level against "
             "the reference alternative (a failure rate min(2β, (1 + β)/2): the bound off by a factor of two in the "
             "rarer of its outcomes), or against the alternative the check states (a competitive check: a learner k "
             "times worse than the reference), is below 50%; otherwise <b>pass</b>.</li>"
             "<li><b>test</b> checks (other Monte-Carlo tests) report their own p-value, corrected with the others, "
             "and their power at the per-check level against the alternative they state.</li>"
             "<li><b>calibration</b> checks (conformance): exact two-sided (equal-tailed) binomial test of each cell's rate "
             "against its closed-form probability, Bonferroni over cells; <b>differs from the spec</b> iff rejected, no "
             "power when the power against the same mechanism with its noise scale 30% off is below 50%.</li>"
             "<li><b>property</b> checks state exact facts: claim violated (or, for a conformance check, differs from the "
             "spec) iff a case breaks the property (a correct implementation never does; the cases may be drawn at "
             "random).</li>"
             "<li>Every item ends in one <b>class</b>: <b>claim violated</b> (a measurement shows a privacy claim or a "
             "theorem's statement broken at the parameters shown), <b>differs from the spec</b> (a conformance check: "
             "the implementation's law or behaviour differs from the spec's algorithm, no claim shown broken), "
             "<b>no power</b> (the check could not have detected a violation: an audit whose smallest detectable ε "
             "is more than 5% above the claim, a test with power below 50% against its reference alternative), "
             "<b>implementation error</b>, <b>pass</b>, or <b>run error</b> (the testbed could not run it).</li>"
             "<li><b>slack</b>: the measured error (quantile, margin or stability needed for β) divided by the "
             "theorem's bound; &lt; 1 means the measurement lies inside the bound.</li>"
             "<li>privacy audits: ε lower bound from Clopper-Pearson bounds on a fresh split; "
             "<b>claim violated</b> iff the lower bound exceeds the claim at the audit's confidence.</li></ul></details>")

    # errata: one row per erratum, the printed spec beside the corrected one
    # the reference's audit at the spec's own point (a user's or a control's audit says nothing about the erratum)
    audits: dict[str, dict] = {}
    for a in document.get("privacy", []):
        if a.get("target") in (None, "reference") and a["spec"] not in audits:
            audits[a["spec"]] = a
    ran = {r["spec"] for r in document.get("privacy", []) + document.get("theorems", [])}
    errata: dict[str, list[dict]] = {}
    for s in document.get("specs", []):
        if s.get("erratum"):
            errata.setdefault(s["erratum"].get("id") or s["id"], []).append(s)
    shown = {k: v for k, v in errata.items() if any(s["id"] in ran for s in v)}
    measured = document.get("errata") or []
    if errata or measured:
        verdicts = Counter(e.get("verdict") for e in measured)
        h.append('<details class="section" id="errata"><summary><h2>Errata: printed beside corrected</h2> <span class="count">'
                 f"{len(errata)} in the specs; {len(measured)} measured"
                 + "".join(f", {n} {esc(v)}" for v, n in verdicts.items()) + "</span></summary>")
    if shown:
        h.append(_table("Errata in the specs: the printed version beside the corrected one, each audited", "erratum",
                        "description", "printed", "corrected"))
        for key, group in shown.items():
            e = group[0]["erratum"]
            printed = [s for s in group if not s.get("variant_of")] or group[:1]
            corrected = [s for s in group if s not in printed]

            def cell(specs, formula):
                out = f"<code>{esc(formula)}</code>"
                for s in specs:
                    a = audits.get(s["id"])
                    out += f"<br>{esc(s['id'])}: " + ("reference not audited in this run" if a is None else
                        f"{_badge(a.get('class'), a.get('verdict'))} ε_lb {fmt_num(as_float(a.get('epsilon_lower_bound')))} vs claim "
                        f"{fmt_num(as_float((a.get('claim') or {}).get('epsilon')))}")
                return out

            h.append(f"<tr><td>{esc(key)}</td><td>{esc(e.get('description'))}</td>"
                     f"<td>{cell(printed, e.get('printed'))}</td><td>{cell(corrected, e.get('corrected'))}</td></tr>")
        h.append("</table>")
    h.extend(_errata_measured_html(measured))
    if len(shown) < len(errata):
        h.append(f"<p class='meta'>{len(errata) - len(shown)} more errata are recorded in specs that did not run "
                 "(no implementation yet): " + ", ".join(esc(k) for k in errata if k not in shown) + ".</p>")
    if errata or measured:
        h.append("</details>")

    notc = [n for n in document.get("not_checked", []) if n.get("status") != "covered by the privacy audit"]
    h.append(f'<details class="section" id="not-checked"><summary><h2>Theorems not yet checked</h2> <span class="count">'
             f"{len(notc)}</span></summary>")
    if notc:
        grouped: dict[tuple[str, str], list[str]] = {}
        for n in notc:
            status = re.sub(r" \([^()]*\)$", "", n["status"])
            grouped.setdefault((n["spec"], status), []).append(n["ref"])
        h.append(f"<p>{len(notc)} theorems (or their checks) of the specs in this run have no result; they are "
                 "listed here, never silently skipped.</p>")
        h.append(_table("Theorems of the specs in this run without a result", "spec", "theorems", "status") + "".join(
            f"<tr><td>{esc(spec)}</td><td>{esc('; '.join(dict.fromkeys(refs)))}</td><td>{esc(status)}</td></tr>"
            for (spec, status), refs in grouped.items()) + "</table>")
    else:
        h.append("<p>None: every theorem of the specs in this run has an experiment or a privacy audit.</p>")
    h.append("</details>")

    # per spec
    by_spec_priv: dict[str, list[dict]] = {}
    for a in document.get("privacy", []):
        by_spec_priv.setdefault(a["spec"], []).append(a)
    by_spec_thm: dict[str, list[dict]] = {}
    for c in document.get("theorems", []):
        by_spec_thm.setdefault(c["spec"], []).append(c)
    paper: str | None = None
    for s in _shown_specs(document):
        if (s.get("paper") or "") != paper:
            paper = s.get("paper") or ""
            h.append(f'<h2 id="paper-{slug(paper)}">Paper: {esc(paper or "specs outside the catalogue")}</h2>')
        spec_rows = [r for r in rows if r["spec"] == s["id"]]
        h.append(f'<details class="spec" id="{slug(s["id"])}"><summary><h3>{esc(s["id"])}: {esc(s.get("title"))}</h3> '
                 f'<span class="count">{_counts(spec_rows)}</span></summary>')
        h.append(_spec_section(s, by_spec_priv.get(s["id"], []), by_spec_thm.get(s["id"], []),
                               figures.get(s["id"], []), formulas) + "</details>")
    h.append(f'<p class="meta">Rendered from results.json ({esc(document.get("format"))}); re-render with '
             "<code>dptestbed report results.json --out DIR</code>.</p></body></html>")
    return "\n".join(h)


MUTANT_CLASS = {"killed": "violated", "survived": "consistent", "inconclusive": "inconclusive", "error": "error",
                "equivalent": "inconclusive"}


def _kill_matrix_html(matrix: dict, family: dict) -> list[str]:
    """The kill matrix of a mutants run: kills by class, rates per spec, then one table per spec
    (mutant x check, each cell the check's class)."""
    o = matrix.get("overall") or {}
    rate = "n/a" if o.get("rate") is None else f"{o['rate']:.1%}"
    by_class = o.get("killed_by_class") or {}
    h = ["<h2>Kill matrix</h2>",
         f"<p><b>{o.get('killed', 0)} of {o.get('mutants', 0) - o.get('equivalent', 0)} non-equivalent implementation "
         f"mutants killed ({rate})</b>; {o.get('equivalent', 0)} declared equivalent (excluded). By the class of each "
         "mutant's strongest killer: " + ", ".join(f"{esc(c)} {n}" for c, n in by_class.items()) + ". "
         f"A privacy audit measured the loss above the claim for {o.get('privacy_shown', 0)} mutants"
         + (f" and an exact computation showed it for {o['privacy_exact_only']} more" if o.get("privacy_exact_only") else "")
         + "; "
         f"{o.get('privacy_breaking', 0)} are declared privacy-breaking"
         + (f"; labels not backed by a measurement: {esc(', '.join(o['labels_not_backed']))}"
            if o.get("labels_not_backed") else "; every label is backed by the measurement") + ". "
         "Each mutant is the reference implementation with one realistic bug, run through every check of its spec "
         "exactly as <code>dptestbed check SPEC --impl MUTANT</code> runs a user's implementation; a cell kills when "
         f"its class is claim violated, differs from the spec or implementation error at level "
         f"{fmt_num(o.get('per_cell_level') or family.get('per_check_level'))} per cell (the strictest per-check "
         f"level of a <code>check</code> run), with no correction over the {fmt_num(o.get('statistical_cells'))} "
         f"statistical cells: at most {fmt_num(o.get('expected_spurious_kills'))} spurious kills expected. Pipeline "
         "controls of the theorem checks are not mutants and are not counted.</p>",
         _table("Mutants killed per spec", "spec", "mutants", "killed", "equivalent", "kill rate")]
    for spec, r in (matrix.get("rates") or {}).items():
        shown = "n/a" if r.get("rate") is None else f"{r['rate']:.0%}"
        cls = "" if r.get("rate") in (None, 1.0) else ' class="unexpected"'
        h.append(f'<tr{cls}><td><a href="#kill-{slug(spec)}">{esc(spec)}</a></td><td>{esc(r["mutants"])}</td>'
                 f'<td>{esc(r["killed"])}</td><td>{esc(r["equivalent"])}</td><td>{esc(shown)}</td></tr>')
    h.append("</table>")
    for spec, checks in (matrix.get("checks") or {}).items():
        rows = [r for r in matrix.get("rows", []) if r["spec"] == spec]
        h.append(f'<h3 id="kill-{slug(spec)}">{esc(spec)}</h3>'
                 + _table(f"Mutants of {spec} against each check of the spec (a cell: the check's class)", "mutant",
                          "breaks (declared; measured)", "bug", *(esc(c) for c in checks), "status"))
        for r in rows:
            classes = r.get("cell_classes") or {}
            cells = "".join(f'<td>{_badge(classes.get(c), r["cells"].get(c)) if c in classes else "–"}</td>'
                            for c in checks)
            note = f'<div class="meta">{esc(r["equivalent"])}</div>' if r.get("equivalent") else ""
            shown = r.get("privacy_shown")
            measured = (f"loss ≥ {fmt_num(as_float(shown['epsilon_lower_bound']))} against ε = "
                        f"{fmt_num(as_float((shown.get('claim') or {}).get('epsilon')))} ({esc(shown['audit'])})"
                        if shown else f"exact loss {esc(r['privacy_exact'])} (computed, not audited)"
                        if r.get("privacy_exact") else "no loss above the claim measured")
            cls = ' class="unexpected"' if r["status"] in ("survived", "inconclusive") or not r.get("label_backed", True) \
                else (' class="error"' if r["status"] == "error" else "")
            h.append(f'<tr{cls}><td>{esc(r["name"])}</td><td>{esc(r["breaks"])}; {measured}</td>'
                     f'<td>{esc(r["bug"])}{note}</td>{cells}<td>{badge_text(r["status"])}'
                     + (f'<div class="meta">{esc(r["kill_class"])}</div>' if r.get("kill_class") else "")
                     + "</td></tr>")
        h.append("</table>")
    return h


def _counts(rows: list[dict]) -> str:
    """``12 items · 1 unexpected · 2 without power``: what a collapsed section holds."""
    counts = {o: sum(r["outcome"] == o for r in rows) for o in (UNEXPECTED, OUTCOME_NO_POWER, ERROR)}
    return " · ".join([f"{len(rows)} item{'s' if len(rows) != 1 else ''}"] + [
        f"{n} {'without power' if o == OUTCOME_NO_POWER else o + ('s' if o == 'error' and n > 1 else '')}"
        for o, n in counts.items() if n])


def _rows_table(rows: list[dict], caption: str) -> str:
    """Items one line each: the item's cell opens (``<details>``) for its claim, measurement and expectation."""
    h = [_table(caption, "spec", "item (open for the measurement)", "implementation", "class", "outcome",
                attrs=' class="rows"', colgroup='<colgroup><col style="width:19%"><col style="width:43%">'
                '<col style="width:16%"><col style="width:13%"><col style="width:9%"></colgroup>')]
    for row in rows:
        cls = {UNEXPECTED: "unexpected", ERROR: "error", OUTCOME_NO_POWER: "error"}.get(row["outcome"], "")
        err = f'<div class="meta">{esc(row["error"])}</div>' if row.get("error") else ""
        h.append(f'<tr class="{cls}"><td title="{esc(row["spec"])}"><a href="#{slug(row["spec"])}">{esc(row["spec"])}</a></td>'
                 f'<td><details><summary title="{esc(row["item"])}">{esc(row["item"])}</summary>'
                 f'<div>claim: {esc(row["claim"])}<br>measured: {esc(row["measured"])}{err}'
                 f'<br>expected: {esc(expected_text(row["expected"]))} · <a href="#{slug(row["id"])}">details</a></div>'
                 f'</details></td><td title="{esc(row["target"])}">{esc(row["target"])}</td>'
                 f'<td>{_badge(row["class"], row["verdict"])}</td><td>{_outcome_html(row["outcome"])}</td></tr>')
    return "".join(h) + "</table>"


def _toc(document: dict, rows: list[dict], paper_of: dict) -> str:
    """The table of contents: the report's sections, then every paper and its specs that ran."""
    ran = {r["spec"] for r in rows}
    papers: dict[str, list[dict]] = {}
    for s in document.get("specs", []):
        if s["id"] in ran:
            papers.setdefault(s.get("paper") or "", []).append(s)
    h = ['<nav class="toc"><b>Contents</b><ul>',
         '<li><a href="#attention">Needs attention</a> · <a href="#summary">Summary</a> · '
         '<a href="#self-test">Self-test</a> · <a href="#statistics">Statistics</a>'
         + (' · <a href="#errata">Errata</a>' if document.get("errata") or any(
             s.get("erratum") for s in document.get("specs", [])) else "")
         + ' · <a href="#not-checked">Not yet checked</a></li>']
    for paper, specs in papers.items():
        group = [r for r in rows if paper_of.get(r["spec"], "") == paper]
        h.append(f'<li><a href="#paper-{slug(paper)}"><b>{esc(paper or "specs outside the catalogue")}</b></a> '
                 f'<span class="count">{_counts(group)}</span>: ' + ", ".join(
                     f'<a href="#{slug(s["id"])}">{esc(s["id"])}</a>'
                     + ("<b class=bad>!</b>" if any(r["spec"] == s["id"] and r["outcome"] != AS_EXPECTED
                                                    for r in group) else "") for s in specs) + "</li>")
    return "".join(h) + "</ul></nav>"


def _no_power_html(summary: dict) -> str:
    """The banner's note on the items without power: never counted as passes, named."""
    names = summary.get("without_power") or []
    if not names:
        return ""
    shown = "; ".join(esc(n) for n in names[:6]) + (f"; and {len(names) - 6} more" if len(names) > 6 else "")
    return (f'<div class="meta">{len(names)} items had <b>no power</b> (they could not have detected a violation '
            f"at this suite's sizes): {shown}</div>")


def badge_text(status: str) -> str:
    cls = MUTANT_CLASS.get(status)
    return f'<span class="badge {cls}">{esc(status)}</span>' if cls else esc(status)


ERRATA_VERDICT_CLASS = {"confirmed": "violated", "analytic": "no-power", "not an erratum": "consistent",
                        "refuted": "consistent", "inconclusive": "inconclusive"}


def _errata_measured_html(errata: list[dict] | None) -> list[str]:
    """The ``errata`` array of results.json (audits/checks/errata.py): printed beside corrected, the
    deciding measurement and the verdict."""
    if not errata:
        return []
    h = ["<h3>Errata settled by measurement</h3>",
         "<p>An erratum is <b>confirmed</b> when a measurement on what the paper states shows the printed version "
         "wrong and the corrected one right; <b>analytic</b> when it stands on an argument that nothing here can "
         "measure (the text says why); <b>refuted</b> when a measurement shows the printed statement holding; "
         "<b>inconclusive</b> when the measurement could not decide. Implementation pitfalls that the paper does "
         "not commit are listed apart (<b>not an erratum</b>). A printed spec whose privacy audit flags a violation "
         "caused by a confirmed privacy erratum is counted as expected, not as a failure of the run.</p>",
         _table("Errata settled by measurement", "erratum", "printed", "corrected", "measurement", "verdict")]
    pitfalls = [e for e in errata if e.get("verdict") == "not an erratum"]
    for e in [e for e in errata if e not in pitfalls] + pitfalls:
        verdict = e.get("verdict")
        h.append(f"<tr><td>{esc(e.get('id'))}</td>"
                 f"<td>{esc(e.get('printed'))}<br><code>{esc(e.get('printed_formula') or '')}</code></td>"
                 f"<td>{esc(e.get('corrected'))}<br><code>{esc(e.get('corrected_formula') or '')}</code></td>"
                 f"<td>{esc(e.get('measurement'))}"
                 + (f"<div class='meta'>deciding: {esc(e.get('deciding'))}</div>" if e.get("deciding") else "")
                 + f"</td><td><span class='badge {ERRATA_VERDICT_CLASS.get(str(verdict), 'inconclusive')}'>"
                 f"{esc(verdict)}</span></td></tr>")
    h.append("</table>")
    return h


def _shown_specs(document: dict) -> list[dict]:
    """The spec records that get a section: those of which something ran (the others are listed under
    "not yet checked")."""
    ran = {r["spec"] for part in ("privacy", "theorems") for r in document.get(part) or []}
    return [s for s in document.get("specs", []) if s["id"] in ran]


def shown_formulas(document: dict) -> list[str]:
    """The LaTeX of every formula the spec sections show (:func:`_spec_section`), once each, in order."""
    found: dict[str, None] = {}
    for s in _shown_specs(document):
        p = s.get("privacy") or {}
        entries = [*(s.get("derived") or {}).values(), *(p[k] for k in ("epsilon", "delta") if k in p)]
        for t in s.get("theorems", []):
            entries += [*(t.get("quantities") or {}).values(), *t.get("preconditions", [])]
        found.update((e["latex"], None) for e in entries if isinstance(e, dict) and e.get("latex"))
    return list(found)


def _spec_section(s: dict, audits: list[dict], checks: list[dict], figs: list, formulas: Formulas) -> str:
    h = []
    src = s.get("source") or {}
    meta = " · ".join(x for x in [
        esc(f"source: {source_text(src)}"),
        f"implementation: <code>{esc(s.get('implementation'))}</code>" if s.get("implementation") else "no implementation",
        f"variant of {esc(s.get('variant_of'))}" if s.get("variant_of") else "",
        f"<b>deliberately broken</b>: {esc(s.get('broken'))}" if s.get("broken") else ""] if x)
    h.append(f'<p class="meta">{meta}</p>')
    if s.get("summary"):
        h.append(f"<p>{esc(s['summary'])}</p>")
    params = s.get("parameters") or {}
    if params:
        h.append("<p>parameters (defaults): " + ", ".join(f"{esc(k)} = {esc(fmt_num(v) if not isinstance(v, str) else v)}"
                                                          for k, v in params.items()) + "</p>")
    derived = s.get("derived") or {}
    if derived:
        h.append(_table(f"Derived quantities of {s['id']}", "derived", "formula", "value at defaults", "meaning"))
        for name, d in derived.items():
            h.append(f"<tr><td><code>{esc(name)}</code></td><td>{formulas.html(d.get('latex'), d.get('formula'))}</td>"
                     f"<td>{esc(fmt_num(d.get('value')) if not isinstance(d.get('value'), (list, dict)) else d.get('value'))}</td>"
                     f"<td>{esc(d.get('description'))}</td></tr>")
        h.append("</table>")
    p = s.get("privacy")
    if p:
        h.append(f"<h4>{esc(s['id'])}: privacy claim ({esc(p.get('theorem'))})</h4><p>ε = {formulas.html(p['epsilon']['latex'], p['epsilon']['formula'])}"
                 f" = {fmt_num(p['epsilon'].get('value'))}, δ = {formulas.html(p['delta']['latex'], p['delta']['formula'])}"
                 f" = {fmt_num(p['delta'].get('value'))}; neighbours: <code>{esc(p.get('neighbours'))}</code> "
                 f"({esc(p.get('neighbours_description'))})</p>")
    for a in audits:
        h.append(_audit_block(a))
    h.append(f"<h4>{esc(s['id'])}: theorems</h4>")
    for t in s.get("theorems", []):
        h.append(f"<h5>{esc(s['id'])} {esc(t['ref'])} <span class='meta'>[{esc(t['kind'])}; constant: {esc(t['constant'])}; "
                 f"{esc(t['status'])}]</span></h5><p>{esc(t['statement'])}</p>")
        q = t.get("quantities") or {}
        if q or t.get("preconditions"):
            h.append("<ul>" + "".join(
                f"<li><code>{esc(n)}</code> = {formulas.html(v.get('latex'), v.get('formula'))} = {fmt_num(v.get('value'))}</li>"
                for n, v in q.items()) + "".join(
                f"<li>precondition: {formulas.html(v.get('latex'), v.get('formula'))}</li>" for v in t.get("preconditions", []))
                + "</ul>")
        for c in [c for c in checks if c["ref"] == t["ref"]]:
            h.append(_check_block(c))
    if figs:
        h.append(f"<h4>{esc(s['id'])}: plots</h4>")
        for caption, alt, path in figs:
            h.append(f"<figure>{_img(path, alt)}<figcaption>{esc(caption)} (plots/{esc(path.name)})</figcaption></figure>")
    return "\n".join(h)


def _audit_block(a: dict) -> str:
    claim = a.get("claim") or {}
    h = [f'<div id="{slug(a["id"])}"><b>Privacy audit</b> ({esc(a.get("target", "reference"))}: '
         f'<code>{esc(a.get("implementation"))}</code>) {_badge(a.get("class"), a.get("verdict"))} '
         f'expected: {esc(expected_text(a.get("expected")))} · {_outcome_html(a.get("outcome", "error"))}<ul>']
    if a.get("verdict") == "error":
        h.append(f"<li>error: {esc(a.get('error'))}</li>")
    else:
        h.append(f"<li>claim: ε = {fmt_num(as_float(claim.get('epsilon')))}, δ = {fmt_num(as_float(claim.get('delta')))}</li>")
        h.append(f"<li>ε lower bound {fmt_num(as_float(a.get('epsilon_lower_bound')))} at confidence {fmt_num(a.get('confidence'), 6)}"
                 f" (tightness {fmt_num(as_float(a.get('tightness')))}); exact ε {fmt_num(as_float(a.get('exact_epsilon')))}</li>")
        h.append(f"<li>{fmt_num(a.get('samples_per_side'))} samples per side; {fmt_num(a.get('pairs_tried'))} pairs, "
                 f"{fmt_num(a.get('events_tried'))} events tried; {fmt_num(a.get('seconds'))} s; seed {esc(a.get('seed'))}</li>")
        if a.get("reason"):
            h.append(f"<li>{esc(a['reason'])}</li>")
        if a.get("counterexample"):
            h.append(f"<li>counterexample:<pre>{esc(counterexample_text(a))}</pre>"
                     f"<details><summary>raw</summary><pre>{esc(json.dumps(a['counterexample'], indent=1)[:3000])}"
                     "</pre></details></li>")
    h.extend(f"<li class='meta'>{esc(note)}</li>" for note in a.get("notes") or [])
    h.append("</ul></div>")
    return "".join(h)


def _check_block(c: dict) -> str:
    who = f"control <code>{esc(c['control']['name'])}</code>: {esc(c['control']['description'])}" if c.get("control") \
        else f"{esc(c.get('target'))}: <code>{esc(c.get('implementation'))}</code>"
    h = [f'<div id="{slug(c["id"])}" style="margin-left:14px"><b>{esc(c["check"])}</b> ({esc(c["kind"])}) · {who} · '
         f'{_badge(c.get("class"), c.get("verdict"))} expected: {esc(expected_text(c.get("expected")))} · '
         f'{_outcome_html(c.get("outcome", "error"))}<ul>',
         f"<li>{esc(c.get('title'))}</li><li>instance: {esc(c.get('instance'))}</li>"
         f"<li>{esc(c.get('predicate'))}</li>"]
    if c.get("params"):
        h.append("<li>parameters: " + ", ".join(f"{esc(k)} = {esc(fmt_num(v) if not isinstance(v, str) else v)}"
                                                for k, v in c["params"].items()) + "</li>")
    if c.get("verdict") == "error":
        h.append(f"<li>error: {esc(c.get('error'))}</li>")
    elif c["kind"] == "bound":
        h.append(f"<li>{fmt_num(c.get('failures'))} failures in {fmt_num(c.get('trials'))} trials: rate "
                 f"{fmt_num(c.get('failure_rate'))}, 95% CP upper bound {fmt_num(c.get('failure_rate_upper'))} against "
                 f"β = {fmt_num(c.get('beta'))}; p = {fmt_num(c.get('p_value'))} (Holm-adjusted {fmt_num(c.get('p_value_adjusted'))}); "
                 f"power against {esc(c.get('alternative_text') or 'a failure rate min(2β, (1 + β)/2)')} "
                 f"at level {fmt_num(c.get('level'))}: {fmt_num(c.get('power'))}</li>")
        if c.get("slack") is not None:
            h.append(f"<li>slack {fmt_num(c.get('slack'))}: {esc(c.get('slack_definition'))}</li>")
    elif c["kind"] == "calibration":
        h.append(f"<li>p = {fmt_num(c.get('p_value'))} (adjusted {fmt_num(c.get('p_value_adjusted'))}); power against "
                 f"±30% noise at level {fmt_num(c.get('level'))}: {fmt_num(c.get('power'))}</li>")
        h.append("<li>" + _table(f"{c['check']}: each cell's rate against its exact probability", "cell",
                                 "events / trials", "rate [95% CP]", "exact", "noise ±30%", "p") + "".join(
                     f"<tr><td>{esc(x['label'])}</td><td>{fmt_num(x['events'])} / {fmt_num(x['trials'])}</td>"
                     f"<td>{fmt_num(x['rate'], 4)} [{fmt_num(x['lower'], 4)}, {fmt_num(x['upper'], 4)}]</td><td>{fmt_num(x['exact'], 4)}</td>"
                     f"<td>{', '.join(fmt_num(v, 4) for v in x.get('alternatives') or [])}</td><td>{fmt_num(x['p_value'])}</td></tr>"
                     for x in c.get("cells") or []) + "</table></li>")
    elif c["kind"] == "test":
        h.append(f"<li>p = {fmt_num(c.get('p_value'))} (adjusted {fmt_num(c.get('p_value_adjusted'))}); power against "
                 f"{esc(c.get('alternative_text') or 'no stated alternative')} at level {fmt_num(c.get('level'))}: "
                 f"{fmt_num(c.get('power'))}</li>")
    else:
        h.append(f"<li>{fmt_num(c.get('failures'))} of {fmt_num(c.get('trials'))} runs break the property</li>")
        if c.get("counterexample"):
            h.append(f"<li>counterexample: <code>{esc(json.dumps(c['counterexample'])[:600])}</code></li>")
    h.append(f"<li class='meta'>{fmt_num(c.get('seconds'))} s</li></ul></div>")
    return "".join(h)


