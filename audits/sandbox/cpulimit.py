"""Time limits that mean "the implementation is too slow", never "the machine is busy".

On a shared CI runner a process may wait for a CPU most of the time; a limit in wall-clock
seconds then fails a correct implementation. So:

* an item of a run (:class:`ItemClock`) is limited in CPU seconds of its own processes: the item's
  process and everything it started (its workers), read from /proc; the wall clock is only an
  outer bound, :data:`WALL_FACTOR` times as long;
* a call of an implementation in a worker (:class:`CallClock`) is limited in *busy* seconds of the
  worker (the wall clock less the time its main thread waited for a CPU,
  :func:`.proctree.waiting_seconds`), so a call that sleeps or blocks is caught as soon as one that computes. A task of several
  calls reports progress; progress restarts the per-call limit only when it counts a further call of
  the task, and never past a hard ceiling of :data:`TASK_CEILING` call limits for the whole task (an
  implementation can forge progress: it runs in the worker that reports it). Beyond both, the wall
  clock bounds a task at :data:`WALL_FACTOR` times its ceiling.
* a task of a batch sampler for ``n`` runs is cut into calls of growing size (:func:`batch_calls`: fixed by
  ``n`` alone, so the outputs stay a function of the task's seed), each reported as progress. A call of
  ``m`` runs is allowed ``timeout`` busy seconds per :data:`BATCH_TIMEOUT_RUNS` runs (at least ``timeout``),
  or :data:`PACE_FACTOR` times what the task's earlier calls took per run, whichever is more; the
  ceiling of the task is :data:`TASK_CEILING` times what one call of all ``n`` runs would be allowed. A
  correct but slow batch sampler (a learner at a tenth of a second a run) is held to its own pace,
  never to a limit sized for a vectorised mechanism.

Where the kernel does not tell (no /proc, no schedstat), busy seconds are wall-clock seconds.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

import numpy as np

from .proctree import cpu_seconds, waiting_seconds

WALL_FACTOR = 10     # the wall-clock bound of a limit, in multiples of it
TASK_CEILING = 10    # busy seconds of a whole task, in call limits
BATCH_TIMEOUT_RUNS = 10_000  # a call of a batch sampler gets the call timeout per this many runs
BATCH_FIRST = 32     # runs in the first call of a batch task (a task of at most this many is one call)
BATCH_GROWTH = 4     # each further call of a batch task has this many times the runs of the one before
PACE_FACTOR = 4.0    # a further call may take this many times the busy seconds a run its task's calls took
ITEM_POLL = 1.0      # seconds between two readings of an item's CPU time

_deadline: tuple[float, str] | None = None  # (monotonic time, what ends there): see deadline()


@contextlib.contextmanager
def deadline(seconds: float | None, what: str):
    """Within the block, every :class:`CallClock` of this process (and of processes forked in it)
    expires ``seconds`` from now at the latest, with the reason "``what`` did not finish within its
    deadline of ``seconds`` s" (None: no deadline). The overall bound of an audit or a check, however
    its implementation spends the time."""
    global _deadline
    before = _deadline
    if seconds is not None:
        _deadline = (time.monotonic() + float(seconds), f"{what} did not finish within its deadline of {seconds:g} s")
    try:
        yield
    finally:
        _deadline = before


def batch_timeout(timeout: float, runs: int) -> float:
    """Busy seconds allowed for one call of a batch sampler for ``runs`` runs, whatever its pace:
    ``timeout`` per BATCH_TIMEOUT_RUNS runs, and at least ``timeout``."""
    return float(timeout) * max(1.0, int(runs) / BATCH_TIMEOUT_RUNS)


def batch_calls(runs: int) -> list[int]:
    """The runs of each call a batch task of ``runs`` runs is cut into: BATCH_FIRST, then BATCH_GROWTH
    times the call before, the last one what remains (one call for a task of at most BATCH_FIRST)."""
    sizes: list[int] = []
    left, size = int(runs), BATCH_FIRST
    while left > 0 or not sizes:
        sizes.append(min(size, left))
        left -= sizes[-1]
        size *= BATCH_GROWTH
    return sizes


class CallClock:
    """The limits of one task of ``calls`` calls run by the process ``pid()`` (asked each time: a
    sandboxed worker's process may not exist yet when the clock starts), ``timeout`` busy seconds
    per call (``what`` names a call in the reason). :meth:`progress` after each call, :meth:`expired`
    for the reason it must stop. ``batch``: the task runs a batch sampler for ``calls`` runs, in the
    calls of :func:`batch_calls`, whose limits are the module's (progress counts runs, at the ends of
    those calls only)."""

    def __init__(self, pid: Callable[[], int], timeout: float, calls: int = 0, what: str = "one call",
                 batch: bool = False):
        self.pid, self.timeout, self.calls, self.what = pid, float(timeout), int(calls), what
        self.done = 0
        self.start = self.mark = self._now()
        self.ends: list[int] | None = None
        self.ceiling = self.timeout * TASK_CEILING
        if batch:
            self.ends = np.cumsum(batch_calls(self.calls)).tolist()
            self.ceiling = batch_timeout(self.timeout, self.calls) * TASK_CEILING

    def _now(self) -> tuple[float, float]:
        """(wall clock, busy clock): the busy clock is the wall clock less the time the worker waited
        for a CPU."""
        wall = time.monotonic()
        return wall, wall - (waiting_seconds(self.pid()) or 0.0)

    def progress(self, done: int) -> bool:
        """``done`` calls of the task have finished; False when that is no progress (not more than
        before, or more than the task's calls): the worker lies."""
        if not self.done < done <= self.calls or (self.ends is not None and done not in self.ends):
            return False
        self.done = done
        self.mark = self._now()
        return True

    def expired(self) -> str | None:
        """Why the task must stop now, or None."""
        wall, busy = self._now()
        if _deadline is not None and wall > _deadline[0]:
            return _deadline[1]
        limit, what = self._limit()
        if busy - self.mark[1] > limit:
            return f"timed out: {what} ran longer than {limit:g} s"
        if busy - self.start[1] > self.ceiling or wall - self.start[0] > self.ceiling * WALL_FACTOR:
            runs = "runs of the batch sampler" if self.ends is not None else "calls"
            return (f"timed out: {self.calls:,} {runs} ran longer than {self.ceiling:g} s in all "
                    "(the ceiling of one task)")
        return None

    def _limit(self) -> tuple[float, str]:
        """The busy seconds the running call is allowed, and what it is (for the reason)."""
        if self.ends is None:
            return self.timeout, self.what
        runs = next((end for end in self.ends if end > self.done), self.calls) - self.done
        limit = batch_timeout(self.timeout, runs)
        if self.done:
            limit = max(limit, PACE_FACTOR * runs * (self.mark[1] - self.start[1]) / self.done)
        return limit, f"one call of the batch sampler ({runs:,} of the task's {self.calls:,} runs)"


RAISE = "; a slow implementation may need more: --timeout-scale X multiplies every item's limit by X"


class ItemClock:
    """The limit of an item run by the process ``pid``: ``limit`` CPU seconds of its process tree,
    and ``limit * WALL_FACTOR`` seconds of the wall clock."""

    def __init__(self, pid: int, limit: float):
        self.pid, self.limit = pid, float(limit)
        self.started = self.read = time.monotonic()
        self.cpu = 0.0

    def expired(self) -> str | None:
        now = time.monotonic()
        if now - self.read >= ITEM_POLL:
            self.read, self.cpu = now, cpu_seconds(self.pid)
        if self.cpu > self.limit:
            return (f"timed out: used more than its limit of {self.limit:g} CPU seconds (its process and its "
                    f"workers){RAISE}")
        if now - self.started > self.limit * WALL_FACTOR:
            return (f"timed out after {now - self.started:.0f} s of wall-clock time (the outer bound of its "
                    f"{self.limit:g} CPU seconds){RAISE}")
        return None
