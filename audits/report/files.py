"""Writing a report's files: atomically, never through a symlink."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_file(path: Path, content: str | bytes) -> None:
    """Write ``path`` through a fresh temporary file in its folder and ``os.replace``: a symlink
    planted at ``path`` is replaced, never followed, and a reader never sees half a file."""
    path = Path(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
