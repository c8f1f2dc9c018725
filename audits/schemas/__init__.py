"""JSON Schemas (draft 2020-12) of dptestbed's machine outputs, shipped with the package, and the
format key each document carries:

=====================  ===========================  ==========================
file                   document                     ``format``
=====================  ===========================  ==========================
results.schema.json    results.json                 ``dptestbed-results/1``
audit.schema.json      ``dptestbed audit --json``   ``dptestbed-audit/1``
specs.schema.json      ``dptestbed specs --json``   ``dptestbed-specs/1``
spec.schema.json       ``dptestbed show --json``    ``dptestbed-spec/1``
common.schema.json     shared definitions: the infinity convention, claims, outcome classes
junit.xsd              junit.xml: the JUnit XML of Ant and Jenkins that CI systems read, as far as
                       dptestbed writes it (testsuites > testsuite > testcase > failure | error,
                       system-out)
=====================  ===========================  ==========================

Infinities: every number is a JSON number when finite; an infinite value (a privacy loss without a
finite bound) is the string ``"inf"`` or ``"-inf"``; ``null`` is unknown or not computed.

A format's number changes when a field is removed or changes meaning; new fields keep it. The
schemas refer to one another by file name (``"$ref": "common.schema.json#/$defs/number"``), so a
validator resolves them against this folder; e.g. ``check-jsonschema --schemafile "$(python -c
'from dptestbed.audits.schemas import path; print(path("results"))')" results.json``.
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


def load(name: str) -> dict[str, Any]:
    """Schema ``name`` as a JSON object."""
    return json.loads(path(name).read_text(encoding="utf-8"))
