"""``--executor dask`` / ``--scheduler ADDRESS``: the items of a run on a Dask distributed cluster.

An executor of :mod:`.suite` (see :class:`.execution.LocalExecutor` for the contract). Every item is
one Dask task that runs :func:`.execution.run_in_child` on a worker: the item in a forked child
process of the worker, in its own process group, killed at the item's time limit, exactly as the
local executor runs it (and the item's code runs user implementations in the sandbox, as
locally). Dask cannot stop a running task; the child's deadline does. Results come back to this
process, which writes results.json after each one. The catalogue and the plan travel once, as
the result of one task (a worker that dies with them is recomputed from the task); every item
task names its item by its index in the plan.

A worker that dies mid-item (killed, out of memory) loses its task: the scheduler runs it again
on another worker (an item is determined by the run seed and its id, so the retry gives the same
result), up to ``distributed.scheduler.allowed-failures`` times (default 3); past that the item
is an error item (``KilledWorker``) and the run goes on. The scheduler counts such a death
against every task assigned to the worker; with ``distributed.scheduler.worker-saturation`` 1.0
a worker is assigned only the items it runs (items are long: nothing is gained by queueing more
on a worker, and the longest-first order is kept across workers).

One audit is split too (:class:`DaskBatches`): an estimation of more than
:data:`..privacy.estimation.ESTIMATE_BATCH` runs per side is a list of batches, each drawing from its own
stream, which become tasks of the cluster (ahead of any queued item) while the process running
the audit computes them itself from the other end of the list; whichever finishes a batch first
gives its counts, and the counts add. A batch is never waited for: an audit whose batches find no
free worker (every worker busy with an item) runs them all itself, as locally, so nested tasks
cannot deadlock the cluster; the counts, and so the verdict, are those of a local run.

Without a scheduler address a ``LocalCluster`` of ``workers`` processes (one thread each,
worker-saturation 1.0) is started on this machine for the run. ``distributed`` is imported only here, only when asked.
"""

from __future__ import annotations

import contextlib
import logging
import pickle
import uuid
from collections.abc import Callable
from functools import partial

from .execution import ExecutorUnavailable, error_result, run_in_child

INSTALL = "pip install 'dask[distributed]>=2024.1' (in a dptestbed clone: pip install '.[dask]')"
CONNECT_TIMEOUT = 30.0  # seconds to reach the scheduler
WORKER_WAIT = 120.0  # seconds to wait for the cluster's first worker


def require() -> None:
    """Raise :class:`.execution.ExecutorUnavailable` (one line, with the install command) without dask.distributed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ExecutorUnavailable(f"the Dask executor (--executor dask, --scheduler) needs dask.distributed: {INSTALL}") from None


def _run_item(shared, index: int, seed: int, limit: float) -> dict:
    """On a worker: item ``index`` of the plan in a forked child with its time limit (its audit's
    estimation batches spread over the same cluster)."""
    import multiprocessing

    from distributed import get_worker

    # A Dask worker is a daemonic process, which multiprocessing forbids to have children; the
    # item's child is joined by run_in_child and dies with this worker (PR_SET_PDEATHSIG).
    multiprocessing.current_process().daemon = False
    catalogue, plan_ = shared
    return run_in_child(plan_.items[index], catalogue, plan_, seed, limit,
                        batches=partial(DaskBatches, address=get_worker().scheduler.address))


BATCH_PRIORITY = 1 << 30  # an audit's batches run before any queued item


class DaskBatches:
    """The estimation batches of an audit (:func:`..privacy.estimation.estimate_candidates`) on a Dask cluster
    and here at once: ``client`` (connected), or ``address`` (a scheduler, connected at the first
    use; unreachable: every batch runs here)."""

    def __init__(self, client=None, address: str | None = None):
        self.client, self.address = client, address

    def _connect(self):
        if self.client is None and self.address:
            from distributed import Client

            try:
                self.client = Client(self.address, timeout=CONNECT_TIMEOUT, set_as_default=False)
            except (OSError, TimeoutError):
                self.address = None
        return self.client

    def map(self, fn: Callable, shared, jobs: list, here: Callable) -> list:
        """``[fn(shared, job) for job in jobs]``, job ``k`` computed on the cluster or as ``here(k)``
        in this process, whichever comes first: this process takes the jobs from the end of the list
        and never waits for the cluster. A job whose task failed or returned None is computed here."""
        client = self._connect()
        futures = []
        if client is not None:
            try:
                data = client.scatter(shared, hash=False)
                futures = client.map(fn, [data] * len(jobs), jobs, pure=False, priority=BATCH_PRIORITY)
            except Exception:  # noqa: BLE001 (unpicklable implementation, lost connection: all here)
                futures = []
        results: list = [None] * len(jobs)
        todo = list(range(len(jobs)))
        try:
            while todo:
                for k in [k for k in todo if futures and futures[k].done()]:
                    value = None
                    with contextlib.suppress(Exception):
                        value = futures[k].result() if futures[k].status == "finished" else None
                    if value is not None:
                        results[k] = value
                        todo.remove(k)
                if todo:
                    k = todo.pop()
                    if futures:
                        futures[k].cancel()
                    results[k] = here(k)
        finally:
            if futures:
                with contextlib.suppress(Exception):
                    client.cancel(futures)
        return results


class DaskExecutor:
    """Items as tasks of the Dask cluster at ``scheduler`` (``tcp://host:8786``), or of a
    LocalCluster of ``workers`` single-threaded worker processes started for the run."""

    def __init__(self, scheduler: str | None = None, workers: int = 1):
        self.scheduler, self.workers = scheduler, max(1, int(workers))
        self.name = f"dask {scheduler}" if scheduler else f"dask LocalCluster ({self.workers} workers)"

    @contextlib.contextmanager
    def client(self):
        """A connected ``distributed.Client`` with at least one worker (closed afterwards)."""
        require()
        import dask
        from distributed import Client, LocalCluster

        with contextlib.ExitStack() as stack:
            try:
                if self.scheduler:
                    client = stack.enter_context(Client(self.scheduler, timeout=CONNECT_TIMEOUT))
                else:
                    stack.enter_context(dask.config.set({"distributed.scheduler.worker-saturation": 1.0}))
                    cluster = stack.enter_context(LocalCluster(
                        n_workers=self.workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                        memory_limit=0, silence_logs=logging.ERROR))
                    client = stack.enter_context(Client(cluster))
                client.wait_for_workers(1, timeout=WORKER_WAIT)
            except (OSError, TimeoutError) as exc:
                where = f"the scheduler at {self.scheduler}" if self.scheduler else "a LocalCluster"
                raise ExecutorUnavailable(f"--executor dask: cannot use {where}: {type(exc).__name__}: {exc}") from None
            yield client

    def run(self, items, catalogue, plan_, seed: int, limit: Callable, on_result: Callable) -> None:
        from distributed import as_completed
        from distributed.scheduler import KilledWorker

        index = {item.id: k for k, item in enumerate(plan_.items)}
        with self.client() as client:
            # one task holding (catalogue, plan); pickled here, so Dask neither walks nor rebuilds them
            run_key = uuid.uuid4().hex
            shared = client.submit(pickle.loads, pickle.dumps((catalogue, plan_)), key=f"dptestbed-plan-{run_key}")
            futures = {client.submit(_run_item, shared, index[item.id], seed, limit(item), priority=len(items) - rank,
                                     key=f"dptestbed-item-{index[item.id]}-{run_key}"): item
                       for rank, item in enumerate(items)}
            try:
                for future in as_completed(futures):
                    item = futures[future]
                    try:
                        result = future.result()
                    except KilledWorker as exc:
                        result = error_result(item, f"every Dask worker that ran it died (KilledWorker: {exc})")
                    except Exception as exc:  # noqa: BLE001 (a task that failed on the cluster is an error item)
                        result = error_result(item, f"the Dask task failed: {type(exc).__name__}: {exc}")
                    future.release()
                    on_result(item, result)
            except BaseException as exc:
                with contextlib.suppress(Exception):
                    client.cancel(list(futures))
                if isinstance(exc, OSError):  # the connection to the scheduler was lost
                    raise ExecutorUnavailable(f"--executor dask: lost {self.name}: {type(exc).__name__}: {exc}; "
                                              "the finished items are in results.json (--resume continues)") from None
                raise
