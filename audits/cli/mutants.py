"""``dptestbed mutants [SPEC ...] [--paper NAME ...] [--suite quick|full]``: run every check of each
spec against every declared implementation mutant and write the kill matrix (see
:mod:`..run.mutation`) into the report (HTML table, report.md, results.json ``mutants``)."""

from __future__ import annotations

from pathlib import Path

from .options import EXIT_HELP, UserError, catalogue, run_options
from .verify import run_items


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "mutants", help="run every check of a spec against its implementation mutants; write the kill matrix",
        epilog=EXIT_HELP["mutants"])
    p.add_argument("spec", nargs="*", metavar="SPEC", help="only these specs (default: every spec with mutants)")
    p.add_argument("--paper", nargs="+", action="extend", metavar="NAME", help="only the specs of these papers")
    p.add_argument("--suite", choices=("quick", "full"), default="quick")
    run_options(p)
    p.set_defaults(func=cmd_mutants)


def cmd_mutants(args) -> int:
    from ..run import mutation

    cat = catalogue(args)
    try:
        plan_ = mutation.plan_mutants(cat, args.suite, args.spec or None, args.paper,
                                      call_timeout=args.call_timeout)
    except KeyError as exc:
        raise UserError(exc.args[0]) from None
    if not plan_.mutants:
        raise UserError("no implementation mutants are declared for the selected specs")
    return run_items(args, "mutants", plan_, summary=_print_matrix)


def _print_matrix(document: dict, out: Path, code: int, errors: list) -> None:
    from ..report import status_text

    matrix = document.get("mutants") or {"rows": [], "rates": {}, "overall": {}}
    width = max((len(r["id"]) for r in matrix["rows"]), default=10)
    for r in matrix["rows"]:
        how = f"{r['kill_class']}: {', '.join(r['killed_by'])}" if r["killed_by"] else (r["equivalent"] or "")
        label = "" if r.get("label_backed", True) else "  [declared breaks not backed by a measurement]"
        print(f"{r['id']:<{width}}  {r['breaks']:<8} {r['status']:<12} {how}{label}")
    for spec, rate in matrix["rates"].items():
        shown = "n/a" if rate["rate"] is None else f"{rate['rate']:.0%}"
        print(f"kill rate {spec}: {rate['killed']} of {rate['mutants'] - rate['equivalent']} ({shown})"
              + (f", {rate['equivalent']} equivalent" if rate["equivalent"] else ""))
    o = matrix["overall"]
    if o:
        shown = "n/a" if o["rate"] is None else f"{o['rate']:.1%}"
        by_class = ", ".join(f"{c} {n}" for c, n in o["killed_by_class"].items())
        print(f"overall: {o['killed']} of {o['mutants'] - o['equivalent']} non-equivalent mutants killed ({shown}); "
              f"by the strongest killer's class: {by_class}; loss above the claim measured for {o['privacy_shown']}, "
              f"computed exactly for {o.get('privacy_exact_only', 0)} more ({o['privacy_breaking']} declared privacy-breaking); per-cell level {o['per_cell_level']:.3g}, at most "
              f"{o['expected_spurious_kills']:.2g} spurious kills expected over {o['statistical_cells']} statistical cells")
    from ..report.model import reproducibility_text

    if reproducibility_text(document["run"]):
        print(reproducibility_text(document["run"]))
    print(f"{status_text(document, code)} (exit {code}) in {document['run']['seconds']:.1f} s; report: {out / 'index.html'}")
