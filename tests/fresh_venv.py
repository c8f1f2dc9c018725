"""Fresh environments for the packaging and CI-kit tests: dptestbed's wheel built once, venvs
that get dptestbed from it, a git repository of dptestbed with a release tag (what a user pins), and
a wheelhouse that lets pip install dptestbed's dependencies without an index.

The wheel is built from a copy of the source tree (no ``build/`` folder is left in the checkout)
without build isolation (the test environment's setuptools). A venv has no packages of its own; to
take seconds rather than the minutes of a download and install, it gets symbolic links to the
installed files of the distributions it needs (dptestbed's dependencies and those named), taken
from the test environment with their dependency closure only (no other pytest plugin)."""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata as md
import shutil
import subprocess
import sys
import zipfile
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


def tagged_repository(path: Path, tag: str) -> Path:
    """A git repository at ``path`` holding dptestbed's source tree (the working copy, as
    :func:`build_wheel` copies it) in one commit tagged ``tag``: what a user's ``rev:``/``@ref`` pins."""
    shutil.copytree(ROOT, path, ignore=COPY_IGNORE)
    git = ["git", "-c", "user.name=dptestbed tests", "-c", "user.email=tests@dptestbed.invalid", "-C", str(path)]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "release"], ["tag", tag]):
        subprocess.run([*git, *args], check=True, capture_output=True, timeout=120)
    return path


def git_redirect(url: str, path: Path) -> dict[str, str]:
    """Environment variables under which git (and pip's and pre-commit's clones) fetch ``url`` from
    the repository at ``path`` (``url.<base>.insteadOf``): a workflow's or a hook's URL, unchanged, served
    by a local copy."""
    return {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": f"url.{path.as_uri()}.insteadOf", "GIT_CONFIG_VALUE_0": url}


def wheelhouse(path: Path, names: tuple[str, ...]) -> Path:
    """A folder of wheels of the installed distributions ``names`` and everything they require,
    repacked from the test environment's files (their RECORD, their WHEEL tags), for
    ``PIP_FIND_LINKS`` with ``PIP_NO_INDEX``: pip then installs them without an index."""
    path.mkdir(parents=True, exist_ok=True)
    for dist in _closure(list(names)):
        tags = [line.split(": ", 1)[1].split("-") for line in (dist.read_text("WHEEL") or "").splitlines()
                if line.startswith("Tag: ")]
        tag = "-".join(".".join(dict.fromkeys(t[i] for t in tags)) for i in range(3))  # py2-none-any, py3-none-any
        name = canonicalize_name(dist.metadata["Name"]).replace("-", "_")
        files = [f for f in dist.files or [] if f.parts[0] != ".." and "__pycache__" not in f.parts]
        info = next(f.parts[0] for f in files if f.parts[0].endswith(".dist-info"))
        files = [f for f in files if f.parts[0] != info or f.name not in ("RECORD", "INSTALLER", "REQUESTED",
                                                                          "direct_url.json")]
        record = []
        with zipfile.ZipFile(path / f"{name}-{dist.version}-{tag}.whl", "w", zipfile.ZIP_STORED) as whl:
            for f in files:
                data = Path(dist.locate_file(f)).read_bytes()
                arcname = f.as_posix()
                whl.writestr(arcname, data)
                digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                record.append(f"{arcname},sha256={digest},{len(data)}")
            whl.writestr(f"{info}/RECORD", "\n".join([*record, f"{info}/RECORD,,"]) + "\n")
    return path
