"""``render(document, out_dir)``: every output of a report folder, plots drawn by forked processes."""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import numpy as np

from ..base import sanitize
from ..base.outfiles import write
from ..privacy.claims import from_json
from .formulas import Formulas
from .html import render_html, shown_formulas
from .junit import write_junit
from .markdown import render_markdown
from .model import as_float, fmt_num, point_text, slug
from .plots import plot_privacy, plot_sweep, plot_theorem, plot_tradeoff, pyplot

_PLOTS: list[tuple] = []  # (fn, args, path) of the render in progress: its forked pool inherits them


def _ignore_interrupts() -> None:
    """A plot worker leaves Ctrl-C to the process that forked it: one line, not a traceback per worker.
    It is forked with SIGINT blocked (a Ctrl-C between the fork and this line would otherwise interrupt
    the child's own after-fork code and print a traceback), ignores it, then unblocks it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


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
    document = sanitize.tree(document)  # any results.json can be rendered: its text is not ours
    out_dir = Path(out_dir)
    plot_dir = out_dir / "plots"
    for folder in (out_dir, plot_dir):
        if folder.is_symlink():
            raise ValueError(f"{folder} is a symlink: reports are never written through one")
    out_dir.mkdir(parents=True, exist_ok=True)
    errors: list[dict] = []
    figures: dict[str, list[tuple[str, str, Path]]] = {}  # spec id -> [(caption, alt text, path)]

    tasks: list[tuple] = []

    def attempt(key: str, spec_id: str, caption: str, alt: str, path: Path, fn, *args):
        tasks.append((key, spec_id, caption, alt, path, fn, args))

    if plots:  # (no plots/ folder without them)
        plot_dir.mkdir(exist_ok=True)
        specs = {s["id"]: s for s in document.get("specs", [])}
        families: dict[str, list[dict]] = {}
        for a in document.get("privacy", []):
            if a.get("verdict") == "error":
                continue
            base = (specs.get(a["spec"]) or {}).get("variant_of") or a["spec"]
            families.setdefault(base, []).append(a)
        for base, audits in families.items():
            attempt(f"privacy {base}", base, f"Privacy audits of {base} and its variants: ε lower bound "
                    "(bar), exact ε (diamond) and the claim (black tick)", _privacy_alt(base, audits),
                    plot_dir / f"privacy-{slug(base)}.png", plot_privacy, base, audits)
            for a in audits:
                if a.get("tradeoff"):
                    attempt(f"tradeoff {a['id']}", a["spec"],
                            f"Trade-off curve of {a['id']} on pair {a['tradeoff']['pair']}: the claimed curve (black), "
                            "the spec's mechanism's exact curve (green, dashed) and the estimated band (blue; a point "
                            "below the claimed curve is evidence against the claim)", _tradeoff_alt(a),
                            plot_dir / f"tradeoff-{slug(a['id'])}.png", plot_tradeoff, a)
        by_theorem: dict[tuple[str, str], list[dict]] = {}
        for c in document.get("theorems", []):
            by_theorem.setdefault((c["spec"], c["ref"]), []).append(c)
        for (spec_id, ref), checks in by_theorem.items():
            if any(c.get("kind") in ("bound", "calibration") and c.get("verdict") != "error" for c in checks):
                attempt(f"theorem {spec_id} {ref}", spec_id,
                        f"{ref}: failure / event rates with 95% Clopper-Pearson bars; reference in blue, "
                        "negative controls in red", _checks_alt(f"{spec_id} {ref}: failure or event rate of each check",
                                                                 checks),
                        plot_dir / f"theorem-{slug(spec_id)}-{slug(ref)}.png",
                        plot_theorem, spec_id, ref, checks)
            sweeps: dict[str, list[dict]] = {}
            for c in checks:
                if c.get("sweep") and c.get("verdict") != "error":
                    sweeps.setdefault(c["check"], []).append(c)
            for name, group in sweeps.items():
                group.sort(key=lambda c: bool(c.get("control")))
                attempt(f"sweep {spec_id} {ref} {name}", spec_id,
                        f"{ref} ({name}): sweep against the theorem's bound",
                        _checks_alt(f"{spec_id} {ref} ({name}): the measured error at each point of the sweep against "
                                    "the theorem's bound", group),
                        plot_dir / f"sweep-{slug(spec_id)}-{slug(ref)}-{slug(name)}.png", plot_sweep, group)
    _PLOTS[:] = [(fn, args, path) for _, _, _, _, path, fn, args in tasks]
    latex = shown_formulas(document) if plots else []  # without plots, formulas as their LaTeX source
    formulas = Formulas(images=plots)
    if tasks or latex:
        pyplot()  # imported once, here: the forked plot workers inherit it (it was a second per worker)
    if latex:
        formulas.uri(latex.pop(0))  # the first formula here: the workers inherit mathtext's parser and fonts
    chunks = [latex[k::jobs] for k in range(min(jobs, len(latex)))]  # the others drawn beside the plots
    try:
        if jobs > 1 and len(tasks) + len(chunks) > 1 and threading.active_count() == 1:  # never fork with threads
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor

            pool = ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("fork"),
                                       initializer=_ignore_interrupts)
            try:
                # the workers are forked on the first submit: with SIGINT blocked (see _ignore_interrupts); a
                # Ctrl-C meanwhile reaches this process when it is unblocked
                mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
                try:
                    drawn = [pool.submit(_formula_images, chunk) for chunk in chunks]
                    futures = [pool.submit(_plot, k) for k in range(len(tasks))]
                finally:
                    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
                outcomes = [f.result() for f in futures]
                for f in drawn:
                    formulas.cache.update(f.result())
            finally:  # interrupted: the plots not yet started are dropped, the running ones end
                pool.shutdown(wait=True, cancel_futures=True)
        else:
            outcomes = [_plot(k) for k in range(len(tasks))]
    finally:
        _PLOTS.clear()
    for (key, spec_id, caption, alt, path, _, _), error in zip(tasks, outcomes):
        if error is None:
            figures.setdefault(spec_id, []).append((caption, alt, path))
        else:
            errors.append({"item": f"plot {key}", "spec": spec_id, "error": error})

    errors = sanitize.tree(errors)
    write(out_dir / "index.html", render_html(document, figures, errors, out_dir, formulas).encode("utf-8"))
    write(out_dir / "report.md", render_markdown(document, figures, errors, out_dir).encode("utf-8"))
    write_junit(document, out_dir / "junit.xml", errors)
    return errors


def _formula_images(latex: list[str]) -> dict[str, str | None]:
    """The HTML report's images of these formulas (:class:`.formulas.Formulas`), drawn in a plot worker."""
    drawn = Formulas()
    return {text: drawn.uri(text) for text in latex}


def _privacy_alt(base: str, audits: list[dict]) -> str:
    """A privacy plot in words: each audit's bound against its claim, and its class."""
    return f"Bar chart of the privacy audits of {base}: " + "; ".join(
        f"{a['spec']}" + (f" at {point_text(a['audit_point'])}" if a.get("audit_point") else "")
        + f": {from_json(a.get('claim')).name} lower bound {fmt_num(as_float(a.get('epsilon_lower_bound')))} against a "
          f"claim of {fmt_num(from_json(a.get('claim')).value)} ({a.get('class')})" for a in audits) + "."


def _tradeoff_alt(a: dict) -> str:
    """A trade-off plot in words: the claim, and how many estimated points lie below its curve."""
    t = a["tradeoff"]
    claimed = dict(zip(t["alpha"], t["claimed"]))
    below = sum(1 for alpha, beta in t.get("points") or [] if beta < _interp(claimed, alpha))
    return (f"Trade-off curve of {a['spec']} on pair {t['pair']}: {len(t.get('points') or [])} estimated points, "
            f"{below} of them below the claimed curve of {from_json(a.get('claim')).describe()} ({a.get('class')}).")


def _interp(curve: dict, x: float) -> float:
    xs = sorted(curve)
    return float(np.interp(x, xs, [curve[k] for k in xs]))


def _checks_alt(what: str, checks: list[dict]) -> str:
    """A theorem check's plot in words: what it shows, and each check's class."""
    return f"{what}: " + "; ".join(
        f"{c['check']} ({c['control']['name'] if c.get('control') else c.get('target', 'reference')}): {c.get('class')}"
        + (f", failure rate {fmt_num(as_float(c.get('failure_rate')))} against β = {fmt_num(as_float(c.get('beta')))}"
           if c.get("kind") == "bound" else "") for c in checks) + "."
