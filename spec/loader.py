"""Loading spec files and whole catalogues.

``load_catalogue()`` reads every ``*.toml`` below a folder (the packaged catalogue by default,
one subfolder per paper), validates each file (see :mod:`.schema`) and then the catalogue as a
whole: duplicate ids (across all folders) and ``variant_of`` links to missing specs are errors
naming the files. A spec's ``paper`` is the name of the first folder below the catalogue root
it sits in. Files are parsed with :mod:`tomllib`; nothing in them is executed.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
import stat
import tomllib
from pathlib import Path

from .model import Spec, SpecError
from .schema import build_spec

CATALOGUE_DIR = Path(__file__).resolve().parent


MAX_SPEC_BYTES = 1 << 20  # a spec is a page of text; anything larger is not one
SEEDS_FILE = "seeds.json"  # a paper folder's seed files: {"seeds": [{"file", "number", "title"}, ...]}


def paper_seeds(folder: Path) -> dict[str, dict]:
    """The seed files the specs of ``folder`` may name as their source: those the packaged papers' ``seeds.json``
    declare (a spec copied into a folder of one's own keeps its source), those of ``folder`` and of its siblings
    (a calibration spec may cite a paper's preliminaries), by file name, with the paper's ``number`` and
    ``title``."""
    out: dict[str, dict] = {}
    found = {*CATALOGUE_DIR.glob(f"*/{SEEDS_FILE}"), folder / SEEDS_FILE, *folder.parent.glob(f"*/{SEEDS_FILE}")}
    for path in sorted(found):
        if path.is_file():
            out.update(_read_seeds(path))
    return out


def _read_seeds(path: Path) -> dict[str, dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise SpecError(str(path), "", f"not a readable JSON file: {exc}") from None
    seeds = data.get("seeds", []) if isinstance(data, dict) else None
    out = {}
    for i, entry in enumerate(seeds if isinstance(seeds, list) else [None]):
        if not (isinstance(entry, dict) and all(isinstance(entry.get(k), str) for k in ("file", "number", "title"))):
            raise SpecError(str(path), f"seeds[{i}]", "must be a table with the strings file, number and title")
        out[entry["file"]] = {"number": entry["number"], "title": entry["title"]}
    return out


def load_spec(path: str | Path, *, paper: str = "") -> Spec:
    """Load and validate one spec file (a regular file of at most MAX_SPEC_BYTES: a FIFO, a
    device or a symlink to one is refused before it is opened)."""
    path = Path(path)
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise SpecError(str(path), "", "not a regular file")
        if info.st_size > MAX_SPEC_BYTES:
            raise SpecError(str(path), "", f"file too large ({info.st_size} bytes; a spec has at most {MAX_SPEC_BYTES})")
        with open(path, "rb") as fh:
            raw = fh.read(MAX_SPEC_BYTES + 1)
        text = raw.decode("utf-8")
    except OSError as exc:
        raise SpecError(str(path), "", f"cannot read file: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise SpecError(str(path), "", "not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(str(path), "", f"not valid TOML: {exc}") from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer over 4,300 digits, arrays nested too deep
        raise SpecError(str(path), "", f"not a usable TOML document: {type(exc).__name__}: {str(exc)[:120]}") from None
    spec = build_spec(data, str(path), seeds=paper_seeds(path.parent))
    return dataclasses.replace(spec, paper=paper) if paper else spec


class Catalogue(dict):
    """Specs by id, ordered by paper folder, then file name."""

    def get_spec(self, spec_id: str) -> Spec:
        if spec_id not in self:
            close = difflib.get_close_matches(spec_id, list(self), n=3, cutoff=0.6)
            close += [s for s in self if (spec_id in s or s in spec_id) and s not in close]
            hint = f"; did you mean {', '.join(close[:5])}?" if close else ""
            raise KeyError(f"unknown spec id {spec_id!r}{hint} (see 'dptestbed specs')")
        return self[spec_id]

    @property
    def papers(self) -> list[str]:
        """The paper folders, in catalogue order."""
        return list(dict.fromkeys(spec.paper for spec in self.values()))

    def _order_papers(self) -> None:
        """Order specs by paper (papers by their earliest seed file; a folder with specs of no
        seed, such as the calibration corpus, comes first), then by file name."""
        first_seed: dict[str, str] = {}
        for spec in self.values():
            first_seed[spec.paper] = min(first_seed.get(spec.paper, "~"), spec.seed or "")
        specs = sorted(self.values(), key=lambda s: (first_seed[s.paper], s.paper, Path(s.file).name))
        self.clear()
        self.update((spec.id, spec) for spec in specs)


def load_catalogue(directory: str | Path | None = None) -> Catalogue:
    """Load every ``*.toml`` spec below ``directory`` (default: the packaged catalogue)."""
    directory = Path(directory) if directory is not None else CATALOGUE_DIR
    if not directory.is_dir():
        raise SpecError(str(directory), "", "not a folder of specs")
    catalogue = Catalogue()
    for path in sorted(directory.rglob("*.toml")):
        relative = path.relative_to(directory)
        spec = load_spec(path, paper=relative.parts[0] if len(relative.parts) > 1 else "")
        if spec.id in catalogue:
            raise SpecError(str(path), "id", f"duplicate id {spec.id!r}, also used in {catalogue[spec.id].file}")
        catalogue[spec.id] = spec
    for spec in catalogue.values():
        if spec.variant_of is not None and spec.variant_of not in catalogue:
            raise SpecError(spec.file, "variant_of", f"names {spec.variant_of!r}, which is not a spec in {directory}")
    catalogue._order_papers()
    return catalogue


def find_spec(spec_id: str, directory: str | Path | None = None) -> Spec:
    """The spec ``spec_id`` below ``directory`` (default: the packaged catalogue), read from the
    file named after it (``<id>.toml``, the catalogue's convention) without loading the others;
    when no such file holds it, the whole catalogue is loaded (for its validation errors and the
    close-match hints of an unknown id)."""
    root = Path(directory) if directory is not None else CATALOGUE_DIR
    if root.is_dir() and re.fullmatch(r"[A-Za-z0-9_-]{1,200}", spec_id):  # (a longer name is no file's)
        for path in sorted(root.rglob(f"{spec_id}.toml")):
            relative = path.relative_to(root)
            spec = load_spec(path, paper=relative.parts[0] if len(relative.parts) > 1 else "")
            if spec.id == spec_id:
                return spec
    return load_catalogue(directory).get_spec(spec_id)


def paper_folders(directory: str | Path | None = None) -> list[str]:
    """The paper folders of a catalogue (default: the packaged one): its subfolders holding spec
    files, by name. A paper is one such folder here and, where it has them, its packages
    ``dptestbed.impl.<paper>`` and ``dptestbed.audits.<paper>``."""
    root = Path(directory) if directory is not None else CATALOGUE_DIR
    return sorted(p.name for p in root.iterdir() if p.is_dir() and any(p.rglob("*.toml")))


def spec_file(spec_id: str) -> Path:
    """The packaged catalogue's file for ``spec_id``."""
    return Path(find_spec(spec_id).file)
