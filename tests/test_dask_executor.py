"""The Dask executor (``--executor dask``, ``--scheduler ADDRESS``) on a real LocalCluster of two
worker processes: the same results as the local executor at the same seed, a hanging item cut
at its limit, a worker killed mid-run survived with nothing lost, one audit split across the
workers with the local result."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from dptestbed.audits.cli import main
from dptestbed.audits.privacy import audit, estimation
from dptestbed.audits.run import planning, results, suite
from dptestbed.audits.run.dask_executor import DaskBatches, DaskExecutor
from dptestbed.spec import load_catalogue

distributed = pytest.importorskip("distributed")

CATALOGUE = load_catalogue()


def _local_cluster(workers: int, **config):
    """A LocalCluster of ``workers`` single-threaded processes, configured as the executor's own."""
    import dask

    with dask.config.set({"distributed.scheduler.worker-saturation": 1.0, **config}):
        return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                        dashboard_address=":0", memory_limit=0, silence_logs=50)


@pytest.fixture(scope="module")
def cluster():
    with _local_cluster(2) as local:
        yield local


def test_the_same_results_as_the_local_executor_at_the_same_seed(request, tmp_path, monkeypatch):
    common = ["verify", "--spec", "randomized_response", "--seed", "7", "--no-plots", "--quiet"]  # 4 items of < 1 s
    assert main([*common, "--jobs", "2", "--out", str(tmp_path / "local")]) == 0
    cluster = request.getfixturevalue("cluster")  # started after the local run: never fork a process with threads
    written = []
    original = results.write_json_atomic

    def checked_write(path, document, **options):
        original(path, document, **options)
        written.append(json.loads(path.read_text())["run"]["items_done"])  # a valid file after every write

    monkeypatch.setattr(suite, "write_json_atomic", checked_write)
    assert main([*common, "--scheduler", cluster.scheduler_address, "--out", str(tmp_path / "dask")]) == 0
    # at the start, as the 4 items finish (at most a tenth of the time writing), at the end
    assert written[0] == 0 and written == sorted(written) and written[-1] == 4
    local, dask = (json.loads((tmp_path / name / "results.json").read_text()) for name in ("local", "dask"))
    assert dask["run"]["executor"] == f"dask {cluster.scheduler_address}" and local["run"]["executor"] == "local"
    assert results.comparable(dask) == results.comparable(local) and len(results.comparable(local)) == 4
    for key in ("family", "summary", "not_checked", "specs"):
        assert dask[key] == local[key]


HANGS = "import time\n\ndef mech(data, *, rng, **params):\n    time.sleep(600)\n"


@pytest.mark.slow
def test_a_hanging_item_is_cut_at_its_limit_on_a_local_cluster_of_its_own(tmp_path):
    impl = tmp_path / "hang.py"
    impl.write_text(HANGS)
    t0 = time.monotonic()
    # the call limit (600 s) is far away: only the items' own limits cut them (x 0.001: 0.12 CPU seconds for a
    # theorem item, 3 for an audit, which a sleeping item never uses, so the wall-clock bound of ten times that)
    code = main(["check", "laplace_mechanism", "--impl", f"{impl}:mech", "--out", str(tmp_path / "out"), "--quiet",
                 "--no-plots", "--no-controls", "--call-timeout", "600", "--timeout-scale", "0.001",
                 "--executor", "dask", "--jobs", "2"])
    assert time.monotonic() - t0 < 300  # far below one call's 600 s (the audits' own bound: 30 s)
    doc = json.loads((tmp_path / "out" / "results.json").read_text())
    # an item cut at its own limit is a run error (6): the limit cannot tell a hung implementation from a hung
    # check; a call's own timeout (test_verify) names the implementation (5)
    assert code == 6 and doc["run"]["complete"] and doc["run"]["executor"] == "dask LocalCluster (2 workers)"
    items = doc["privacy"] + doc["theorems"]
    assert len(items) == 4 and all(r["outcome"] == "error" for r in items)
    # cut at its own limit: its wall-clock bound (the hanging call sleeps), or its CPU seconds when starting the
    # item's process and workers used the 0.12 CPU seconds of the scale first
    assert all(r["error"].startswith(("timed out after", "timed out: used more than its limit")) for r in items)


def _run_killing_a_busy_worker(cluster, plan_, out, seed):
    """Run ``plan_`` on ``cluster`` and SIGKILL a worker process one second into its first item;
    returns the results document and how many items were done at the kill."""
    killed = []

    def kill_a_busy_worker(client):
        pids = client.run(os.getpid)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            busy = [w for w, keys in client.processing().items() if any(k.startswith("dptestbed-item-") for k in keys)]
            if busy:
                time.sleep(1.0)  # the worker has started its item's child
                os.kill(pids[busy[0]], signal.SIGKILL)
                killed.append(json.loads((out / "results.json").read_text())["run"]["items_done"])
                return
            time.sleep(0.05)

    with distributed.Client(cluster) as client:
        watcher = threading.Thread(target=kill_a_busy_worker, args=(client,))
        watcher.start()
        document = suite.run(plan_, CATALOGUE, out, seed=seed, executor=DaskExecutor(cluster.scheduler_address))
        watcher.join()
    assert killed and killed[0] < len(plan_.items)  # killed before the run ended
    return document


def test_a_worker_killed_mid_run_is_survived_with_nothing_lost(cluster, tmp_path):
    # two audits of a few seconds whose every round is sized in samples, both running when the worker dies: a
    # confirmation round (confirm.py) draws what fits in its seconds, so an audit that runs one (the noisy max's
    # reference at seed 3; svt_lyu_5's on a loaded machine) differs from run to run by design
    plan_ = planning.plan(CATALOGUE, "quick", ["laplace_mechanism"], theorems=False)
    plan_.items = [i for i in plan_.items if i.params is None]
    reference = suite.run(plan_, CATALOGUE, tmp_path / "ref", seed=3, isolate=False)
    document = _run_killing_a_busy_worker(cluster, plan_, tmp_path / "dask", seed=3)
    # the killed worker's items ran again elsewhere: every item done, the same results, no error
    assert document["run"]["complete"] and document["summary"]["errors"] == 0
    assert results.comparable(document) == results.comparable(reference)


@pytest.mark.slow
def test_an_item_whose_workers_keep_dying_is_an_error_item_and_the_run_completes(tmp_path):
    plan_ = planning.plan(CATALOGUE, "quick", ["svt_lyu_4", "svt_lyu_5", "svt_lyu_6"], theorems=False)  # 3 audits of 1-3 s, one after the other
    # no death allowed: the item running on the killed worker is given up at once (the default allows 3)
    with _local_cluster(1, **{"distributed.scheduler.allowed-failures": 0}) as one:
        document = _run_killing_a_busy_worker(one, plan_, tmp_path, seed=3)
    errors = [r for r in document["privacy"] if r["verdict"] == "error"]
    assert len(errors) == 1 and "KilledWorker" in errors[0]["error"]
    # the worker came back (and recomputed the plan it had held): the other items ran
    assert document["run"]["complete"] and document["run"]["items_done"] == 3
    assert all(r["verdict"] != "error" for r in document["privacy"] if r is not errors[0])


def test_the_command_line_imports_dask_only_when_asked(tmp_path):
    code = ("import sys; from dptestbed.audits import cli; from dptestbed.audits.run import dask_executor, suite; "
            "cli.main(['specs', '--paper', 'calibration']); print('distributed' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip().endswith("False")


def test_a_local_audit_imports_neither_dask_nor_the_suite_machinery():
    code = ("import sys; from dptestbed.audits import cli; cli.main(['audit', 'laplace_mechanism', '--samples', '1000']); "
            "print([m for m in ('distributed', 'statsmodels', 'dptestbed.audits.run.suite', 'dptestbed.audits.run.execution', 'dptestbed.audits.run.planning') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_without_dask_the_dask_executor_is_a_one_line_error(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed raises ImportError
    assert main(["verify", "--spec", "laplace_mechanism", "--executor", "dask"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "pip install 'dask[distributed]>=2024.1'" in err and "'.[dask]'" in err


def test_a_scheduler_with_the_local_executor_is_a_one_line_error(capsys):
    assert main(["verify", "--spec", "laplace_mechanism", "--executor", "local", "--scheduler", "tcp://x:1"]) == 2
    assert "--scheduler" in capsys.readouterr().err


def test_an_unreachable_scheduler_is_a_one_line_error(monkeypatch, tmp_path, capsys):
    from dptestbed.audits.run import dask_executor

    monkeypatch.setattr(dask_executor, "CONNECT_TIMEOUT", 1.0)
    assert main(["verify", "--spec", "laplace_mechanism", "--scheduler", "tcp://127.0.0.1:1", "--quiet",
                 "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "cannot use the scheduler at tcp://127.0.0.1:1" in err


USER_LAPLACE = """import numpy as np

def laplace(data, *, rng, epsilon, gamma):
    return np.asarray(data, dtype=float) + rng.laplace(0.0, gamma / epsilon, size=np.shape(data))

def laplace_batch(data, n, *, rng, epsilon, gamma):
    return np.asarray(data, dtype=float) + rng.laplace(0.0, gamma / epsilon, size=(n, *np.shape(data)))

laplace.batch = laplace_batch
"""


def _without_timing(result) -> dict:
    return {k: v for k, v in result.to_json().items() if k not in results.TIMED_FIELDS}


@pytest.mark.parametrize("implementation", ["reference", "user file"])
def test_one_audit_split_across_the_workers_gives_the_local_result(cluster, tmp_path, monkeypatch, implementation):
    impl = None
    if implementation == "user file":  # sandboxed here and on the workers (the file at the same path)
        (tmp_path / "mine.py").write_text(USER_LAPLACE)
        impl = f"{tmp_path / 'mine.py'}:laplace"
    spec = CATALOGUE["laplace_mechanism"]
    monkeypatch.setattr(estimation, "ESTIMATE_BATCH", 20_000)  # 150,000 samples: 5 batches per side and pair
    local = audit(spec, implementation=impl, samples=150_000, seed=5)
    original = estimation.count_batch

    def slow_here(*args):  # batches computed here wait, so the idle workers take most of them
        time.sleep(0.3)
        return original(*args)

    monkeypatch.setattr(estimation, "count_batch", slow_here)  # the workers import the module afresh: not slowed
    with distributed.Client(cluster) as client:
        split = audit(spec, implementation=impl, samples=150_000, seed=5, batches=DaskBatches(client=client))
    assert split.timing["elsewhere"]["batches"] >= 4 and local.timing.get("elsewhere") is None
    assert _without_timing(split) == _without_timing(local) and split.verdict == local.verdict


def test_audits_of_a_run_split_their_batches_without_waiting_for_busy_workers(tmp_path, monkeypatch):
    """On one worker, busy with the item itself, the item's batches never find a free worker: the
    item computes them all (no deadlock) and the result is the local one."""
    plan_ = planning.plan(CATALOGUE, "quick", ["laplace_mechanism"], theorems=False)
    plan_.items = plan_.items[:1]
    monkeypatch.setattr(estimation, "ESTIMATE_BATCH", 100_000)  # the quick budget (666,667 test runs): 7 batches
    reference = suite.run(plan_, CATALOGUE, tmp_path / "ref", seed=3, isolate=False)
    with _local_cluster(1) as one, distributed.Client(one) as client:
        client.run(setattr, estimation, "ESTIMATE_BATCH", 100_000)  # the worker's items fork from its module state
        document = suite.run(plan_, CATALOGUE, tmp_path / "dask", seed=3, executor=DaskExecutor(one.scheduler_address))
    assert document["summary"]["errors"] == 0
    assert results.comparable(document) == results.comparable(reference)
    assert "elsewhere" not in document["privacy"][0]["timing"]


def test_audit_command_with_the_dask_executor_prints_the_local_result(tmp_path, capsys):
    common = ["audit", "laplace_mechanism", "--samples", "2500000", "--seed", "2", "--json"]
    assert main(common) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*common, "--executor", "dask", "--jobs", "2"]) == 0
    split = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in split.items() if k not in results.TIMED_FIELDS} == \
        {k: v for k, v in local.items() if k not in results.TIMED_FIELDS}
