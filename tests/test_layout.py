"""The layout's import rules beyond import-linter's static contracts (pyproject.toml): the engine
never imports a paper package, and paper packages never import one another, across ``impl/`` and
``audits/`` (a paper's checks may import its own implementations only). Papers are the folders of
specs (``spec/<paper>/``), found as the suite finds them."""

import grimp
import pytest

from dptestbed.audits import discovery

PAPERS = set(discovery.paper_packages())


def _paper(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] in ("impl", "audits") and parts[2] in PAPERS else None


def _graph():
    return grimp.build_graph("dptestbed.spec", "dptestbed.impl", "dptestbed.audits")


def test_the_engine_never_imports_a_paper_package():
    graph = _graph()
    engine = [m for m in graph.modules if m.split(".")[1] in ("impl", "audits") and _paper(m) is None]
    assert "dptestbed.audits.privacy.procedure" in engine and "dptestbed.audits.suite" in engine
    crossing = [f"{m} -> {imported}" for m in engine for imported in graph.find_modules_directly_imported_by(m)
                if _paper(imported) is not None]
    assert not crossing, "the engine imports a paper: " + "; ".join(crossing)


def test_paper_packages_never_import_one_another():
    graph = _graph()
    assert {"calibration", "model_agnostic"} <= PAPERS
    crossing = []
    for module in graph.modules:
        own = _paper(module)
        if own is None:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            other = _paper(imported)
            if other is not None and other != own:
                crossing.append(f"{module} -> {imported}")
    assert not crossing, "a paper imports another paper: " + "; ".join(crossing)


def test_every_audits_paper_has_an_impl_paper():
    import dptestbed.impl as impl

    assert set(discovery.paper_packages()) <= set(discovery.paper_packages(impl))


def test_python_dash_m_runs_the_command_line():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "dptestbed", "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("dptestbed "), out.stderr


def test_entry_point_quiets_openblas_spinning_unless_the_user_chose(monkeypatch, capsys):
    import os

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
