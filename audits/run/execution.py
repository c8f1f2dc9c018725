"""Running the items of a plan (:func:`execute`): each item in its own forked process (its own
process group, so a hung implementation and any workers it started are killed together) with a
time limit; a crash, a hang or an exception makes that item an ``error`` and the rest of the run
goes on (``isolate=False`` runs items in this process, for tests and the pytest plugin). Where
those processes run is the *executor*'s business: :class:`LocalExecutor` (default) forks at most
``jobs`` of them here; :class:`.dask_executor.DaskExecutor` forks each on a worker of a Dask
cluster. Item ``i`` draws from :func:`.planning.item_seed`, so a result does not depend on which other
items run, in which order, or on how many workers.
"""

from __future__ import annotations

import os
import signal
import sys
import time
import traceback
from collections.abc import Callable, Collection

import numpy as np

from dptestbed.spec import Catalogue, Spec

from ..base.serialize import jsonable
from ..checks.experiments import check_record, control_json, run_check
from ..privacy.result import at_decision
from .planning import Item, Plan, item_seed, limit


def run_item(item: Item, catalogue: Catalogue, plan_: Plan, seed: int, *, isolate_calls=None, batches=None) -> dict:
    """Run one item; never raises (errors become results with verdict "error"). ``batches``: where
    an audit's estimation batches may run besides here (:class:`.dask_executor.DaskBatches`)."""
    seq = item_seed(seed, item.id)
    spec = catalogue[item.spec]
    if item.kind == "theorem":
        return run_check(spec, item.experiment, item.implementation, suite=plan_.suite,
                             rng=np.random.default_rng(seq), timeout=plan_.call_timeout, control=item.control,
                             target=item.target, isolate=isolate_calls, randomness=plan_.randomness,
                             level=plan_.split.level, budget=limit(plan_, item))
    return run_audit(spec, item, plan_, int(seq.generate_state(1)[0]), batches)



def run_audit(spec: Spec, item: Item, plan_: Plan, seed: int, batches=None) -> dict:
    t0 = time.perf_counter()
    confidence = plan_.split.confidence
    base = {"id": item.id, "spec": spec.id, "implementation": item.implementation or spec.implementation,
            "target": item.target, "expected": item.expected, "confidence": confidence, "seed": seed,
            "broken": spec.broken, "variant_of": spec.variant_of, "control": control_json(item.control),
            "audit_point": item.params}
    try:
        from ..privacy import audit

        # the auditor's own rounds: a second, larger one when the first may show a violation or had no power
        result = audit(spec, implementation=item.implementation, params=item.params, confidence=confidence, seed=seed,
                       samples=plan_.audit_samples, time_budget=plan_.time_budget,
                       timeout=plan_.call_timeout, progress=False, tight=plan_.tight, batches=batches,
                       randomness=plan_.randomness)
        data = at_decision(result.to_json())
        data = {**base, **{k: v for k, v in data.items() if v is not None or k not in base}}
        data["id"], data["target"] = item.id, item.target
        data["expected"] = item.expected  # the plan's expectation (see experiments.expected_audit)
    except Exception as exc:  # noqa: BLE001
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" ({tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno})" if tb else ""
        data = {**base, "verdict": "error", "error": f"{type(exc).__name__}: {exc}{where}"}
    data.setdefault("seconds", time.perf_counter() - t0)
    return jsonable(data)


def error_result(item: Item, reason: str, seconds: float | None = None) -> dict:
    """The result of an item that did not finish (crash, timeout, interrupted)."""
    if item.kind == "audit":
        return {"id": item.id, "spec": item.spec, "implementation": item.implementation, "target": item.target,
                "expected": item.expected, "control": control_json(item.control), "audit_point": item.params,
                "verdict": "error",
                "error": reason, "seconds": seconds}
    return {**check_record(item.spec, item.check, item.target, item.implementation, item.control, None),
            "id": item.id, "expected": item.expected, "verdict": "error", "error": reason, "error_kind": "run",
            "seconds": seconds}


def _child(item, catalogue, plan_, seed, conn, batches):
    began = time.monotonic()
    from ..sandbox.proctree import die_with_parent

    try:
        os.setpgrp()  # own process group: a timeout kills the item and its workers together
    except OSError:
        pass
    die_with_parent()  # and a killed run (even SIGKILL) takes its items with it
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the command line's handler: a terminated item just ends
    except (ValueError, OSError):
        pass
    ran = time.monotonic()
    try:
        result = run_item(item, catalogue, plan_, seed,
                          batches=batches() if batches is not None and item.kind == "audit" else None)
    except BaseException as exc:  # noqa: BLE001
        result = error_result(item, f"{type(exc).__name__}: {exc}")
    result["peak_rss_mb"] = _peak_rss_mb()
    result["clock"] = {"began": began, "ran": ran, "sent": time.monotonic(), "cpu": _cpu_seconds()}
    try:
        conn.send(result)
    finally:
        conn.close()


def _peak_rss_mb() -> float:
    """The peak resident memory of this process or of any child it waited for (its sandbox
    workers), in MiB (pages shared with the forking parent included)."""
    import resource

    unit = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return round(peak * unit / 2**20, 1)


def _cpu_seconds() -> float:
    """CPU seconds of this process and of the children it waited for (its workers)."""
    import resource

    return round(sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF),
                                                          resource.getrusage(resource.RUSAGE_CHILDREN))), 3)


def _kill_group(proc) -> None:
    from ..sandbox.proctree import kill_tree

    if proc.is_alive():
        kill_tree(proc.pid)  # the item, its workers and whatever they started, however they fork
    proc.join(2.0)


class ItemProcess:
    """One item running in a forked child process (its own process group) with a time limit of
    ``limit`` CPU seconds (:class:`..sandbox.cpulimit.ItemClock`): :meth:`poll` returns its result once it has
    one, an error result once the child died without one or the limit has passed (the child and
    everything it started are then killed), else None.
    ``batches``: makes where an audit's estimation batches may also run besides the item's process (a
    :class:`.dask_executor.DaskBatches`), called in the item's process."""

    def __init__(self, item: Item, catalogue: Catalogue, plan_: Plan, seed: int, limit: float,
                 batches: Callable[[], object] | None = None, epoch: float | None = None):
        import multiprocessing as mp

        self.item, self.limit = item, limit
        self.forking = time.monotonic()
        self.epoch = self.forking if epoch is None else epoch
        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=_child, args=(item, catalogue, plan_, seed, child, batches),
                                daemon=False)
        self.proc.start()
        child.close()
        self.started = time.monotonic()
        from ..sandbox.cpulimit import ItemClock

        assert self.proc.pid is not None  # started above
        self.clock = ItemClock(self.proc.pid, limit)  # CPU seconds of the item's processes, not wall time

    @property
    def waitables(self) -> list:
        return [self.conn, self.proc.sentinel]

    def poll(self) -> dict | None:
        proc, item, elapsed = self.proc, self.item, time.monotonic() - self.started
        if self.conn.poll(0):
            try:
                result = self.conn.recv()
            except (EOFError, OSError):
                result = error_result(item, f"the item's process died (exit code {proc.exitcode})", elapsed)
            proc.join(5.0)
            if proc.is_alive():
                _kill_group(proc)
        elif not proc.is_alive():
            proc.join()
            result = error_result(item, f"the item's process died (exit code {proc.exitcode}) without a result",
                                  elapsed)
        elif (reason := self.clock.expired()) is not None:
            _kill_group(proc)
            result = error_result(item, reason, elapsed)
        else:
            return None
        self.conn.close()
        result["clock"] = self._clock(result.get("clock"))
        return result

    def _clock(self, child) -> dict:
        """When the item ran, in seconds from ``epoch``: forked (``start``), its process began, its work
        began (``ran``) and its result was sent and received; ``cpu``: its processes' CPU seconds."""
        stamps = {"start": self.forking, "received": time.monotonic()}
        if isinstance(child, dict):
            stamps.update({k: child[k] for k in ("began", "ran", "sent") if isinstance(child.get(k), float)})
        out = {k: round(v - self.epoch, 4) for k, v in stamps.items()}
        if isinstance(child, dict) and isinstance(child.get("cpu"), float):
            out["cpu"] = child["cpu"]
        return out

    def kill(self) -> None:
        _kill_group(self.proc)


def run_in_child(item: Item, catalogue: Catalogue, plan_: Plan, seed: int, limit: float,
                 batches: Callable[[], object] | None = None) -> dict:
    """Run one item in a forked child with a time limit and wait for it (what a remote worker
    of :mod:`.dask_executor` runs per item); never raises for the item's own failures."""
    from multiprocessing.connection import wait

    child = ItemProcess(item, catalogue, plan_, seed, limit, batches)
    try:
        while (result := child.poll()) is None:
            wait(child.waitables, timeout=0.5)
    except BaseException:
        child.kill()
        raise
    return result


class ExecutorUnavailable(RuntimeError):
    """An executor cannot run items at all (a missing package, an unreachable cluster)."""


class LocalExecutor:
    """The default executor: at most ``jobs`` forked item processes on this machine.

    An executor has one method, ``run(items, catalogue, plan_, seed, limit, on_result)``: run every
    item (most expensive first, in the order given) as :func:`run_in_child` would, each within
    ``limit(item)`` seconds, and call ``on_result(item, result)`` in this process as each finishes
    (:class:`LocalExecutor` also calls ``on_idle()``, when given, between its waits).
    A crashed, killed or hung item yields an error result; the others go on."""

    name = "local"

    def __init__(self, jobs: int = 1):
        self.jobs = max(1, int(jobs))

    def run(self, items: list[Item], catalogue: Catalogue, plan_: Plan, seed: int,
            limit: Callable[[Item], float], on_result: Callable[[Item, dict], None],
            on_idle: Callable[[], None] | None = None) -> None:
        from multiprocessing.connection import wait

        pending = list(items)
        running: list[ItemProcess] = []
        epoch = time.monotonic()
        try:
            while pending or running:
                finished = []
                for child in list(running):
                    result = child.poll()
                    if result is not None:
                        running.remove(child)
                        finished.append((child.item, result))
                while pending and len(running) < self.jobs:  # the freed slots first, then the results
                    item = pending.pop(0)
                    running.append(ItemProcess(item, catalogue, plan_, seed, limit(item), epoch=epoch))
                for item, result in finished:
                    on_result(item, result)
                if on_idle is not None:
                    on_idle()
                if running:
                    wait([w for child in running for w in child.waitables], timeout=0.5)
        except BaseException:
            for child in running:
                child.kill()
            raise


def execute(plan_: Plan, catalogue: Catalogue, *, seed: int = 0, jobs: int = 1, isolate: bool = True,
            on_result: Callable[[Item, dict], None] | None = None, time_scale: float = 1.0,
            skip: Collection[str] = frozenset(), executor=None,
            on_idle: Callable[[], None] | None = None) -> list[tuple[Item, dict]]:
    """Run every item of the plan but those whose id is in ``skip`` on ``executor`` (default:
    :class:`LocalExecutor` with ``jobs``; ``isolate=False``: in this process, one after the other);
    returns ``(item, result)`` pairs in plan order."""
    order = sorted((item for item in plan_.items if item.id not in skip), key=lambda item: -item.cost)
    if any(item.kind == "audit" for item in order):
        from .. import privacy  # noqa: F401  imported once, here: every forked item inherits it
    results: dict[str, dict] = {}

    def finished(item: Item, result: dict) -> None:
        results[item.id] = result
        if on_result:
            on_result(item, result)

    if not isolate:
        for item in order:
            finished(item, run_item(item, catalogue, plan_, seed, isolate_calls=None))
    else:
        executor = executor or LocalExecutor(jobs)
        extra = {"on_idle": on_idle} if on_idle is not None and isinstance(executor, LocalExecutor) else {}
        executor.run(order, catalogue, plan_, seed, lambda item: limit(plan_, item) * time_scale, finished, **extra)
    return [(item, results[item.id]) for item in plan_.items if item.id in results]

