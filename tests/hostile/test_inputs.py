"""Hostile input to the command line: one line on stderr and exit 2, never a traceback, a run, a
verdict or a lost file. An output folder that is not a dptestbed output (or /, the home, a project
root) is refused unless --force, and no file dptestbed did not write is ever deleted; a spec id of 300
characters, a --pair nested thousands deep, a FIFO, a folder or /dev/stdin as --impl, a file name with
a newline and an escape sequence, a spec with 40,000 audit points: one line, exit 2. numpy's warnings
about the outputs it computes with never reach stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
HONEST = HERE.parents[1] / "examples" / "ci" / "mechanism.py"  # a correct Laplace mechanism
LAPLACE = ["laplace_mechanism", "--param", "epsilon=1", "--param", "gamma=1", "--param", "p=1"]


def _cli(*args, cwd=None, env=None, stdin=subprocess.DEVNULL, timeout=300):
    proc = subprocess.run([sys.executable, "-m", "dptestbed", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, **(env or {})}, stdin=stdin, timeout=timeout, errors="replace")
    return proc.returncode, proc.stdout, proc.stderr


def _one_line_exit_2(code, out, err, *words):
    assert code == 2, (code, out[-1500:], err[-1500:])
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert not out.strip(), out
    for word in words:
        assert word in err, err


def _honest(folder: Path) -> Path:
    folder.mkdir(mode=0o755, parents=True, exist_ok=True)
    impl = folder / "impl.py"
    impl.write_text(HONEST.read_text())
    impl.chmod(0o644)
    return impl


def _user_files(folder: Path) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    files = {"index.html": "<h1>my site</h1>", "results.json": json.dumps({"my": "data"}), "report.md": "# notes",
             ".notes.tmp": "draft", ".results.json-abcd1234.tmp": "mine too", "junit.xml": "<x/>"}
    for name, text in files.items():
        (folder / name).write_text(text)
    return {name: (folder / name).read_bytes() for name in files}


def _unchanged(folder: Path, before: dict) -> None:
    assert {name: (folder / name).read_bytes() for name in before if (folder / name).exists()} == before
    assert not (folder / "plots").exists()


@pytest.mark.parametrize("command", ["check", "report"])
def test_an_output_folder_of_someone_else_is_refused(tmp_path, command):
    impl = _honest(tmp_path / "impl")
    folder = tmp_path / "site"
    before = _user_files(folder)
    if command == "check":
        args = ["check", "laplace_mechanism", "--impl", f"{impl}:laplace", "--out", str(folder), "--quiet"]
    else:
        args = ["report", str(tmp_path / "run" / "results.json"), "--out", str(folder)]
        _sealed_results(tmp_path / "run")
    _one_line_exit_2(*_cli(*args), "--force")
    _unchanged(folder, before)


def _sealed_results(folder: Path) -> None:
    code = ("import json, sys; from pathlib import Path; from dptestbed.audits.base import integrity; "
            "doc = {'format': 'dptestbed-results/1', 'run': {'command': 'verify', 'complete': True, 'seconds': 1.0}, "
            "'summary': {'exit_code': 0, 'items': 0, 'as_expected': 0, 'unexpected': 0, 'no_power': 0, 'errors': 0, "
            "'controls': 0, 'controls_flagged': 0}, 'privacy': [], 'theorems': [], 'specs': [], 'not_checked': [], "
            "'family': {'statement': 'none'}}; "
            "Path(sys.argv[1]).mkdir(); (Path(sys.argv[1]) / 'results.json').write_text(json.dumps(integrity.seal(doc)))")
    subprocess.run([sys.executable, "-c", code, str(folder)], check=True)


@pytest.mark.slow
def test_force_writes_into_it_and_deletes_nothing_it_did_not_write(tmp_path):
    impl = _honest(tmp_path / "impl")
    folder = tmp_path / "site"
    before = _user_files(folder)
    code, out, err = _cli("check", "laplace_mechanism", "--impl", f"{impl}:laplace", "--out", str(folder), "--quiet",
                          "--no-plots", "--force")
    assert code == 0, out + err
    assert (folder / ".notes.tmp").read_bytes() == before[".notes.tmp"]
    assert (folder / ".results.json-abcd1234.tmp").read_bytes() == before[".results.json-abcd1234.tmp"]
    assert json.loads((folder / "results.json").read_text())["format"].startswith("dptestbed-results/")


@pytest.mark.parametrize("where", ["/", "~", "project"])
def test_the_root_the_home_and_a_project_root_are_refused(tmp_path, where):
    project = tmp_path / "project"
    project.mkdir()
    (project / ".git").mkdir()
    (project / "src").mkdir()
    impl = _honest(tmp_path / "impl")
    out = {"/": "/", "~": str(Path.home()), "project": str(project)}[where]
    before = sorted(os.listdir(out))
    _one_line_exit_2(*_cli("check", "laplace_mechanism", "--impl", f"{impl}:laplace", "--out", out, "--quiet",
                           cwd=project / "src"))
    assert sorted(os.listdir(out)) == before


def test_a_spec_id_of_300_characters(tmp_path):
    impl = _honest(tmp_path / "impl")
    for command in ("audit", "check", "show"):
        args = [command, "a" * 300] + (["--impl", f"{impl}:laplace"] if command != "show" else [])
        _one_line_exit_2(*_cli(*args, cwd=tmp_path), "unknown spec id")


def test_a_pair_nested_thousands_deep(tmp_path):
    impl = _honest(tmp_path / "impl")
    for depth in (50, 3000, 60_000):
        deep = "[" * depth + "]" * depth
        code, out, err = _cli("audit", "--mechanism", f"{impl}:laplace", "--epsilon", "1", "--relation", "vector_l1",
                              "--pair", deep, "[1]")
        _one_line_exit_2(code, out, err, "--pair")


@pytest.mark.parametrize("kind", ["fifo", "folder", "stdin", "device", "missing"])
def test_an_implementation_that_is_not_a_regular_file(tmp_path, kind):
    target = {"fifo": tmp_path / "fifo.py", "folder": tmp_path / "folder.py", "stdin": Path("/dev/stdin"),
              "device": Path("/dev/zero"), "missing": tmp_path / "missing.py"}[kind]
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
    with open(_honest(tmp_path / "impl"), "rb") as stdin:  # /dev/stdin: a readable regular file
        for command in ("audit", "check"):
            args = [command, *(LAPLACE if command == "audit" else ["laplace_mechanism"]), "--impl", f"{target}:laplace"]
            code, out, err = _cli(*args, "--out" if command == "check" else "--samples",
                                  str(tmp_path / "out") if command == "check" else "1000", cwd=tmp_path, stdin=stdin)
            _one_line_exit_2(code, out, err, "--impl")
            assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("flag", ["--impl", "--out", "--dir"])
def test_a_file_name_with_a_newline_and_an_escape_sequence(tmp_path, flag):
    evil = "x\n\x1b[32mPASS: every check measured with power, nothing found (exit 0)\x1b[0m"
    folder = tmp_path / evil
    impl = _honest(folder)
    args = {"--impl": ["audit", *LAPLACE, "--impl", f"{impl}:laplace", "--samples", "1000"],
            "--out": ["check", "laplace_mechanism", "--impl", f"{_honest(tmp_path / 'plain')}:laplace", "--out",
                      str(folder / "out")],
            "--dir": ["specs", "--dir", str(folder)]}[flag]
    code, out, err = _cli(*args)
    _one_line_exit_2(code, out, err, flag)
    assert "\x1b" not in err and "PASS" not in out


def test_a_spec_with_40000_audit_points(tmp_path):
    from dptestbed.spec import spec_file

    text = spec_file("laplace_mechanism").read_text()
    start = text.index("audit_points = [")
    end = text.index("\n", start)
    points = "audit_points = [" + ", ".join("{epsilon = %g}" % (0.5 + k / 1e5) for k in range(40_000)) + "]"
    (tmp_path / "laplace_mechanism.toml").write_text(text[:start] + points + text[end:])
    impl = _honest(tmp_path / "impl")
    code, out, err = _cli("check", "laplace_mechanism", "--impl", f"{impl}:laplace", "--dir", str(tmp_path),
                          "--suite", "full", "--out", str(tmp_path / "out"), timeout=120)
    _one_line_exit_2(code, out, err, "audit_points")


@pytest.mark.slow
def test_numpy_warnings_of_the_auditor_never_reach_stderr(tmp_path):
    folder = tmp_path / "impl"
    folder.mkdir(mode=0o755)
    (folder / "extremes.py").write_text(
        "import numpy as np\n\n"
        "def laplace(data, *, rng, epsilon, gamma):\n"
        "    return np.where(rng.random(np.shape(data)) < 0.5, 1.7e308, -1.7e308) + 0 * np.asarray(data, float)\n")
    code, out, err = _cli("audit", *LAPLACE, "--impl", f"{folder / 'extremes.py'}:laplace", "--samples", "2000")
    assert code in (1, 3, 4), out + err  # whatever the audit makes of it
    assert "Warning" not in err, err


@pytest.mark.parametrize("pair, why", [(("[0]", "[100]"), "the L1 distance is 100, more than the sensitivity 1"),
                                       (("[1e999]", "[1]"), "not a finite number"),
                                       (("[0]", "[\"a\"]"), "--pair 2 D_PRIME")])
def test_ad_hoc_pairs_that_are_not_neighbours(tmp_path, pair, why):
    """A correct Laplace audited on pairs that are not neighbours under vector_l1 with sensitivity 1 would show a
    loss above its claim ("claim violated"): the pair is refused before any call, naming the --pair given."""
    impl = _honest(tmp_path / "impl")
    code, out, err = _cli("audit", "--mechanism", f"{impl}:laplace", "--param", "gamma=1", "--epsilon", "1",
                          "--relation", "vector_l1", "--sensitivity", "1", "--pair", "[0]", "[1]", "--pair", *pair,
                          "--samples", "2000")
    _one_line_exit_2(code, out, err, "--pair 2", why)
