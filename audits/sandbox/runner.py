"""Loading implementations and running them safely.

Contract
--------
``load_implementation(ref)`` resolves ``"package.module:function"`` or
``"path/to/file.py:function"`` to the callable (importing a user file runs that file: it is
the user's own code). Anything that goes wrong raises :class:`ImplementationError` whose
``reason`` is one line.

``call_batch(impl, data, n, rng=rng, params=params, timeout=seconds)`` returns ``n``
independent outputs of ``impl`` on ``data``, stacked on axis 0 as one numeric numpy array
(shape ``(n,)`` for scalar outputs, ``(n, d)`` for vectors / sequences). It uses
``impl.batch(data, n, *, rng, **params)`` when present, otherwise calls
``impl(data, rng=rng, **params)`` ``n`` times. Only the parameters a function's signature
names are passed (all of them when it takes ``**params``).

Where code runs:
* reference implementations (modules under ``dptestbed.impl``) with a batch sampler run in
  this process (they are ours, vectorised, and fast);
* everything else (user code, and any single-run loop) runs in worker processes, with
  ``timeout`` busy seconds allowed per call (per call of ``batch`` for a user batch sampler;
  :class:`.cpulimit.CallClock`: time spent waiting for a CPU does not count). A call that
  raises, returns a non-numeric value, a value of inconsistent shape, NaN, kills its process,
  breaks the worker protocol or overruns its timeout raises ``ImplementationError``; the worker is
  killed and replaced, the caller never crashes. Untrusted code runs only in sandboxed workers
  (:mod:`.workers`, :mod:`.isolation`); the checks both sides share are in :mod:`.contract_checks`.

A worker's task of a batch sampler is cut into calls of growing size, each limited by the pace the
task has shown (:mod:`.cpulimit`): a sampler that loops over a library's per-call function, or a
learner at a tenth of a second a run, is held to a pace, not to one call's limit whatever its size.

Reproducibility: the outputs are a deterministic function of the state of ``rng``: loops are
cut into fixed blocks of :data:`BLOCK` calls, batch samplers into blocks of :data:`BATCH_BLOCK`
runs, each block with its own generator seeded from ``rng``, whatever the number of workers or
threads. In this process a call of at most one block draws from ``rng`` itself (many small
calls pay no seeding), and a longer one of a trusted batch sampler runs its blocks on two
threads (numpy releases the interpreter lock while it draws and computes).

Own randomness (``randomness="own"``, :data:`RANDOMNESS`): an implementation that draws from a
source of its own (OS entropy, a library's generator) is audited on independent outputs instead of
reproducible ones. Independence is ensured per path:

* sandboxed workers (every untrusted reference) are fresh interpreters: each imports the
  implementation itself, and seeds the global numpy and ``random`` generators from OS entropy
  before that import; a worker's state then runs on from one task to the next (never re-seeded);
* forked workers (a callable handed in by the pytest plugin, a trusted single-run reference) seed
  the global numpy and ``random`` generators from OS entropy after the fork; any other state the
  fork copied (a generator a library created at import) would repeat across workers;
* in this process (a trusted batch sampler, ``isolate=False``) one state runs on from call to call.

:func:`.probes.probe_independence` replaces the determinism probe: two draws from every worker (each task
from its own seed) must not repeat one another, which catches a copied or constant-seeded state.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import importlib.util
import multiprocessing as mp
import os
import pickle
import random
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

from dptestbed.impl.contract import accepted_params, named_params

from .contract_checks import (
    ImplementationError,
    describe,
    implementation_ref,
    load_implementation,
    rng_optional,
    run_batch,
    unchanged,
    validate_batch,
    validate_stack,
    validate_typed,
)
from .cpulimit import CallClock
from .isolation import names_a_file
from .proctree import fork_context, kill_tree

__all__ = [
    "ImplementationError", "load_implementation", "call_batch", "Runner", "implementation_ref",
    "is_trusted",
]

BLOCK = 2000            # single-run calls per worker task
BATCH_BLOCK = 100_000   # runs per call of a batch sampler (in a worker or in this process) ...
# ... and fewer on a long input: runs x input values at most this (a sampler that draws a value per input entry and
# run, a Gumbel-max over 2,048 candidates, holds 400 MB of float64 a call, not 1.6 GB)
BATCH_INPUT_VALUES = 50_000_000


def batch_block(data) -> int:
    """Runs per batch-sampler call on ``data`` (BATCH_BLOCK, fewer on an input of many values)."""
    values = sum(np.size(v) for v in data.values()) if isinstance(data, dict) else np.size(data)
    return int(min(BATCH_BLOCK, max(1_000, BATCH_INPUT_VALUES // max(int(values), 1))))
RANDOMNESS = ("rng", "own")  # where an implementation's random numbers come from (module docstring)


def is_trusted(impl: Callable | str) -> bool:
    """A reference implementation of this package (runs in-process when batched). A reference
    string is trusted when it names a module under ``dptestbed.impl`` (never a file)."""
    if isinstance(impl, str):
        target = impl.rpartition(":")[0]
        return target.startswith("dptestbed.impl.") and not names_a_file(target)
    return str(getattr(impl, "__module__", "")).startswith("dptestbed.impl")


def as_runnable(ref: str | Callable) -> str | Callable:
    """What a :class:`Runner` is given for ``ref``: a trusted reference is imported here; an
    untrusted one stays a string and is only ever imported by a sandboxed worker; a callable is
    called without ``rng`` when it takes none (:func:`.contract_checks.rng_optional`)."""
    if isinstance(ref, str):
        return load_implementation(ref) if is_trusted(ref) else ref
    return rng_optional(ref) if callable(ref) else ref


def check_loadable(ref: str) -> None:
    """ImplementationError (one line) unless ``ref`` imports and names a function; an untrusted
    reference is imported in a sandboxed worker, with its time limit, never here."""
    if is_trusted(ref):
        load_implementation(ref)
    else:
        from .workers import SandboxWorker

        SandboxWorker(ref).close()


# --------------------------------------------------------------------------- worker processes


def _worker_main(impl, conn, counter) -> None:
    """Worker loop: receive tasks, run the user function, send stacked outputs or a reason."""
    try:  # user prints must not corrupt the auditor's stdout (e.g. --json)
        os.dup2(2, 1)
        sys.stdout = sys.stderr
    except Exception:  # noqa: BLE001
        pass
    if isinstance(impl, str):
        impl = load_implementation(impl)
    # global generators get fresh entropy in every worker: an implementation that draws from
    # them instead of its rng neither repeats blocks across workers nor passes the contract probe
    np.random.seed(int.from_bytes(os.urandom(4), "little"))
    random.seed(os.urandom(16))
    try:
        import signal
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # multiprocessing terminates daemonic workers with it
    except Exception:  # noqa: BLE001
        pass
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        mode, data, n, seed, params = task
        try:
            before = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
            if mode == "batch":  # the counter counts runs at the ends of the task's calls
                result = run_batch(impl.batch, data, n, seed, accepted_params(impl.batch, params, positional=2),
                                   lambda runs, base=counter.value: setattr(counter, "value", base + runs))
            else:
                rng = np.random.default_rng(seed)
                kwargs = accepted_params(impl, params)
                outs = []
                for _ in range(n):
                    outs.append(impl(data, rng=rng, **kwargs))
                    counter.value += 1
                result = (validate_typed if mode == "typed" else validate_stack)(outs, "single-run function")
            unchanged(data, before)
            conn.send(("ok", result))
        except ImplementationError as exc:
            conn.send(("error", exc.reason))
        except BaseException as exc:  # noqa: BLE001 - user code may raise anything
            try:
                conn.send(("error", f"raised {describe(exc)}"))
            except Exception:  # noqa: BLE001
                return




class _Worker:
    """A forked worker (a trusted single-run reference, or a callable handed in by the pytest
    plugin, whose code already runs in the caller's process): the interface of
    :class:`.workers.SandboxWorker`, with progress counted in shared memory."""

    def __init__(self, impl: Callable):
        # a trusted reference is imported anew where forking is unsafe; a callable handed in must be forked
        ctx = fork_context() if is_trusted(impl) else mp.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.counter = ctx.Value("q", 0, lock=False)
        target = impl if ctx.get_start_method() == "fork" else implementation_ref(impl)
        self.proc = ctx.Process(target=_worker_main, args=(target, child, self.counter), daemon=True)
        self.proc.start()
        child.close()
        self.base = 0

    def submit(self, task, timeout: float) -> None:
        self.base = self.counter.value
        self.clock = CallClock(lambda: self.proc.pid, timeout, calls=task[2], batch=task[0] == "batch")
        try:
            self.conn.send(task)
        except OSError:  # the worker is gone: result() says how
            pass

    def waitables(self) -> list:
        return [self.conn, self.proc.sentinel]

    def result(self, row_shape: tuple | None = None):
        """None while running; ("ok", array) / ("error", reason) when done."""
        if self.conn.poll(0):
            try:
                return self.conn.recv()
            except (EOFError, OSError):
                return ("error", self._death())
        if not self.proc.is_alive():
            return ("error", self._death())
        done = self.counter.value - self.base
        if done != self.clock.done and not self.clock.progress(done):
            self.kill()
            return ("error", f"the worker broke its protocol: it counted {done} calls of a task of {self.clock.calls}")
        reason = self.clock.expired()
        if reason:
            self.kill()
            return ("error", reason)
        return None

    def _death(self) -> str:
        self.proc.join(0.5)
        return f"the worker process died (exit code {self.proc.exitcode}) while running the implementation"

    def kill(self) -> None:
        if self.proc.is_alive():
            kill_tree(self.proc.pid)
        self.proc.join(1.0)
        self.conn.close()

    def close(self) -> None:
        if self.proc.is_alive():
            try:
                self.conn.send(None)
            except Exception:  # noqa: BLE001
                pass
            self.proc.join(0.5)
        self.kill()


class Runner:
    """Samples one implementation many times; owns its worker processes.

    ``isolate``: None (default) runs trusted batch samplers in-process and everything else in
    workers; True always uses workers; False always runs in-process (no timeout; for tests).
    ``workers``: worker processes, and threads for a trusted batch sampler run in this process
    (default: two, or one on a one-CPU machine). The outputs do not depend on either.
    """

    def __init__(self, impl: Callable | str, *, timeout: float = 60.0, workers: int | None = None,
                 isolate: bool | None = None):
        impl = as_runnable(impl)
        self.impl = impl
        self.timeout = float(timeout)
        self.n_workers = workers or max(1, min(2, os.cpu_count() or 1))
        self._workers: list = []
        self._lock = threading.Lock()  # the counters below, for callers on several threads
        self.cpu_seconds = 0.0  # CPU time of the sampling, all threads (a worker's time: the caller's wait)
        self.cpu_by_thread: dict[int, float] = {}
        self.sandboxed = isinstance(impl, str)
        if self.sandboxed:  # untrusted: only sandboxed workers ever import it; they start together
            from .workers import SandboxWorker

            self._workers = [SandboxWorker(impl, wait=False) for _ in range(self.n_workers)]
            try:
                infos = [w.hello() for w in self._workers]
            except BaseException:  # an implementation error, an isolation refused, an interruption
                self.close()
                raise
            self.has_batch = bool(infos[0].get("has_batch"))
            named = infos[0].get("params")
            self.named = None if not isinstance(named, list) else frozenset(str(x) for x in named)
            isolate = True
        elif not callable(impl):
            raise ImplementationError(f"implementation {impl!r} is not callable")
        else:
            self.has_batch = callable(getattr(impl, "batch", None))
            named = named_params(impl)
            self.named = None if named is None else frozenset(named)
        if isolate is None:
            isolate = not (self.has_batch and is_trusted(impl))
        self.isolate = isolate
        self.calls = 0

    @property
    def batched(self) -> bool:
        return self.has_batch

    def accepts(self, name: str) -> bool:
        """The single-run function takes parameter ``name`` (it is given only the parameters it names, unless it
        takes ``**params``)."""
        return self.named is None or name in self.named

    @property
    def threadsafe(self) -> bool:
        """``sample`` may be called from several threads at once: a trusted batch sampler run in
        this process (worker processes are driven by one caller at a time)."""
        return not self.isolate and self.has_batch and is_trusted(self.impl)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        for w in self._workers:
            w.close()
        self._workers = []

    def charge(self, seconds: float) -> None:
        """Adds CPU seconds to the sampling (from any thread)."""
        with self._lock:
            self.cpu_seconds += seconds
            me = threading.get_ident()
            self.cpu_by_thread[me] = self.cpu_by_thread.get(me, 0.0) + seconds

    def _new_worker(self):
        if self.sandboxed:
            from .workers import SandboxWorker

            return SandboxWorker(self.impl)
        return _Worker(self.impl)

    def sample(self, data, n: int, *, rng: np.random.Generator, params: dict | None = None,
               progress: Callable[[int], None] | None = None, per_call: bool = False) -> np.ndarray:
        """``n`` runs on ``data`` stacked on axis 0; ``per_call``: by the single-run function even when the
        implementation has a batch sampler (the code users call, which the batch sampler must agree with)."""
        params = dict(params or {})
        n = int(n)
        batch = self.has_batch and not per_call
        if not self.isolate:
            out = self._in_process(data, n, rng, params, progress, batch)
        else:
            t0 = time.perf_counter()
            try:
                out = self._in_workers(data, n, rng, params, progress, batch)
            finally:
                self.charge(time.perf_counter() - t0)
        with self._lock:
            self.calls += n
        return out

    def typed(self, data, n: int, *, rng: np.random.Generator, params: dict | None = None) -> np.ndarray | None:
        """``n`` calls of the single-run function, each output flattened to a row with its type's code as a last
        column (:func:`.contract_checks.validate_typed`), on the sandboxed workers; None in this process (trusted
        code, whose outputs are not what is audited)."""
        if not self.isolate:
            return None
        t0 = time.perf_counter()
        try:
            out = self._in_workers_many([(data, int(n), rng, dict(params or {}))], None, False, mode="typed")[0]
        finally:
            self.charge(time.perf_counter() - t0)
        with self._lock:
            self.calls += int(n)
        return out

    def sample_fresh(self, data, n: int, *, rng: np.random.Generator, params: dict | None = None) -> np.ndarray:
        """``n`` runs as :meth:`sample` draws them from ``rng``, by a worker process started for them alone
        and ended after them (a runner of its own): what a check of determinism compares with, so that
        nothing an implementation keeps in a process (its outputs by the state of ``rng``, say) can make
        a replay agree. In this process (a trusted batch sampler): :meth:`sample`."""
        if not self.isolate:
            return self.sample(data, n, rng=rng, params=params)
        with Runner(self.impl, timeout=self.timeout, workers=1, isolate=True) as fresh:
            out = fresh.sample(data, n, rng=rng, params=params)
        self.charge(fresh.cpu_seconds)
        with self._lock:
            self.calls += fresh.calls
        return out

    def draw_each(self, data, n: int, *, rng: np.random.Generator, params: dict | None = None) -> list[np.ndarray]:
        """``n`` runs from every worker process at once, each task from its own seed drawn from ``rng``
        (in this process: two draws one after the other): what :func:`.probes.probe_independence` compares."""
        params = dict(params or {})
        n = int(n)
        seeds = rng.integers(0, 2**63 - 1, size=max(self.n_workers, 2) if self.isolate else 2).tolist()
        if not self.isolate:
            return [self._in_process(data, n, np.random.default_rng(seed), params, None, self.has_batch)
                    for seed in seeds]
        mode = "batch" if self.has_batch else "loop"
        while len(self._workers) < self.n_workers:
            self._workers.append(self._new_worker())
        t0 = time.perf_counter()
        try:
            for w, seed in zip(self._workers, seeds):
                w.submit((mode, data, n, int(seed), params), self.timeout)
            out: list[np.ndarray | None] = [None] * len(self._workers)
            while any(x is None for x in out):
                for wi, w in enumerate(self._workers):
                    if out[wi] is None and (msg := w.result()) is not None:
                        if msg[0] != "ok":
                            raise ImplementationError(str(msg[1]))
                        out[wi] = msg[1]
                if any(x is None for x in out):
                    _wait([w for w, x in zip(self._workers, out) if x is None], 0.05)
        except BaseException:
            for w in self._workers:
                w.kill()
            self._workers = []
            raise
        finally:
            self.charge(time.perf_counter() - t0)
        with self._lock:
            self.calls += n * len(out)
        return [x for x in out if x is not None]

    @property
    def where(self) -> str:
        """Where the implementation runs: "sandboxed" (fresh interpreters), "forked" (forks of this
        process) or "in-process"."""
        return "sandboxed" if self.sandboxed else "forked" if self.isolate else "in-process"

    # in this process -----------------------------------------------------------------
    def _in_process(self, data, n, rng, params, progress, batch: bool):
        if batch:
            kwargs = accepted_params(self.impl.batch, params, positional=2)

            def block(task):
                m, seed = task  # a seed, or the caller's generator
                t0 = time.thread_time()
                try:
                    out = self.impl.batch(data, m, rng=np.random.default_rng(seed), **kwargs)
                    return validate_batch(out, m, "batch sampler")
                except ImplementationError:
                    raise
                except Exception as exc:  # noqa: BLE001
                    raise ImplementationError(f"batch sampler raised {describe(exc)}") from None
                finally:
                    self.charge(time.thread_time() - t0)

            if n <= batch_block(data):
                out = block((n, rng))
                if progress:
                    progress(n)
                return out
            tasks = _blocks(n, batch_block(data), rng)
            with contextlib.ExitStack() as stack:  # the threads end with the call: no process forks with idle ones
                if self.n_workers > 1 and self.threadsafe:
                    from concurrent.futures import ThreadPoolExecutor

                    pool = stack.enter_context(ThreadPoolExecutor(self.n_workers, thread_name_prefix="dptestbed-sampler"))
                    done = pool.map(block, tasks)
                else:
                    done = map(block, tasks)
                parts = []
                for (m, _), out in zip(tasks, done):
                    parts.append(out)
                    if progress:
                        progress(m)
            if len({p.shape[1:] for p in parts}) > 1:
                raise ImplementationError("batch sampler returned outputs of different shapes across calls")
            t0 = time.thread_time()
            out = np.concatenate(parts)
            self.charge(time.thread_time() - t0)
            return out
        kwargs = accepted_params(self.impl, params)
        outs = []
        t0 = time.thread_time()
        for i in range(n):
            try:
                outs.append(self.impl(data, rng=rng, **kwargs))
            except Exception as exc:  # noqa: BLE001
                raise ImplementationError(f"raised {describe(exc)}") from None
            if progress and (i + 1) % BLOCK == 0:
                progress(BLOCK)
        self.charge(time.thread_time() - t0)
        return validate_stack(outs, "single-run function")

    # in worker processes --------------------------------------------------------------
    def _in_workers(self, data, n, rng, params, progress, batch: bool):
        return self._in_workers_many([(data, n, rng, params)], progress, batch)[0]

    def _in_workers_many(self, requests: list, progress, batch: bool,
                         seconds: list[float] | None = None, mode: str | None = None) -> list[np.ndarray]:
        """Every request ``(data, n, rng, params)`` cut into blocks, all blocks spread over the workers at once
        (``seconds``: each request's wall seconds from its blocks' submissions to their results, added; ``mode``:
        the workers' task, "batch" or "loop" by ``batch`` unless given)."""
        mode = mode or ("batch" if batch else "loop")
        tasks = [(k, size, seed) for k, (data, n, rng, _) in enumerate(requests)
                 for size, seed in _blocks(int(n), batch_block(data) if batch else BLOCK, rng)]
        while len(self._workers) < min(self.n_workers, len(tasks)):
            self._workers.append(self._new_worker())
        results: list[np.ndarray | None] = [None] * len(tasks)
        pending = list(range(len(tasks)))
        running: dict[int, int] = {}   # worker index -> task index
        since: dict[int, float] = {}   # worker index -> when its task was submitted
        row_shapes: dict[int, tuple] = {}  # every output of a request has its first answer's shape
        try:
            while pending or running:
                for wi, w in enumerate(self._workers):
                    if wi not in running and pending:
                        ti = pending.pop(0)
                        k, size, seed = tasks[ti]
                        data, _, _, params = requests[k]
                        w.submit((mode, data, size, int(seed), params), self.timeout)
                        running[wi], since[wi] = ti, time.perf_counter()
                answered = False
                for wi in list(running):
                    msg = self._workers[wi].result(row_shapes.get(tasks[running[wi]][0]))
                    if msg is None:
                        continue
                    answered = True  # that worker is idle: give it the next task before waiting
                    ti = running.pop(wi)
                    if seconds is not None:
                        seconds[tasks[ti][0]] += time.perf_counter() - since[wi]
                    kind, payload = msg
                    if kind != "ok":
                        raise ImplementationError(str(payload))
                    results[ti] = payload
                    row_shapes.setdefault(tasks[ti][0], payload.shape[1:])
                    if progress:
                        progress(tasks[ti][1])
                if running and not answered:
                    _wait([self._workers[wi] for wi in running], 0.05)
        except BaseException:
            for w in self._workers:
                w.kill()
            self._workers = []
            raise
        out = []
        for k in range(len(requests)):
            parts = [r for (j, _, _), r in zip(tasks, results) if j == k and r is not None]
            shapes = {r.shape[1:] for r in parts}
            if len(shapes) > 1:
                raise ImplementationError(f"returned outputs of different shapes {sorted(shapes)}")
            out.append(parts[0] if len(parts) == 1 else np.concatenate(parts))
        return out

    def sample_many(self, requests: list, *, progress: Callable[[int], None] | None = None,
                    seconds: list[float] | None = None) -> list[np.ndarray]:
        """:meth:`sample` of every request ``(data, n, rng, params)``, the same outputs as one by one, but
        with every worker busy at once (many small samples of a single-run function). ``seconds``: a list that
        receives each request's wall seconds on the workers (what its runs cost, whatever ran beside them)."""
        requests = [(data, int(n), rng, dict(params or {})) for data, n, rng, params in requests]
        if seconds is None:
            seconds = []
        seconds[:] = [0.0] * len(requests)
        if not self.isolate:
            out = []
            for k, (data, n, rng, params) in enumerate(requests):
                t0 = time.perf_counter()
                out.append(self.sample(data, n, rng=rng, params=params, progress=progress))
                seconds[k] = time.perf_counter() - t0
            return out
        t0 = time.perf_counter()
        try:
            out = self._in_workers_many(requests, progress, self.has_batch, seconds)
        finally:
            self.charge(time.perf_counter() - t0)
        with self._lock:
            self.calls += sum(n for _, n, _, _ in requests)
        return out


def _wait(workers: list, timeout: float) -> None:
    from multiprocessing.connection import wait
    wait([x for w in workers for x in w.waitables()], timeout)


def _blocks(n: int, block: int, rng: np.random.Generator) -> list[tuple[int, int]]:
    """``n`` runs cut into blocks of ``block``: ``(size, seed)`` per block, the seeds drawn from ``rng``."""
    sizes = split_sizes(n, block)
    return list(zip(sizes, rng.integers(0, 2**63 - 1, size=len(sizes), dtype=np.int64).tolist()))


def split_sizes(n: int, block: int) -> list[int]:
    """``n`` runs cut into blocks of ``block`` (the last one shorter)."""
    sizes = [block] * (n // block)
    if n % block or not sizes:
        sizes.append(n % block if n % block else n)
    return sizes


_CACHE: OrderedDict[tuple, Runner] = OrderedDict()
_CACHE_SIZE = 4
# a forked child (an item of a run) starts with an empty cache: the cached runners' workers are the
# parent's, which the child can neither wait for nor talk to safely
os.register_at_fork(after_in_child=_CACHE.clear)


def runner_for(impl: Callable | str, *, timeout: float = 60.0, isolate: bool | None = None) -> Runner:
    """The cached :class:`Runner` of ``impl`` (see :func:`call_batch`)."""
    key = (impl if isinstance(impl, str) else id(impl), float(timeout), isolate)
    runner = _CACHE.get(key)
    if runner is None or (not isinstance(impl, str) and runner.impl is not impl):
        runner = Runner(impl, timeout=timeout, isolate=isolate)
        _CACHE[key] = runner
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)[1].close()
    _CACHE.move_to_end(key)
    return runner


def call_batch(impl: Callable | str, data: Any, n: int, *, rng: np.random.Generator, params: dict | None = None,
               timeout: float = 60.0, isolate: bool | None = None) -> np.ndarray:
    """``n`` outputs of ``impl`` on ``data`` stacked on axis 0 (see the module docstring).

    Worker processes are kept between calls for the same implementation (a small cache, so
    that many small calls do not each pay for a new process); they exit with this process."""
    return runner_for(impl, timeout=timeout, isolate=isolate).sample(data, n, rng=rng, params=params)


@atexit.register
def close_cached() -> None:
    """Close every cached runner (its workers end with everything they started)."""
    while _CACHE:
        _CACHE.popitem()[1].close()


def missing_reference(ref: str | None) -> str | None:
    """Why the reference implementation ``ref`` is not available (its module or function does not
    exist yet), or None. Any other import problem is left to the item, which reports an error.
    Reference implementations are the project's own code, so importing one here is safe."""
    if not ref:
        return "not checked: the spec has no reference implementation"
    if not is_trusted(ref):
        return None  # never imported here: a sandboxed worker reports what is wrong with it
    module, _, name = ref.partition(":")
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if found and name:
        try:
            found = hasattr(importlib.import_module(module), name)
        except Exception:  # noqa: BLE001 - a broken module is reported by its item
            return None
    return None if found else f"not checked: the spec has no reference implementation yet ({ref})"
