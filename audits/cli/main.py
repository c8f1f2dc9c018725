"""The ``dptestbed`` command line: the parser of every command, signals, and the dispatch that turns
a user's mistake into one line on stderr (never a traceback)."""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import os
import select
import signal
import sys
import threading
import warnings

from dptestbed.spec import SpecError

from ..base import sanitize
from ..base.verdict import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from ..sandbox import isolation, workers
from ..sandbox.proctree import become_subreaper, kill_descendants
from . import audit, mutants, specs, verify
from .options import TOP_HELP, Parser, UserError

COMMANDS = (specs, audit, verify, mutants)  # each module's register(subparsers) adds its commands


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="dptestbed", description="Spec-driven testbed for differentially private learning: privacy audits, "
                                      "theorem checks and mutation testing of implementations against the specs.",
        epilog=TOP_HELP)
    parser.add_argument("--version", action=_VersionAction, nargs=0, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", required=True)
    for module in COMMANDS:
        module.register(sub)
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
        # numpy's floating-point warnings about values an implementation returned (an overflow of 1e308 - -1e308)
        # are neither the user's business nor safe text: results say what was measured
        warnings.filterwarnings("ignore", category=RuntimeWarning)
    if top and args.command in ("check", "audit"):
        isolation.run_user()  # (root) chosen before the items fork, so that they share it
    try:
        return _dispatch(args)
    finally:
        if top:
            kill_descendants()
            isolation.end_run()
            # The interpreter's collections at exit traverse every object numpy, scipy and the specs
            # made (25-35 ms, a tenth of a one-mechanism audit); frozen objects are skipped by them
            # and still freed at exit by reference counting. Nothing runs after this but the exit.
            gc.freeze()


def _dispatch(args) -> int:
    try:
        if args.command in ("audit", "check", "verify", "mutants") and workers.configuration_error():
            raise UserError(workers.configuration_error())
        if args.command not in LISTINGS:
            return args.func(args)
        with contextlib.redirect_stdout(io.StringIO()) as listing:  # a spec's text is not ours
            code = args.func(args)
        sys.stdout.write(sanitize.text(listing.getvalue()))
        return code
    except (UserError, SpecError) as exc:
        print(f"dptestbed: error: {sanitize.line(exc)}", file=sys.stderr)  # may quote a spec or an implementation
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"dptestbed: {args.command} interrupted: no verdict (exit {EXIT_INTERRUPTED})", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError as exc:
        if not _reader_gone(sys.stdout):
            print(f"dptestbed: error: {args.command}: {exc.strerror or exc} on a pipe that is not the output "
                  f"(exit {EXIT_USAGE})", file=sys.stderr)
            return EXIT_USAGE
        # stdout was closed by the reader (``| head``): nothing more can be printed there
        try:
            sys.stdout = open(os.devnull, "w")  # replaces the dead stream until exit
        except OSError:
            pass
        if args.command in LISTINGS:
            return EXIT_OK
        where = "; it is in the report folder" if args.command in ("verify", "check", "mutants") else ""
        print(f"dptestbed: error: stdout closed before the {args.command} result was printed{where} "
              f"(exit {EXIT_USAGE})", file=sys.stderr)
        return EXIT_USAGE


def _reader_gone(stream) -> bool:
    """The reader of ``stream`` closed its end (a pipe polls as an error then); True when unknown."""
    try:
        poller = select.poll()
        poller.register(stream.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (AttributeError, ValueError, OSError):
        return True

