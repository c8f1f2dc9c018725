"""``dptestbed verify``, ``dptestbed check`` and ``dptestbed report``.

``verify [--suite quick|full] [--spec ID ...] [--out DIR] [--seed S] [--jobs N]`` runs the
privacy audits and theorem checks (with their negative controls) of the suite and writes a
report folder: index.html, report.md, results.json, junit.xml, plots/*.png.

``check ID --impl REF [--out DIR] [--suite quick|full]`` runs every privacy audit and theorem
check of spec ID against a user implementation (``path/to/file.py:function`` or
``package.module:function``); same outputs and exit codes.

``--executor dask`` or ``--scheduler ADDRESS`` (verify, check, mutants) runs the items on a Dask
cluster instead of forked local processes (:mod:`..run.dask_executor`); the results are the same.

``report RESULTS.json --out DIR`` re-renders a report from a results file, without running
anything.

Exit codes: each command's ``--help`` (:data:`.options.EXIT_HELP`; the codes: :mod:`..base.verdict`).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import textwrap
from pathlib import Path

from ..base import sanitize
from ..base.verdict import AS_EXPECTED, EXIT_INTERRUPTED, OUTCOME_MARK
from ..privacy.pairs import stress_pairs
from .options import (
    EXIT_HELP,
    UserError,
    allow_option,
    allowed,
    bounded_int,
    catalogue,
    executor_of,
    folder,
    implementation,
    isolation_arg,
    jobs_of,
    out_dir,
    out_option,
    parse_params,
    plain,
    positive_float,
    run_options,
    tight_option,
)

CONTRACT = """\
the implementation contract:
  def mechanism(data, *, rng, **params) -> output
    data    the spec's input (see 'dptestbed show ID': "input")
    rng     a numpy.random.Generator: draw EVERY random number from it
    params  the spec's parameter names you need, as keyword arguments
    output  the spec's output encoding (dtype and shape as 'dptestbed show ID' says)
  optional, much faster: a batch sampler drawing n independent outputs at once
    def sampler(data, n, *, rng, **params) -> array of n outputs stacked on axis 0
    mechanism.batch = sampler
  code that draws its own randomness (a library's OS entropy, np.random): --randomness own
    audits it as it is, without re-seeding it: no determinism probe, no replay check; it must
    start from fresh randomness in every process (every worker seeds np.random and random from
    OS entropy); the statistics and their confidence are the same, the run is not reproducible
example (Laplace mechanism):
  def laplace(data, *, rng, epsilon, gamma):
      f = np.asarray(data, dtype=float)
      return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)
  laplace.batch = lambda data, n, *, rng, epsilon, gamma: (
      np.asarray(data, float) + rng.laplace(0.0, gamma / epsilon, size=(n, *np.shape(data))))
"""


def register(subparsers) -> None:
    """Add ``verify``, ``check`` and ``report`` to the ``dptestbed`` parser."""
    p = subparsers.add_parser("verify", help="run the privacy audits and theorem checks; write a report",
                              epilog=EXIT_HELP["verify"])
    p.add_argument("--suite", choices=("quick", "full"), default="quick",
                   help="quick (default: small trial counts, specs with an implementation) or full")
    p.add_argument("--spec", nargs="+", action="extend", metavar="ID", help="only these specs (and their broken variants)")
    p.add_argument("--paper", nargs="+", action="extend", metavar="NAME",
                   help="only the specs of these papers (folders of spec/, see 'dptestbed specs')")
    p.add_argument("--no-controls", action="store_true",
                   help="skip the negative controls (deliberately broken specs and implementations): the "
                        "reference items alone, e.g. to measure the false-alarm rate over seeds")
    tight_option(p)
    run_options(p)
    p.set_defaults(func=cmd_verify)

    p = subparsers.add_parser("check", help="run every audit and theorem check of a spec against your implementation",
                              epilog=CONTRACT + "\n" + EXIT_HELP["check"], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("id", help="spec id (see 'dptestbed specs')")
    p.add_argument("--impl", required=True, metavar="REF",
                   help="your implementation: path/to/file.py:function or package.module:function")
    p.add_argument("--suite", choices=("quick", "full"), default="quick")
    p.add_argument("--no-controls", action="store_true", help="skip the negative controls of the theorem checks")
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="audit at this parameter point instead of the spec's audit points (repeatable; the theorem "
                        "checks keep their own instances)")
    allow_option(p)
    p.add_argument("--samples", type=bounded_int(300, 10**10), metavar="N",
                   help="samples per side per pair of every privacy audit, one round (default: the auditor's rounds)")
    p.add_argument("--time-budget", type=positive_float, metavar="SECONDS",
                   help="wall seconds per privacy audit: a second round draws as many samples as fit (for slow, "
                        "per-call code); the results then depend on the machine's speed")
    isolation_arg(p)
    tight_option(p)
    run_options(p)
    p.set_defaults(func=cmd_check)

    p = subparsers.add_parser("report", help="re-render a report from a results.json (runs nothing)",
                              epilog=EXIT_HELP["report"])
    p.add_argument("results", help="path to results.json")
    out_option(p, "output folder (default: the folder of RESULTS); RESULTS is copied into it")
    p.set_defaults(func=cmd_report)


def run_items(args, command: str, plan_, summary=None) -> int:
    """Run ``plan_`` into the output folder (held by this run), render the report, print the
    summary (``summary``, default: one line per item); returns the exit code."""
    from ..run import output_folder

    if not plan_.items:
        raise UserError("nothing to run: no spec in the selection has an implementation or an experiment")
    if len(plan_.items) > MAX_ITEMS:
        raise UserError(f"{len(plan_.items):,} items planned, more than a run may hold ({MAX_ITEMS:,}; the full "
                        "catalogue plans under 500): select fewer specs")
    plan_.randomness = args.randomness
    out = out_dir(args, command)
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    jobs = jobs_of(args)
    executor = executor_of(args, jobs)
    if progress:
        audits = sum(1 for i in plan_.items if i.kind == "audit")
        print(f"dptestbed {command}: {len(plan_.items)} items ({audits} privacy audits and {len(plan_.items) - audits} "
              f"theorem checks; {sum(1 for i in plan_.items if i.expected)} of them negative controls), suite {plan_.suite}, "
              + (f"{jobs} job(s)" if executor.name == "local" else executor.name)
              + f", writing to {out}", file=sys.stderr, flush=True)
    try:
        with output_folder.output_lock(out):
            return _run_and_render(args, command, plan_, out, jobs, executor, progress, summary)
    except output_folder.OutputBusy as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"--out {out}: {exc.strerror or exc}") from None


def _run_and_render(args, command, plan_, out, jobs, executor, progress, summary) -> int:
    from .. import report
    from ..base.integrity import verify
    from ..run import execution, results, suite

    try:
        document = suite.run(plan_, catalogue(args), out, seed=args.seed, jobs=jobs, progress=progress,
                             command=command, time_scale=args.timeout_scale, resume=args.resume, executor=executor)
    except results.ResumeError as exc:
        raise UserError(f"--resume: {out / 'results.json'}: {exc}") from None
    except execution.ExecutorUnavailable as exc:
        raise UserError(str(exc)) from None
    except KeyboardInterrupt:
        print(f"dptestbed: interrupted; rendering the partial results in {out}", file=sys.stderr)
        try:
            partial = json.loads((out / "results.json").read_text(encoding="utf-8"))
            why = verify(partial)
            if why:
                raise ValueError(f"results.json: {why}")
            report.render(partial, out, plots=not args.no_plots)
        except Exception as exc:  # noqa: BLE001
            print(f"dptestbed: could not render the partial report: {sanitize.line(exc)}", file=sys.stderr)
        return EXIT_INTERRUPTED
    errors = report.render(document, out, plots=not args.no_plots, jobs=min(jobs, os.cpu_count() or 1))
    if errors:
        document.setdefault("report_errors", errors)
        results.write_json_atomic(out / "results.json", document)
    code = report.exit_code(document, errors)
    (summary or _print_summary)(document, out, code, errors)
    return code


MAX_ITEMS = 5000  # items of one run
CONSOLE_WIDTH = 120  # the width of a terminal that does not say its own


def _line(text: str) -> str:
    """A line of the summary, never two (a message may hold a newline) and sanitised: cut with "..." at the
    terminal's width on a terminal, whole in a file or a pipe."""
    if not sys.stdout.isatty():
        return sanitize.line(text)
    return sanitize.line(text, shutil.get_terminal_size((CONSOLE_WIDTH, 24)).columns)


def _paragraph(text: str) -> str:
    """A paragraph of the summary (dptestbed's own text): wrapped at the terminal's width on a terminal, one
    line in a file or a pipe (a log keeps it whole, for grep)."""
    if not sys.stdout.isatty():
        return text
    return textwrap.fill(text, shutil.get_terminal_size((CONSOLE_WIDTH, 24)).columns)


def _print_summary(document: dict, out: Path, code: int, errors: list) -> None:
    """One line per item (its outcome first), and for an item that did not end as expected one more
    line with the reason: what was measured and the claim, or the error."""
    from ..report import item_rows, status_text
    from ..report.model import classes_text, reproducibility_text

    for r in item_rows(document):
        mark = OUTCOME_MARK[r["outcome"]]
        print(_line(f"{mark:<10} {r['class']:<21} {r['spec']}: {r['item']} [{r['target']}]"))
        if r["outcome"] != AS_EXPECTED:
            print(_line(f"           why: {r.get('error') or r['measured'] + '; claim: ' + r['claim']}"))
    s = document["summary"]
    print(_paragraph(document["family"]["statement"]))
    print(_paragraph(f"controls flagged: {s['controls_flagged']} of {s['controls']}; {s['items']} items "
                     f"({classes_text(s)}): "
                     f"{s['as_expected']} as expected, {s['unexpected']} unexpected, {s['no_power']} without power, "
                     f"{s['errors']} errors" + (f", {len(errors)} report errors" if errors else "")))
    if s.get("apart") and document["run"].get("command") == "check":
        print(_paragraph(f"{len(s['apart'])} item(s) reported apart (setup validations, checks that never call "
                         "the implementation, checks of the reference's own conventions): they say nothing against "
                         "it and do not set the exit code"))
    if document["run"].get("isolation"):
        from ..sandbox.isolation import summary

        print(f"implementation isolated by: {summary()}")
    reproducibility = reproducibility_text(document["run"])
    if reproducibility:
        print(_paragraph(reproducibility))
    print(f"{status_text(document, code)} (exit {code}) in {document['run']['seconds']:.1f} s; report: {out / 'index.html'}")


def cmd_verify(args) -> int:
    from ..run import planning

    cat = catalogue(args)
    try:
        plan_ = planning.plan(cat, args.suite, args.spec, call_timeout=args.call_timeout, papers=args.paper,
                              controls=not args.no_controls)
    except KeyError as exc:
        raise UserError(exc.args[0]) from None
    plan_.tight = args.tight
    return run_items(args, "verify", plan_)


def cmd_check(args) -> int:
    from ..run import planning
    from ..sandbox.contract_checks import bad_reference
    from ..sandbox.runner import ImplementationError, check_loadable

    cat = catalogue(args)
    try:
        spec = cat.get_spec(args.id)
    except KeyError as exc:
        raise UserError(exc.args[0]) from None
    from ..sandbox import isolation

    isolation.require(args.isolation)
    implementation(args.impl, "--impl")
    try:
        check_loadable(args.impl)  # fail early, with one line, on a bad reference (imported in a sandbox)
    except ImplementationError as exc:
        if bad_reference(exc.reason):
            raise UserError(f"--impl: {exc.reason}") from None
        # (an implementation that raises or dies while imported: every item says so, an implementation error)
    except isolation.IsolationUnavailable as exc:
        raise UserError(str(exc)) from None
    try:
        spec.bind(params := parse_params(args.param, spec))
        if params and spec.privacy is not None:
            stress_pairs(spec, params)  # a count the data fix that no stress case holds (n_pub = 5): one line, exit 2
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if params and spec.privacy is None:  # (the theorem checks' instances are their own: it would be ignored)
        raise UserError(f"--param: {spec.id} has no privacy audit, and its theorem checks run at the instances they "
                        "name: the parameter would change nothing")
    if params:
        print(f"check: --param moves the privacy audit to {', '.join(f'{k}={v}' for k, v in params.items())}; the "
              "theorem checks run at the instances they name", file=sys.stderr)
    plan_ = planning.plan(cat, args.suite, [spec.id], implementation=args.impl, controls=not args.no_controls,
                          call_timeout=args.call_timeout, audit_params=params)
    plan_.tight = args.tight
    plan_.allow = allowed(args)
    plan_.audit_samples, plan_.time_budget = args.samples, args.time_budget
    return run_items(args, "check", plan_)


def cmd_report(args) -> int:
    from .. import report
    from ..base.integrity import verify
    from ..base.outfiles import write
    from ..run import output_folder

    path = Path(plain(args.results, "RESULTS"))
    try:
        raw = path.read_bytes()
        document = json.loads(raw)
    except OSError as exc:
        raise UserError(f"{path}: cannot read: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: not JSON: {exc}") from None
    if not isinstance(document, dict) or not str(document.get("format", "")).startswith("dptestbed-results/"):
        raise UserError(f"{path}: not a dptestbed results file (no 'format: dptestbed-results/...')")
    why = verify(document)
    if why:
        raise UserError(f"{path}: {why}: not rendered (a report shows only results this machine's dptestbed "
                        "wrote; the run's own report folder has its pages)")
    out = folder(args.out or str(path.parent), args.force)
    try:
        with output_folder.output_lock(out):
            errors = report.render(document, out, jobs=max(1, min(2, os.cpu_count() or 1)))
            if not (out / "results.json").exists() or not (out / "results.json").samefile(path):
                write(out / "results.json", raw)  # the folder re-renders by itself
    except output_folder.OutputBusy as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"--out {out}: {exc.strerror or exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise UserError(f"{path}: not a usable dptestbed results file ({type(exc).__name__}: {exc})") from None
    code = report.exit_code(document, errors)
    print(f"report: {out / 'index.html'} (exit {code})")
    return code
