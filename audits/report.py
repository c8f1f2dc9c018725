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

from __future__ import annotations

import base64
import html
import io
import json
import math
import re
import threading
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

MUTANT_STATUS = {0: "PASS: every non-equivalent mutant killed", 1: "FAIL: a mutant survived every check",
                 2: "ERROR: some mutants could not be checked"}
FLOOR = 1e-7  # where a zero rate is drawn on a log axis (labelled in the plot)
PANELS_PER_ROW = 3  # a theorem's checks wrap onto rows, so a plot reads at page width
STATUS_TEXT = {0: "PASS: every outcome as expected", 1: "FAIL: unexpected outcome(s)", 2: "ERROR: some items could not run"}
COLORS = {"reference": "#1f77b4", "user": "#1f77b4", "control": "#d62728", "bound": "#333333", "exact": "#2ca02c"}


# =========================================================================== helpers


def _num(x, digits: int = 3) -> str:
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


def _float(x):
    if x is None:
        return None
    if isinstance(x, str):
        return {"inf": math.inf, "-inf": -math.inf}.get(x)
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def _slug(text: str) -> str:
    """An HTML id for ``text``: readable, at most ~90 characters, unique (a long text keeps a hash
    of the whole, so two ids that share their first 80 characters never collide)."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return slug if len(slug) <= 80 else f"{slug[:80]}-{zlib.crc32(text.encode('utf-8')):08x}"


def _esc(text) -> str:
    return html.escape("" if text is None else str(text))


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.3g}%"


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

    num, den = ("D", "D'") if c.get("numerator") == "data" else ("D'", "D")
    claim = c.get("claim") or {}
    conf = f"{100 * result.get('confidence', 0.95):.6g}%"
    lines = [f"On the neighbouring pair {c['pair'].get('name')}: D = {short(c['pair'].get('data'))}, "
             f"D' = {short(c['pair'].get('neighbour'))},",
             f"the event E = {c.get('event')} has probability >= {g(c.get('p_lo'))} on {num} and <= {g(c.get('p_hi'))} "
             f"on {den} (at {conf} confidence; observed {c.get('count_data')} and {c.get('count_neighbour')} of "
             f"{c.get('n_per_side')} runs on D and D'),",
             f"so epsilon >= ln((p_{num} - delta) / p_{den}) = {g(c.get('epsilon_lower_bound'))} at delta = "
             f"{g(claim.get('delta'))}"]
    if result.get("verdict") == "differs from the spec":
        lines.append(f"which is more than the spec's own mechanism leaks on that pair (exact epsilon "
                     f"{g(c.get('exact_epsilon'))}): the implementation differs from the spec.")
    else:
        lines.append(f"> the claimed epsilon {g(claim.get('epsilon'))}.")
    return "\n".join(lines)


# =========================================================================== rows


def item_rows(document: dict) -> list[dict]:
    """One row per item (privacy audit or theorem check), for every table format."""
    rows = []
    for r in document.get("privacy", []):
        claim = r.get("claim") or {}
        eps_lb = r.get("epsilon_lower_bound")
        measured = f"ε_lb = {_num(_float(eps_lb))}"
        if r.get("tightness") is not None:
            measured += f" ({_pct(_float(r.get('tightness')))} of the claim)"
        if r.get("exact_epsilon") is not None:
            whose = "the reference's " if r.get("target") not in (None, "reference") else ""
            measured += f"; {whose}exact ε on that pair = {_num(_float(r.get('exact_epsilon')))}"
        if r.get("minimum_detectable_epsilon") is not None:
            measured += f"; smallest detectable ε = {_num(_float(r.get('minimum_detectable_epsilon')))}"
        if r.get("samples_per_side"):
            measured += f"; {_num(r['samples_per_side'])} samples/side"
        if r.get("erratum_confirmed"):
            measured += f"; erratum {r['erratum_confirmed']} confirmed (printed variant)"
        target = r.get("target", "reference")
        if target == "mutant" and r.get("control"):
            target = f"mutant: {r['control']['name']}"
        elif r.get("expected") in ("violation", "violated"):
            target = "control (expected: violation)"
        rows.append({
            "id": r["id"], "spec": r["spec"], "kind": "privacy",
            "item": "privacy audit" + (f" ({r['target']})" if r.get("target") == "user" else "")
                    + (" at " + ", ".join(f"{k}={v}" for k, v in r["audit_point"].items()) if r.get("audit_point") else ""),
            "target": target,
            "claim": f"ε = {_num(_float(claim.get('epsilon')))}, δ = {_num(_float(claim.get('delta')))}" if claim else "–",
            "measured": measured if r.get("verdict") != "error" else "–",
            "verdict": r.get("verdict") or "–", "expected": r.get("expected"), "outcome": r.get("outcome", "error"),
            "error": r.get("error") or (r.get("reason") if r.get("verdict") in ("error", "implementation error") else None),
            "seconds": r.get("seconds"),
        })
    for r in document.get("theorems", []):
        kind = r.get("kind")
        if kind == "bound":
            claim = f"P[failure] ≤ {_num(r.get('beta'))}"
            measured = (f"{_num(r.get('failures'))}/{_num(r.get('trials'))} failures, CP95 upper "
                        f"{_num(r.get('failure_rate_upper'))}, p = {_num(r.get('p_value'))}")
            if r.get("slack") is not None:
                measured += f", slack {_num(r.get('slack'))}"
        elif kind == "calibration":
            cells = r.get("cells") or []
            claim = f"P[event] = exact ({len(cells)} cell{'s' if len(cells) != 1 else ''})"
            measured = (f"{_num(r.get('trials'))} runs, max rel. deviation {_pct(r.get('max_relative_deviation'))}, "
                        f"p = {_num(r.get('p_value'))}")
        else:
            claim = "holds on every run"
            measured = f"{_num(r.get('failures'))} of {_num(r.get('trials'))} runs break it"
        if r.get("verdict") == "error":
            measured = "–"
        target = r.get("target", "reference")
        if r.get("control"):
            who = "mutant" if target == "mutant" else ("pipeline control" if r["control"].get("pipeline") else "control")
            target = f"{who}: {r['control']['name']}"
        label = "setup validation" if r.get("setup_validation") else kind
        rows.append({
            "id": r["id"], "spec": r["spec"], "kind": kind,
            "item": f"{r['ref']} · {r['check']} ({label})", "target": target, "claim": claim,
            "measured": measured, "verdict": r.get("verdict") or "–", "expected": r.get("expected"),
            "outcome": r.get("outcome", "error"), "error": r.get("error"), "seconds": r.get("seconds"),
        })
    spec_order = {s["id"]: k for k, s in enumerate(document.get("specs", []))}
    rows.sort(key=lambda row: (spec_order.get(row["spec"], 1e9), row["kind"] != "privacy"))
    return rows


# =========================================================================== plots


def _pyplot():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _log_scale(ax, which: str, base: int = 10) -> None:
    """A log scale on axis ``which`` ("x" or "y") of ``ax`` with plain-text tick labels (10⁻², 2×10⁻¹):
    matplotlib's own are mathtext, whose parser took a third of a report's rendering time."""
    from matplotlib.ticker import LogFormatterSciNotation

    class Plain(LogFormatterSciNotation):
        def __call__(self, x, pos=None):
            label = super().__call__(x, pos)
            math = re.fullmatch(r"\$\\mathdefault\{(.*)\}\$", label)
            if math is None:
                return label
            body = math.group(1).replace("\\times", "×")
            return re.sub(r"\^\{(-?\d+)\}", lambda m: m.group(1).translate(_SUPERSCRIPT), body)

    getattr(ax, f"set_{which}scale")("log", base=base)
    axis = getattr(ax, f"{which}axis")
    axis.set_major_formatter(Plain(base))
    axis.set_minor_formatter(Plain(base, labelOnlyBase=False))


def _save(fig, path: Path) -> None:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    _pyplot().close(fig)
    write_file(path, buf.getvalue())


def write_file(path: Path, content: str | bytes) -> None:
    """Write ``path`` through a fresh temporary file in its folder and ``os.replace``: a symlink
    planted at ``path`` is replaced, never followed, and a reader never sees half a file."""
    from .outfiles import write

    write(path, content.encode("utf-8") if isinstance(content, str) else content)


def plot_privacy(family: str, audits: list[dict], path: Path) -> None:
    """epsilon lower bound (bar), exact epsilon (diamond) and claim (tick), one row per spec."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.75 * len(audits)))
    labels = []
    xmax = 0.0
    for y, a in enumerate(audits):
        claim = _float((a.get("claim") or {}).get("epsilon"))
        lb = _float(a.get("epsilon_lower_bound"))
        ex = _float(a.get("exact_epsilon"))
        color = COLORS["control"] if a.get("expected") in ("violation", "violated") else COLORS["reference"]
        if lb is not None and math.isfinite(lb):
            ax.barh(y, max(lb, 0.0), color=color, alpha=0.55, height=0.5,
                    label="ε lower bound" if y == 0 else None)
            xmax = max(xmax, lb)
        if ex is not None and math.isfinite(ex):
            ax.plot([ex], [y], marker="D", color=COLORS["exact"], linestyle="none",
                    label="exact ε" if not any(t.get_label() == "exact ε" for t in ax.lines) else None)
            xmax = max(xmax, ex)
        if claim is not None:
            ax.plot([claim, claim], [y - 0.35, y + 0.35], color=COLORS["bound"], linewidth=2.5,
                    label="claimed ε" if not any(t.get_label() == "claimed ε" for t in ax.lines) else None)
            xmax = max(xmax, claim)
        verdict = a.get("verdict", "")
        tag = ", control" if a.get("expected") == "violation" else ""
        point = ", ".join(f"{k}={v}" for k, v in (a.get("audit_point") or {}).items())
        labels.append(f"{a['spec']}" + (f" at {point}" if point else "") + f"\n[{verdict}{tag}]")
    ax.set_yticks(range(len(audits)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, xmax * 1.15 if xmax > 0 else 1)
    ax.set_xlabel("ε")
    ax.set_title(f"Privacy audits: {family}", fontsize=10)
    fig.legend(*ax.get_legend_handles_labels(), fontsize=7, loc="lower center", ncol=3, frameon=False)
    fig.tight_layout(rect=(0, 0.08 if len(audits) > 2 else 0.14, 1, 1))
    ax.grid(axis="x", alpha=0.3)
    _save(fig, path)


def plot_theorem(spec: str, ref: str, checks: list[dict], path: Path) -> None:
    """Failure rates with 95% Clopper-Pearson bars against beta (bound checks) and measured
    event rates against the exact probabilities (calibration cells), reference and controls."""
    plt = _pyplot()
    groups: dict[str, list[dict]] = {}
    for c in checks:
        if c.get("kind") in ("bound", "calibration") and c.get("verdict") != "error":
            groups.setdefault(c["check"], []).append(c)
    if not groups:
        raise ValueError("no statistical check of this theorem produced data")
    ncols = min(PANELS_PER_ROW, len(groups))
    nrows = -(-len(groups) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols + 0.6, 3.6 * nrows), squeeze=False)
    for ax in axes.flat[len(groups):]:
        ax.set_visible(False)
    for ax, (name, group) in zip(axes.flat, groups.items()):
        kind = group[0]["kind"]
        if kind == "bound":
            beta = group[0].get("beta")
            for x, c in enumerate(group):
                rate = c.get("failure_rate") or 0.0
                lo, hi = (c.get("interval") or [c.get("failure_rate_lower") or 0.0, c.get("failure_rate_upper") or 0.0])
                color = COLORS["control"] if c.get("control") else COLORS["reference"]
                ax.errorbar([x], [max(rate, FLOOR)], yerr=[[max(rate, FLOOR) - max(lo, FLOOR)], [max(hi - rate, 0)]],
                            fmt="o", color=color, capsize=5)
            if beta:
                ax.axhline(beta, color=COLORS["bound"], linestyle="--", label=f"β = {_num(beta)}")
            _mark_floor(ax, [c.get("failure_rate") or 0.0 for c in group])
            _log_scale(ax, "y")
            values = [max(v, FLOOR) for c in group for v in (c.get("failure_rate_lower") or 0.0,
                                                              c.get("failure_rate_upper") or 0.0,
                                                              (c.get("interval") or [0, 0])[1])]
            values += [beta] if beta else []
            ax.set_ylim(min(values) / 2.5, min(1.0, max(values) * 2.5))
            ax.set_ylabel("failure rate (95% CP)")
            ax.set_xticks(range(len(group)))
            ax.set_xticklabels([_short_target(c) for c in group], fontsize=7, rotation=15)
            ax.set_xlim(-0.6, len(group) - 0.4)
            ax.legend(fontsize=7)
        else:
            cells = group[0].get("cells") or []
            width = 0.8 / len(group)
            for j, c in enumerate(group):
                color = COLORS["control"] if c.get("control") else COLORS["reference"]
                for x, cell in enumerate(c.get("cells") or []):
                    xx = x - 0.4 + width * (j + 0.5)
                    ax.errorbar([xx], [cell["rate"]], yerr=[[cell["rate"] - cell["lower"]], [cell["upper"] - cell["rate"]]],
                                fmt="o", color=color, capsize=3, label=_short_target(c) if x == 0 else None)
            for x, cell in enumerate(cells):
                ax.plot([x - 0.42, x + 0.42], [cell["exact"]] * 2, color=COLORS["exact"], linewidth=2,
                        label="exact" if x == 0 else None)
                for alt in cell.get("alternatives") or []:
                    ax.plot([x - 0.3, x + 0.3], [alt] * 2, color="#999999", linewidth=1, linestyle=":",
                            label="noise ±30%" if x == 0 and alt == cell["alternatives"][0] else None)
            ax.set_xticks(range(len(cells)))
            ax.set_xticklabels([cell["label"] for cell in cells], fontsize=7)
            ax.set_ylabel("event rate (95% CP)")
            ax.legend(fontsize=6)
        ax.set_title(f"{name} ({kind})", fontsize=9)
        ax.grid(alpha=0.3)
    fig.suptitle(f"{spec}: {ref}", fontsize=10)
    fig.tight_layout()
    _save(fig, path)


def _mark_floor(ax, rates) -> None:
    """Zero rates cannot sit on a log axis: they are drawn at FLOOR, and the floor is labelled."""
    if any(r <= 0 for r in rates):
        ax.axhline(FLOOR, color="#bbbbbb", linewidth=0.8, linestyle=":", label=f"0 observed (drawn at {FLOOR:g})")


def _short_target(c: dict) -> str:
    if c.get("control"):
        return "control:\n" + c["control"]["name"].replace("_", " ")
    return c.get("target", "reference")


def plot_sweep(checks: list[dict], path: Path) -> None:
    """A sweep (error quantile or failure rate against a size) beside the theorem's bound;
    the reference first, controls overlaid."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    first = checks[0]["sweep"]
    for c in checks:
        s = c["sweep"]
        color = COLORS["control"] if c.get("control") else COLORS["reference"]
        label = (s.get("measured_label", "measured") if not c.get("control")
                 else f"control: {c['control']['name']}")
        x = s["x"]
        y = [max(v, FLOOR) if s.get("log_y") else v for v in s["measured"]]
        ax.plot(x, y, marker="o", color=color, label=label)
        if s.get("lower") is not None and s.get("upper") is not None:
            lo = [max(v, FLOOR) if s.get("log_y") else v for v in s["lower"]]
            hi = [max(v, FLOOR) if s.get("log_y") else v for v in s["upper"]]
            ax.fill_between(x, lo, hi, color=color, alpha=0.15)
    ref_sweep = next((c for c in checks if not c.get("control")), checks[0])["sweep"]
    for series, marker in zip(ref_sweep.get("series", []), "sv^D"):  # further measured curves
        ax.plot(ref_sweep["x"], series["y"], marker=marker, linestyle=":", color=COLORS["reference"],
                label=series["label"])
    bound = [max(v, FLOOR) if first.get("log_y") else v for v in first["bound"]]
    ax.plot(first["x"], bound, color=COLORS["bound"], linestyle="--", label=first.get("bound_label", "theorem"))
    if first.get("target") is not None:
        ax.axhline(first["target"], color="#888888", linestyle=":", label=first.get("target_label", "target"))
    ref = ref_sweep
    if ref.get("theorem") is not None:
        ax.axvline(ref["theorem"], color=COLORS["bound"], linewidth=1, label=ref.get("theorem_label", "theorem"))
    if ref.get("empirical") is not None:
        ax.axvline(ref["empirical"], color=COLORS["reference"], linewidth=1, linestyle="-.",
                   label=ref.get("empirical_label", "empirical"))
    if first.get("log_y"):
        _mark_floor(ax, [v for c in checks for v in c["sweep"]["measured"]])
        _log_scale(ax, "y")
        positive = [v for c in checks for v in c["sweep"]["measured"] if v > 0]
        positive += [v for v in bound + [first.get("target") or 1] if v > FLOOR]
        zero = any(v <= 0 for c in checks for v in c["sweep"]["measured"])
        ax.set_ylim(bottom=FLOOR / 3 if zero else max(1e-5, min(positive) / 3), top=1.5)
    if first.get("log_x"):
        _log_scale(ax, "x", base=2)
    ax.set_xlabel(first.get("x_label", "x"))
    ax.set_ylabel(first.get("y_label", "y"))
    ax.set_title(first.get("title", ""), fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    _save(fig, path)


# =========================================================================== formulas


class Formulas:
    """LaTeX -> small PNG data URIs via matplotlib mathtext (cached); None when mathtext
    cannot draw a formula (the report then shows its LaTeX source)."""

    def __init__(self):
        self.cache: dict[str, str | None] = {}

    def uri(self, latex: str) -> str | None:
        if latex in self.cache:
            return self.cache[latex]
        uri = None
        try:
            _pyplot()
            import numpy as np
            from matplotlib.font_manager import FontProperties
            from matplotlib.image import imsave
            from matplotlib.mathtext import MathTextParser

            text = latex.replace(r"\left\{", r"\{").replace(r"\right\}", r"\}")
            text = re.sub(r"\\mathrm\{([^{}]*)\}", lambda m: r"\mathrm{" + m.group(1).replace("_", r"\_") + "}", text)
            # one parse straight to pixels (math_to_image parses three times and lays out a figure)
            ink = np.asarray(MathTextParser("agg").parse(f"${text}$", dpi=120, prop=FontProperties(size=11)).image)
            rgba = np.zeros((*ink.shape, 4), dtype=np.uint8)
            rgba[..., 3] = ink  # black, the glyphs' coverage as opacity
            buf = io.BytesIO()
            imsave(buf, rgba, format="png")
            uri = "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")
        except Exception:  # noqa: BLE001 - fall back to the LaTeX source
            uri = None
        self.cache[latex] = uri
        return uri

    def html(self, latex: str | None, source: str | None = None) -> str:
        if not latex:
            return _esc(source or "")
        uri = self.uri(latex)
        title = _esc(source or latex)
        if uri:
            return f'<img class="math" src="{uri}" alt="{_esc(latex)}" title="{title}">'
        return f'<code title="{title}">{_esc(latex)}</code>'


# =========================================================================== render


_PLOTS: list[tuple] = []  # (fn, args, path) of the render in progress: its forked pool inherits them


def _plot(k: int) -> str | None:
    """Draw plot ``k`` of ``_PLOTS``; the error text when it fails (a failed plot is an error item,
    not a crash)."""
    fn, args, path = _PLOTS[k]
    try:
        fn(*args, path)
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {exc}"
    return None


def render(document: dict, out_dir, *, plots: bool = True, jobs: int = 1) -> list[dict]:
    """Write index.html, report.md, junit.xml and plots/*.png (drawn by ``jobs`` forked processes);
    returns report errors (``{"item", "error"}``, e.g. a plot that failed)."""
    from . import sanitize

    document = sanitize.tree(document)  # any results.json can be rendered: its text is not ours
    out_dir = Path(out_dir)
    plot_dir = out_dir / "plots"
    for folder in (out_dir, plot_dir):
        if folder.is_symlink():
            raise ValueError(f"{folder} is a symlink: reports are never written through one")
    plot_dir.mkdir(parents=True, exist_ok=True)
    errors: list[dict] = []
    figures: dict[str, list[tuple[str, Path]]] = {}  # spec id -> [(caption, path)]

    tasks: list[tuple] = []

    def attempt(key: str, spec_id: str, caption: str, path: Path, fn, *args):
        tasks.append((key, spec_id, caption, path, fn, args))

    if plots:
        specs = {s["id"]: s for s in document.get("specs", [])}
        families: dict[str, list[dict]] = {}
        for a in document.get("privacy", []):
            if a.get("verdict") == "error":
                continue
            base = (specs.get(a["spec"]) or {}).get("variant_of") or a["spec"]
            families.setdefault(base, []).append(a)
        for base, audits in families.items():
            attempt(f"privacy {base}", base, f"Privacy audits of {base} and its variants: ε lower bound "
                    "(bar), exact ε (diamond) and the claim (black tick)", plot_dir / f"privacy-{_slug(base)}.png",
                    plot_privacy, base, audits)
        by_theorem: dict[tuple[str, str], list[dict]] = {}
        for c in document.get("theorems", []):
            by_theorem.setdefault((c["spec"], c["ref"]), []).append(c)
        for (spec_id, ref), checks in by_theorem.items():
            if any(c.get("kind") in ("bound", "calibration") and c.get("verdict") != "error" for c in checks):
                attempt(f"theorem {spec_id} {ref}", spec_id,
                        f"{ref}: failure / event rates with 95% Clopper-Pearson bars; reference in blue, "
                        "negative controls in red", plot_dir / f"theorem-{_slug(spec_id)}-{_slug(ref)}.png",
                        plot_theorem, spec_id, ref, checks)
            sweeps: dict[str, list[dict]] = {}
            for c in checks:
                if c.get("sweep") and c.get("verdict") != "error":
                    sweeps.setdefault(c["check"], []).append(c)
            for name, group in sweeps.items():
                group.sort(key=lambda c: bool(c.get("control")))
                attempt(f"sweep {spec_id} {ref} {name}", spec_id,
                        f"{ref} ({name}): sweep against the theorem's bound",
                        plot_dir / f"sweep-{_slug(spec_id)}-{_slug(ref)}-{_slug(name)}.png", plot_sweep, group)
    _PLOTS[:] = [(fn, args, path) for _, _, _, path, fn, args in tasks]
    try:
        if jobs > 1 and len(tasks) > 1 and threading.active_count() == 1:  # never fork a process with threads
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("fork")) as pool:
                outcomes = list(pool.map(_plot, range(len(tasks))))
        else:
            outcomes = [_plot(k) for k in range(len(tasks))]
    finally:
        _PLOTS.clear()
    for (key, spec_id, caption, path, _, _), error in zip(tasks, outcomes):
        if error is None:
            figures.setdefault(spec_id, []).append((caption, path))
        else:
            errors.append({"item": f"plot {key}", "spec": spec_id, "error": error})

    errors = sanitize.tree(errors)
    write_file(out_dir / "index.html", render_html(document, figures, errors, out_dir))
    write_file(out_dir / "report.md", render_markdown(document, figures, errors, out_dir))
    write_junit(document, out_dir / "junit.xml", errors)
    return errors


def exit_code(document: dict, report_errors: list[dict] | None = None) -> int:
    """The run's exit code (0 / 1 / 2, see ``theorems.exit_code``); a report error counts as an error."""
    code = (document.get("summary") or {}).get("exit_code", 2)
    return 2 if report_errors else code


# --------------------------------------------------------------------------- html

CSS = """
body{font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px auto;max-width:1180px;color:#222;line-height:1.4;padding:0 12px}
h1{font-size:1.6em;margin-bottom:4px} h2{border-bottom:2px solid #ddd;padding-bottom:3px;margin-top:34px} h3{margin-bottom:6px}
table{border-collapse:collapse;margin:8px 0;font-size:13px;width:100%} th,td{border:1px solid #ddd;padding:4px 7px;text-align:left;vertical-align:top}
tr.paper th{background:#e8eef6;font-size:14px}
th{background:#f4f4f4} tr.unexpected td{background:#fde8e8} tr.error td{background:#fff4d6}
.badge{display:inline-block;padding:1px 7px;border-radius:9px;font-size:12px;font-weight:600;white-space:nowrap}
.consistent,.no-violation-found{background:#dff3e0;color:#17632a} .violated,.violation{background:#fbd9d9;color:#9b1c1c}
.inconclusive{background:#eee;color:#555} .error,.implementation-error{background:#ffe9b3;color:#7a5200}
.ok{color:#17632a;font-weight:600} .bad{color:#b00020;font-weight:700}
.status{font-size:1.15em;padding:10px 14px;border-radius:6px;margin:10px 0} .status.s0{background:#dff3e0} .status.s1{background:#fbd9d9} .status.s2{background:#ffe9b3}
img.plot{max-width:100%;border:1px solid #eee;margin:6px 0} img.math{vertical-align:middle}
.meta{color:#666;font-size:12px} code{background:#f6f6f6;padding:0 3px;font-size:12px} pre{background:#f6f6f6;padding:8px;overflow-x:auto;font-size:12px}
figure{margin:10px 0} figcaption{font-size:12px;color:#555}
"""


def _badge(verdict: str | None) -> str:
    v = verdict or "–"
    return f'<span class="badge {_slug(v)}">{_esc(v)}</span>'


def _outcome_html(outcome: str) -> str:
    if outcome == "as expected":
        return '<span class="ok">as expected</span>'
    if outcome == "unexpected":
        return '<span class="bad">UNEXPECTED</span>'
    return '<span class="bad">error</span>'


def _img(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img class="plot" src="data:image/png;base64,{data}" alt="{_esc(path.name)}">'


def render_html(document: dict, figures: dict, errors: list[dict], out_dir: Path) -> str:
    run = document.get("run", {})
    summary = document.get("summary", {})
    family = document.get("family", {})
    code = exit_code(document, errors)
    formulas = Formulas()
    rows = item_rows(document)
    h = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
         f"<title>dptestbed {_esc(run.get('command', 'verify'))} report</title><style>{CSS}</style></head><body>"]
    title = {"check": f"dptestbed check of {_esc(run.get('implementation'))}",
             "mutants": "dptestbed mutants: how good are the checks?"}.get(run.get("command"), "dptestbed verification report")
    h.append(f"<h1>{title}</h1>")
    h.append(f'<div class="meta">suite <b>{_esc(run.get("suite"))}</b> · seed {_esc(run.get("seed"))} · '
             f'commit {_esc(run.get("commit") or "unknown")} · {_num(run.get("seconds"))} s · jobs {_esc(run.get("jobs"))} · '
             f'started {_esc(run.get("started"))} · versions '
             + ", ".join(f"{_esc(k)} {_esc(v)}" for k, v in (run.get("versions") or {}).items()) + "</div>")
    if not run.get("complete", True):
        h.append(f'<div class="status s2">INCOMPLETE RUN: {_esc(run.get("items_done"))} of {_esc(run.get("items_planned"))} items '
                 "finished; the rest are missing from this report.</div>")
    if document.get("mutants"):  # a mutants run: each check is a trial of a mutant, the banner is the kill rate
        o = document["mutants"].get("overall") or {}
        counted = o.get("mutants", 0) - o.get("equivalent", 0)
        h.append(f'<div class="status s{code}"><b>{_esc(MUTANT_STATUS.get(code, code))}</b> (exit code {code}) · '
                 f'{_esc(o.get("killed", 0))} of {_esc(counted)} non-equivalent mutants killed, '
                 f'{_esc(summary.get("items", 0))} check runs</div>')
    else:
        h.append(f'<div class="status s{code}"><b>{_esc(STATUS_TEXT.get(code, code))}</b> (exit code {code}) · '
                 f'{summary.get("items", 0)} items: {summary.get("as_expected", 0)} as expected, '
                 f'{summary.get("unexpected", 0)} unexpected, {summary.get("errors", 0)} errors'
                 + (f", {len(errors)} report errors" if errors else "") +
                 f' · controls flagged: {summary.get("controls_flagged", 0)} of {summary.get("controls", 0)}'
                 + _inconclusive_html(summary) + '</div>')
    if document.get("mutants"):
        h.extend(_kill_matrix_html(document["mutants"], family))
        h.append("<details><summary>every item of the run</summary>")
    else:
        h.append(f"<p>{_esc(family.get('statement', ''))}.</p>")

    h.append("<h2>Summary</h2><table><tr><th>spec</th><th>item</th><th>implementation</th><th>claim</th>"
             "<th>measurement</th><th>verdict</th><th>expected</th><th>outcome</th></tr>")
    paper_of = {s["id"]: s.get("paper") or "" for s in document.get("specs", [])}
    paper = None
    for row in rows:
        if paper_of.get(row["spec"], "") != paper:
            paper = paper_of.get(row["spec"], "")
            h.append(f'<tr class="paper"><th colspan="8">{_esc(paper or "specs outside the catalogue")}</th></tr>')
        cls = {"unexpected": "unexpected", "error": "error"}.get(row["outcome"], "")
        err = f'<div class="meta">{_esc(row["error"])}</div>' if row.get("error") else ""
        h.append(f'<tr class="{cls}"><td><a href="#{_slug(row["spec"])}">{_esc(row["spec"])}</a></td>'
                 f'<td><a href="#{_slug(row["id"])}">{_esc(row["item"])}</a></td><td>{_esc(row["target"])}</td>'
                 f'<td>{_esc(row["claim"])}</td><td>{_esc(row["measured"])}{err}</td><td>{_badge(row["verdict"])}</td>'
                 f'<td>{_esc(row["expected"] or "–")}</td><td>{_outcome_html(row["outcome"])}</td></tr>')
    h.append("</table>")
    if document.get("mutants"):
        h.append("</details></body></html>")
        return "\n".join(h)
    if errors:
        h.append("<h3>Report errors</h3><ul>" + "".join(
            f"<li>{_esc(e['item'])}: {_esc(e['error'])}</li>" for e in errors) + "</ul>")

    # self-test
    controls = [r for r in rows if r["expected"] in ("violation", "violated")]
    flagged = sum(1 for r in controls if r["outcome"] == "as expected")
    pipeline = [r for r in controls if r["target"].startswith("pipeline control")]
    h.append(f"<h2>Self-test: negative controls</h2><p><b>controls flagged: {flagged} of {len(controls)}</b>"
             + (f" ({len(pipeline)} of them pipeline controls, {sum(r['outcome'] == 'as expected' for r in pipeline)} "
                "flagged: the reference mechanism with the testbed's own plumbing broken; they show a check's power "
                "but are no implementation bug, see <code>dptestbed mutants</code> for those)" if pipeline else "") + ". "
             "Every check ships a deliberately broken implementation that it must report as violated "
             "(theorem checks) and every privacy audit has the broken specs of the calibration corpus "
             "(expected: violation). A control that is not flagged means the check lacks power: the run fails.</p>")
    if controls:
        h.append("<table><tr><th>spec</th><th>check</th><th>control</th><th>measurement</th><th>verdict</th><th>flagged</th></tr>")
        for r in controls:
            ok = r["outcome"] == "as expected"
            h.append(f'<tr class="{"" if ok else "unexpected"}"><td>{_esc(r["spec"])}</td><td>{_esc(r["item"])}</td>'
                     f'<td>{_esc(r["target"])}</td><td>{_esc(r["measured"])}</td><td>{_badge(r["verdict"])}</td>'
                     f'<td>{"yes" if ok else "<b>NO</b>"}</td></tr>')
        h.append("</table>")

    h.append("<h2>Statistics</h2><ul>"
             f"<li>{_esc(family.get('statement', ''))}.</li>"
             "<li><b>bound</b> checks: one-sided exact binomial test of H0: P[failure] ≤ β (scipy binomtest); "
             "Clopper-Pearson intervals (statsmodels, method beta); <b>violated</b> iff the Holm-corrected test "
             "rejects; <b>inconclusive</b> when not rejected but the test's power at the per-check level against "
             "a failure rate of 2β is below 50%; otherwise <b>consistent</b>.</li>"
             "<li><b>calibration</b> checks: exact two-sided (equal-tailed) binomial test of each cell's rate against "
             "its closed-form probability, Bonferroni over cells; inconclusive when the power against the same "
             "mechanism with its noise scale 30% off is below 50%.</li>"
             "<li><b>property</b> checks are deterministic: violated iff a run breaks the property.</li>"
             "<li><b>slack</b>: the measured error (quantile, margin or stability needed for β) divided by the "
             "theorem's bound; &lt; 1 means the measurement lies inside the bound.</li>"
             "<li>privacy audits: ε lower bound from Clopper-Pearson bounds on a fresh split; "
             "<b>violation</b> iff the lower bound exceeds the claim at the audit's confidence.</li></ul>")

    # errata: one row per erratum, the printed spec beside the corrected one
    audits = {a["spec"]: a for a in document.get("privacy", [])}
    ran = {r["spec"] for r in document.get("privacy", []) + document.get("theorems", [])}
    errata: dict[str, list[dict]] = {}
    for s in document.get("specs", []):
        if s.get("erratum"):
            errata.setdefault(s["erratum"].get("id") or s["id"], []).append(s)
    shown = {k: v for k, v in errata.items() if any(s["id"] in ran for s in v)}
    if errata:
        h.append("<h2>Errata: printed beside corrected</h2>")
    if shown:
        h.append("<table><tr><th>erratum</th><th>description</th><th>printed</th><th>corrected</th></tr>")
        for key, group in shown.items():
            e = group[0]["erratum"]
            printed = [s for s in group if not s.get("variant_of")] or group[:1]
            corrected = [s for s in group if s not in printed]

            def cell(specs, formula):
                out = f"<code>{_esc(formula)}</code>"
                for s in specs:
                    a = audits.get(s["id"])
                    out += f"<br>{_esc(s['id'])}: " + ("not audited" if a is None else
                        f"{_badge(a.get('verdict'))} ε_lb {_num(_float(a.get('epsilon_lower_bound')))} vs claim "
                        f"{_num(_float((a.get('claim') or {}).get('epsilon')))}")
                return out

            h.append(f"<tr><td>{_esc(key)}</td><td>{_esc(e.get('description'))}</td>"
                     f"<td>{cell(printed, e.get('printed'))}</td><td>{cell(corrected, e.get('corrected'))}</td></tr>")
        h.append("</table>")
    h.extend(_errata_measured_html(document.get("errata")))
    if len(shown) < len(errata):
        h.append(f"<p class='meta'>{len(errata) - len(shown)} more errata are recorded in specs that did not run "
                 "(no implementation yet): " + ", ".join(_esc(k) for k in errata if k not in shown) + ".</p>")

    notc = [n for n in document.get("not_checked", []) if n.get("status") != "covered by the privacy audit"]
    h.append("<h2>Theorems not yet checked</h2>")
    if notc:
        grouped: dict[tuple[str, str], list[str]] = {}
        for n in notc:
            status = re.sub(r" \([^()]*\)$", "", n["status"])
            grouped.setdefault((n["spec"], status), []).append(n["ref"])
        h.append(f"<p>{len(notc)} theorems (or their checks) of the specs in this run have no result; they are "
                 "listed here, never silently skipped.</p>")
        h.append("<table><tr><th>spec</th><th>theorems</th><th>status</th></tr>" + "".join(
            f"<tr><td>{_esc(spec)}</td><td>{_esc('; '.join(dict.fromkeys(refs)))}</td><td>{_esc(status)}</td></tr>"
            for (spec, status), refs in grouped.items()) + "</table>")
    else:
        h.append("<p>None: every theorem of the specs in this run has an experiment or a privacy audit.</p>")

    # per spec
    by_spec_priv = {}
    for a in document.get("privacy", []):
        by_spec_priv.setdefault(a["spec"], []).append(a)
    by_spec_thm = {}
    for c in document.get("theorems", []):
        by_spec_thm.setdefault(c["spec"], []).append(c)
    paper = None
    for s in document.get("specs", []):
        if s["id"] not in by_spec_priv and s["id"] not in by_spec_thm:
            continue  # nothing ran for this spec: it is listed under "not yet checked"
        if (s.get("paper") or "") != paper:
            paper = s.get("paper") or ""
            h.append(f'<h2 id="paper-{_slug(paper)}">Paper: {_esc(paper or "specs outside the catalogue")}</h2>')
        h.append(_spec_section(s, by_spec_priv.get(s["id"], []), by_spec_thm.get(s["id"], []),
                               figures.get(s["id"], []), formulas))
    h.append(f'<p class="meta">Rendered from results.json ({_esc(document.get("format"))}); re-render with '
             "<code>dptestbed report results.json --out DIR</code>.</p></body></html>")
    return "\n".join(h)


MUTANT_CLASS = {"killed": "violated", "survived": "consistent", "inconclusive": "inconclusive", "error": "error",
                "equivalent": "inconclusive"}


def _kill_matrix_html(matrix: dict, family: dict) -> list[str]:
    """The kill matrix of a mutants run: rates per spec, then one table per spec (mutant x check)."""
    o = matrix.get("overall") or {}
    rate = "n/a" if o.get("rate") is None else f"{o['rate']:.1%}"
    h = ["<h2>Kill matrix</h2>",
         f"<p><b>{o.get('killed', 0)} of {o.get('mutants', 0) - o.get('equivalent', 0)} non-equivalent implementation "
         f"mutants killed ({rate})</b>; privacy-breaking: {o.get('privacy_breaking_killed', 0)} of "
         f"{o.get('privacy_breaking', 0)}; {o.get('equivalent', 0)} declared equivalent (excluded). Each mutant is the "
         "reference implementation with one realistic bug, run through every check of its spec exactly as "
         "<code>dptestbed check SPEC --impl MUTANT</code> runs a user's implementation; a cell is <b>killed</b> when "
         f"that check flags it at level {_num(family.get('per_check_level'))} (the strictest per-check level of a "
         "<code>check</code> run). Pipeline controls of the theorem checks are not mutants and are not counted.</p>",
         "<table><tr><th>spec</th><th>mutants</th><th>killed</th><th>equivalent</th><th>kill rate</th></tr>"]
    for spec, r in (matrix.get("rates") or {}).items():
        shown = "n/a" if r.get("rate") is None else f"{r['rate']:.0%}"
        cls = "" if r.get("rate") in (None, 1.0) else ' class="unexpected"'
        h.append(f'<tr{cls}><td><a href="#kill-{_slug(spec)}">{_esc(spec)}</a></td><td>{_esc(r["mutants"])}</td>'
                 f'<td>{_esc(r["killed"])}</td><td>{_esc(r["equivalent"])}</td><td>{_esc(shown)}</td></tr>')
    h.append("</table>")
    for spec, checks in (matrix.get("checks") or {}).items():
        rows = [r for r in matrix.get("rows", []) if r["spec"] == spec]
        h.append(f'<h3 id="kill-{_slug(spec)}">{_esc(spec)}</h3><table><tr><th>mutant</th><th>breaks</th><th>bug</th>'
                 + "".join(f"<th>{_esc(c)}</th>" for c in checks) + "<th>status</th></tr>")
        for r in rows:
            cells = "".join(f'<td>{_badge_text(r["cells"].get(c, "–"))}</td>' for c in checks)
            note = f'<div class="meta">{_esc(r["equivalent"])}</div>' if r.get("equivalent") else ""
            cls = ' class="unexpected"' if r["status"] in ("survived", "inconclusive") else (
                ' class="error"' if r["status"] == "error" else "")
            h.append(f'<tr{cls}><td>{_esc(r["name"])}</td><td>{_esc(r["breaks"])}</td><td>{_esc(r["bug"])}{note}</td>'
                     f'{cells}<td>{_badge_text(r["status"])}</td></tr>')
        h.append("</table>")
    return h


def _inconclusive_html(summary: dict) -> str:
    """The banner's note on inconclusive checks: counted as expected, but named."""
    names = summary.get("inconclusive") or []
    if not names:
        return ""
    shown = "; ".join(_esc(n) for n in names[:6]) + (f"; and {len(names) - 6} more" if len(names) > 6 else "")
    return (f'<div class="meta">{len(names)} of the "as expected" are <b>inconclusive</b> (too little power to '
            f"confirm or refute at this suite's trial counts): {shown}</div>")


def _kill_matrix_md(matrix: dict) -> list[str]:
    o = matrix.get("overall") or {}
    rate = "n/a" if o.get("rate") is None else f"{o['rate']:.1%}"
    lines = ["## Kill matrix", "",
             f"{o.get('killed', 0)} of {o.get('mutants', 0) - o.get('equivalent', 0)} non-equivalent mutants killed "
             f"({rate}); privacy-breaking: {o.get('privacy_breaking_killed', 0)} of {o.get('privacy_breaking', 0)}.", "",
             "| spec | mutants | killed | equivalent | kill rate |", "|---|---|---|---|---|"]
    for spec, r in (matrix.get("rates") or {}).items():
        shown = "n/a" if r.get("rate") is None else f"{r['rate']:.0%}"
        lines.append(f"| {_md(spec)} | {r['mutants']} | {r['killed']} | {r['equivalent']} | {shown} |")
    lines += ["", "| mutant | breaks | status | killed by |", "|---|---|---|---|"]
    for r in matrix.get("rows", []):
        lines.append(f"| {_md(r['id'])} | {r['breaks']} | {r['status']} | {_md(', '.join(r['killed_by']) or (r['equivalent'] or '–'))} |")
    return lines + [""]


def _badge_text(status: str) -> str:
    cls = MUTANT_CLASS.get(status)
    return f'<span class="badge {cls}">{_esc(status)}</span>' if cls else _esc(status)


ERRATA_VERDICT_CLASS = {"confirmed": "violated", "refuted": "consistent", "inconclusive": "inconclusive"}


def _errata_measured_html(errata: list[dict] | None) -> list[str]:
    """The ``errata`` array of results.json (audits/errata.py): printed beside corrected, the
    deciding measurement and the verdict."""
    if not errata:
        return []
    h = ["<h3>Errata settled by measurement</h3>",
         "<p>An erratum is <b>confirmed</b> when the measurement shows the printed version breaks its claim (or its "
         "proof's premise) and the corrected one does not. A printed spec whose privacy audit flags a violation "
         "caused by a confirmed erratum is counted as expected (outcome \"erratum confirmed\"), not as a failure "
         "of the run.</p>",
         "<table><tr><th>erratum</th><th>printed</th><th>corrected</th><th>measurement</th><th>verdict</th></tr>"]
    for e in errata:
        verdict = e.get("verdict")
        h.append(f"<tr><td>{_esc(e.get('id'))}</td>"
                 f"<td>{_esc(e.get('printed'))}<br><code>{_esc(e.get('printed_formula') or '')}</code></td>"
                 f"<td>{_esc(e.get('corrected'))}<br><code>{_esc(e.get('corrected_formula') or '')}</code></td>"
                 f"<td>{_esc(e.get('measurement'))}"
                 + (f"<div class='meta'>deciding: {_esc(e.get('deciding'))}</div>" if e.get("deciding") else "")
                 + f"</td><td><span class='badge {ERRATA_VERDICT_CLASS.get(verdict, 'inconclusive')}'>"
                 f"{_esc(verdict)}</span></td></tr>")
    h.append("</table>")
    return h


def _spec_section(s: dict, audits: list[dict], checks: list[dict], figs: list, formulas: Formulas) -> str:
    h = [f'<h2 id="{_slug(s["id"])}">{_esc(s["id"])}: {_esc(s.get("title"))}</h2>']
    src = s.get("source") or {}
    meta = " · ".join(x for x in [
        _esc(f"source: {src.get('seed') or src.get('reference') or ''} {src.get('section', '')} "
             f"{src.get('algorithm', '')}".strip()),
        f"implementation: <code>{_esc(s.get('implementation'))}</code>" if s.get("implementation") else "no implementation",
        f"variant of {_esc(s.get('variant_of'))}" if s.get("variant_of") else "",
        f"<b>deliberately broken</b>: {_esc(s.get('broken'))}" if s.get("broken") else ""] if x)
    h.append(f'<p class="meta">{meta}</p>')
    if s.get("summary"):
        h.append(f"<p>{_esc(s['summary'])}</p>")
    params = s.get("parameters") or {}
    if params:
        h.append("<p>parameters (defaults): " + ", ".join(f"{_esc(k)} = {_esc(_num(v) if not isinstance(v, str) else v)}"
                                                          for k, v in params.items()) + "</p>")
    derived = s.get("derived") or {}
    if derived:
        h.append("<table><tr><th>derived</th><th>formula</th><th>value at defaults</th><th>meaning</th></tr>")
        for name, d in derived.items():
            h.append(f"<tr><td><code>{_esc(name)}</code></td><td>{formulas.html(d.get('latex'), d.get('formula'))}</td>"
                     f"<td>{_esc(_num(d.get('value')) if not isinstance(d.get('value'), (list, dict)) else d.get('value'))}</td>"
                     f"<td>{_esc(d.get('description'))}</td></tr>")
        h.append("</table>")
    p = s.get("privacy")
    if p:
        h.append(f"<h3>Privacy claim ({_esc(p.get('theorem'))})</h3><p>ε = {formulas.html(p['epsilon']['latex'], p['epsilon']['formula'])}"
                 f" = {_num(p['epsilon'].get('value'))}, δ = {formulas.html(p['delta']['latex'], p['delta']['formula'])}"
                 f" = {_num(p['delta'].get('value'))}; neighbours: <code>{_esc(p.get('neighbours'))}</code> "
                 f"({_esc(p.get('neighbours_description'))})</p>")
    for a in audits:
        h.append(_audit_block(a))
    h.append("<h3>Theorems</h3>")
    for t in s.get("theorems", []):
        h.append(f"<h4>{_esc(t['ref'])} <span class='meta'>[{_esc(t['kind'])}; constant: {_esc(t['constant'])}; "
                 f"{_esc(t['status'])}]</span></h4><p>{_esc(t['statement'])}</p>")
        q = t.get("quantities") or {}
        if q or t.get("preconditions"):
            h.append("<ul>" + "".join(
                f"<li><code>{_esc(n)}</code> = {formulas.html(v.get('latex'), v.get('formula'))} = {_num(v.get('value'))}</li>"
                for n, v in q.items()) + "".join(
                f"<li>precondition: {formulas.html(v.get('latex'), v.get('formula'))}</li>" for v in t.get("preconditions", []))
                + "</ul>")
        for c in [c for c in checks if c["ref"] == t["ref"]]:
            h.append(_check_block(c))
    if figs:
        h.append("<h3>Plots</h3>")
        for caption, path in figs:
            h.append(f"<figure>{_img(path)}<figcaption>{_esc(caption)} (plots/{_esc(path.name)})</figcaption></figure>")
    return "\n".join(h)


def _audit_block(a: dict) -> str:
    claim = a.get("claim") or {}
    h = [f'<div id="{_slug(a["id"])}"><b>Privacy audit</b> ({_esc(a.get("target", "reference"))}: '
         f'<code>{_esc(a.get("implementation"))}</code>) {_badge(a.get("verdict"))} '
         f'expected: {_esc(a.get("expected") or "no violation")} · {_outcome_html(a.get("outcome", "error"))}<ul>']
    if a.get("verdict") == "error":
        h.append(f"<li>error: {_esc(a.get('error'))}</li>")
    else:
        h.append(f"<li>claim: ε = {_num(_float(claim.get('epsilon')))}, δ = {_num(_float(claim.get('delta')))}</li>")
        h.append(f"<li>ε lower bound {_num(_float(a.get('epsilon_lower_bound')))} at confidence {_num(a.get('confidence'), 6)}"
                 f" (tightness {_num(_float(a.get('tightness')))}); exact ε {_num(_float(a.get('exact_epsilon')))}</li>")
        h.append(f"<li>{_num(a.get('samples_per_side'))} samples per side; {_num(a.get('pairs_tried'))} pairs, "
                 f"{_num(a.get('events_tried'))} events tried; {_num(a.get('seconds'))} s; seed {_esc(a.get('seed'))}</li>")
        if a.get("reason"):
            h.append(f"<li>{_esc(a['reason'])}</li>")
        if a.get("counterexample"):
            h.append(f"<li>counterexample:<pre>{_esc(counterexample_text(a))}</pre>"
                     f"<details><summary>raw</summary><pre>{_esc(json.dumps(a['counterexample'], indent=1)[:3000])}"
                     "</pre></details></li>")
    h.append("</ul></div>")
    return "".join(h)


def _check_block(c: dict) -> str:
    who = f"control <code>{_esc(c['control']['name'])}</code>: {_esc(c['control']['description'])}" if c.get("control") \
        else f"{_esc(c.get('target'))}: <code>{_esc(c.get('implementation'))}</code>"
    h = [f'<div id="{_slug(c["id"])}" style="margin-left:14px"><b>{_esc(c["check"])}</b> ({_esc(c["kind"])}) · {who} · '
         f'{_badge(c.get("verdict"))} expected: {_esc(c.get("expected") or "consistent")} · '
         f'{_outcome_html(c.get("outcome", "error"))}<ul>',
         f"<li>{_esc(c.get('title'))}</li><li>instance: {_esc(c.get('instance'))}</li>"
         f"<li>{_esc(c.get('predicate'))}</li>"]
    if c.get("params"):
        h.append("<li>parameters: " + ", ".join(f"{_esc(k)} = {_esc(_num(v) if not isinstance(v, str) else v)}"
                                                for k, v in c["params"].items()) + "</li>")
    if c.get("verdict") == "error":
        h.append(f"<li>error: {_esc(c.get('error'))}</li>")
    elif c["kind"] == "bound":
        h.append(f"<li>{_num(c.get('failures'))} failures in {_num(c.get('trials'))} trials: rate "
                 f"{_num(c.get('failure_rate'))}, 95% CP upper bound {_num(c.get('failure_rate_upper'))} against "
                 f"β = {_num(c.get('beta'))}; p = {_num(c.get('p_value'))} (Holm-adjusted {_num(c.get('p_value_adjusted'))}); "
                 f"power against 2β at level {_num(c.get('level'))}: {_num(c.get('power'))}</li>")
        if c.get("slack") is not None:
            h.append(f"<li>slack {_num(c.get('slack'))}: {_esc(c.get('slack_definition'))}</li>")
    elif c["kind"] == "calibration":
        h.append(f"<li>p = {_num(c.get('p_value'))} (adjusted {_num(c.get('p_value_adjusted'))}); power against "
                 f"±30% noise at level {_num(c.get('level'))}: {_num(c.get('power'))}</li>")
        h.append("<li><table><tr><th>cell</th><th>events / trials</th><th>rate [95% CP]</th><th>exact</th>"
                 "<th>noise ±30%</th><th>p</th></tr>" + "".join(
                     f"<tr><td>{_esc(x['label'])}</td><td>{_num(x['events'])} / {_num(x['trials'])}</td>"
                     f"<td>{_num(x['rate'], 4)} [{_num(x['lower'], 4)}, {_num(x['upper'], 4)}]</td><td>{_num(x['exact'], 4)}</td>"
                     f"<td>{', '.join(_num(v, 4) for v in x.get('alternatives') or [])}</td><td>{_num(x['p_value'])}</td></tr>"
                     for x in c.get("cells") or []) + "</table></li>")
    else:
        h.append(f"<li>{_num(c.get('failures'))} of {_num(c.get('trials'))} runs break the property</li>")
        if c.get("counterexample"):
            h.append(f"<li>counterexample: <code>{_esc(json.dumps(c['counterexample'])[:600])}</code></li>")
    h.append(f"<li class='meta'>{_num(c.get('seconds'))} s</li></ul></div>")
    return "".join(h)


# --------------------------------------------------------------------------- markdown


def _md(text) -> str:
    return str(text if text is not None else "–").replace("|", "\\|").replace("\n", " ")


def render_markdown(document: dict, figures: dict, errors: list[dict], out_dir: Path) -> str:
    run = document.get("run", {})
    summary = document.get("summary", {})
    code = exit_code(document, errors)
    lines = [f"# dptestbed {run.get('command', 'verify')} report", "",
             f"suite **{run.get('suite')}**, seed {run.get('seed')}, commit {run.get('commit') or 'unknown'}, "
             f"{_num(run.get('seconds'))} s", "",
             f"**{STATUS_TEXT.get(code, code)}** (exit code {code}): {summary.get('items', 0)} items, "
             f"{summary.get('as_expected', 0)} as expected, {summary.get('unexpected', 0)} unexpected, "
             f"{summary.get('errors', 0)} errors; controls flagged: {summary.get('controls_flagged', 0)} of "
             f"{summary.get('controls', 0)}", "",
             f"{(document.get('family') or {}).get('statement', '')}.", ""]
    if not run.get("complete", True):
        lines += [f"**Incomplete run**: {run.get('items_done')} of {run.get('items_planned')} items finished.", ""]
    if document.get("mutants"):
        lines = lines[:4] + [f"**{MUTANT_STATUS.get(code, code)}** (exit code {code})", ""] + _kill_matrix_md(document["mutants"])
    lines += ["| paper | spec | item | implementation | claim | measurement | verdict | expected | outcome |",
              "|---|---|---|---|---|---|---|---|---|"]
    paper_of = {s["id"]: s.get("paper") or "" for s in document.get("specs", [])}
    for row in item_rows(document):
        measured = row["measured"] + (f" ({row['error']})" if row.get("error") else "")
        outcome = {"unexpected": "**UNEXPECTED**", "error": "**error**"}.get(row["outcome"], row["outcome"])
        lines.append(f"| {_md(paper_of.get(row['spec'], ''))} | {_md(row['spec'])} | {_md(row['item'])} | {_md(row['target'])} | {_md(row['claim'])} | "
                     f"{_md(measured)} | {_md(row['verdict'])} | {_md(row['expected'] or '–')} | {outcome} |")
    if errors:
        lines += ["", "## Report errors", ""] + [f"- {e['item']}: {e['error']}" for e in errors]
    if document.get("errata"):
        lines += ["", "## Errata settled by measurement (printed beside corrected)", "",
                  "| erratum | printed | corrected | measurement | verdict |", "|---|---|---|---|---|"]
        for e in document["errata"]:
            lines.append(f"| {_md(e.get('id'))} | {_md(e.get('printed'))}: `{_md(e.get('printed_formula') or '')}` | "
                         f"{_md(e.get('corrected'))}: `{_md(e.get('corrected_formula') or '')}` | "
                         f"{_md(e.get('measurement'))} (deciding: {_md(e.get('deciding') or '–')}) | "
                         f"**{_md(e.get('verdict'))}** |")
    notc = [n for n in document.get("not_checked", []) if n.get("status") != "covered by the privacy audit"]
    if notc:
        lines += ["", "## Theorems not yet checked", ""] + [f"- {n['spec']}: {n['ref']} ({n['kind']}): {n['status']}"
                                                              for n in notc]
    if figures:
        lines += ["", "## Plots", ""]
        for _spec_id, figs in figures.items():
            for caption, path in figs:
                lines.append(f"- [{path.name}](plots/{path.name}): {caption}")
    lines.append("")
    return "\n".join(lines)


# --------------------------------------------------------------------------- junit


def write_junit(document: dict, path: Path, report_errors: list[dict] | None = None) -> None:
    rows = item_rows(document)
    seconds = {r["id"]: r.get("seconds") or 0.0 for r in rows}
    suites = ET.Element("testsuites", name=f"dptestbed {document.get('run', {}).get('command', 'verify')}")
    for kind_name, kinds in (("privacy", ("privacy",)), ("theorems", ("bound", "calibration", "property")),
                             ("report", ())):
        if kind_name == "report":
            group = [{"id": e["item"], "spec": e.get("spec", "report"), "outcome": "error", "error": e["error"],
                      "verdict": "error", "expected": None, "claim": "", "measured": "", "item": e["item"]}
                     for e in (report_errors or [])]
            if not group:
                continue
        else:
            group = [r for r in rows if r["kind"] in kinds]
        suite = ET.SubElement(suites, "testsuite", name=f"dptestbed.{kind_name}", tests=str(len(group)),
                              failures=str(sum(r["outcome"] == "unexpected" for r in group)),
                              errors=str(sum(r["outcome"] == "error" for r in group)),
                              time=f"{sum(seconds.get(r['id'], 0.0) for r in group):.3f}")
        for r in group:
            case = ET.SubElement(suite, "testcase", classname=f"dptestbed.{kind_name}.{r['spec']}", name=r["id"],
                                 time=f"{seconds.get(r['id'], 0.0):.3f}")
            text = f"{r['item']}: {r['claim']}; {r['measured']}; verdict {r['verdict']}; expected {r['expected'] or 'no violation'}"
            if r["outcome"] == "unexpected":
                ET.SubElement(case, "failure", message=f"verdict {r['verdict']}, expected {r['expected'] or 'no violation'}",
                              type="unexpected").text = text
            elif r["outcome"] == "error":
                ET.SubElement(case, "error", message=str(r.get("error") or r["verdict"])[:500], type="error").text = text
            ET.SubElement(case, "system-out").text = text
    totals = [int(s.get("tests")) for s in suites]
    suites.set("tests", str(sum(totals)))
    suites.set("failures", str(sum(int(s.get("failures")) for s in suites)))
    suites.set("errors", str(sum(int(s.get("errors")) for s in suites)))
    tree = ET.ElementTree(suites)
    ET.indent(tree)
    buf = io.BytesIO()
    tree.write(buf, encoding="utf-8", xml_declaration=True)
    write_file(path, buf.getvalue())
