"""The output folder of a run: chosen with care (:func:`check_folder`: never someone else's folder, the root,
the home or a project root unless ``--force``) and held by one run at a time (:func:`output_lock`)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
from pathlib import Path

from ..base.outfiles import TEMP_PREFIX

LOCK_NAME = ".dptestbed.lock"
OUTPUT_NAMES = ("index.html", "report.md", "results.json", "junit.xml", "plots", LOCK_NAME)
_LEFTOVER = re.compile(re.escape(TEMP_PREFIX) + r"[\w.]+-[a-z0-9_]{8}\.tmp")  # outfiles.write's temporary files


class OutputBusy(RuntimeError):
    """Another run holds the output folder."""


def is_output(folder: Path) -> bool:
    """``folder`` is a dptestbed output folder: it holds the lock file of a run (one running, or one that ended
    before it wrote results.json), or a results.json of dptestbed's."""
    return (folder / LOCK_NAME).is_file() or _holds_results(folder)


def _holds_results(folder: Path) -> bool:
    """``folder`` holds a results.json of dptestbed's (its first bytes name the format)."""
    try:
        with open(folder / "results.json", "rb") as fh:
            head = fh.read(256)
    except OSError:
        return False
    return re.match(rb'\s*\{\s*"format"\s*:\s*"dptestbed-results/', head) is not None


def _project_root(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` that is a project's root (it holds .git, pyproject.toml or setup.py)."""
    for folder in (start, *start.parents):
        if any((folder / marker).exists() for marker in (".git", "pyproject.toml", "setup.py")):
            return folder
    return None


def check_folder(folder: Path, *, force: bool = False) -> str | None:
    """Why ``folder`` may not become an output folder, or None: a file; without ``force``, the root, the
    home, the current project's root (:func:`_project_root`), or a folder with files that is not a
    dptestbed output (its index.html, results.json or report.md would be replaced)."""
    if folder.exists() and not folder.is_dir():
        return "exists and is not a folder"
    if force:
        return None
    real = Path(os.path.realpath(folder))
    project = _project_root(Path.cwd().resolve())
    for name, protected in (("the root folder", Path("/")), ("your home folder", Path.home().resolve()),
                            ("the root of the project you run in", project)):
        if protected is not None and real == protected:
            return f"is {name}: choose a folder of its own (or --force)"
    try:
        entries = os.listdir(real)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot be read: {exc.strerror}"
    if entries and not is_output(real):
        return (f"holds {len(entries)} entries and is not a dptestbed output folder: its files could be replaced; "
                "choose an empty or new folder (or --force)")
    return None


@contextlib.contextmanager
def output_lock(out_dir: Path):
    """Hold ``out_dir`` for one run (an exclusive ``flock`` on ``.dptestbed.lock``, released when the
    process ends however it ends); leftover temporary files of an interrupted run (outfiles.write's
    names, and only in a folder that was a dptestbed output already) are removed. The lock file is removed
    when the run leaves the folder with its results.json (which marks the folder as dptestbed's from then
    on) or with nothing else; a run that ended with other files but no results.json (interrupted) leaves it
    as that mark."""
    from ..sandbox.isolation import hide

    out_dir.mkdir(parents=True, exist_ok=True)
    ours = is_output(out_dir)
    hide(out_dir)  # no sandboxed worker started from now on can reach it
    fd = _locked(out_dir / LOCK_NAME)
    try:
        for folder in (out_dir, out_dir / "plots") if ours else ():
            for leftover in folder.glob(TEMP_PREFIX + "*.tmp"):
                if _LEFTOVER.fullmatch(leftover.name):
                    with contextlib.suppress(OSError):
                        leftover.unlink()
        yield
    finally:
        if _holds_results(out_dir) or _only_the_lock(out_dir):  # removed while held: a run that opened it meanwhile opens it anew
            with contextlib.suppress(OSError):
                os.unlink(out_dir / LOCK_NAME)
        os.close(fd)


def _only_the_lock(folder: Path) -> bool:
    """The run wrote nothing into ``folder`` but its lock file (it ended before its first output)."""
    try:
        return os.listdir(folder) == [LOCK_NAME]
    except OSError:
        return False


def _locked(path: Path) -> int:
    """A descriptor of the lock file ``path`` holding its exclusive ``flock`` (OutputBusy when another run
    holds it). A lock taken on a file that the run before removed as it ended (opened before the removal,
    locked after) is no lock: the file is opened anew until the lock is on the file the path names."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise OutputBusy(f"{path.parent}: another dptestbed run is writing to this folder; wait for it or "
                             "choose another --out") from None
        held = os.fstat(fd)
        try:
            named = os.lstat(path)
        except FileNotFoundError:
            named = None
        if named is not None and (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino):
            return fd
        os.close(fd)
