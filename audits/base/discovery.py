"""Finding each paper's checks and mutants by walking the package folders.

A paper is a folder of specs ``spec/<paper>/`` (:func:`dptestbed.spec.paper_folders`) with its
subpackages ``dptestbed.audits.<paper>`` (its experiments, its exact privacy profiles in a module
``exact_profiles`` and its errata in a module ``errata``, which register themselves when imported)
and ``dptestbed.impl.<paper>`` (its reference implementations; a ``mutants`` module there declares
``MUTANTS``). Adding a paper means adding these folders; no list in the engine changes. Other
subpackages of ``audits/`` and ``impl/`` (``audits/privacy/``, ``audits/report/``, ``audits/cli/``)
are the engine's own.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from functools import cache

import dptestbed.audits as _audits
import dptestbed.impl as _impl
from dptestbed.spec import paper_folders


def paper_packages(root=_audits) -> list[str]:
    """The paper subpackages of ``root`` (a package), by name: those named after a folder of specs."""
    papers = set(paper_folders())
    return sorted(info.name for info in pkgutil.iter_modules(root.__path__) if info.ispkg and info.name in papers)


@cache
def load_papers(only: str | None = None) -> tuple[str, ...]:
    """Import every module of every ``dptestbed.audits.<paper>`` package (each registers its
    experiments, exact profiles and errata), or with ``only`` just the modules of that name in
    each paper: ``exact_profiles`` (all an audit needs) or ``errata``. Returns the module names."""
    loaded = []
    for paper in paper_packages(_audits):
        package = importlib.import_module(f"{_audits.__name__}.{paper}")
        for info in pkgutil.iter_modules(package.__path__):
            if only is None or info.name == only:
                loaded.append(importlib.import_module(f"{package.__name__}.{info.name}").__name__)
    return tuple(loaded)


@cache
def load_mutants() -> tuple:
    """Every declared implementation mutant (``dptestbed.impl.<paper>.mutants.MUTANTS``)."""
    out = []
    for paper in paper_packages(_impl):
        name = f"{_impl.__name__}.{paper}.mutants"
        if importlib.util.find_spec(name) is not None:
            out.extend(importlib.import_module(name).MUTANTS)
    seen = set()
    for mutant in out:
        if mutant.id in seen:
            raise ValueError(f"mutant {mutant.id} declared twice")
        seen.add(mutant.id)
    return tuple(out)
