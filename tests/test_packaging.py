"""Installing dptestbed changes nothing else: the wheel builds without a warning and holds the
catalogue, and another project's pytest run (``filterwarnings = error``, a package of its own
named ``spec``) in a fresh venv with dptestbed installed sees no warning and no assertion rewriting
of its modules. The wheel and the venv: :mod:`fresh_venv`."""

from __future__ import annotations

import json
import subprocess
import zipfile

import pytest
from fresh_venv import ROOT, make_venv

pytestmark = pytest.mark.slow


def test_the_wheel_builds_without_a_warning_and_ships_one_package_with_its_data(dptestbed_wheel):
    built, log = dptestbed_wheel
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
    assert "dptestbed/audits/run/costs.json" in names  # the measured item costs the executor orders items by
    seeds = sorted(f"dptestbed/{p.relative_to(ROOT).as_posix()}" for p in (ROOT / "spec").rglob("seeds.json"))
    assert len(seeds) == 4 and set(seeds) <= set(names)  # each paper's seed files, which its specs' sources name


USER_TEST = '''
import spec

def test_own_spec_package():
    assert spec.double(2) == 4
    # pytest rewrites the asserts of test modules and of the packages it was told to: not this one
    assert type(spec.__loader__).__name__ != "AssertionRewritingHook"
'''


def test_another_projects_pytest_run_with_filterwarnings_error_sees_no_warning(dptestbed_wheel, tmp_path):
    bin_ = make_venv(tmp_path / "venv", wheel=dptestbed_wheel[0])
    project = tmp_path / "project"
    (project / "spec").mkdir(parents=True)
    (project / "spec" / "__init__.py").write_text("def double(x):\n    return 2 * x\n")
    (project / "test_user.py").write_text(USER_TEST)
    (project / "pyproject.toml").write_text('[tool.pytest.ini_options]\nfilterwarnings = ["error"]\n')
    out = subprocess.run([bin_ / "python", "-m", "pytest", "-p", "no:cacheprovider", "-rA"], cwd=project, capture_output=True,
                         text=True, timeout=300)
    text = out.stdout + out.stderr
    assert out.returncode == 0, text
    assert "1 passed" in text and "warning" not in text.lower(), text
    # the plugin is loaded, yet silent in a session without a dptestbed test (no settings line); the
    # installed catalogue is complete
    assert "plugins: dptestbed-" in text and "dptestbed: seed" not in text, text
    specs = subprocess.run([bin_ / "dptestbed", "specs", "--json"], capture_output=True,
                           text=True, timeout=300)
    assert specs.returncode == 0, specs.stderr
    assert len(json.loads(specs.stdout)["specs"]) == len(list((ROOT / "spec").rglob("*.toml")))
