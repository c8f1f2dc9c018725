"""docs/isolation.md's threat model names, for each class of attack, the tests that show how it ends: every
test it names exists in this folder, and every attack test of this folder is named there."""

from __future__ import annotations

import ast
import fnmatch
import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[1] / "docs" / "isolation.md"


def _tests() -> dict[str, set[str]]:
    """The test functions of each test file of this folder."""
    found = {}
    for path in sorted(HERE.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        tree = ast.parse(path.read_text())
        found[path.name] = {node.name for node in tree.body
                            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}
    return found


def _named() -> list[tuple[str, str]]:
    """(file, test pattern) of every test the threat model's table names."""
    table = [line for line in DOC.read_text().splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(table) >= 12, "the threat model's table"
    named = []
    for row in table:
        tests = row.rstrip(" |").rsplit(" | ", 1)[1]
        for part in tests.split(";"):
            file = re.search(r"`?(test_\w+\.py)", part).group(1)
            names = re.findall(r"`(?:test_\w+\.py::)?(test_[\w*]+)`", part)
            names += re.findall(r"test_\w+\.py::(test_\w+)", part)
            named += [(file, name) for name in names]
    return named


def test_every_test_the_threat_model_names_exists_and_every_attack_test_is_named():
    tests = _tests()
    named = _named()
    missing = [(f, n) for f, n in named if not fnmatch.filter(tests.get(f, ()), n)]
    assert not missing, missing
    unnamed = [(f, t) for f, names in tests.items() for t in names
               if not any(f == nf and fnmatch.fnmatch(t, n) for nf, n in named)]
    assert not unnamed, unnamed
