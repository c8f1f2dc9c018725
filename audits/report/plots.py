"""The report's PNG plots (matplotlib, Agg): privacy audits against their claims, theorem checks'
rates against beta, sweeps against the theorem's bound."""

from __future__ import annotations

import io
import math
import re
import textwrap
from pathlib import Path

from ..base.outfiles import write
from ..base.verdict import expects_flag
from ..privacy.claims import from_json
from .model import as_float, audit_claim, fmt_num, point_text

FLOOR = 1e-7  # where a zero rate is drawn on a log axis (labelled in the plot)
PANELS_PER_ROW = 3  # a theorem's checks wrap onto rows, so a plot reads at page width
LABEL_WRAP = 28  # characters per line of a slanted cell label
COLORS = {"reference": "#1f77b4", "user": "#1f77b4", "control": "#d62728", "bound": "#333333", "exact": "#2ca02c"}


def pyplot():
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
    pyplot().close(fig)
    write(path, buf.getvalue())



def plot_privacy(family: str, audits: list[dict], path: Path) -> None:
    """epsilon lower bound (bar), exact epsilon (diamond) and claim (tick), one row per spec."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 0.9 + 0.75 * len(audits)))
    labels = []
    xmax = 0.0
    for y, a in enumerate(audits):
        claim = from_json(a.get("claim")).value
        lb = as_float(a.get("epsilon_lower_bound"))
        ex = as_float(a.get("exact_epsilon"))
        color = COLORS["control"] if expects_flag(a) else COLORS["reference"]
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
        tag = ", control" if expects_flag(a) else ""
        point = ", ".join(f"{k}={v}" for k, v in (a.get("audit_point") or {}).items())
        # a pair at another parameter point claims (and is drawn at) its own epsilon: its parameters that moved
        _, decided = audit_claim(a)
        start = {**((a.get("defaults") or {}).get("params") or {}), **(a.get("audit_point") or {})}
        moved = {k: v for k, v in decided.items() if k in start and start[k] != v}
        shown = f", shown at {point_text(moved)}" if moved else ""
        labels.append(f"{a['spec']}" + (f" at {point}" if point else "") + f"\n[{a.get('class', '')}{tag}{shown}]")
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
    plt = pyplot()
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
                ax.axhline(beta, color=COLORS["bound"], linestyle="--", label=f"β = {fmt_num(beta)}")
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
            _cell_labels(ax, [cell["label"] for cell in cells])
            ax.set_ylabel("event rate (95% CP)")
            ax.legend(fontsize=6)
        ax.set_title(f"{name} ({kind})", fontsize=9)
        ax.grid(alpha=0.3)
    fig.suptitle(f"{spec}: {ref}", fontsize=10)
    fig.tight_layout()
    _save(fig, path)


def _cell_labels(ax, labels: list[str]) -> None:
    """Tick labels of calibration cells that never overprint: short ones level, long ones (more than
    fit under a cell) wrapped at LABEL_WRAP characters, cut after two lines, and slanted."""
    room = 60 / max(1, len(labels))  # characters that fit under one cell of a panel
    if all(len(label) <= room for label in labels):
        ax.set_xticklabels(labels, fontsize=7)
        return
    shown = ["\n".join(textwrap.wrap(label, LABEL_WRAP, max_lines=2, placeholder="...")) for label in labels]
    ax.set_xticklabels(shown, fontsize=6, rotation=30, ha="right", rotation_mode="anchor")


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
    plt = pyplot()
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



def plot_tradeoff(audit: dict, path: Path) -> None:
    """The best pair's trade-off curve (privacy/tradeoff.py): the claimed curve, the exact curve of the spec's
    mechanism, and the estimated upper band (a point below the claimed curve is evidence against the claim)."""
    plt = pyplot()
    t = audit["tradeoff"]
    fig, ax = plt.subplots(figsize=(4.8, 4.4))
    alphas = [as_float(a) for a in t["alpha"]]
    ax.plot(alphas, [as_float(b) for b in t["claimed"]], color=COLORS["bound"], linewidth=1.5,
            label=textwrap.shorten(f"claimed: {from_json(audit.get('claim')).describe()}", 48))
    if t.get("exact"):
        ax.plot(alphas, [as_float(b) for b in t["exact"]], color=COLORS["exact"], linestyle="--", linewidth=1.2,
                label="exact (the spec's mechanism)")
    points = t.get("points") or []
    if points:
        ax.plot([p[0] for p in points], [p[1] for p in points], marker=".", linestyle="none",
                color=COLORS["reference"], label=f"estimated ({100 * t['confidence']:g}% DKW band)")
    ax.plot([0, 1], [1, 0], color="#999999", linewidth=0.6, linestyle=":", label="no privacy loss")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("type I error α = P[M(D') ∈ E]")
    ax.set_ylabel("type II error β = 1 − P[M(D) ∈ E]")
    ax.set_title("\n".join(textwrap.wrap(f"{audit.get('spec')}: pair {t['pair']}", 52)), fontsize=8)
    ax.legend(fontsize=7, loc="lower left")
    _save(fig, path)
