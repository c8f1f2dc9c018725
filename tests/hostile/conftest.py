"""What the hostile tests share: the ``hostile`` fixture, which runs the command line on one attack file of
this folder as a user would, and checks what must hold after any attack (no process of the run alive 2 s
after it exited, no file outside the output folder changed, no .pth file in site-packages), and
``agree``: the exit code, the console's last line and results.json say the same, and results.json
verifies."""

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
from dataclasses import dataclass
from pathlib import Path

import pytest

from dptestbed.audits.base import integrity
from dptestbed.audits.sandbox import isolation

HERE = Path(__file__).parent
HONEST = HERE.parents[1] / "examples" / "ci" / "mechanism.py"  # not an attack: a correct Laplace mechanism


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    out: Path
    shelf: Path

    @property
    def document(self) -> dict:
        return json.loads((self.out / "results.json").read_text())

    @property
    def text(self) -> str:
        """Everything the run showed or wrote: console, results.json and the report's files."""
        files = [self.out / name for name in ("results.json", "report.md", "index.html", "junit.xml")]
        return "\n".join([self.stdout, self.stderr] + [f.read_text(errors="replace") for f in files if f.exists()])


def alive(mark: str) -> list[int]:
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
def shelf():
    """A folder anyone may read (the unprivileged-uid level runs the implementation as another user)."""
    folder = Path(tempfile.mkdtemp(prefix="dptestbed-hostile-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def hostile(tmp_path, shelf):
    """``hostile(attack, *args, command="check", deadline=..., kill_after=None, env=, cwd=, out=, where=, spec=)``:
    the command line run on ``ATTACK.py:laplace`` (copied from this folder into ``shelf``; "honest": :data:`HONEST`) by a ``dptestbed``
    script of its own (the attack's target), with the checks of the module docstring; a :class:`Run`.
    ``env``: more environment variables; ``cwd``: where it runs; ``out``: the output folder; ``where``: the
    implementation's folder (default ``shelf``)."""
    mark = uuid.uuid4().hex
    bin_ = tmp_path / f"bin-{mark}"
    bin_.mkdir()
    script = bin_ / "dptestbed"
    script.write_text(f"#!{sys.executable}\nimport sys\nfrom dptestbed.__main__ import main\nsys.exit(main())\n")
    script.chmod(0o755)
    pth = [Path(p) / f"zz_dptestbed_hostile_{mark}.pth" for p in site.getsitepackages()]

    def run(attack: str, *args, command: str = "check", deadline: float = 120.0, kill_after: float | None = None,
            env: dict | None = None, cwd: Path | None = None, out: Path | None = None, where: Path | None = None,
            spec: str = "laplace_mechanism"):
        out = out or tmp_path / "out"
        impl = (where or shelf) / f"{attack}.py"
        if not impl.exists():
            impl.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
            shutil.copy(HONEST if attack == "honest" else HERE / f"{attack}.py", impl)
            impl.chmod(0o644)
        argv = [str(script), command, spec, "--impl", f"{impl}:laplace", *args]
        if command == "check":
            argv += ["--out", str(out), "--quiet"]
        before = _snapshot([tmp_path, shelf], out)
        full_env = {**os.environ, "DPTESTBED_HOSTILE_MARK": mark, "HOSTILE_OUT": str(out), **(env or {})}
        t0 = time.monotonic()
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=full_env,
                                start_new_session=True, errors="surrogateescape", cwd=cwd)
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
        while (survivors := alive(mark)) and time.monotonic() < end:
            time.sleep(0.05)
        for pid in survivors:  # never leave them behind, even when the test fails
            os.kill(pid, signal.SIGKILL)
        assert not survivors, f"{attack}: {len(survivors)} processes of the run alive 2 s after it exited"
        assert not any(p.exists() for p in pth), f"{attack}: wrote a .pth file into site-packages"
        changed = {k: v for k, v in _snapshot([tmp_path, shelf], out).items() if before.get(k) != v}
        assert not changed, f"{attack}: changed files outside the output folder: {sorted(changed)}"
        return Run(proc.returncode, stdout, stderr, seconds, out, shelf)

    yield run
    for p in pth:
        p.unlink(missing_ok=True)


@pytest.fixture
def agree():
    """``agree(run, code)``: the exit code, the console's last line and results.json say the same, and
    results.json verifies here; returns the document."""

    def check(run: Run, code: int) -> dict:
        doc = run.document
        assert run.code == code == doc["summary"]["exit_code"], (run.code, run.stdout[-500:], run.stderr[-2000:])
        assert run.stdout.rstrip().splitlines()[-1].split(" (exit ")[1].startswith(f"{code})")
        assert integrity.verify(doc) is None
        assert doc["run"]["isolation"] in isolation.DESCRIPTION
        return doc

    return check
