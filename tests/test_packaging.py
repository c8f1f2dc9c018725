"""Installing dptestbed changes nothing else: the wheel builds without a warning and holds the
catalogue, and another project's pytest run (``filterwarnings = error``, a package of its own
named ``spec``) sees no warning and no assertion rewriting of its modules.

The wheel is built once per module from a copy of the source tree (so no ``build/`` folder is left
in the checkout), without build isolation (the test environment's setuptools). The fresh venv has
no pip and no packages of its own; it gets dptestbed from that wheel (``pip --python VENV install
--no-deps --no-index``) and, to take seconds rather than minutes, symbolic links to the installed
files of dptestbed's dependencies and pytest's, taken from the test environment (their dependency
closure only: no other pytest plugin)."""

from __future__ import annotations

import importlib.metadata as md
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
COPY_IGNORE = shutil.ignore_patterns(".git", ".venv", ".ci-venv", "build", "dist", "reports", "__pycache__",
                                     "*.egg-info", ".hypothesis")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> tuple[Path, str]:
    """(the wheel, the build's verbose output)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    shutil.copytree(ROOT, src, ignore=COPY_IGNORE)
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation",
                          "--no-index", "-v", "-w", str(tmp / "dist")], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    (built,) = (tmp / "dist").glob("dptestbed-*.whl")
    return built, out.stdout + out.stderr


def _closure(names: list[str]) -> list[md.Distribution]:
    """The installed distributions of ``names`` and of everything they require (no extras)."""
    seen: dict[str, md.Distribution] = {}
    todo = list(names)
    while todo:
        req = Requirement(todo.pop())
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(req.name)
        if name in seen:
            continue
        seen[name] = dist = md.distribution(name)
        todo.extend(dist.requires or [])
    return list(seen.values())


def _fresh_venv(path: Path, wheel: Path) -> Path:
    """A venv at ``path`` with dptestbed installed from ``wheel`` and its dependencies and pytest
    linked in; returns its interpreter."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True, timeout=120)
    python = path / "bin" / "python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    requires = [r for r in md.requires("dptestbed") or [] if "extra ==" not in r]
    for dist in _closure([*requires, "pytest"]):
        for top in {Path(f).parts[0] for f in dist.files or []} - {"..", "__pycache__"}:
            if not (site / top).exists():
                (site / top).symlink_to(Path(dist.locate_file(top)))
    out = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                          "--no-index", str(wheel)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return python


def test_the_wheel_builds_without_a_warning_and_ships_one_package_with_its_data(wheel):
    built, log = wheel
    # python warnings of the build (setuptools' deprecations, "Package would be ignored"); the
    # lower-case "warning: ... byte-compiling is disabled" lines are PYTHONDONTWRITEBYTECODE's
    assert "Warning" not in log and "would be ignored" not in log, log
    names = zipfile.ZipFile(built).namelist()
    dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
    assert {n.split("/")[0] for n in names} == {"dptestbed", dist_info}
    assert "dptestbed/__init__.py" in names and "dptestbed/py.typed" in names
    assert f"{dist_info}/licenses/LICENSE" in names
    metadata = zipfile.ZipFile(built).read(f"{dist_info}/METADATA").decode()
    assert "License-Expression: MIT" in metadata
    tomls = sorted(f"dptestbed/{p.relative_to(ROOT).as_posix()}" for p in (ROOT / "spec").rglob("*.toml"))
    assert tomls and sorted(n for n in names if n.endswith(".toml")) == tomls
    schemas = sorted(f"dptestbed/audits/schemas/{p.name}" for p in (ROOT / "audits" / "schemas").glob("*.json"))
    assert schemas and set(schemas) <= set(names)


USER_TEST = '''
import spec

def test_own_spec_package():
    assert spec.double(2) == 4
    # pytest rewrites the asserts of test modules and of the packages it was told to: not this one
    assert type(spec.__loader__).__name__ != "AssertionRewritingHook"
'''


def test_another_projects_pytest_run_with_filterwarnings_error_sees_no_warning(wheel, tmp_path):
    python = _fresh_venv(tmp_path / "venv", wheel[0])
    project = tmp_path / "project"
    (project / "spec").mkdir(parents=True)
    (project / "spec" / "__init__.py").write_text("def double(x):\n    return 2 * x\n")
    (project / "test_user.py").write_text(USER_TEST)
    (project / "pyproject.toml").write_text('[tool.pytest.ini_options]\nfilterwarnings = ["error"]\n')
    out = subprocess.run([python, "-m", "pytest", "-p", "no:cacheprovider", "-rA"], cwd=project, capture_output=True,
                         text=True, timeout=300)
    text = out.stdout + out.stderr
    assert out.returncode == 0, text
    assert "1 passed" in text and "warning" not in text.lower(), text
    # the plugin is there (its header line), and the installed catalogue is complete
    assert "dptestbed: seed 0" in text, text
    specs = subprocess.run([tmp_path / "venv" / "bin" / "dptestbed", "specs", "--json"], capture_output=True,
                           text=True, timeout=300)
    assert specs.returncode == 0, specs.stderr
    assert len(json.loads(specs.stdout)["specs"]) == len(list((ROOT / "spec").rglob("*.toml")))
