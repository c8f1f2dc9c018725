"""What every rendering of a results document shares: one row per item (:func:`item_rows`), the
counterexample sentence, number formatting, the status lines and the exit code."""

from __future__ import annotations

import html
import math
import re
import zlib

from ..base.verdict import (
    CLAIM_VIOLATED,
    DIFFERS,
    ERROR,
    EXIT_CODES,
    EXIT_TEXT,
    EXPECTATION_TEXT,
    IMPLEMENTATION_ERROR,
    NO_POWER,
    PASS,
    RUN_ERROR,
    expects_flag,
)
from ..privacy.claims import bound_formula, from_json
from ..privacy.result import at_decision

MUTANT_STATUS = {0: "PASS: every non-equivalent mutant killed", 1: "FAIL: a mutant survived every check",
                 6: "ERROR: some mutants could not be checked"}
RUN_ERROR_EXIT = EXIT_CODES[RUN_ERROR]


def fmt_num(x, digits: int = 3) -> str:
    if x is None:
        return "–"
    if isinstance(x, str):
        return {"inf": "∞", "-inf": "−∞"}.get(x, x)
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return f"{x:,}"
    if not math.isfinite(x):
        return "∞" if x > 0 else ("−∞" if x < 0 else "nan")
    if x == 0:
        return "0"
    if abs(x) >= 1e5 or abs(x) < 1e-3:
        return f"{x:.{digits - 1}e}"
    return f"{x:.{digits}g}"


def as_float(x):
    if x is None:
        return None
    if isinstance(x, str):
        return {"inf": math.inf, "-inf": -math.inf}.get(x)
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def slug(text: str) -> str:
    """An HTML id for ``text``: readable, at most ~90 characters, unique (a long text keeps a hash
    of the whole, so two ids that share their first 80 characters never collide)."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return slug if len(slug) <= 80 else f"{slug[:80]}-{zlib.crc32(text.encode('utf-8')):08x}"


def esc(text) -> str:
    return html.escape("" if text is None else str(text))


def pct(x) -> str:
    """A fraction as a percentage: 3 significant digits, whole percents from 100% on (1010%, never 1.01e+03%)."""
    if x is None:
        return "–"
    return f"{100 * x:.0f}%" if abs(x) >= 1 else f"{100 * x:.3g}%"


def _view_text(view: str) -> str:
    """What an event's view (``event_detail.view`` of an audit's event) measures on one output."""
    if view.startswith("coord["):
        return f"the output's coordinate {view[6:-1]} (counting from 0)"
    if view.startswith(("count(==", "first(==")):
        value = view[8:-1]
        return (f"the number of the output's entries equal to {value}" if view.startswith("count") else
                f"the position of the output's first entry equal to {value} (counting from 0; its length if none)")
    return {"value": "the output",
            "sum": "the sum of the output's coordinates",
            "row": "the row of the output's integer-valued entries",
            "rowbin": "the row of the output's integer-valued entries, with the range of the sum of the others,",
            "meandiff": "a weighted sum of the output's real-valued entries (the weights: the difference of its means "
                        "on D and D', from other samples)",
            "fisher": "a weighted sum of the output's real-valued entries (Fisher's discriminant: the weights "
                      "undo the noise the entries share, fitted on other samples)",
            "nb": "a naive-Bayes score of the output (how much likelier it is on D than on D', entry by entry, "
                  "fitted on other samples)",
            "negative_zeros": "the number of the output's entries that are -0.0",
            "float32": "the number of the output's real-valued entries (of the first 4) with no more precision than a "
                       "float32 (the low 29 bits of their float64 mantissa zero)",
            "parity": "the number of the output's real-valued entries (of the first 4) whose last mantissa bit is 1",
            "low_bits": "the lowest 8 bits of the output's mantissa"}.get(view, view)


def event_text(event: dict) -> str:
    """An audit's event (a counterexample or a best event of ``AuditResult.to_json()``) in the user's
    terms: which part of the output, the values, the side of the threshold; e.g. "the output's
    coordinate 2 (counting from 0) is at least 3.019". Falls back on the auditor's own description."""
    detail = event.get("event_detail") or {}
    view, kind = detail.get("view"), detail.get("kind")
    if not isinstance(view, str) or kind not in ("ge", "le", "in"):
        return str(event.get("event") or "an event")
    what = _view_text(view)
    if kind != "in":
        return f"{what} is {'at least' if kind == 'ge' else 'at most'} {fmt_num(as_float(detail.get('threshold')), 4)}"
    outcomes = detail.get("outcomes")
    if not outcomes:
        return f"{what} is one of {fmt_num(detail.get('size'))} values (the auditor's selection)"
    shown = "; ".join(fmt_num(v, 4) if isinstance(v, float) else str(v) for v in outcomes[:8])
    more = f"; ... ({len(outcomes)} values)" if len(outcomes) > 8 else ""
    return f"{what} is {'one of ' if len(outcomes) > 1 else ''}{shown}{more}"


def counterexample_text(result: dict) -> str | None:
    """A privacy audit's counterexample (``AuditResult.to_json()``) as sentences a reviewer reads,
    or None when there is none."""
    c = result.get("counterexample")
    if not c:
        return None

    def short(value, limit=80):
        text = str(value)
        return text if len(text) <= limit else text[: limit - 3] + "..."

    def g(x):
        return "unknown" if x is None else (x if isinstance(x, str) else f"{x:.4g}")

    claim = from_json(c.get("claim"))
    conf = f"{100 * result.get('confidence', 0.95):.6g}%"
    if c.get("divergence"):  # a Renyi-type claim broken by the divergence round (privacy/divergence.py)
        return (f"On the neighbouring pair {c['pair'].get('name')}, {c.get('event')} shows {claim.name} >= "
                f"{g(c.get('epsilon_lower_bound'))} (the Renyi divergences of the cells' probabilities, each bounded "
                f"at {conf} confidence together)\n> the claimed {claim.name} {g(claim.value)}.")
    num, den = ("D", "D'") if c.get("numerator") == "data" else ("D'", "D")
    lines = [f"On the neighbouring pair {c['pair'].get('name')}: D = {short(c['pair'].get('data'))}, "
             f"D' = {short(c['pair'].get('neighbour'))},",
             f"the event E = \"{event_text(c)}\" has probability >= {g(c.get('p_lo'))} on {num} and <= {g(c.get('p_hi'))} "
             f"on {den} (at {conf} confidence; observed {c.get('count_data')} and {c.get('count_neighbour')} of "
             f"{c.get('n_per_side')} runs on D and D'),",
             f"so {bound_formula(claim, num, den)} = {g(c.get('epsilon_lower_bound'))}"]
    if result.get("verdict") == DIFFERS:
        lines.append(f"which is more than the spec's own mechanism leaks on that pair (exact {claim.name} "
                     f"{g(c.get('exact_epsilon'))}): the implementation differs from the spec.")
    else:
        lines.append(f"> the claimed {claim.name} {g(claim.value)}.")
    point = c.get("point_claim")
    if point:  # a curve claim: the spec's stated (epsilon, delta) point on the same event
        lines.append(f"On the same event the stated point epsilon = {g(point['epsilon'])}, delta = {g(point['delta'])} "
                     f"gives epsilon >= {g(point['epsilon_lower_bound'])}: "
                     + ("broken too." if point["broken"] else "not shown broken (the curve is, the point is not)."))
    return "\n".join(lines)


# =========================================================================== rows


def audit_claim(result: dict) -> tuple[dict, dict]:
    """The claim an audit's verdict is about and the parameters it holds at: those of the pair that
    decided it (the counterexample, else the best candidate; a pair at another audit point claims
    another epsilon), else the audit's own (:func:`..privacy.result.at_decision`)."""
    decided = at_decision(result)
    return decided.get("claim") or {}, decided.get("params") or {}


def expected_text(expected: str | None) -> str:
    """What an item was expected to end in: a pass, or (a negative control's) a flag."""
    return f"flagged ({CLAIM_VIOLATED} or {DIFFERS})" if expected else PASS


def telling_digits(x, other, least: int = 3, most: int = 6) -> int:
    """The fewest significant digits (``least`` to ``most``) at which ``x`` does not print as ``other``: a measured
    bound 1.0013 times its claim reads "1.0013 ×", never "1 ×"."""
    digits = least
    while (digits < most and isinstance(x, float) and isinstance(other, float) and x != other
           and fmt_num(x, digits) == fmt_num(other, digits)):
        digits += 1
    return digits


def point_text(params: dict) -> str:
    return ", ".join(f"{k}={fmt_num(v) if isinstance(v, float) else v}" for k, v in params.items())


def item_rows(document: dict) -> list[dict]:
    """One row per item (privacy audit or theorem check), for every table format."""
    rows = []
    for r in document.get("privacy", []):
        claim, params = audit_claim(r)
        stated = from_json(claim)
        eps_claim = stated.value
        eps_lb = as_float(r.get("epsilon_lower_bound"))
        digits = telling_digits(eps_lb, eps_claim)  # a bound just past the claim does not print as the claim
        measured = f"{stated.symbol}_lb = {fmt_num(eps_lb, digits)}"
        if eps_lb is not None and eps_claim:
            measured += f" ({fmt_num(eps_lb / eps_claim, telling_digits(eps_lb / eps_claim, 1.0))} × the claim)"
        point = (r.get("counterexample") or {}).get("point_claim")
        if point:
            measured += (f"; on the same event the stated point ε = {fmt_num(point['epsilon'])}, "
                         f"δ = {fmt_num(point['delta'])}: ε_lb = {fmt_num(point['epsilon_lower_bound'])}, "
                         + ("broken too" if point["broken"] else "not shown broken"))
        if r.get("exact_epsilon") is not None:
            whose = "the reference's " if r.get("target") not in (None, "reference") else ""
            measured += f"; {whose}exact {stated.symbol} on that pair = {fmt_num(as_float(r.get('exact_epsilon')))}"
        if r.get("minimum_detectable_epsilon") is not None:
            measured += (f"; smallest detectable {stated.symbol} = "
                         f"{fmt_num(as_float(r.get('minimum_detectable_epsilon')))}")
        if r.get("class") == NO_POWER and (r.get("power") or {}).get("samples_for_power"):
            measured += f"; {power_remedy(r)}"
        if r.get("samples_per_side"):
            measured += f"; {fmt_num(r['samples_per_side'])} samples/side"
        if r.get("erratum_confirmed"):
            measured += f"; erratum {r['erratum_confirmed']} confirmed (printed variant)"
        target = r.get("target", "reference")
        if target == "mutant" and r.get("control"):
            target = f"mutant: {r['control']['name']}"
        elif expects_flag(r):
            target = "control (expected: flagged)"
        claim_text = "–"
        if claim:
            claim_text = (f"ε = {fmt_num(eps_claim)}, δ = {fmt_num(as_float(claim.get('delta')))}" if stated.kind == "dp"
                          else stated.describe())
            if params:
                claim_text += f" at {point_text(params)}"
        rows.append({
            "id": r["id"], "spec": r["spec"], "kind": "privacy",
            "item": "privacy audit" + (f" ({r['target']})" if r.get("target") == "user" else "")
                    + (" at " + ", ".join(f"{k}={v}" for k, v in r["audit_point"].items()) if r.get("audit_point") else ""),
            "target": target, "claim": claim_text,
            "measured": measured if r.get("verdict") != "error" else "–",
            "verdict": r.get("verdict") or "–", "class": r.get("class") or RUN_ERROR, "expected": r.get("expected"),
            "outcome": r.get("outcome", ERROR),
            "error": r.get("error") or (r.get("reason") if r.get("verdict") in ("error", IMPLEMENTATION_ERROR) else None),
            "seconds": r.get("seconds"),
        })
    for r in document.get("theorems", []):
        kind = r.get("kind")
        if kind == "bound":
            claim_text = f"P[failure] ≤ {fmt_num(r.get('beta'))}"
            measured = (f"{fmt_num(r.get('failures'))}/{fmt_num(r.get('trials'))} failures, CP95 upper "
                        f"{fmt_num(r.get('failure_rate_upper'))}, p = {fmt_num(r.get('p_value'))}")
            if r.get("slack") is not None:
                measured += f", slack {fmt_num(r.get('slack'))}"
        elif kind == "calibration":
            cells = r.get("cells") or []
            claim_text = f"P[event] = exact ({len(cells)} cell{'s' if len(cells) != 1 else ''})"
            impossible = (f"{fmt_num(r['impossible_runs'])} in outcomes the spec never produces, "
                          if r.get("impossible_runs") else "")
            measured = (f"{fmt_num(r.get('trials'))} runs, {impossible}max rel. deviation "
                        f"{pct(r.get('max_relative_deviation'))}, p = {fmt_num(r.get('p_value'))}")
        elif kind == "test":
            inst = r.get("instance") if isinstance(r.get("instance"), dict) else {}
            two_sided = "shift" in inst
            claim_text = ("H0: the reference's rate" if two_sided else "H0: as good as the reference") \
                if r.get("tests") == "conformance" else "H0: the statement holds"
            measured = f"{fmt_num(r.get('trials'))} runs, p = {fmt_num(r.get('p_value'))}"
            if "implementation_rate" in inst and "reference_rate" in inst:
                measured += (f", rate {fmt_num(inst['implementation_rate'])} against the reference's "
                             f"{fmt_num(inst['reference_rate'])}")
        else:
            claim_text = "holds on every run"
            measured = f"{fmt_num(r.get('failures'))} of {fmt_num(r.get('trials'))} runs break it"
        if r.get("replicate"):  # (experiments.run_check: p above is max(p1, p2^2))
            measured += (f" (first sample p = {fmt_num(r.get('p_value_first'))}, an independent second sample p = "
                         f"{fmt_num(r['replicate'].get('p_value'))})")
        if r.get("verdict") == "error":
            measured = "–"
        target = r.get("target", "reference")
        if r.get("control"):
            who = "mutant" if target == "mutant" else ("pipeline control" if r["control"].get("pipeline") else "control")
            target = f"{who}: {r['control']['name']}"
        if r.get("setup_validation"):
            label = "setup validation"
        elif r.get("calls_implementation") is False:
            label = f"{kind}, never calls the implementation"
        elif r.get("convention") and r.get("target") == "user":
            label = f"the reference's convention (another is valid): {kind}"
        elif r.get("tests") == "conformance":
            label = f"conformance: {kind}"
        else:
            label = kind
        if r.get("params"):
            claim_text += f" at {point_text(r['params'])}"
        rows.append({
            "id": r["id"], "spec": r["spec"], "kind": kind,
            "item": f"{r['ref']} · {r['check']} ({label})", "target": target, "claim": claim_text,
            "measured": measured, "verdict": r.get("verdict") or "–", "class": r.get("class") or RUN_ERROR,
            "expected": r.get("expected"),
            "outcome": r.get("outcome", "error"), "error": r.get("error"), "seconds": r.get("seconds"),
        })
    spec_order = {s["id"]: k for k, s in enumerate(document.get("specs", []))}
    rows.sort(key=lambda row: (spec_order.get(row["spec"], 1e9), row["kind"] != "privacy"))
    return rows




def exit_code(document: dict, report_errors: list[dict] | None = None) -> int:
    """The run's exit code (:mod:`..base.verdict`); a report that could not be written is a run error."""
    code = (document.get("summary") or {}).get("exit_code", RUN_ERROR_EXIT)
    return RUN_ERROR_EXIT if report_errors else code


def reproducibility_text(run: dict) -> str | None:
    """Why a run's results are not a function of its seed (own randomness, a time budget), or None."""
    why = []
    if run.get("randomness") == "own":
        why.append("the implementation drew its own randomness (--randomness own: no determinism probe and no replay "
                   "check; samples drawn in workers with independent random states, the same statistics and confidence)")
    if run.get("time_budget") is not None:
        why.append(f"each privacy audit had a time budget of {fmt_num(run['time_budget'])} s (its sample size depends "
                   "on the machine's speed)")
    if not why:
        return None
    return "Not reproducible: " + "; ".join(why) + ". Another run with the same seed draws other samples."


def classes_text(summary: dict) -> str:
    """The summary's class counts, saying which items they cover (they leave out the theorem checks'
    negative controls), so that the counts add up: ``4 besides 2 controls of the checks: 1 pass, 2 claim
    violated, 1 differs from the spec``."""
    counts = {c: n for c, n in (summary.get("classes") or {}).items() if n}
    shown = ", ".join(f"{n} {c}" for c, n in counts.items()) or "none"
    others = summary.get("items", 0) - sum(counts.values())
    return f"{sum(counts.values())} besides {others} controls of the checks: {shown}" if others else shown


def power_remedy(result: dict) -> str:
    """A no-power audit's remedy: what would reach power (a measured estimate: samples a side, and their time at
    the audit's pace), with the flags that give it."""
    needed = (result.get("power") or {}).get("samples_for_power")
    if not needed:
        return "no power, a violation below it is invisible at this sample size"
    seconds = (result.get("timing") or {}).get("seconds_for_power")
    took = (f" (about {seconds / 60:.0f} min at this audit's pace)" if seconds and seconds >= 90 else
            f" (about {seconds:.0f} s at this audit's pace)" if seconds else "")
    # a budget for the audit again (its search and first round, result["seconds"]) and that round, a fifth in reserve
    budget = max(60, int(1.25 * ((result.get("seconds") or 0) + (seconds or 0))))
    return (f"no power; about {needed:,} samples per side would reach it{took}: give --samples {needed} or "
            f"--time-budget {budget}")


def report_title(document: dict, quote=str) -> str:
    """A report's title, naming what ran: ``dptestbed check of laplace_mechanism: mine.py:laplace``; the
    spec ids and the implementation's name through ``quote`` (report.md makes them inert)."""
    run = document.get("run") or {}
    ran = list(dict.fromkeys(r["spec"] for r in document.get("privacy", []) + document.get("theorems", [])))
    specs = ", ".join(quote(s) for s in ran[:3]) + (f" and {len(ran) - 3} more specs" if len(ran) > 3 else "")
    return {"check": f"dptestbed check of {specs}: {quote(run.get('implementation'))}",
            "mutants": f"dptestbed mutants of {specs}: how good are the checks?"}.get(
        str(run.get("command")), f"dptestbed verification report: {specs}")


def status_text(document: dict, code: int) -> str:
    """The one-line status of a run with exit code ``code``: by class for ``check``, against the
    expectations for ``verify``, by kills for ``mutants``."""
    command = (document.get("run") or {}).get("command")
    if command == "mutants":
        return MUTANT_STATUS.get(code, str(code))
    if command == "check":
        allowed = {c: n for c, n in ((document.get("summary") or {}).get("allowed") or {}).items() if n}
        if code == 0 and allowed:  # a pass only because of --allow: say what was allowed, not "with power"
            return ("PASS WITH --allow: " + "; ".join(f"{n} item{'s' if n != 1 else ''} '{c}' counted as "
                                                       f"pass{'es' if n != 1 else ''}" for c, n in allowed.items())
                    + "; nothing else found")
        return EXIT_TEXT.get(code, str(code))
    return EXPECTATION_TEXT.get(code, str(code))
