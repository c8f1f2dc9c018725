"""Limits that hold when the command line runs as root: the namespaced sandbox's uid 0 is an unprivileged
user of the run's own on the host (its threads and processes count against the limit of 4,096, which
exempts root), and at the unprivileged-uid level every run has a user of its own (a worker cannot signal
another run's workers), whose processes, files in /tmp, /var/tmp and /dev/shm and System V segments are
removed when the run ends."""

from __future__ import annotations

import os
import re
import shutil
import time
import uuid
from pathlib import Path

import numpy as np
import pytest

from dptestbed.audits.sandbox import isolation

HERE = Path(__file__).parent
HONEST = HERE.parents[1] / "examples" / "ci" / "mechanism.py"  # a correct Laplace mechanism
ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="the levels of root")
LEVELS = ["auto"] + (["uid"] if os.geteuid() == 0 else [])


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_threads_stop_at_the_limit(hostile, level):
    run = hostile("thread_bomb", "--isolation", level, "--samples", "1000", command="audit", deadline=180)
    assert run.code == 5, run.stdout + run.stderr[-2000:]
    started = [int(n) for n in re.findall(r"started (\d+) threads", run.stdout)]
    assert started and max(started) <= isolation.NPROC_LIMIT, run.stdout


@ROOT
@pytest.mark.slow
def test_a_worker_cannot_end_another_runs_workers(hostile, shelf, monkeypatch):
    from dptestbed.audits.sandbox.workers import SandboxWorker

    mark = uuid.uuid4().hex
    victim = shelf / f"victim_{mark}.py"
    shutil.copy(HONEST, victim)
    victim.chmod(0o644)
    monkeypatch.setattr(isolation, "_mode", "uid")
    worker = SandboxWorker(f"{victim}:laplace")  # a worker of this test's own run
    try:
        assert worker.level == isolation.UID
        run = hostile("kills_others", "--isolation", "uid", "--samples", "1000", command="audit",
                      env={"HOSTILE_VICTIM": mark})
        assert run.code == 5 and "killed 0 processes" in run.stdout, run.stdout + run.stderr[-2000:]
        worker.submit(("batch", np.zeros(1), 10, 0, {"epsilon": 1.0, "gamma": 1.0}), 30.0)
        while (answer := worker.result()) is None:
            time.sleep(0.05)
        assert answer[0] == "ok", answer
    finally:
        worker.close()


def _left(uid: int) -> list[str]:
    found = []
    for top in isolation.WORLD_WRITABLE:
        for root, dirs, files in os.walk(top):
            for name in dirs + files:
                try:
                    if os.lstat(os.path.join(root, name)).st_uid == uid:
                        found.append(os.path.join(root, name))
                except OSError:
                    pass
    for kind in ("shm", "msg", "sem"):
        try:
            with open(f"/proc/sysvipc/{kind}") as fh:
                header, *rows = [row.split() for row in fh]
        except OSError:
            continue
        found += [f"{kind} {row[1]}" for row in rows if row[header.index("uid")] == str(uid)]
    return found


@ROOT
@pytest.mark.slow
def test_what_a_run_leaves_is_removed_when_it_ends(hostile, agree):
    run = hostile("leaves_files", "--isolation", "uid")
    agree(run, 1)
    uids = {int(u) for u in re.findall(r"HOSTILE uid=(\d+)", run.stderr)}
    assert uids and 0 not in uids and 65534 not in uids, run.stderr[-2000:]
    for uid in uids:
        assert not _left(uid), _left(uid)
