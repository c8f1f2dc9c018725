"""The CI kit (``examples/ci``) run as far as a machine without GitHub Actions allows: the
workflow's ``run:`` steps in order, with the workflow's environment and GitHub's default shell, in a
user's project holding ``examples/ci/mechanism.py``; then the pre-commit hook's ``entry``. They run
in a fresh venv with dptestbed's dependencies but not dptestbed, which the workflow's install step
installs (from the wheel instead of a checkout of the repository: :mod:`fresh_venv`)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
import yaml
from fresh_venv import ROOT, make_venv

KIT = ROOT / "examples" / "ci"

pytestmark = pytest.mark.slow


def _project(tmp, wheel=None):
    """A user's project folder holding the example implementation, and the environment its commands
    run in: a fresh venv with pip and dptestbed's dependencies, and dptestbed when ``wheel`` is given."""
    bin_ = make_venv(tmp / "venv", wheel=wheel, also=("pip",))
    folder = tmp / "project"
    folder.mkdir()
    shutil.copy(KIT / "mechanism.py", folder)
    env = {**os.environ, "PATH": f"{bin_}{os.pathsep}{os.environ['PATH']}", "VIRTUAL_ENV": str(bin_.parent),
           "PIP_NO_INDEX": "1", "GITHUB_STEP_SUMMARY": str(tmp / "summary.md")}
    env.pop("PYTHONPATH", None)
    return folder, env


def test_the_workflow_runs_its_steps_and_keeps_the_reports(dptestbed_wheel, tmp_path):
    wheel = dptestbed_wheel[0]
    folder, env = _project(tmp_path)  # without dptestbed: the workflow's first step installs it
    workflow = yaml.safe_load((KIT / "dptestbed.yml").read_text())
    job = workflow["jobs"]["check"]
    uses = [step["uses"].split("@")[0] for step in job["steps"] if "uses" in step]
    assert uses == ["actions/checkout", "actions/checkout", "actions/setup-python", "actions/upload-artifact"]
    upload = job["steps"][-1]["with"]["path"].split()
    env = {**env, **workflow["env"], "DPTESTBED_SOURCE": str(wheel)}  # the wheel stands for the checkout
    runs = [step["run"] for step in job["steps"] if "run" in step]
    assert any(run.startswith("dptestbed check ") for run in runs)
    for run in runs:
        out = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", run], cwd=folder, env=env,
                             capture_output=True, text=True, timeout=900)
        assert out.returncode == 0, f"{run}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    for path in upload:
        assert (folder / path).exists(), path
    cases = ET.parse(folder / "dptestbed-report" / "junit.xml").getroot().findall(".//testcase")
    assert cases and not [c for c in cases if c.find("failure") is not None or c.find("error") is not None]
    assert "PASS" in (tmp_path / "summary.md").read_text()


def test_the_pre_commit_hook_runs_the_check(dptestbed_wheel, tmp_path):
    folder, env = _project(tmp_path, wheel=dptestbed_wheel[0])
    config = yaml.safe_load((KIT / "pre-commit-config.yaml").read_text())
    (hook,) = config["repos"][0]["hooks"]
    assert hook["language"] == "system" and re.search(hook["files"], "mechanism.py")
    argv = shlex.split(hook["entry"])
    assert argv[:2] == ["dptestbed", "check"]
    out = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert (folder / ".dptestbed-report" / "junit.xml").exists()
