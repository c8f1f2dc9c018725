"""Writing a file of the output folder: through a fresh temporary file beside it and
``os.replace``, so that a reader never sees half a file and a symlink planted at the path is
replaced, never followed; with the permissions the umask gives a new file (a temporary file is
created 0600, and the final file keeps its mode)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

TEMP_PREFIX = ".dptestbed-"  # a temporary file is TEMP_PREFIX + the file's name + "-" + 8 characters + ".tmp"


def _umask() -> int:
    """The process's umask, read without changing it (Linux); elsewhere set and restored at once."""
    try:
        with open("/proc/self/status") as fh:
            for row in fh:
                if row.startswith("Umask:"):
                    return int(row.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write(path: Path, data: bytes, *, sync: bool = False) -> None:
    """Write ``data`` to ``path`` as described above (``sync``: flushed to disk before the rename)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{path.name}-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), 0o666 & ~_umask())
            fh.write(data)
            if sync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
