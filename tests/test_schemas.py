"""The machine outputs against the JSON Schemas shipped in ``dptestbed.audits.schemas`` (and
junit.xml against its XSD), the way a user's CI reads them with stock tools: results.json of a
``check`` run (a correct implementation, and one that raises), ``audit --json``, ``specs --json``,
``show --json``; every document carries its ``format``; infinities are the strings "inf"/"-inf"."""

from __future__ import annotations

import json
import math
from pathlib import Path

import jsonschema
import numpy as np
import pytest
import xmlschema
from jsonschema import Draft202012Validator

from dptestbed.audits import schemas
from dptestbed.audits.base.serialize import jsonable
from dptestbed.audits.cli import main

USER_IMPL = '''
import numpy as np

def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)

def boom(data, *, rng, epsilon, gamma):
    raise RuntimeError("the implementation gave up")
'''


def assert_valid(name: str, document) -> None:
    """As a user's CI checks a document: plain jsonschema with the schema ``load`` gives (no resolver of
    its own), and the package's helper; every error listed when it fails."""
    schema = schemas.load(name)
    errors = sorted(Draft202012Validator(schema).iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}"[:300] for e in errors[:10])
    jsonschema.validate(document, schema)
    schemas.validate(document)


def _json_out(capsys, *argv: str) -> tuple[int, dict]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def test_every_schema_is_valid_has_an_id_and_names_its_format():
    ids = set()
    for path in schemas.SCHEMA_DIR.glob("*.schema.json"):
        schema = json.loads(path.read_text())
        Draft202012Validator.check_schema(schema)
        ids.add(schema["$id"])
        assert schema["$id"].endswith("/" + path.name)
    assert len(ids) == len(list(schemas.SCHEMA_DIR.glob("*.schema.json")))
    for name, fmt in schemas.FORMATS.items():
        schema = schemas.load(name)
        Draft202012Validator.check_schema(schema)
        const = schema["properties"]["format"]["const"]
        assert const == fmt, name
    # results refers to audit, which refers to common: both are embedded
    assert {"audit.schema.json", "common.schema.json"} <= set(schemas.load("results")["$defs"])
    xmlschema.XMLSchema(schemas.path("junit"))


def test_validate_names_what_does_not_conform_and_what_is_no_document():
    with pytest.raises(jsonschema.ValidationError, match="3 is not of type 'array'"):
        schemas.validate({"format": "dptestbed-specs/1", "specs": 3})
    with pytest.raises(ValueError, match="format 'other/1' is none of"):
        schemas.validate({"format": "other/1"})
    with pytest.raises(ValueError, match="format None"):
        schemas.validate([])


def test_infinities_are_the_strings_inf_everywhere():
    assert jsonable({"a": math.inf, "b": np.float64(-np.inf), "c": math.nan, "d": [np.float32(2.5)]}) == \
        {"a": "inf", "b": "-inf", "c": None, "d": [2.5]}
    number = {**schemas.load("common"), "$ref": "#/$defs/number"}
    check = Draft202012Validator(number)
    assert check.is_valid("inf") and check.is_valid("-inf") and check.is_valid(1.5)
    assert not check.is_valid("Infinity") and not check.is_valid(None) and not check.is_valid("1.5")


def test_specs_and_show_json_validate(capsys):
    code, doc = _json_out(capsys, "specs", "--json")
    assert code == 0 and doc["format"] == "dptestbed-specs/1" and len(doc["specs"]) > 40
    assert_valid("specs", doc)
    for spec_id in ("sparse_vector", "laplace_mechanism", "svt_lyu_3"):
        code, doc = _json_out(capsys, "show", spec_id, "--json")
        assert code == 0 and doc["format"] == "dptestbed-spec/1" and doc["id"] == spec_id
        assert_valid("spec", doc)


def test_audit_json_validates(capsys):
    code, doc = _json_out(capsys, "audit", "laplace_mechanism", "--samples", "20000", "--json")
    assert doc["format"] == "dptestbed-audit/1" and code in (0, 4)  # 20,000 samples may lack power
    assert doc["class"] == {0: "pass", 4: "no power"}[code]  # the classes' words, as results.json and the console
    assert_valid("audit", doc)


@pytest.mark.slow
def test_audit_json_of_an_infinite_loss_validates(capsys):
    """Lyu et al.'s Algorithm 5 (published as private, it is not) loses without bound: its exact epsilon is "inf"."""
    code, doc = _json_out(capsys, "audit", "svt_lyu_5", "--samples", "20000", "--json")
    assert code == 1 and doc["exact_epsilon"] == "inf"
    assert_valid("audit", doc)


@pytest.fixture(scope="module")
def checked(tmp_path_factory) -> dict[str, tuple[int, Path]]:
    """``check laplace_mechanism`` of a correct implementation and of one that raises: exit code, folder."""
    tmp = tmp_path_factory.mktemp("check")
    tmp.chmod(0o755)  # readable by the sandbox's own user when run by root (conftest's _readable_tmp_path)
    (tmp / "mine.py").write_text(USER_IMPL)
    runs = {}
    for name in ("laplace", "boom"):
        out = tmp / name
        code = main(["check", "laplace_mechanism", "--impl", f"{tmp / 'mine.py'}:{name}", "--out", str(out),
                     "--no-controls", "--no-plots", "--quiet", "--jobs", "1"])
        runs[name] = (code, out)
    return runs


@pytest.mark.slow
@pytest.mark.parametrize("name", ["laplace", "boom"])
def test_results_json_and_junit_xml_of_a_check_validate(checked, name):
    code, out = checked[name]
    doc = json.loads((out / "results.json").read_text())
    assert doc["format"] == "dptestbed-results/1" and doc["summary"]["exit_code"] == code
    assert_valid("results", doc)
    xmlschema.XMLSchema(schemas.path("junit")).validate(out / "junit.xml")
    if name == "boom":
        assert code == 5 and doc["summary"]["classes"]["implementation error"] > 0
        assert "the implementation gave up" in (out / "junit.xml").read_text()
