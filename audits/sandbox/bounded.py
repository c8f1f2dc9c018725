"""Trusted work that may be too large for the machine, run where it can be stopped: :func:`bounded_map` calls a
function on each of several items in one forked child process and stops it when an item takes more memory or
time than allowed (the item is then reported, and the child restarted for the items after it).

Each item's answer is ``(status, value)``: ``DONE`` with what the function returned, ``RAISED`` with the exception
it raised, ``LIMIT`` with the limit it passed, or ``FAILED`` with why the child gave no answer (it could not start,
or died otherwise): the caller decides whether to compute that item in its own process."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from .proctree import die_with_parent, fork_context, kill_tree, resident_mb

POLL = 0.05  # seconds between the watchdog's looks at the child
DATA_HEADROOM = 1.0  # the child's data segment may grow by this many times the memory limit (_cap_data)
DONE, RAISED, LIMIT, FAILED = "done", "raised", "limit", "failed"


def _cap_data(limit_mb: float) -> None:
    """This process's data segment (its heap and private mappings, its children's too) capped at what it holds now
    plus DATA_HEADROOM times ``limit_mb``: the watchdog looks every POLL seconds, and an item allocating faster (a
    learner's sample of 1.7e8 examples on a loaded machine: 2.4 GB before it was stopped) then fails with a
    MemoryError instead. Where the cap cannot be set, the watchdog alone."""
    try:
        import resource

        with open("/proc/self/status") as status:
            data_kb = next(int(line.split()[1]) for line in status if line.startswith("VmData:"))
        soft = data_kb * 1024 + int(DATA_HEADROOM * limit_mb * 2**20)
        hard = resource.getrlimit(resource.RLIMIT_DATA)[1]
        if hard == resource.RLIM_INFINITY or soft <= hard:
            resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))
    except (OSError, ValueError, StopIteration, ImportError):
        pass


def _child(fn: Callable[[Any], Any], items: Sequence, start: int, conn, limit_mb: float) -> None:
    die_with_parent()
    _cap_data(limit_mb)
    for k in range(start, len(items)):
        try:
            conn.send((k, DONE, fn(items[k])))
        except MemoryError:  # past the data cap (_cap_data): as past the watchdog's limit
            conn.send((k, LIMIT, f"it held more than {limit_mb:g} MB"))
        except BaseException as exc:  # noqa: BLE001 - an item's failure is its answer
            conn.send((k, RAISED, f"{type(exc).__name__}: {exc}"))
    conn.close()


def bounded_map(fn: Callable[[Any], Any], items: Sequence, *, limit_mb: float, seconds: float) -> list[tuple[str, Any]]:
    """``(status, value)`` for each item (module doc), computed in order in a forked child: an item during which the
    child's tree holds ``limit_mb`` more resident memory than the child started with, or that runs longer than
    ``seconds``, or during which the child is killed, is stopped (``LIMIT``) and the child restarted for the items
    after it. ``fn``'s return values must pickle."""
    out: list[tuple[str, Any] | None] = [None] * len(items)
    start = 0
    mp = fork_context()
    while start < len(items):
        receive, send = mp.Pipe(duplex=False)
        proc = mp.Process(target=_child, args=(fn, items, start, send, limit_mb), daemon=True)
        proc.start()
        send.close()
        base = resident_mb(proc.pid)
        began, first = time.monotonic(), start
        try:
            while start < len(items):
                if receive.poll(POLL):
                    k, status, value = receive.recv()
                    out[k], start, began = (status, value), k + 1, time.monotonic()
                    continue
                answer = None
                if not proc.is_alive():
                    killed = proc.exitcode == -9  # the kernel's out-of-memory killer, say
                    answer = (LIMIT if killed else FAILED, f"its process died (exit code {proc.exitcode})")
                elif resident_mb(proc.pid) - base > limit_mb:
                    answer = (LIMIT, f"it held more than {limit_mb:g} MB")
                elif time.monotonic() - began > seconds:
                    answer = (LIMIT, f"it took longer than {seconds:g} s")
                if answer is not None:
                    out[start], start = answer, start + 1
                    break
        except (EOFError, OSError) as exc:
            out[start], start = (FAILED, f"its process failed: {type(exc).__name__} {exc}"), start + 1
        finally:
            if proc.is_alive():
                kill_tree(proc.pid)
            proc.join()
            receive.close()
        answer = out[first]
        if start == first + 1 and answer is not None and answer[0] == FAILED:
            # a child that answered nothing (it could not start): the rest are not tried in a child either
            out[start:] = [(FAILED, answer[1])] * (len(items) - start)
            break
    return [r if r is not None else (FAILED, "not run") for r in out]
