"""JSON Schemas (draft 2020-12) of dptestbed's machine outputs, shipped with the package, and the
format key each document carries:

=====================  ===========================  ==========================
file                   document                     ``format``
=====================  ===========================  ==========================
results.schema.json    results.json                 ``dptestbed-results/1``
audit.schema.json      ``dptestbed audit --json``,  ``dptestbed-audit/1``
                       ``AuditResult.to_json()``
specs.schema.json      ``dptestbed specs --json``   ``dptestbed-specs/1``
spec.schema.json       ``dptestbed show --json``    ``dptestbed-spec/1``
common.schema.json     shared definitions: the infinity convention, claims, outcome classes
junit.xsd              junit.xml: the JUnit XML of Ant and Jenkins that CI systems read, as far as
                       dptestbed writes it (testsuites > testsuite > testcase > failure | error,
                       system-out)
=====================  ===========================  ==========================

Infinities: every number is a JSON number when finite; an infinite value (a privacy loss without a
finite bound) is the string ``"inf"`` or ``"-inf"``; ``null`` is unknown or not computed.

A format's number changes when a field is removed or changes meaning; new fields keep it. Each
schema has an ``$id`` (``https://dptestbed.invalid/schemas/FILE``: a name, never fetched) and refers
to the others by file name (``"$ref": "common.schema.json#/$defs/number"``). :func:`load` returns a
schema with the schemas it refers to embedded, so a stock validator needs nothing else::

    jsonschema.validate(document, schemas.load("results"))
    schemas.validate(document)             # the same, the schema chosen by the document's format

and for a command-line validator, write it to a file first: ``python -c 'import json; from
dptestbed.audits.schemas import load; print(json.dumps(load("results")))' > results.schema.json``, then
``check-jsonschema --schemafile results.schema.json results.json``. :func:`validate` needs the
``jsonschema`` package (``pip install 'dptestbed[schemas]'``), which dptestbed never imports otherwise.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SCHEMA_DIR = Path(__file__).resolve().parent
FORMATS = {"results": "dptestbed-results/1", "audit": "dptestbed-audit/1", "specs": "dptestbed-specs/1",
           "spec": "dptestbed-spec/1"}


def path(name: str) -> Path:
    """The file of schema ``name`` (``results``, ``audit``, ``specs``, ``spec``, ``common``; ``junit``: the XSD)."""
    return SCHEMA_DIR / ("junit.xsd" if name == "junit" else f"{name}.schema.json")


def _read(file: str) -> dict[str, Any]:
    return json.loads((SCHEMA_DIR / file).read_text(encoding="utf-8"))


def _files_referred(node: Any) -> set[str]:
    """The schema files that ``$ref``s in ``node`` name."""
    if isinstance(node, dict):
        own = {node["$ref"].partition("#")[0]} if isinstance(node.get("$ref"), str) else set()
        return own.union(*(_files_referred(v) for v in node.values())) - {""}
    if isinstance(node, list):
        return set().union(*(_files_referred(v) for v in node))
    return set()


def load(name: str) -> dict[str, Any]:
    """Schema ``name`` as a JSON object, with every schema it refers to (by file name, at any depth)
    embedded under ``$defs`` with its own ``$id``: one self-contained document."""
    schema = _read(path(name).name)
    embedded: dict[str, Any] = {}
    todo = _files_referred(schema) - {path(name).name}
    while todo:
        file = todo.pop()
        embedded[file] = _read(file)
        todo |= _files_referred(embedded[file]) - set(embedded) - {path(name).name}
    if embedded:
        schema["$defs"] = {**schema.get("$defs", {}), **embedded}
    return schema


def validate(document: dict[str, Any]) -> None:
    """Validate a dptestbed JSON document against the schema of its ``format``; raises
    ``jsonschema.ValidationError`` (the most relevant error) when it does not conform, ``ValueError``
    when its format is none of :data:`FORMATS`."""
    import jsonschema

    names = {fmt: name for name, fmt in FORMATS.items()}
    fmt = document.get("format") if isinstance(document, dict) else None
    if fmt not in names:
        raise ValueError(f"not a dptestbed document: format {fmt!r} is none of {', '.join(names)}")
    jsonschema.validate(document, load(names[fmt]))

