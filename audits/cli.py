"""The ``dptestbed`` command line.

Exit codes: 0 fine; 1 a violation was found (audit/verify/check); 2 bad input (bad spec,
unknown id, parameter out of domain) or an implementation error. User errors print one
line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import gc
import importlib
import io
import json
import math
import os
import select
import signal
import sys
import threading

import numpy as np

from dptestbed.spec import Catalogue, Spec, SpecError, find_spec, load_catalogue

from . import sanitize
from .proctree import become_subreaper, kill_descendants
from .runner import missing_reference
from .serialize import jsonable

EXIT_OK, EXIT_VIOLATION, EXIT_BAD_INPUT = 0, 1, 2
MAX_INTEGER_PARAM = 2**31 - 1
COMMAND_MODULES = ("audit_command", "verify_command", "mutants_command")


class UserError(Exception):
    """A problem with what the user asked for; printed as one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``dptestbed: error: ...``, exit 2), usage left to --help."""

    def error(self, message):
        self.exit(EXIT_BAD_INPUT, f"dptestbed {self.prog.partition(' ')[2] or ''}: error: {message}\n".replace(" :", ":"))


MAX_JOBS = 64


def positive_float(text: str) -> float:
    """argparse type: a finite number > 0 (nan and inf would disable a time limit)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r}: must be a finite number > 0")
    return value


def bounded_int(lo: int, hi: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{text!r}: must be between {lo} and {hi}")
        return value
    return parse


seed_value = bounded_int(0, 2**63 - 1)


def _catalogue(args) -> Catalogue:
    return load_catalogue(getattr(args, "dir", None))


def _get_spec(args) -> Spec:
    try:
        return find_spec(args.id, getattr(args, "dir", None))
    except KeyError as exc:
        raise UserError(exc.args[0]) from None


def parse_params(pairs: list[str] | None, spec: Spec) -> dict:
    """``["epsilon=1", "T=3"]`` -> ``{"epsilon": 1.0, "T": 3}`` typed by the spec's domains."""
    values = {}
    for pair in pairs or []:
        name, sep, raw = pair.partition("=")
        name = name.strip()
        if not sep:
            raise UserError(f"--param {pair!r}: expected NAME=VALUE")
        if name not in spec.parameters:
            close = difflib.get_close_matches(name, list(spec.parameters), n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise UserError(f"--param {name}: {spec.id} has no parameter {name!r}; {hint}parameters: "
                            f"{', '.join(spec.parameters)}")
        param = spec.parameters[name]
        if param.type == "choice":
            values[name] = raw
            continue
        try:
            number = float(raw)
        except ValueError:
            raise UserError(f"--param {name}: {raw!r} is not a number") from None
        if not math.isfinite(number):
            raise UserError(f"--param {name}: {raw!r} is not finite")
        if param.type == "integer" and abs(number) > MAX_INTEGER_PARAM:
            raise UserError(f"--param {name}: {raw!r} is too large for an integer parameter (at most {MAX_INTEGER_PARAM})")
        values[name] = int(number) if param.type == "integer" and number.is_integer() else number
    return values


def spec_summary(spec: Spec) -> dict:
    """The JSON object of ``dptestbed specs --json`` for one spec."""
    return {
        "id": spec.id,
        "title": spec.title,
        "paper": spec.paper,
        "seed": spec.seed,
        "source": spec.source,
        "implementation": spec.implementation,
        "variant_of": spec.variant_of,
        "erratum": spec.erratum,
        "broken": spec.broken,
        "known_violation": spec.known_violation,
        "privacy": None if spec.privacy is None else {
            "epsilon": spec.privacy.epsilon.source,
            "delta": spec.privacy.delta.source,
            "theorem": spec.privacy.theorem,
            "neighbours": spec.neighbours["relation"],
        },
        "neighbours": jsonable(spec.neighbours),
        "theorems": [
            {"ref": t.ref, "kind": t.kind, "statement": t.statement, "constant": t.constant,
             "quantities": {k: f.source for k, f in t.quantities.items()},
             "preconditions": [f.source for f in t.preconditions]}
            for t in spec.theorems
        ],
    }


def cmd_specs(args) -> int:
    catalogue = _catalogue(args)
    papers = args.paper or catalogue.papers
    unknown = [p for p in papers if p not in catalogue.papers]
    if unknown:
        raise UserError(f"unknown paper {unknown[0]!r}; papers: {', '.join(catalogue.papers)}")
    specs = [s for s in catalogue.values() if s.paper in papers]
    if args.json:
        print(json.dumps([spec_summary(s) for s in specs], indent=2))
        return EXIT_OK
    width = max((len(s.id) for s in specs), default=2)
    spec_only = 0
    for paper in papers:
        group = [s for s in specs if s.paper == paper]
        print(f"{paper or '(no paper folder)'}: {len(group)} specs")
        for spec in group:
            seed = (spec.seed or "external")[:3]
            tag = f" [variant of {spec.variant_of}]" if spec.variant_of else ""
            if missing_reference(spec.implementation):
                tag += " [spec only: no reference implementation yet]"
                spec_only += 1
            print(f"  {spec.id:<{width}}  {seed:<8}  {len(spec.theorems):>2} thm  {spec.title}{tag}")
    print(f"{len(specs)} specs, {sum(len(s.theorems) for s in specs)} theorems")
    if spec_only:
        print("(spec only: check your own implementation of it with 'dptestbed check ID --impl file.py:function')")
    return EXIT_OK


def cmd_show(args) -> int:
    spec = _get_spec(args)
    try:
        env = spec.bind(parse_params(args.param, spec))
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        out = spec_summary(spec)
        out["parameters"] = {n: {"value": env.get(n), "domain": p.domain_text(), "description": p.description}
                             for n, p in spec.parameters.items()}
        out["derived"] = {n: {"formula": d.formula.source, "latex": d.formula.latex(), "value": env.get(n),
                              "constant": d.constant, "description": d.description}
                          for n, d in spec.derived.items()}
        out["theorem_values"] = _theorem_values(spec, env)
        print(json.dumps(jsonable(out), indent=2))
        return EXIT_OK
    print(f"{spec.id}: {spec.title}")
    src = spec.source
    print(f"  source: {src.get('seed') or src.get('reference')} {src.get('section', '')} {src.get('algorithm', '')}".rstrip())
    if spec.variant_of:
        print(f"  variant of {spec.variant_of}" + (f" (erratum {spec.erratum['id']})" if spec.erratum else ""))
    if spec.broken:
        print(f"  deliberately broken: {spec.broken}")
    if spec.known_violation:
        print(f"  known not to keep its claim: {spec.known_violation}")
    print("  parameters:")
    for name, p in spec.parameters.items():
        print(f"    {name} = {_fmt(env.get(name))}    [{p.domain_text()}] {p.description}")
    if spec.derived:
        print("  derived:")
        for name, d in spec.derived.items():
            print(f"    {name} = {d.formula.source} = {_fmt(env.get(name))}    ({d.constant}) {d.description}")
    print(f"  input: {spec.input['description']}")
    print(f"  neighbours: {spec.neighbours['relation']}: {spec.neighbours['description']}")
    print(f"  output: {spec.output['space']} ({spec.output['encoding']})")
    if spec.privacy:
        p = spec.privacy
        print(f"  privacy ({p.theorem}): epsilon = {p.epsilon.source} = {_fmt(_value(p.epsilon, env))}, "
              f"delta = {p.delta.source} = {_fmt(_value(p.delta, env))}")
    print("  theorems:")
    values = _theorem_values(spec, env)
    for t in spec.theorems:
        print(f"    {t.ref} [{t.kind}; constant: {t.constant}] {t.statement}")
        for name, v in values[t.ref].items():
            print(f"        {name} = {t.quantities[name].source} = {_fmt(v)}")
    return EXIT_OK


def _theorem_values(spec: Spec, env: dict) -> dict:
    out = {}
    for t in spec.theorems:
        scope, values = dict(env), {}
        for _ in range(len(t.quantities)):  # quantities may refer to each other, in any order
            for name, f in t.quantities.items():
                if name not in values and f.names <= scope.keys():
                    values[name] = scope[name] = f.evaluate(scope)
        out[t.ref] = {name: values.get(name) for name in t.quantities}
    return out


def _value(formula, env):
    return formula.evaluate(env) if formula.names <= env.keys() else None


def _fmt(value) -> str:
    if value is None:
        return "?"
    if isinstance(value, (float, np.floating, np.ndarray)) and np.ndim(value) == 0:
        v = float(value)
        return f"{v:.6g}"
    return str(value)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="dptestbed", description="Spec-driven testbed for differentially private learning: privacy audits, "
                                      "theorem checks and mutation testing of implementations against the specs.")
    parser.add_argument("--version", action=_VersionAction, nargs=0, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("specs", help="list the specs")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.add_argument("--paper", nargs="+", action="extend", metavar="NAME", help="only these papers (spec/ folders)")
    p.add_argument("--dir", help="load specs from this folder instead of the packaged catalogue")
    p.set_defaults(func=cmd_specs)

    p = sub.add_parser("show", help="show one spec, with derived quantities evaluated")
    p.add_argument("id")
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="parameter value (repeatable)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--dir", help="load specs from this folder")
    p.set_defaults(func=cmd_show)

    # Each further command lives in its own module with a register(subparsers) function.
    for module in COMMAND_MODULES:
        importlib.import_module(f"dptestbed.audits.{module}").register(sub)
    return parser


class _VersionAction(argparse.Action):
    """--version, looked up only when asked (importlib.metadata costs a command's start 25 ms)."""

    def __call__(self, parser, namespace, values, option_string=None):
        import importlib.metadata

        try:
            version = importlib.metadata.version("dptestbed")
        except importlib.metadata.PackageNotFoundError:
            version = "unknown"
        print(f"dptestbed {version}")
        parser.exit()


LISTINGS = ("specs", "show")  # commands whose whole job is printing: a closed pipe ends them quietly


def _terminate(signum, frame):
    raise KeyboardInterrupt  # SIGTERM (a CI timeout) ends a run like Ctrl-C: items killed, partial report


def _keep_freed_memory() -> None:
    """Tunes glibc's malloc for many large short-lived arrays (a no-op on other C libraries).

    By default glibc serves every allocation above 128 kB (a threshold that adapts up to 32 MB)
    with a fresh mmap, returns it to the kernel when freed, and takes a page fault per 4 kB when
    the next array touches new memory. An audit allocates and frees arrays of 1-60 MB thousands
    of times: Lyu et al.'s Algorithm 3 spent 1.0-1.4 s of its 2.6 s in the kernel. Here freed
    memory below 32 MB stays in the heap for the next array (threshold fixed at its maximum, no
    trimming, one arena shared by the sampling threads); the process's peak memory is unchanged,
    and it no longer shrinks before it exits."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return
    M_TRIM_THRESHOLD, M_MMAP_THRESHOLD, M_ARENA_MAX = -1, -3, -8
    mallopt(M_ARENA_MAX, 1)
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024)
    mallopt(M_TRIM_THRESHOLD, 2**31 - 1)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    top = threading.current_thread() is threading.main_thread() and argv is None
    if top:  # the command line owns every process it starts, and everything they start
        signal.signal(signal.SIGTERM, _terminate)
        become_subreaper()
        _keep_freed_memory()
    try:
        return _dispatch(args)
    finally:
        if top:
            kill_descendants()
            # The interpreter's collections at exit traverse every object numpy, scipy and the specs
            # made (25-35 ms, a tenth of a one-mechanism audit); frozen objects are skipped by them
            # and still freed at exit by reference counting. Nothing runs after this but the exit.
            gc.freeze()


def _dispatch(args) -> int:
    try:
        if args.command not in LISTINGS:
            return args.func(args)
        with contextlib.redirect_stdout(io.StringIO()) as listing:  # a spec's text is not ours
            code = args.func(args)
        sys.stdout.write(sanitize.text(listing.getvalue()))
        return code
    except (UserError, SpecError) as exc:
        print(f"dptestbed: error: {sanitize.line(exc)}", file=sys.stderr)  # may quote a spec or an implementation
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print(f"dptestbed: {args.command} interrupted: no verdict (exit 2)", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError as exc:
        if not _reader_gone(sys.stdout):
            print(f"dptestbed: error: {args.command}: {exc.strerror or exc} on a pipe that is not the output "
                  "(exit 2)", file=sys.stderr)
            return EXIT_BAD_INPUT
        # stdout was closed by the reader (``| head``): nothing more can be printed there
        try:
            sys.stdout = open(os.devnull, "w")  # replaces the dead stream until exit
        except OSError:
            pass
        if args.command in LISTINGS:
            return EXIT_OK
        print(f"dptestbed: error: stdout closed before the {args.command} result was printed; "
              "the verdict is in the report (exit 2)", file=sys.stderr)
        return EXIT_BAD_INPUT


def _reader_gone(stream) -> bool:
    """The reader of ``stream`` closed its end (a pipe polls as an error then); True when unknown."""
    try:
        poller = select.poll()
        poller.register(stream.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (AttributeError, ValueError, OSError):
        return True


if __name__ == "__main__":
    sys.exit(main())
