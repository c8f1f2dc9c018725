"""Loading spec files and whole catalogues.

``load_catalogue()`` reads every ``*.toml`` in a folder (the packaged catalogue by
default), validates each file (see :mod:`.schema`) and then the catalogue as a whole:
duplicate ids and ``variant_of`` links to missing specs are errors naming the file.
Files are parsed with :mod:`tomllib`; nothing in them is executed.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from .schema import Spec, SpecError, build_spec

CATALOGUE_DIR = Path(__file__).resolve().parent


def load_spec(path: str | Path) -> Spec:
    """Load and validate one spec file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError(str(path), "", f"cannot read file: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise SpecError(str(path), "", "not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(str(path), "", f"not valid TOML: {exc}") from None
    return build_spec(data, str(path))


class Catalogue(dict):
    """Specs by id, in file-name order."""

    def get_spec(self, spec_id: str) -> Spec:
        if spec_id not in self:
            close = [s for s in self if spec_id in s or s in spec_id]
            hint = f"; did you mean {', '.join(close[:5])}?" if close else ""
            raise KeyError(f"unknown spec id {spec_id!r}{hint} (see 'dptestbed specs')")
        return self[spec_id]


def load_catalogue(directory: str | Path | None = None) -> Catalogue:
    """Load every ``*.toml`` spec in ``directory`` (default: the packaged catalogue)."""
    directory = Path(directory) if directory is not None else CATALOGUE_DIR
    if not directory.is_dir():
        raise SpecError(str(directory), "", "not a folder of specs")
    catalogue = Catalogue()
    for path in sorted(directory.glob("*.toml")):
        spec = load_spec(path)
        if spec.id in catalogue:
            raise SpecError(str(path), "id", f"duplicate id {spec.id!r}, also used in {catalogue[spec.id].file}")
        catalogue[spec.id] = spec
    for spec in catalogue.values():
        if spec.variant_of is not None and spec.variant_of not in catalogue:
            raise SpecError(spec.file, "variant_of", f"names {spec.variant_of!r}, which is not a spec in {directory}")
    return catalogue
