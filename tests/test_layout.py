"""The layout's import rules beyond import-linter's static contracts (pyproject.toml): the engine
never imports a paper package, and paper packages never import one another, across ``impl/`` and
``audits/`` (a paper's checks may import its own implementations only). Papers are the folders of
specs (``spec/<paper>/``), found as the suite finds them."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dptestbed.audits.base import discovery

PAPERS = set(discovery.paper_packages())
ROOT = Path(__file__).resolve().parent.parent
GRAPH = ("import json, sys, grimp; g = grimp.build_graph('dptestbed'); "
         "json.dump({m: sorted(g.find_modules_directly_imported_by(m)) for m in g.modules}, sys.stdout)")


def _paper(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] in ("impl", "audits") and parts[2] in PAPERS else None


@pytest.fixture(scope="module")
def imports() -> dict[str, list[str]]:
    """Each module of the installed dptestbed -> the modules it imports directly (grimp, in a fresh
    interpreter). grimp reads a package from one folder, as the README's install lays it out."""
    out = subprocess.run([sys.executable, "-c", GRAPH], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    graph = json.loads(out.stdout)
    assert "dptestbed.audits.api" in graph, (
        "grimp does not see dptestbed.audits: a default editable install maps the folders by an import hook; "
        "install with `pip install .` or `pip install -e . --config-settings editable_mode=strict`")
    return graph


def test_the_engine_never_imports_a_paper_package(imports):
    engine = [m for m in imports if m.split(".")[1:2] in (["impl"], ["audits"]) and _paper(m) is None]
    assert "dptestbed.audits.privacy.procedure" in engine and "dptestbed.audits.run.suite" in engine
    crossing = [f"{m} -> {imported}" for m in engine for imported in imports[m] if _paper(imported) is not None]
    assert not crossing, "the engine imports a paper: " + "; ".join(crossing)


def test_paper_packages_never_import_one_another(imports):
    assert {"calibration", "model_agnostic"} <= PAPERS
    crossing = []
    for module, imported_modules in imports.items():
        own = _paper(module)
        if own is None:
            continue
        for imported in imported_modules:
            other = _paper(imported)
            if other is not None and other != own:
                crossing.append(f"{module} -> {imported}")
    assert not crossing, "a paper imports another paper: " + "; ".join(crossing)


def test_the_engine_lives_in_its_layer_folders():
    """audits/ holds the entry modules and the papers' facade; every other engine module is in the folder of
    its layer (the import-linter contract "engine layers" pins their order)."""
    assert sorted(p.name for p in (ROOT / "audits").glob("*.py")) == [
        "__init__.py", "adhoc.py", "api.py", "pytest_plugin.py"]


def test_paper_checks_use_the_engine_through_its_facade(imports):
    """A paper's checks import the engine from ``dptestbed.audits.api`` alone, never its layers' modules."""
    papers = [m for m in imports if m.startswith("dptestbed.audits.") and _paper(m) is not None]
    assert "dptestbed.audits.model_agnostic.errata" in papers
    reaching = [f"{m} -> {imported}" for m in papers for imported in imports[m]
                if imported.startswith("dptestbed.audits.") and _paper(imported) is None
                and imported != "dptestbed.audits.api"]
    assert not reaching, "a paper reaches past the facade: " + "; ".join(reaching)


def test_paper_packages_import_the_engine_one_way():
    """A paper package names the engine absolutely (``from dptestbed.audits.api import ...``) and its own
    modules relatively (``from .common import ...``): a relative import never leaves the paper's folder."""
    leaving = []
    for top in ("spec", "impl", "audits"):
        for paper in PAPERS:
            for path in sorted((ROOT / top / paper).rglob("*.py")):
                for number, line in enumerate(path.read_text().splitlines(), 1):
                    if line.lstrip().startswith("from .."):
                        leaving.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not leaving, "relative imports out of a paper package: " + "; ".join(leaving)


def test_every_audits_paper_has_an_impl_paper():
    import dptestbed.impl as impl

    assert set(discovery.paper_packages()) <= set(discovery.paper_packages(impl))


def test_python_dash_m_runs_the_command_line():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "dptestbed", "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("dptestbed "), out.stderr


def test_entry_point_quiets_openblas_spinning_unless_the_user_chose(monkeypatch, capsys):

    from dptestbed.__main__ import main

    monkeypatch.setattr("sys.argv", ["dptestbed", "--version"])
    monkeypatch.delenv("OPENBLAS_THREAD_TIMEOUT", raising=False)
    with pytest.raises(SystemExit):  # argparse's --version exits
        main()
    assert os.environ["OPENBLAS_THREAD_TIMEOUT"] == "4"
    monkeypatch.setenv("OPENBLAS_THREAD_TIMEOUT", "20")
    with pytest.raises(SystemExit):
        main()
    assert os.environ["OPENBLAS_THREAD_TIMEOUT"] == "20"
    assert capsys.readouterr().out.startswith("dptestbed ")


def test_the_runtime_dependencies_are_what_the_runtime_imports():
    """``pip install dptestbed`` pulls exactly the distributions its modules import (statsmodels, which
    only the tests import, is in the test extra); the modules of an extra (the pytest plugin, the Dask
    executor, the schemas' validate()) import that extra's distributions."""
    import ast
    import importlib.metadata as md

    from packaging.requirements import Requirement

    owners = md.packages_distributions()
    imported: dict[str, set[str]] = {}  # distribution -> the modules importing it
    for top in ("entry", "spec", "impl", "audits"):
        for path in (ROOT / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                         [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
                for name in {n.split(".")[0] for n in names} - set(sys.stdlib_module_names) - {"dptestbed"}:
                    for dist in owners.get(name, [name]):
                        imported.setdefault(Requirement(dist).name.lower(), set()).add(path.relative_to(ROOT).with_suffix("").as_posix())
    requires = [Requirement(r) for r in md.requires("dptestbed") or []]
    runtime = {r.name.lower() for r in requires if r.marker is None}
    extras = set()  # the extras' distributions, with those of their own extras (dask[distributed])
    for r in (r for r in requires if r.marker is not None):
        extras.add(r.name.lower())
        if r.extras:
            own = [Requirement(q) for q in md.requires(r.name) or []]
            extras |= {q.name.lower() for q in own if q.marker and any(q.marker.evaluate({"extra": e}) for e in r.extras)}
    assert runtime == {d for d in imported if d not in extras}, imported
    assert {d: sorted(m) for d, m in imported.items() if d in extras} == {
        "pytest": ["audits/pytest_plugin"], "dask": ["audits/run/dask_executor"], "distributed": ["audits/run/dask_executor"],
        "jsonschema": ["audits/schemas/__init__"]}, imported



def _resolves(dotted: str) -> bool:
    """``package.module.name.attribute`` names a module and, below it, attributes that exist."""
    import importlib

    names = dotted.split(".")
    for cut in range(len(names), 1, -1):
        try:
            target = importlib.import_module(".".join(names[:cut]))
        except ImportError:
            continue
        for name in names[cut:]:
            if not hasattr(target, name):
                return False
            target = getattr(target, name)
        return True
    return False


def test_docstring_cross_references_resolve():
    """Every dotted reference of a docstring (``:func:`.estimation.estimation_key```, ``:mod:`..base.verdict```,
    ``:class:`dptestbed.audits.privacy.claims.Claim```) names a module of the package and a name in it; a
    reference with one leading dot is read in the module's package, or else in the module itself."""
    import re

    broken = []
    for path in sorted((ROOT / "audits").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        module = ".".join(("dptestbed", *(parts[:-1] if parts[-1] == "__init__" else parts)))
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        for ref in re.findall(r":(?:mod|func|class|data|meth|attr|exc):`~?((?:\.|dptestbed\.)[\w.]+)`", path.read_text()):
            body = ref.lstrip(".")
            dots = len(ref) - len(body)
            candidates = [".".join([*package[:len(package) - dots + 1], body])] if dots else [ref]
            candidates += [f"{module}.{body}"] if dots == 1 else []
            if not any(_resolves(c) for c in candidates):
                broken.append(f"{path.relative_to(ROOT)}: {ref}")
    assert not broken, broken


@pytest.mark.parametrize("markexpr, args, runs", [
    ("not slow", [], False), ("slow", [], False), ("", ["tests/test_search_mutants.py"], False),  # the README's
    ("measurement", [], True), ("slow or measurement", [], True),  # benchmarks/measurements.py
    ("", ["tests/test_search_mutants.py::test_alg_4_with_a_quarter_lambda_is_found_at_six_queries"], True)])
def test_the_readme_command_leaves_the_long_measurements_to_their_benchmark(request, markexpr, args, runs):
    """Tests marked ``measurement`` run only when asked for by the marker or by their node id (tests/conftest.py,
    the copy pytest loaded)."""
    from types import SimpleNamespace

    conftest = next(p for p in request.config.pluginmanager.get_plugins()
                    if Path(getattr(p, "__file__", "") or "") == Path(__file__).with_name("conftest.py"))
    config = SimpleNamespace(option=SimpleNamespace(markexpr=markexpr), args=args)
    assert conftest._asks_for_measurements(config) is runs
