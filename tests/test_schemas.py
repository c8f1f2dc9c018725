"""The machine outputs against the JSON Schemas shipped in ``dptestbed.audits.schemas`` (and
junit.xml against its XSD), the way a user's CI reads them with stock tools: results.json of a
``check`` run (a correct implementation, and one that raises), ``audit --json``, ``specs --json``,
``show --json``; every document carries its ``format``; infinities are the strings "inf"/"-inf"."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import xmlschema
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from dptestbed.audits import schemas
from dptestbed.audits.cli import main
from dptestbed.audits.serialize import jsonable

USER_IMPL = '''
import numpy as np

def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=float)
    return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)

def boom(data, *, rng, epsilon, gamma):
    raise RuntimeError("the implementation gave up")
'''


# the schemas refer to one another by file name
REGISTRY = Registry().with_resources((path.name, Resource.from_contents(json.loads(path.read_text())))
                                     for path in schemas.SCHEMA_DIR.glob("*.schema.json"))


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(schemas.load(name), registry=REGISTRY)


def assert_valid(name: str, document) -> None:
    errors = sorted(validator(name).iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}"[:300] for e in errors[:10])


def _json_out(capsys, *argv: str) -> tuple[int, dict]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def test_every_schema_is_valid_and_names_its_format():
    for path in schemas.SCHEMA_DIR.glob("*.schema.json"):
        Draft202012Validator.check_schema(json.loads(path.read_text()))
    for name, fmt in schemas.FORMATS.items():
        schema = schemas.load(name)
        const = schema["properties"]["format"]["const"]
        assert const == fmt, name
    xmlschema.XMLSchema(schemas.path("junit"))


def test_infinities_are_the_strings_inf_everywhere():
    assert jsonable({"a": math.inf, "b": np.float64(-np.inf), "c": math.nan, "d": [np.float32(2.5)]}) == \
        {"a": "inf", "b": "-inf", "c": None, "d": [2.5]}
    number = {"$ref": "common.schema.json#/$defs/number"}
    check = Draft202012Validator(number, registry=REGISTRY)
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
