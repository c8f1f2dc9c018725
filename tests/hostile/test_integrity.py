"""Keys and integrity: no worker reads the key that signs results.json however its folder is named, and
neither ``--resume`` nor ``report`` accepts a results.json that does not verify in full (edited,
re-signed, computed from another implementation file, spec, isolation level or dptestbed)."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dptestbed.audits.base import integrity

HONEST = Path(__file__).parents[2] / "examples" / "ci" / "mechanism.py"  # a correct Laplace mechanism
LEVELS = ["auto"] + (["uid"] if os.geteuid() == 0 else [])


def _make_key(folder: Path) -> str:
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    path = folder / "results-key"
    path.write_text(key)
    path.chmod(0o600)
    return key


def _state(kind: str, shelf: Path, tmp_path: Path) -> tuple[dict, Path]:
    """The environment naming the key's folder, and the key's folder, for each way of naming it."""
    impl = shelf / "impl"
    impl.mkdir(mode=0o755)
    if kind == "relative":
        return {"DPTESTBED_STATE_DIR": "state"}, impl / "state"
    if kind == "symlinked":
        (impl / "state").mkdir(mode=0o700, parents=True)
        (tmp_path / "link").symlink_to(impl / "state")
        return {"DPTESTBED_STATE_DIR": str(tmp_path / "link")}, impl / "state"
    if kind == "nested":
        return {"DPTESTBED_STATE_DIR": str(impl / "deep" / "state")}, impl / "deep" / "state"
    if kind == "own_folder":  # the key's folder is the implementation's folder
        return {"DPTESTBED_STATE_DIR": str(impl)}, impl
    assert kind == "xdg_relative"
    return {"XDG_STATE_HOME": "xdg", "DPTESTBED_STATE_DIR": ""}, impl / "xdg" / "dptestbed"


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("kind", ["relative", "symlinked", "nested", "own_folder", "xdg_relative"])
def test_no_worker_reads_the_signing_key(hostile, shelf, tmp_path, kind, level):
    env, folder = _state(kind, shelf, tmp_path)
    key = _make_key(folder)
    run = hostile("reads_key", "--isolation", level, env=env, cwd=shelf / "impl", where=shelf / "impl",
                  deadline=180)
    assert key not in run.text and "KEY " not in run.text, run.stdout[-2000:]
    doc = json.loads((run.out / "results.json").read_text())
    assert doc["summary"]["exit_code"] == run.code == 1, run.stdout[-2000:] + run.stderr[-2000:]


def _cli(*args, cwd: Path) -> tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "-m", "dptestbed", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


RUN = ["check", "laplace_mechanism", "--impl", "impl.py:laplace", "--dir", "specs", "--out", "out", "--quiet",
       "--no-plots"]


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished check of a correct implementation at the process level (exit 0), named by relative paths
    so that a copy of its folder can be resumed: ``copy()`` gives a fresh copy."""
    from dptestbed.spec import spec_file

    root = tmp_path_factory.mktemp("finished")
    root.chmod(0o755)
    (root / "impl.py").write_text(HONEST.read_text())
    (root / "specs").mkdir()
    (root / "specs" / "laplace_mechanism.toml").write_text(spec_file("laplace_mechanism").read_text())
    code, out, err = _cli(*RUN, "--isolation", "process", cwd=root)
    assert code == 0, out + err
    copies = iter(range(100))

    def copy() -> Path:
        target = tmp_path_factory.getbasetemp() / f"resume-{next(copies)}"
        shutil.copytree(root, target, symlinks=True)
        return target

    return copy


def _refused(code: int, err: str, text: str) -> None:
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert text in err, err


@pytest.mark.slow
def test_resume_re_uses_an_unchanged_run(finished):
    root = finished()
    code, out, err = _cli(*RUN, "--isolation", "process", "--resume", cwd=root)
    assert code == 0 and "6 of 6 items re-used" in err, out + err


@pytest.mark.slow
def test_resume_refuses_a_changed_implementation_file(finished):
    root = finished()
    (root / "impl.py").write_text("import numpy as np\n\ndef laplace(data, *, rng, epsilon, gamma):\n"
                                  "    return np.asarray(data, dtype=float)\n")  # no noise at all
    _refused(*_cli(*RUN, "--isolation", "process", "--resume", cwd=root)[::2], "the implementation's file changed")


@pytest.mark.slow
@pytest.mark.parametrize("level", ["auto", "strict"])
def test_resume_refuses_another_isolation_level(finished, level):
    root = finished()
    code, _, err = _cli(*RUN, "--isolation", level, "--resume", cwd=root)
    _refused(code, err, "isolation level" if level == "auto" else "isolation")  # strict: or no namespaces here


@pytest.mark.slow
def test_resume_refuses_a_changed_spec_file(finished):
    root = finished()
    spec = root / "specs" / "laplace_mechanism.toml"
    spec.write_text(spec.read_text().replace('title = "Laplace mechanism"', 'title = "Laplace mechanism (edited)"'))
    _refused(*_cli(*RUN, "--isolation", "process", "--resume", cwd=root)[::2], "a spec file changed")


@pytest.mark.slow
def test_resume_refuses_results_of_other_dptestbed_code(finished, monkeypatch, capsys):
    from dptestbed.audits.cli import main

    root = finished()
    monkeypatch.chdir(root)
    monkeypatch.setattr(integrity, "_code", "0" * 64)
    assert main([*RUN, "--isolation", "process", "--resume"]) == 2
    _refused(2, capsys.readouterr().err, "other dptestbed code")


def _forge(doc: dict) -> dict:
    """Every item a pass, the summary a pass, the signature zeroed (or dropped)."""
    for item in doc["privacy"] + doc["theorems"]:
        item.update({"class": "pass", "outcome": "as expected", "verdict": "no violation found"})
    doc["summary"].update({"exit_code": 0, "unexpected": 0, "errors": 0})
    doc["integrity"] = {"algorithm": integrity.ALGORITHM, "signature": "0" * 64}
    return doc


@pytest.mark.slow
@pytest.mark.parametrize("how", ["zeroed", "dropped", "summary_only", "resigned_elsewhere"])
def test_report_refuses_a_results_file_that_does_not_verify(finished, tmp_path, how):
    root = finished()
    path = root / "out" / "results.json"
    doc = json.loads(path.read_text())
    if how == "summary_only":  # the items as they were, the exit code of another run
        doc["summary"]["exit_code"] = 1
    else:
        doc = _forge(doc)
    if how == "dropped":
        del doc["integrity"]
    if how == "resigned_elsewhere":  # signed by another machine's dptestbed
        env = {**os.environ, "DPTESTBED_STATE_DIR": str(tmp_path / "elsewhere")}
        code = "import json, sys; from dptestbed.audits.base import integrity; print(json.dumps(integrity.seal(json.load(sys.stdin))))"
        doc = json.loads(subprocess.run([sys.executable, "-c", code], input=json.dumps(doc), capture_output=True,
                                        text=True, env=env, check=True).stdout)
    path.write_text(json.dumps(doc))
    page = (root / "out" / "index.html").read_bytes()
    code, out, err = _cli("report", str(path), cwd=root)
    _refused(code, err, "not rendered")
    assert "PASS" not in out and (root / "out" / "index.html").read_bytes() == page
    code, out, err = _cli("report", str(path), "--out", str(tmp_path / "shown"), cwd=root)
    _refused(code, err, "not rendered")
    assert not (tmp_path / "shown").exists()
