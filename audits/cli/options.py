"""What the commands share: one-line user errors, argument types, the spec and parameter lookups,
and the options of the commands that run items (output folder, seed, executor, limits)."""

from __future__ import annotations

import argparse
import difflib
import math
import os
import stat
import time
from pathlib import Path
from typing import Any

from dptestbed.spec import Catalogue, Spec, find_spec, load_catalogue

from ..base import sanitize
from ..base.verdict import ALLOWABLE, EXIT_USAGE, HELP

# the exit codes of each command, shown by its --help (the codes themselves: audits/base/verdict.py)
EXIT_HELP = {
    "audit": HELP,
    "check": HELP,
    "verify": "exit codes: 0 every outcome as expected; 1 an unexpected outcome (a reference flagged, a negative "
              "control not flagged); 2 bad usage; 4 every outcome as expected but some checks had no power; 6 some "
              "items could not run; 130 interrupted",
    "mutants": "exit codes: 0 every non-equivalent mutant killed; 1 a mutant survived every check; 2 bad usage; 6 some "
               "mutants could not be checked; 130 interrupted",
    "report": "exit codes: the rendered run's own (its summary.exit_code, as the command that ran it returned), or 6 "
              "when part of the report could not be drawn; 2 bad usage (not a results file, a results file that does "
              "not verify as this machine's dptestbed's, --out not a folder); 130 interrupted",
    "specs": "exit codes: 0 listed; 2 bad usage (an unknown paper)",
    "show": "exit codes: 0 shown; 2 bad usage (an unknown spec, a bad parameter)",
}
TOP_HELP = ("exit codes (each command's --help has its own): audit, check: 0 pass, 1 claim violated, 3 differs from the "
            "spec, 4 no power, 5 implementation error, 6 run error; verify, mutants: 0 every outcome as expected, 1 an "
            "unexpected outcome, 4 some check without power (verify), 6 some item could not run; every command: 2 bad "
            "usage, 130 interrupted")

MAX_INTEGER_PARAM = 2**31 - 1
MAX_JOBS = 64
DEFAULT_REPORTS = "reports"


class UserError(Exception):
    """A problem with what the user asked for; printed as one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (``dptestbed: error: ...``, exit 2), usage left to --help."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"dptestbed {self.prog.partition(' ')[2] or ''}: error: {message}\n".replace(" :", ":"))


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

def plain(text: str, flag: str) -> str:
    """``text`` (a name a flag gives) unless it holds characters that act on a terminal or a file's format
    (a newline, an escape sequence: :mod:`..base.sanitize`), which is a usage error naming ``flag``."""
    if sanitize.text(text) != text or "\n" in text or "\t" in text:
        raise UserError(f"{flag} {sanitize.line(text, 80)}: the name holds control characters (a newline, an "
                        "escape sequence); rename it")
    return text


def spec_folder(args) -> str | None:
    """``--dir``, when given (a plain name)."""
    folder = getattr(args, "dir", None)
    return plain(folder, "--dir") if folder is not None else None


def catalogue(args) -> Catalogue:
    """The catalogue of ``--dir`` (or the packaged one), loaded once per command."""
    folder = spec_folder(args)
    if folder not in _LOADED:
        _LOADED[folder] = load_catalogue(folder)
    return _LOADED[folder]


_LOADED: dict[str | None, Catalogue] = {}


def get_spec(args) -> Spec:
    try:
        return find_spec(args.id, spec_folder(args))
    except KeyError as exc:
        raise UserError(exc.args[0]) from None


def implementation(text: str, flag: str = "--impl") -> str:
    """An implementation reference of the command line, checked before anything runs: a plain name;
    ``path/to/file.py:function`` names a regular file it can read (not a FIFO, a folder, a device, nor
    anything under /dev or /proc), ``package.module:function`` a dotted name. A usage error otherwise.
    (A file the sandbox's user may not read is loaded from a copy: :func:`..sandbox.isolation.staged`.)"""
    plain(text, flag)
    target, sep, name = text.rpartition(":")
    if not sep or not name.isidentifier():
        raise UserError(f"{flag} {text}: expected path/to/file.py:function or package.module:function")
    if not (target.endswith(".py") or "/" in target or os.sep in target):
        if not all(part.isidentifier() for part in target.split(".")):
            raise UserError(f"{flag} {text}: {target!r} is not a module name (package.module)")
        return text
    given, real = os.path.abspath(os.path.expanduser(target)), os.path.realpath(os.path.expanduser(target))
    if any(path.split(os.sep)[1:2] in (["dev"], ["proc"], ["sys"]) for path in (given, real)):
        raise UserError(f"{flag} {text}: a device or a process's file, not a Python file")
    try:
        info = os.stat(real)
    except FileNotFoundError:
        raise UserError(f"{flag} {text}: no such file") from None
    except OSError as exc:
        raise UserError(f"{flag} {text}: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise UserError(f"{flag} {text}: not a regular file (a folder, a FIFO or a device)")
    if not os.access(real, os.R_OK):
        raise UserError(f"{flag} {text}: cannot be read")
    return text  # run by root, a file the sandbox's user may not read is loaded from a copy (isolation.staged)


def parse_params(pairs: list[str] | None, spec: Spec) -> dict:
    """``["epsilon=1", "T=3"]`` -> ``{"epsilon": 1.0, "T": 3}`` typed by the spec's domains."""
    values: dict[str, Any] = {}
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


def allow_option(p) -> None:
    p.add_argument("--allow", action="append", choices=sorted(ALLOWABLE), default=[], metavar="CLASS",
                   help="count this class as a pass in the exit code (repeatable): 'differs' (differs from the spec) "
                        "or 'no-power'; the console and the report still show it")


def allowed(args) -> tuple[str, ...]:
    """The classes of ``--allow``."""
    return tuple(ALLOWABLE[name] for name in args.allow)


def isolation_arg(p) -> None:
    """``--isolation``: how an untrusted implementation must be confined (:mod:`..sandbox.isolation`)."""
    p.add_argument("--isolation", choices=("auto", "strict", "uid", "process"), default="auto",
                   help="auto (default: the strongest confinement this system allows; the output says which), "
                        "strict (fail unless user, mount, PID and network namespaces are available), or a weaker "
                        "level on purpose: uid (an unprivileged user when root) or process; see docs/isolation.md")


def randomness_arg(p) -> None:
    """``--randomness``: where the implementation's random numbers come from (:mod:`..sandbox.runner`)."""
    p.add_argument("--randomness", choices=("rng", "own"), default="rng",
                   help="rng (default: every random number from the rng argument; a probe checks it and the run is "
                        "reproducible from --seed) or own (the implementation draws from a source of its own, e.g. a "
                        "library's OS entropy: no determinism probe and no replay check; samples drawn in workers "
                        "whose random state is independent, the same statistics and confidence; the run is not "
                        "reproducible)")


def tight_option(p) -> None:
    p.add_argument("--tight", action="store_true",
                   help="every privacy audit also runs its tight round (audit --tight): bounds close to the exact "
                        "loss, reported as a fraction of it; slower")


def executor_args(p, what: str) -> None:
    """``--jobs``, ``--executor``, ``--scheduler``: where ``what`` runs."""
    p.add_argument("--jobs", type=bounded_int(1, MAX_JOBS), default=None, metavar="N",
                   help=f"parallel workers, 1..{MAX_JOBS} (default: min(2, CPUs)); with --scheduler the cluster's own")
    p.add_argument("--executor", choices=("local", "dask"), default=None,
                   help="local (default: forked processes on this machine) or dask (a Dask cluster: --scheduler, "
                        "else a LocalCluster of --jobs worker processes; needs dask.distributed: pip install '.[dask]' "
                        "in a dptestbed clone)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help=f"run {what} on the Dask cluster of this scheduler (tcp://host:8786); implies --executor dask")


def run_options(p) -> None:
    """The options of the commands that run items and write a report folder (verify, check, mutants)."""
    out_option(p, "output folder (default: reports/<command>-<suite>-<time>)")
    p.add_argument("--seed", type=seed_value, default=0, help="run seed (default 0); every item derives its own stream")
    executor_args(p, "the items")
    p.add_argument("--call-timeout", type=positive_float, default=60.0, metavar="S",
                   help="seconds allowed for one call of an implementation (default 60)")
    p.add_argument("--timeout-scale", type=positive_float, default=1.0, metavar="X",
                   help="multiply every item's time limit by X (slow machines)")
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="print one line per finished item (default: when stderr is a terminal)")
    p.add_argument("--quiet", dest="progress", action="store_false", help="no progress lines")
    p.add_argument("--no-plots", action="store_true", help="skip the PNG plots and formula images (faster; formulas shown as their LaTeX source)")
    p.add_argument("--dir", help="load specs from this folder instead of the packaged catalogue")
    randomness_arg(p)
    p.add_argument("--resume", action="store_true",
                   help="continue the interrupted run whose results.json is in --out (same command, suite, seed, "
                        "implementation and plan, and the same commit when run from a git checkout): its finished "
                        "items are kept, the others run (items that ended in an error run again)")


def out_option(p, text: str) -> None:
    """``--out`` and ``--force``."""
    p.add_argument("--out", metavar="DIR", help=text)
    p.add_argument("--force", action="store_true",
                   help="write into --out even when it is not empty and not a dptestbed output folder, or is the "
                        "root, your home or a project's root (dptestbed's files there are replaced; nothing else "
                        "is deleted)")


def folder(text: str, force: bool = False) -> Path:
    """``--out DIR``: a folder, or a path where one can be made, that may become an output folder
    (:func:`..run.output_folder.check_folder`; ``force``: ``--force``)."""
    from ..run.output_folder import check_folder

    out = Path(plain(text, "--out"))
    why = check_folder(out, force=force)
    if why:
        raise UserError(f"--out {text}: {why}")
    return out


def out_dir(args, command: str) -> Path:
    """The output folder: ``--out``, else ``reports/<command>-<suite>-<time>``."""
    if args.resume and not args.out:
        raise UserError("--resume needs --out: the folder of the run to continue")
    if args.out:
        return folder(args.out, args.force)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(DEFAULT_REPORTS) / f"{command}-{args.suite}-{stamp}"


def jobs_of(args) -> int:
    """``--jobs``, else min(2, CPUs)."""
    return args.jobs if args.jobs is not None else max(1, min(2, os.cpu_count() or 1))


def wants_dask(args) -> bool:
    """``--executor dask`` or ``--scheduler`` (the two contradict with ``--executor local``)."""
    if args.executor == "local" and args.scheduler:
        raise UserError("--scheduler runs on a Dask cluster: drop --executor local")
    return (args.executor or ("dask" if args.scheduler else "local")) == "dask"


def executor_of(args, jobs: int):
    """The executor of ``--executor``/``--scheduler`` (dask.distributed is imported only for dask)."""
    from ..run import execution

    if not wants_dask(args):
        return execution.LocalExecutor(jobs)
    from ..run.dask_executor import DaskExecutor, require

    try:
        require()
    except execution.ExecutorUnavailable as exc:
        raise UserError(str(exc)) from None
    return DaskExecutor(args.scheduler, workers=jobs)
