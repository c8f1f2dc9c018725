"""The README runs as written: every fenced block, in order, in a scratch folder (with the repository's
``examples/``, as in a clone) and the dptestbed of this environment on PATH, so an example that fails
is a failing test.

How a block runs (:func:`run_readme`):

* ``python`` whose first line is ``# NAME.py``: written to NAME.py (later blocks use it); a file
  named ``test_*.py`` is also run by pytest, which must pass;
* any other ``python`` block: run as a script; it must exit 0;
* a block of shell commands (no info string, ``sh``, ``bash``, ``console``): lines starting with
  ``$ `` are the commands of a transcript (the other lines are its output, not compared: timings and
  bounds differ from run to run), else every line is a command; a line ending in ``\\`` continues
  on the next; each command must exit 0.

A block that must not run is marked in the README by ``<!-- no-run: REASON -->`` on the line before
it (REASON is required: the test counts and names these); ``<!-- needs: MODULE ... -->`` skips a
block where a module is not installed (the libraries of ``pip install '.[examples]'``), named in
the test's output."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHELL = ("", "sh", "bash", "console", "shell")
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)
MARKER = re.compile(r"<!--\s*(no-run|needs):?\s*(.*?)\s*-->\s*\n$")

pytestmark = pytest.mark.slow


@dataclass
class Block:
    line: int  # of its opening fence, 1-based
    info: str
    text: str
    no_run: str | None = None  # the reason
    needs: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"README block at line {self.line} ({self.info or 'shell'})"


def blocks(readme: str) -> list[Block]:
    """Every fenced block of ``readme`` with the marker on the line before it, if any."""
    out = []
    for match in FENCE.finditer(readme):
        before = readme[:match.start()]
        block = Block(before.count("\n") + 1, match.group(1).strip(), match.group(2))
        last = before[before.rstrip("\n").rfind("\n") + 1:] if before.strip() else ""
        marker = MARKER.search(last)
        if marker and marker.group(1) == "no-run":
            block.no_run = marker.group(2)
        elif marker:
            block.needs = marker.group(2).split()
        out.append(block)
    return out


def commands(block: Block) -> list[str]:
    """The shell commands of a block, continuation lines joined; a transcript's commands alone."""
    lines = block.text.splitlines()
    transcript = any(line.startswith("$ ") for line in lines)
    out: list[str] = []
    continued = False
    for line in lines:
        if continued:
            out[-1] += "\n" + line
        elif transcript and line.startswith("$ "):
            out.append(line[2:])
        elif not transcript and line.strip() and not line.lstrip().startswith("#"):
            out.append(line)
        else:
            continue
        continued = line.endswith("\\")
    return out


@dataclass
class Run:
    ran: list[Block] = field(default_factory=list)
    not_run: list[Block] = field(default_factory=list)
    skipped: list[tuple[Block, str]] = field(default_factory=list)  # a needed module is missing


def run_readme(readme: str, folder: Path, timeout: float = 900) -> Run:
    """Run the blocks of ``readme`` in ``folder``; an AssertionError names the first block that fails,
    its command and its output."""
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / "examples").exists():  # the README's commands run in a clone: they may name its examples/
        shutil.copytree(ROOT / "examples", folder / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("PYTHONPATH", None)
    run = Run()

    def check(argv_or_command, block: Block, shown: str, *, shell: bool = False) -> None:
        out = subprocess.run(argv_or_command, cwd=folder, env=env, shell=shell, executable="/bin/bash" if shell else None,
                             capture_output=True, text=True, timeout=timeout)
        assert out.returncode == 0, (f"{block.where}: `{shown}` exited {out.returncode}\n"
                                     f"{out.stdout[-3000:]}\n{out.stderr[-3000:]}")

    for block in blocks(readme):
        if block.no_run is not None:
            assert block.no_run, f"{block.where}: a no-run marker needs its reason"
            run.not_run.append(block)
            continue
        missing = [m for m in block.needs if importlib.util.find_spec(m) is None]
        if missing:
            run.skipped.append((block, ", ".join(missing)))
            continue
        first = block.text.splitlines()[0] if block.text.strip() else ""
        if block.info == "python":
            name = re.fullmatch(r"#\s*([\w.-]+\.py)\s*", first)
            if name:
                (folder / name.group(1)).write_text(block.text)
                if name.group(1).startswith("test_"):
                    check([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", name.group(1)], block,
                          f"pytest {name.group(1)}")
            else:
                (folder / "readme_snippet.py").write_text(block.text)
                check([sys.executable, "readme_snippet.py"], block, "python (the block)")
        elif block.info in SHELL:
            found = commands(block)
            assert found, f"{block.where}: no command"
            for command in found:
                check(command, block, " ".join(shlex.split(command.replace("\\\n", " "))[:6]), shell=True)
        else:
            raise AssertionError(f"{block.where}: no way to run a '{block.info}' block; mark it no-run")
        run.ran.append(block)
    return run


def test_every_block_of_the_readme_runs(tmp_path, capsys):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    run = run_readme(readme, tmp_path)
    with capsys.disabled():
        print(f"\nREADME: {len(run.ran)} blocks ran; {len(run.not_run)} marked no-run: "
              + "; ".join(f"line {b.line}: {b.no_run}" for b in run.not_run)
              + "".join(f"; line {b.line} skipped, {m} not installed" for b, m in run.skipped))
    assert len(run.ran) + len(run.not_run) + len(run.skipped) == len(blocks(readme)) and len(run.ran) >= 4
    # what the commands wrote: the check's report folder
    assert (tmp_path / "reports" / "mine" / "index.html").exists()


README_BROKEN = '''
A file, then a command that uses it:

```python
# mine.py
def mean(data, *, rng):
    return sum(data) / len(data) + rng.laplace(0.0, 1.0 / len(data))
```

<!-- no-run: shown, not run -->
```
dptestbed verify
```

```
dptestbed audit --mechanism mine.py:average --epsilon 1 --relation replace_one --input-kind dataset \\
    --pair '[0,0,0,0]' '[1,0,0,0]'
```
'''


def test_a_readme_block_broken_on_purpose_fails_the_test(tmp_path):
    """The runner on a copy with a mistyped function (``mine.py:average``): the failure names the
    block, the command and dptestbed's one-line error; the real README, edited the same way, fails too."""
    with pytest.raises(AssertionError, match=r"(?s)README block at line 15 \(shell\): `dptestbed audit --mechanism "
                                             r"mine.py:average.*exited 2.*has no attribute 'average'"):
        run_readme(README_BROKEN, tmp_path / "copy")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "--mechanism mine.py:mean " in readme
    broken = readme.replace("def mean(", "def average(", 1)
    with pytest.raises(AssertionError, match="mine.py:mean.*exited 2"):
        run_readme(broken, tmp_path / "real")
    marked = blocks(README_BROKEN)
    assert [b.no_run for b in marked] == [None, "shown, not run", None]
    assert commands(marked[2]) == ["dptestbed audit --mechanism mine.py:average --epsilon 1 --relation replace_one "
                                   "--input-kind dataset \\\n    --pair '[0,0,0,0]' '[1,0,0,0]'"]


def test_a_transcript_runs_its_commands_and_not_its_output():
    block = Block(1, "", "$ dptestbed specs \\\n    --json\n{\"format\": ...}\n$ true\n")
    assert commands(block) == ["dptestbed specs \\\n    --json", "true"]
