"""The output folder of a run: held by one run at a time (:func:`output_lock`)."""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

LOCK_NAME = ".dptestbed.lock"


class OutputBusy(RuntimeError):
    """Another run holds the output folder."""


@contextlib.contextmanager
def output_lock(out_dir: Path):
    """Hold ``out_dir`` for one run (an exclusive ``flock`` on ``.dptestbed.lock``, released when the
    process ends however it ends); leftover temporary files of an interrupted run are removed."""
    from .isolation import hide

    out_dir.mkdir(parents=True, exist_ok=True)
    hide(out_dir)  # no sandboxed worker started from now on can reach it
    fd = os.open(out_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputBusy(f"{out_dir}: another dptestbed run is writing to this folder; wait for it or "
                             "choose another --out") from None
        for leftover in out_dir.glob(".*.tmp"):
            with contextlib.suppress(OSError):
                leftover.unlink()
        yield
    finally:
        os.close(fd)

