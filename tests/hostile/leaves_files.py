"""Attack: leave things behind on the machine. On its first call a no-noise implementation writes a
file and a folder into /tmp, a file into /var/tmp and /dev/shm, and makes a System V shared memory
segment, all of which outlive a process; it prints its uid. Expected: the claim violated (no noise),
and after the run nothing of that uid is left in those folders or among the segments."""

import ctypes
import os

import numpy as np

MARK = os.environ.get("DPTESTBED_HOSTILE_MARK", "x")
_done = []


def _leave():
    for path in (f"/tmp/hostile-{MARK}.txt", f"/var/tmp/hostile-{MARK}.txt", f"/dev/shm/hostile-{MARK}"):
        try:
            with open(path, "w") as fh:
                fh.write("left")
        except OSError:
            pass
    try:
        os.makedirs(f"/tmp/hostile-{MARK}/deep", exist_ok=True)
        with open(f"/tmp/hostile-{MARK}/deep/file", "w") as fh:
            fh.write("left")
    except OSError:
        pass
    ctypes.CDLL(None, use_errno=True).shmget(0, 4096, 0o1000 | 0o600)  # IPC_PRIVATE, IPC_CREAT
    print(f"HOSTILE uid={os.getuid()}", flush=True)


def laplace(data, *, rng, epsilon, gamma):
    if not _done:
        _done.append(1)
        _leave()
    return np.asarray(data, dtype=float) + 0.0 * rng.random()
