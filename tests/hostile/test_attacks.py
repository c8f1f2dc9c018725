"""Hostile implementations (one file per attack in this folder) run through the command line as a
user would run them. Each attack must end with a named outcome (a violation, or an implementation
error) within its deadline; 2 s after the command line exits no process of the run is alive; no file
outside the output folder changed; and the console, the exit code and results.json agree (every
item signed by this machine's dptestbed)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import site
import subprocess
import sys
import tempfile
import time
import uuid
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from dptestbed.audits import integrity, isolation, sanitize

pytest_plugins = ["pytester"]
HERE = Path(__file__).parent
CONTROL = [chr(c) for c in range(32) if chr(c) not in "\t\n"] + ["\x7f", "\x9b", "\u202e"]


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    out: Path

    @property
    def document(self) -> dict:
        return json.loads((self.out / "results.json").read_text())


def _alive(mark: str) -> list[int]:
    """Live (non-zombie) processes whose environment holds the run's mark."""
    needle = f"DPTESTBED_HOSTILE_MARK={mark}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as fh:
                if needle not in fh.read():
                    continue
            with open(f"/proc/{entry}/stat") as fh:
                if fh.read().rpartition(")")[2].split()[0] != "Z":
                    found.append(int(entry))
        except OSError:
            continue
    return found


def _snapshot(folders: list[Path], skip: Path) -> dict:
    """Every file below ``folders`` (but ``skip``) with its size and modification time."""
    state = {}
    for folder in folders:
        for root, dirs, files in os.walk(folder):
            dirs[:] = [d for d in dirs if Path(root, d) != skip]
            for name in files:
                path = Path(root, name)
                try:
                    st = path.lstat()
                except OSError:
                    continue
                state[str(path)] = (st.st_size, st.st_mtime_ns)
    return state


@pytest.fixture
def hostile(tmp_path):
    """``hostile(attack, *args, command="check", deadline=..., kill_after=None)``: the command line run on
    ``tests/hostile/ATTACK.py:laplace`` by a ``dptestbed`` script of its own (the attack's target), with
    the checks of the module docstring; a :class:`Run`. The implementation lies in a folder anyone may
    read (the unprivileged-uid level runs it as nobody)."""
    mark = uuid.uuid4().hex
    shelf = Path(tempfile.mkdtemp(prefix="dptestbed-hostile-"))
    shelf.chmod(0o755)
    bin_ = tmp_path / f"bin-{mark}"
    bin_.mkdir()
    script = bin_ / "dptestbed"
    script.write_text(f"#!{sys.executable}\nimport sys\nfrom dptestbed.__main__ import main\nsys.exit(main())\n")
    script.chmod(0o755)
    pth = [Path(p) / f"zz_dptestbed_hostile_{mark}.pth" for p in site.getsitepackages()]
    out = tmp_path / "out"

    def run(attack: str, *args, command: str = "check", deadline: float = 120.0, kill_after: float | None = None):
        impl = shelf / f"{attack}.py"
        shutil.copy(HERE / f"{attack}.py", impl)
        impl.chmod(0o644)
        argv = [str(script), command, "laplace_mechanism", "--impl", f"{impl}:laplace", *args]
        if command == "check":
            argv += ["--out", str(out), "--quiet"]
        before = _snapshot([tmp_path, shelf], out)
        env = {**os.environ, "DPTESTBED_HOSTILE_MARK": mark, "HOSTILE_OUT": str(out)}
        t0 = time.monotonic()
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                                start_new_session=True, errors="surrogateescape")
        try:
            if kill_after is not None:
                time.sleep(kill_after)
                os.killpg(proc.pid, signal.SIGKILL)
            stdout, stderr = proc.communicate(timeout=deadline)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            pytest.fail(f"{attack}: no outcome within {deadline} s")
        seconds = time.monotonic() - t0
        end = time.monotonic() + 2.0
        while (survivors := _alive(mark)) and time.monotonic() < end:
            time.sleep(0.05)
        for pid in survivors:  # never leave them behind, even when the test fails
            os.kill(pid, signal.SIGKILL)
        assert not survivors, f"{attack}: {len(survivors)} processes of the run alive 2 s after it exited"
        assert not any(p.exists() for p in pth), f"{attack}: wrote a .pth file into site-packages"
        changed = {k: v for k, v in _snapshot([tmp_path, shelf], out).items() if before.get(k) != v}
        assert not changed, f"{attack}: changed files outside the output folder: {sorted(changed)}"
        return Run(proc.returncode, stdout, stderr, seconds, out)

    yield run
    for p in pth:
        p.unlink(missing_ok=True)
    shutil.rmtree(shelf, ignore_errors=True)


# the levels this machine can show: the strongest, and the unprivileged uid when the tests run as root
LEVELS = ["auto"] + (["uid"] if os.geteuid() == 0 else [])


def _agree(run: Run, code: int) -> dict:
    """The exit code, the console's last line and results.json say the same; every item verifies."""
    doc = run.document
    assert run.code == code == doc["summary"]["exit_code"], (run.code, run.stdout[-500:], run.stderr[-2000:])
    assert run.stdout.rstrip().splitlines()[-1].split(" (exit ")[1].startswith(f"{code})")
    assert not integrity.unverified(doc)
    assert doc["run"]["isolation"] in isolation.DESCRIPTION
    return doc


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_forged_pass_is_neither_written_nor_shown(hostile, level):
    run = hostile("forged_pass", "--isolation", level)
    doc = _agree(run, 1)
    assert "PASS" not in run.stdout and all(r["verdict"] == "violation" for r in doc["privacy"])


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_fork_hopping_daemon_dies_with_the_run(hostile, level):
    run = hostile("fork_hopper", "--isolation", level)
    _agree(run, 1)
    html = (run.out / "index.html").read_text()
    time.sleep(3)  # past the moment the daemon would have struck
    assert run.document["summary"]["exit_code"] == 1 and (run.out / "index.html").read_text() == html
    assert "alert('forged')" not in html


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_daemon_cannot_edit_the_results_during_the_run(hostile, level):
    doc = _agree(hostile("double_fork_daemon", "--isolation", level), 1)
    assert all(r["verdict"] == "violation" for r in doc["privacy"])


@pytest.mark.slow
def test_forged_progress_cannot_keep_a_hung_call_alive(hostile):
    run = hostile("progress_forger", "--timeout", "2", "--deadline", "60", command="audit", deadline=60)
    assert run.code == 5 and "implementation error" in run.stdout.lower(), run.stdout + run.stderr
    assert "timed out" in run.stdout or "broke the worker protocol" in run.stdout
    assert run.seconds < 40


@pytest.mark.slow
def test_the_audit_deadline_ends_a_hung_implementation(hostile):
    run = hostile("progress_forger", "--deadline", "8", command="audit", deadline=60)
    assert run.code == 5 and "deadline of 8 s" in run.stdout, run.stdout + run.stderr
    assert run.seconds < 30


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_cleared_death_signals_do_not_outlive_a_killed_command_line(hostile, level):
    run = hostile("pdeathsig_clear", "--isolation", level, "--call-timeout", "600", kill_after=8.0)
    assert run.code == -signal.SIGKILL  # and the fixture found no survivor 2 s later


@pytest.mark.slow
def test_an_announced_huge_array_is_refused_before_any_allocation(hostile):
    run = hostile("huge_frame", command="audit", deadline=60)
    assert run.code == 5 and "broke the worker protocol" in run.stdout and "Traceback" not in run.stderr
    assert run.seconds < 30


@pytest.mark.slow
def test_a_closed_channel_is_an_implementation_error(hostile):
    run = hostile("closes_channel", command="audit", deadline=60)
    assert run.code == 5 and "closed the worker's channel" in run.stdout, run.stdout + run.stderr
    assert "stdout closed" not in run.stderr


@pytest.mark.slow
def test_limits_cannot_be_raised(hostile):
    _agree(hostile("raises_limits"), 1)


@pytest.mark.slow
def test_dying_while_imported_says_so(hostile):
    run = hostile("dies_at_import", command="audit", deadline=60)
    assert run.code == 5 and "died (exit code 3) while importing the implementation" in run.stdout + run.stderr


@pytest.mark.slow
def test_control_characters_are_inert_in_every_output(hostile):
    run = hostile("control_characters")
    doc = _agree(run, 5)
    for text in (run.stdout, run.stderr, (run.out / "report.md").read_text(), (run.out / "index.html").read_text(),
                 json.dumps(doc, ensure_ascii=False)):
        assert not any(c in text for c in CONTROL), repr([c for c in CONTROL if c in text])
    assert "\\x1b[31mPASS" in run.stderr  # the implementation's print, shown inert
    tree = ET.parse(run.out / "junit.xml")  # well-formed XML 1.0
    errors = [e.get("message") for e in tree.iter("error")]
    assert errors and all("ValueError" in m and "\\x1b" in m for m in errors)


def test_the_sanitiser_escapes_what_acts_on_terminals_and_breaks_xml():
    evil = "a\x1b[31mb\x00c\rd\x07\u202ee\ud800f\ufffe\tg\nh"
    assert sanitize.text(evil) == "a\\x1b[31mb\\x00c\\x0dd\\x07\\u202ee\\ud800f\\ufffe\tg\nh"
    assert sanitize.line(evil).endswith("\\ufffe g h")
    assert sanitize.tree({"k\x00": ["\x1b", 1, None]}) == {"k\\x00": ["\\x1b", 1, None]}


@pytest.mark.slow
def test_the_pytest_plugin_fails_a_hung_implementation_by_its_deadline(pytester):
    shutil.copy(HERE / "progress_forger.py", pytester.path / "forger.py")
    pytester.makepyfile(test_user='''
        import time

        def sleeps(data, *, rng, epsilon, gamma):
            time.sleep(3600)

        def test_forged_progress(dptestbed):
            dptestbed.audit("laplace_mechanism", "forger.py:laplace")

        def test_a_hung_callable(dptestbed):
            dptestbed.audit("laplace_mechanism", sleeps)
    ''')
    t0 = time.monotonic()
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--dptestbed-deadline", "8", timeout=120)
    result.assert_outcomes(failed=2)
    assert time.monotonic() - t0 < 60
    # One failure line per test; the short summary repeats them, cut or not by the terminal width.
    reports = [line for line in result.stdout.lines
               if line.startswith("dptestbed: privacy audit of laplace_mechanism: implementation error")]
    assert len(reports) == 2, result.stdout.str()
    assert all("did not finish within its deadline of 8 s" in line for line in reports)
