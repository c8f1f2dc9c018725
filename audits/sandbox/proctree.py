"""The processes a run starts, as a tree: finding them, measuring them, ending them (Linux /proc;
elsewhere the functions see no descendants and measure nothing).

* :func:`descendants` walks ``/proc/PID/task/TID/children``; :func:`cpu_seconds` sums the user and
  system time of a tree (its living processes, and the children they have waited for);
  :func:`waiting_seconds` is the time a process's main thread spent waiting for a CPU
  (``/proc/PID/schedstat``): the wall clock less it grows on a loaded machine like the wall clock
  of an idle one;
* :func:`kill_tree` ends a tree however its processes fork: it stops every process it finds
  (SIGSTOP: a stopped process forks no more), walks again until no new process appears, then
  SIGKILLs them all, through pidfds where the system has them (a pid reused meanwhile is never hit);
  :func:`kill_user` does the same to every process of one user (a run's own, at the lower levels);
* :func:`become_subreaper` (orphans of descendants come back to this process instead of init, so
  :func:`kill_tree` finds them) and :func:`die_with_parent` (``PR_SET_PDEATHSIG``);
* :func:`fork_context`: how to start a child process without forking a process that has threads
  (threads named with :data:`PASSING` end on their own, and are waited for).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
KILL_ROUNDS = 200  # walks of a tree before its stopped processes are killed anyway
PASSING = "dptestbed-passing"  # the name's start of a thread that ends on its own (a background import)
PASSING_WAIT = 120.0  # seconds fork_context waits for such a thread at most


def prctl(option: int, value: int) -> bool:
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(option, ctypes.c_ulong(value), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def become_subreaper() -> bool:
    """Linux: orphaned descendants of this process are re-parented to it instead of init."""
    return prctl(PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent() -> None:
    """Linux: this process is SIGKILLed when the thread that started it ends, however it ends
    (elsewhere a no-op: the parent still kills its children on every exit path it sees)."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def fork_context():
    """multiprocessing's ``fork`` context in a process that runs no other thread, else ``spawn``:
    forking a process with threads may deadlock the child on a lock another thread held (Python
    3.12 warns of it). A thread named :data:`PASSING` (a background import, holding the import lock)
    is waited for first: ``spawn`` runs the main script again in the child, and a script without
    ``if __name__ == "__main__"`` would then start its whole run there."""
    import multiprocessing as mp
    import threading

    for thread in threading.enumerate():
        if thread.name.startswith(PASSING) and thread is not threading.current_thread():
            thread.join(PASSING_WAIT)
    methods = mp.get_all_start_methods()
    return mp.get_context("fork" if "fork" in methods and threading.active_count() == 1 else "spawn")


def children(pid: int) -> list[int]:
    """The children of ``pid`` (every thread's), oldest first within a thread."""
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                out.extend(int(c) for c in fh.read().split())
        except (OSError, ValueError):
            continue
    return out


def descendants(pid: int) -> list[int]:
    """Every living descendant of ``pid`` (parents before their children)."""
    out, todo = [], [pid]
    while todo:
        for child in children(todo.pop()):
            if child not in out:
                out.append(child)
                todo.append(child)
    return out


def resident_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its living descendants, in MiB (0 where /proc is missing; pages
    shared between them, e.g. with a forking parent, are counted in each)."""
    total = 0
    for p in [pid, *descendants(pid)]:
        try:
            with open(f"/proc/{p}/statm") as fh:
                total += int(fh.read().split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return total * os.sysconf("SC_PAGE_SIZE") / 2**20 if total else 0.0


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rpartition(")")[2].split()
    except OSError:
        return None


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` and its descendants, the children they waited for
    included (0 where /proc is missing)."""
    total = 0
    for p in [pid, *descendants(pid)]:
        fields = _stat(p)
        if fields and len(fields) > 15:
            total += sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    return total / _TICK


def waiting_seconds(pid: int) -> float | None:
    """Seconds the main thread of ``pid`` has spent waiting for a CPU since it started (runnable
    but not running: the machine's load, not its own doing); None where the kernel does not say."""
    try:
        with open(f"/proc/{pid}/schedstat") as fh:
            return int(fh.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def _hold(pid: int) -> int | None:
    """A pidfd of ``pid`` (None where the system has none); ProcessLookupError when it is gone."""
    try:
        return os.pidfd_open(pid)
    except ProcessLookupError:
        raise
    except (AttributeError, OSError):
        return None


def _signal(pid: int, handle: int | None, sig: int) -> None:
    with contextlib.suppress(OSError):
        if handle is None:
            os.kill(pid, sig)
        else:
            signal.pidfd_send_signal(handle, sig)


def _stop_then_kill(first: list[int], found) -> int:
    """SIGSTOP ``first`` and then, walk after walk, every process ``found()`` lists that is not stopped yet,
    until a walk finds no new one (a stopped process forks no more); then SIGKILL them all. How many."""
    held: dict[int, int | None] = {}
    todo = list(first)
    for _ in range(KILL_ROUNDS):
        for p in todo:
            try:
                held[p] = _hold(p)
            except ProcessLookupError:
                continue
            _signal(p, held[p], signal.SIGSTOP)
        todo = [p for p in found() if p not in held]
        if not todo:
            break
    for p, handle in held.items():
        _signal(p, handle, signal.SIGKILL)
        if handle is not None:
            os.close(handle)
    return len(held)


def kill_tree(pid: int, include_root: bool = True) -> int:
    """SIGKILL ``pid`` (with ``include_root``) and every descendant, however they fork (see the
    module docstring); returns how many processes were signalled."""
    return _stop_then_kill([pid] if include_root else [], lambda: descendants(pid))


def process_uids() -> dict[int, set[int]]:
    """Each process (as this process's /proc shows them) with its real and effective uids."""
    found = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as fh:
                row = next(line for line in fh if line.startswith("Uid:"))
            found[int(entry)] = {int(u) for u in row.split()[1:3]}
        except (OSError, StopIteration, ValueError):
            continue
    return found


def user_processes(uid: int) -> list[int]:
    """The processes whose real or effective uid is ``uid``."""
    return [pid for pid, uids in process_uids().items() if uid in uids]


def kill_user(uid: int) -> int:
    """SIGKILL every process of the user ``uid`` (root only: a run's own user) as :func:`kill_tree` does a
    tree's; how many were signalled."""
    return _stop_then_kill([], lambda: [p for p in user_processes(uid) if p != os.getpid()])


def kill_descendants() -> int:
    """SIGKILL every descendant of this process (a subreaper's orphans included)."""
    return kill_tree(os.getpid(), include_root=False)
