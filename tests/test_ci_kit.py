"""The CI kit (``examples/ci``, ``.pre-commit-hooks.yaml``) used as a user's repository uses it, as far
as a machine without GitHub Actions allows: dptestbed's repository is a local copy with the release tag
the kit pins, served under the kit's own URL (git's ``insteadOf``), and pip installs without an index
(a wheelhouse of the test environment's distributions, :mod:`fresh_venv`).

* the workflow: its ``run:`` steps in order, with its environment and GitHub's default shell, in a
  user's project holding ``examples/ci/mechanism.py``, in a fresh venv without dptestbed: the install
  step installs the pinned release from the repository; the files the upload step keeps exist;
* the hook: ``pre-commit run`` with ``examples/ci/pre-commit-config.yaml`` as it is (``repo:``/``rev:``):
  pre-commit clones the release, installs it in an environment of its own from the repository's
  ``.pre-commit-hooks.yaml``, and runs the check; a broken implementation stops the commit."""

from __future__ import annotations

import importlib.metadata as md
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
import yaml
from fresh_venv import ROOT, git_redirect, make_venv, tagged_repository, wheelhouse
from packaging.requirements import Requirement

KIT = ROOT / "examples" / "ci"
WORKFLOW = yaml.safe_load((KIT / "dptestbed.yml").read_text())
HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
CONFIG = yaml.safe_load((KIT / "pre-commit-config.yaml").read_text())
URL, _, TAG = WORKFLOW["env"]["DPTESTBED"].removeprefix("git+").rpartition("@")

pytestmark = pytest.mark.slow

BROKEN = '''
import numpy as np

def laplace(data, *, rng, epsilon, gamma):
    """Half the noise the claim needs: a loss of 2 against a claim of 1."""
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, 0.5 * gamma / epsilon, size=f.shape)
'''


def test_the_kit_pins_one_release_of_one_repository_and_caches_pip():
    assert re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+", URL) and TAG == f"v{md.version('dptestbed')}"
    (repo,) = CONFIG["repos"]
    assert (repo["repo"], repo["rev"]) == (URL, TAG)
    steps = WORKFLOW["jobs"]["check"]["steps"]
    uses = [step["uses"].split("@")[0] for step in steps if "uses" in step]
    assert uses == ["actions/checkout", "actions/setup-python", "actions/upload-artifact"]
    python = next(step for step in steps if step.get("uses", "").startswith("actions/setup-python"))["with"]
    assert python["cache"] == "pip" and python["cache-dependency-path"] == ".github/workflows/dptestbed.yml"
    (hook,) = HOOKS
    assert [h["id"] for h in repo["hooks"]] == [hook["id"]] == ["dptestbed-check"]
    assert hook["language"] == "python" and hook["pass_filenames"] is False
    assert hook["entry"].split()[:2] == ["dptestbed", "check"]


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> dict[str, str]:
    """The environment under which the kit's URL and tag resolve to this source tree, and pip installs
    dptestbed's dependencies (and the setuptools of its build) without an index."""
    tmp = tmp_path_factory.mktemp("release")
    runtime = [Requirement(r).name for r in md.requires("dptestbed") or [] if "extra ==" not in r]
    wheels = wheelhouse(tmp / "wheels", (*runtime, "setuptools"))
    repository = tagged_repository(tmp / "dptestbed.git", TAG)
    env = {**os.environ, **git_redirect(URL, repository), "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheels),
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)
    return env


def _project(tmp_path, implementation: str | None = None):
    folder = tmp_path / "project"
    folder.mkdir(parents=True)
    shutil.copy(KIT / "mechanism.py", folder)
    if implementation is not None:
        (folder / "mechanism.py").write_text(implementation)
    return folder


def _bash(run: str, folder, env) -> subprocess.CompletedProcess:
    """A ``run:`` step as GitHub runs it: bash --noprofile --norc -eo pipefail."""
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", run], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=900)


def test_the_workflow_installs_the_pinned_release_runs_its_steps_and_keeps_the_reports(release, tmp_path):
    bin_ = make_venv(tmp_path / "venv", wheel=None, also=("pip",))  # without dptestbed: the workflow installs it
    folder = _project(tmp_path)
    env = {**release, **WORKFLOW["env"], "PATH": f"{bin_}{os.pathsep}{os.environ['PATH']}",
           "VIRTUAL_ENV": str(bin_.parent), "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}
    job = WORKFLOW["jobs"]["check"]
    runs = [step["run"] for step in job["steps"] if "run" in step]
    assert any(run.startswith("dptestbed check ") for run in runs)
    for run in runs:
        out = _bash(run, folder, env)
        assert out.returncode == 0, f"{run}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    installed = subprocess.run([bin_ / "python", "-c", "import importlib.metadata as md, json; "
                                "d = md.distribution('dptestbed'); print(d.version, d.read_text('direct_url.json'))"],
                               capture_output=True, text=True, timeout=60, env=env, cwd=folder)
    assert installed.stdout.startswith(md.version("dptestbed")), installed.stdout + installed.stderr
    assert f'"url": "{URL}"' in installed.stdout and f'"requested_revision": "{TAG}"' in installed.stdout
    for path in job["steps"][-1]["with"]["path"].split():
        assert (folder / path).exists(), path
    cases = ET.parse(folder / "dptestbed-report" / "junit.xml").getroot().findall(".//testcase")
    assert cases and not [c for c in cases if c.find("failure") is not None or c.find("error") is not None]
    assert "PASS" in (tmp_path / "summary.md").read_text()


def _pre_commit(folder, env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=900)


def test_a_user_repository_runs_the_hook_from_repo_and_rev(release, tmp_path):
    pytest.importorskip("pre_commit")
    env = {**release, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    for name, implementation, code in (("good", None, 0), ("broken", BROKEN, 1)):
        folder = _project(tmp_path / name, implementation)
        shutil.copy(KIT / "pre-commit-config.yaml", folder / ".pre-commit-config.yaml")
        for args in (["init", "-q"], ["add", "-A"]):
            subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, timeout=60)
        out = _pre_commit(folder, env)
        text = out.stdout + out.stderr
        assert out.returncode == code, text[-3000:]
        assert (folder / ".dptestbed-report" / "junit.xml").exists(), text[-3000:]
        if code:
            assert "Failed" in text and "- exit code: 1" in text, text[-3000:]
            doc = (folder / ".dptestbed-report" / "results.json").read_text()
            assert '"class": "claim violated"' in doc
