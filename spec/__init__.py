"""Declarative specs: the formula grammar, the schema, and the catalogue loader."""

from .formula import Formula, FormulaError, parse
from .loader import CATALOGUE_DIR, Catalogue, find_spec, load_catalogue, load_spec, paper_folders, spec_file
from .model import Spec, SpecError, Theorem
from .schema import resolve_stress_values

__all__ = [
    "CATALOGUE_DIR", "Catalogue", "Formula", "FormulaError", "Spec", "SpecError", "Theorem",
    "find_spec", "load_catalogue", "load_spec", "paper_folders", "parse", "resolve_stress_values", "spec_file",
]
