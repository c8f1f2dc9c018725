"""``dptestbed verify``, ``dptestbed check`` and ``dptestbed report``.

``verify [--suite quick|full] [--spec ID ...] [--out DIR] [--seed S] [--jobs N]`` runs the
privacy audits and theorem checks (with their negative controls) of the suite and writes a
report folder: index.html, report.md, results.json, junit.xml, plots/*.png.

``check ID --impl REF [--out DIR] [--suite quick|full]`` runs every privacy audit and theorem
check of spec ID against a user implementation (``path/to/file.py:function`` or
``package.module:function``); same outputs and exit codes.

``--executor dask`` or ``--scheduler ADDRESS`` (verify, check, mutants) runs the items on a Dask
cluster instead of forked local processes (:mod:`.dask_executor`); the results are the same.

``report RESULTS.json --out DIR`` re-renders a report from a results file, without running
anything.

Exit codes: 0 every outcome as expected (references consistent, controls flagged); 1 some
outcome unexpected (a violation of a real check, or a control not flagged); 2 an item could
not run (crash, timeout, implementation error, failed plot) or bad input.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from .cli import EXIT_BAD_INPUT, MAX_JOBS, UserError, _catalogue, bounded_int, parse_params, positive_float, seed_value

DEFAULT_REPORTS = "reports"
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
example (Laplace mechanism):
  def laplace(data, *, rng, epsilon, gamma):
      f = np.asarray(data, dtype=float)
      return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)
  laplace.batch = lambda data, n, *, rng, epsilon, gamma: (
      np.asarray(data, float) + rng.laplace(0.0, gamma / epsilon, size=(n, *np.shape(data))))
"""


def register(subparsers) -> None:
    """Add ``verify``, ``check`` and ``report`` to the ``dptestbed`` parser."""
    p = subparsers.add_parser("verify", help="run the privacy audits and theorem checks; write a report")
    p.add_argument("--suite", choices=("quick", "full"), default="quick",
                   help="quick (default: small trial counts, specs with an implementation) or full")
    p.add_argument("--spec", nargs="+", action="extend", metavar="ID", help="only these specs (and their broken variants)")
    p.add_argument("--paper", nargs="+", action="extend", metavar="NAME",
                   help="only the specs of these papers (folders of spec/, see 'dptestbed specs')")
    p.add_argument("--no-controls", action="store_true",
                   help="skip the negative controls (deliberately broken specs and implementations): the "
                        "reference items alone, e.g. to measure the false-alarm rate over seeds")
    _tight(p)
    _common(p)
    p.set_defaults(func=cmd_verify)

    p = subparsers.add_parser("check", help="run every audit and theorem check of a spec against your implementation",
                              epilog=CONTRACT, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("id", help="spec id (see 'dptestbed specs')")
    p.add_argument("--impl", required=True, metavar="REF",
                   help="your implementation: path/to/file.py:function or package.module:function")
    p.add_argument("--suite", choices=("quick", "full"), default="quick")
    p.add_argument("--no-controls", action="store_true", help="skip the negative controls of the theorem checks")
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="audit at this parameter point instead of the spec's audit points (repeatable)")
    isolation_arg(p)
    _tight(p)
    _common(p)
    p.set_defaults(func=cmd_check)

    p = subparsers.add_parser("report", help="re-render a report from a results.json (runs nothing)")
    p.add_argument("results", help="path to results.json")
    p.add_argument("--out", help="output folder (default: the folder of RESULTS)")
    p.set_defaults(func=cmd_report)


def isolation_arg(p) -> None:
    """``--isolation``: how an untrusted implementation must be confined (:mod:`.isolation`)."""
    p.add_argument("--isolation", choices=("auto", "strict", "uid", "process"), default="auto",
                   help="auto (default: the strongest confinement this system allows; the output says which), "
                        "strict (fail unless user, mount, PID and network namespaces are available), or a weaker "
                        "level on purpose: uid (an unprivileged user when root) or process; see docs/isolation.md")


def _tight(p) -> None:
    p.add_argument("--tight", action="store_true",
                   help="every privacy audit also runs its tight round (audit --tight): bounds close to the exact "
                        "loss, reported as a fraction of it; slower")


def executor_args(p, what: str) -> None:
    """``--jobs``, ``--executor``, ``--scheduler``: where ``what`` runs."""
    p.add_argument("--jobs", type=bounded_int(1, MAX_JOBS), default=None, metavar="N",
                   help=f"parallel workers, 1..{MAX_JOBS} (default: min(2, CPUs)); with --scheduler the cluster's own")
    p.add_argument("--executor", choices=("local", "dask"), default=None,
                   help="local (default: forked processes on this machine) or dask (a Dask cluster: --scheduler, "
                        "else a LocalCluster of --jobs worker processes; needs the extra dptestbed[dask])")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help=f"run {what} on the Dask cluster of this scheduler (tcp://host:8786); implies --executor dask")


def _common(p) -> None:
    p.add_argument("--out", metavar="DIR", help="output folder (default: reports/<command>-<suite>-<time>)")
    p.add_argument("--seed", type=seed_value, default=0, help="run seed (default 0); every item derives its own stream")
    executor_args(p, "the items")
    p.add_argument("--call-timeout", type=positive_float, default=60.0, metavar="S",
                   help="seconds allowed for one call of an implementation (default 60)")
    p.add_argument("--timeout-scale", type=positive_float, default=1.0, metavar="X",
                   help="multiply every item's time limit by X (slow machines)")
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="print one line per finished item (default: when stderr is a terminal)")
    p.add_argument("--quiet", dest="progress", action="store_false", help="no progress lines")
    p.add_argument("--no-plots", action="store_true", help="skip the PNG plots (faster)")
    p.add_argument("--dir", help="load specs from this folder instead of the packaged catalogue")
    p.add_argument("--resume", action="store_true",
                   help="continue the interrupted run whose results.json is in --out (same command, suite, seed, "
                        "implementation and plan, and the same commit when run from a git checkout): its finished "
                        "items are kept, the others run (items that ended in an error run again)")


def _out_dir(args, command: str) -> Path:
    if args.resume and not args.out:
        raise UserError("--resume needs --out: the folder of the run to continue")
    if args.out:
        out = Path(args.out)
        if out.exists() and not out.is_dir():
            raise UserError(f"--out {args.out}: exists and is not a folder")
        return out
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(DEFAULT_REPORTS) / f"{command}-{args.suite}-{stamp}"


def jobs_of(args) -> int:
    return args.jobs if args.jobs is not None else max(1, min(2, os.cpu_count() or 1))


def wants_dask(args) -> bool:
    """``--executor dask`` or ``--scheduler`` (the two contradict with ``--executor local``)."""
    if args.executor == "local" and args.scheduler:
        raise UserError("--scheduler runs on a Dask cluster: drop --executor local")
    return (args.executor or ("dask" if args.scheduler else "local")) == "dask"


def executor_of(args, jobs: int):
    """The executor of ``--executor``/``--scheduler`` (dask.distributed is imported only for dask)."""
    from . import suite

    if not wants_dask(args):
        return suite.LocalExecutor(jobs)
    from .dask_executor import DaskExecutor, require

    try:
        require()
    except suite.ExecutorUnavailable as exc:
        raise UserError(str(exc)) from None
    return DaskExecutor(args.scheduler, workers=jobs)


def _run(args, command: str, plan_, summary=None) -> int:
    from . import suite

    if not plan_.items:
        raise UserError("nothing to run: no spec in the selection has an implementation or an experiment")
    out = _out_dir(args, command)
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    jobs = jobs_of(args)
    executor = executor_of(args, jobs)
    if progress:
        print(f"dptestbed {command}: {len(plan_.items)} items ({plan_.n_tests} theorem tests, {plan_.n_audits} "
              f"privacy audits, {sum(1 for i in plan_.items if i.expected)} controls), suite {plan_.suite}, "
              + (f"{jobs} job(s)" if executor.name == "local" else executor.name)
              + f", writing to {out}", file=sys.stderr, flush=True)
    try:
        with suite.output_lock(out):
            return _run_and_render(args, command, plan_, out, jobs, executor, progress, summary)
    except suite.OutputBusy as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"--out {out}: {exc.strerror or exc}") from None


def _run_and_render(args, command, plan_, out, jobs, executor, progress, summary) -> int:
    from . import report, suite

    try:
        document = suite.run(plan_, _catalogue(args), out, seed=args.seed, jobs=jobs, progress=progress,
                             command=command, time_scale=args.timeout_scale, resume=args.resume, executor=executor)
    except suite.ResumeError as exc:
        raise UserError(f"--resume: {out / 'results.json'}: {exc}") from None
    except suite.ExecutorUnavailable as exc:
        raise UserError(str(exc)) from None
    except KeyboardInterrupt:
        print(f"dptestbed: interrupted; rendering the partial results in {out}", file=sys.stderr)
        try:
            report.render(json.loads((out / "results.json").read_text(encoding="utf-8")), out,
                          plots=not args.no_plots)
        except Exception as exc:  # noqa: BLE001
            print(f"dptestbed: could not render the partial report: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    errors = report.render(document, out, plots=not args.no_plots, jobs=min(jobs, os.cpu_count() or 1))
    if errors:
        document.setdefault("report_errors", errors)
        suite.write_json_atomic(out / "results.json", document)
    code = report.exit_code(document, errors)
    (summary or _print_summary)(document, out, code, errors)
    return code


def _print_summary(document: dict, out: Path, code: int, errors: list) -> None:
    from .report import STATUS_TEXT, item_rows

    rows = item_rows(document)
    width = max((len(f"{r['spec']}  {r['item']}  [{r['target']}]") for r in rows), default=10)
    for r in rows:
        label = f"{r['spec']}  {r['item']}  [{r['target']}]"
        mark = {"as expected": "ok", "unexpected": "UNEXPECTED", "error": "ERROR"}[r["outcome"]]
        print(f"{label:<{width}}  {r['verdict']:<20} {mark}")
    s = document["summary"]
    print(f"{document['family']['statement']}")
    print(f"controls flagged: {s['controls_flagged']} of {s['controls']}; {s['items']} items, {s['as_expected']} as "
          f"expected, {s['unexpected']} unexpected, {s['errors']} errors" + (f", {len(errors)} report errors" if errors else ""))
    if document["run"].get("isolation"):
        from .isolation import summary

        print(f"implementation isolated by: {summary()}")
    print(f"{STATUS_TEXT.get(code, code)} (exit {code}) in {document['run']['seconds']:.1f} s; report: {out / 'index.html'}")


def cmd_verify(args) -> int:
    from . import suite

    catalogue = _catalogue(args)
    try:
        plan_ = suite.plan(catalogue, args.suite, args.spec, call_timeout=args.call_timeout, papers=args.paper,
                           controls=not args.no_controls)
    except KeyError as exc:
        raise UserError(exc.args[0]) from None
    plan_.tight = args.tight
    return _run(args, "verify", plan_)


def cmd_check(args) -> int:
    from . import suite
    from .runner import ImplementationError, check_loadable

    catalogue = _catalogue(args)
    try:
        spec = catalogue.get_spec(args.id)
    except KeyError as exc:
        raise UserError(exc.args[0]) from None
    from . import isolation

    isolation.require(args.isolation)
    try:
        check_loadable(args.impl)  # fail early, with one line, on a bad reference (imported in a sandbox)
    except ImplementationError as exc:
        raise UserError(f"--impl: {exc.reason}") from None
    except isolation.IsolationUnavailable as exc:
        raise UserError(str(exc)) from None
    try:
        spec.bind(params := parse_params(args.param, spec))
    except ValueError as exc:
        raise UserError(str(exc)) from None
    plan_ = suite.plan(catalogue, args.suite, [spec.id], implementation=args.impl, controls=not args.no_controls,
                       call_timeout=args.call_timeout, audit_params=params)
    plan_.tight = args.tight
    return _run(args, "check", plan_)


def cmd_report(args) -> int:
    from . import report

    path = Path(args.results)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"{path}: cannot read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise UserError(f"{path}: not JSON: {exc}") from None
    if not isinstance(document, dict) or not str(document.get("format", "")).startswith("dptestbed-results/"):
        raise UserError(f"{path}: not a dptestbed results file (no 'format: dptestbed-results/...')")
    out = Path(args.out) if args.out else path.parent
    from . import suite

    try:
        with suite.output_lock(out):  # never beside a run that is writing there
            errors = report.render(document, out, jobs=max(1, min(2, os.cpu_count() or 1)))
    except suite.OutputBusy as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"--out {out}: {exc.strerror or exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise UserError(f"{path}: not a usable dptestbed results file ({type(exc).__name__}: {exc})") from None
    code = report.exit_code(document, errors)
    print(f"report: {out / 'index.html'} (exit {code})")
    return code
