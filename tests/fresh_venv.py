"""Fresh environments for the packaging and CI-kit tests: dptestbed's wheel built once, and venvs
that get dptestbed from it.

The wheel is built from a copy of the source tree (no ``build/`` folder is left in the checkout)
without build isolation (the test environment's setuptools). A venv has no packages of its own; to
take seconds rather than the minutes of a download and install, it gets symbolic links to the
installed files of the distributions it needs (dptestbed's dependencies and those named), taken
from the test environment with their dependency closure only (no other pytest plugin)."""

from __future__ import annotations

import importlib.metadata as md
import shutil
import subprocess
import sys
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
COPY_IGNORE = shutil.ignore_patterns(".git", ".venv", ".ci-venv", "build", "dist", "reports", "__pycache__",
                                     "*.egg-info", ".hypothesis")


def build_wheel(tmp: Path) -> tuple[Path, str]:
    """dptestbed's wheel, built in ``tmp``, and the build's verbose output."""
    src = tmp / "src"
    shutil.copytree(ROOT, src, ignore=COPY_IGNORE)
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation",
                          "--no-index", "-v", "-w", str(tmp / "dist")], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    (wheel,) = (tmp / "dist").glob("dptestbed-*.whl")
    return wheel, out.stdout + out.stderr


def _closure(names: list[str]) -> list[md.Distribution]:
    """The installed distributions of ``names`` and of everything they require (no extras)."""
    seen: dict[str, md.Distribution] = {}
    todo = list(names)
    while todo:
        req = Requirement(todo.pop())
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(req.name)
        if name not in seen:
            seen[name] = dist = md.distribution(name)
            todo.extend(dist.requires or [])
    return list(seen.values())


def make_venv(path: Path, *, wheel: Path | None, also: tuple[str, ...] = ("pytest",)) -> Path:
    """A venv at ``path`` holding dptestbed's dependencies and the distributions ``also`` (linked),
    and dptestbed from ``wheel`` (None: not installed); returns its ``bin`` folder."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True, timeout=120)
    python = path / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    requires = [r for r in md.requires("dptestbed") or [] if "extra ==" not in r]
    for dist in _closure([*requires, *also]):
        for top in {Path(f).parts[0] for f in dist.files or []} - {"..", "__pycache__"}:
            if not (site / top).exists():
                (site / top).symlink_to(Path(dist.locate_file(top)))
    if wheel is not None:
        out = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                              "--no-index", str(wheel)], capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
    return path / "bin"
