"""Malformed specs are rejected with the file, the key and what is wrong."""

import copy
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dptestbed.spec import SpecError, find_spec, load_catalogue, load_spec, spec_file
from dptestbed.spec.loader import paper_seeds
from dptestbed.spec.model import source_text
from dptestbed.spec.schema import build_spec

BASE = tomllib.loads((spec_file("laplace_mechanism")).read_text())


def _build(data):
    return build_spec(data, "spec/x.toml", seeds=paper_seeds(spec_file("online_query_release").parent))


def _set(data, path, value):
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value


def _delete(data, path):
    node = data
    for part in path[:-1]:
        node = node[part]
    del node[path[-1]]


def _key(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def test_base_spec_is_valid():
    spec = _build(copy.deepcopy(BASE))
    assert spec.id == "laplace_mechanism" and spec.privacy.theorem == "Lemma 2.6"


@pytest.mark.parametrize(
    "path, value, key, message",
    [
        (("id",), "Bad-Id", "id", "must match"),
        (("parameters", "epsilon", "min"), "zero", "parameters.epsilon.min", "must be int/float"),
        (("parameters", "epsilon", "type"), "complex", "parameters.epsilon.type", "must be one of real, integer, choice"),
        (("parameters", "epsilon", "default"), -1.0, "parameters.epsilon.default", "must satisfy 0 < epsilon"),
        (("parameters", "p", "default"), 1.5, "parameters.p.default", "must be an integer"),
        (("derived", "b", "formula"), "gamma/epsilonn", "derived.b.formula", "unknown name(s) epsilonn"),
        (("derived", "b", "formula"), "__import__('os')", "derived.b.formula", "not allowed"),
        (("derived", "b", "formula"), "b + 1", "derived.b.formula", "circular definition"),
        (("derived", "b", "formula"), "gamma >= 1", "derived.b.formula", "must be a quantity"),
        (("privacy", "theorem"), "Lemma 9.9", "privacy.theorem", "is not the ref of any theorem"),
        (("theorems", 0, "ref"), "Thm 2.6", "theorems[0].ref", "must be numbered as in the paper"),
        (("theorems", 0, "kind"), "accuracy", "theorems[0].kind", "must be one of privacy, utility"),
        (("theorems", 1, "ref"), "Lemma 2.6", "theorems[1].ref", "duplicate theorem ref"),
        (("neighbours", "relation"), "friends", "neighbours.relation", "must be one of add_remove"),
        (("output", "kind"), "picture", "output.kind", "must be one of real"),
        (("input", "labels"), "three", "input.labels", "must be 'any'"),
        (("source", "seed"), "999_x.txt", "source.seed", "must be one of the seed files"),
        (("implementation",), "os.system", "implementation", "must look like 'package.module:function'"),
        (("obligations", 0, "condition"), "tail_radius + 1", "obligations[0].condition", "must be a condition"),
        (("stress_cases", 0, "params"), {"q": 1}, "stress_cases[0].params.q", "is not a parameter"),
        (("broken",), "noise too small", "broken", "must name the mechanism it breaks"),
        (("constraints",), ["beta <= nonexistent"], "constraints[0]", "unknown name(s) nonexistent"),
    ],
)
def test_hand_written_malformations(path, value, key, message):
    data = copy.deepcopy(BASE)
    _set(data, path, value)
    with pytest.raises(SpecError) as info:
        _build(data)
    assert info.value.key == key
    assert message in info.value.message
    assert str(info.value).startswith("spec/x.toml: ")


def test_privacy_claim_needs_defaults():
    data = copy.deepcopy(BASE)
    del data["parameters"]["beta"]["default"]
    with pytest.raises(SpecError, match=r"parameters\.beta\.default: a spec with a privacy claim"):
        _build(data)


# ----------------------------------------------------------------- hypothesis mutations

REQUIRED = [("id",), ("title",), ("source",), ("source", "seed"), ("parameters",), ("parameters", "epsilon", "type"),
            ("parameters", "epsilon", "description"), ("derived", "b", "formula"), ("input",), ("input", "kind"),
            ("neighbours", "relation"), ("output", "encoding"), ("privacy", "epsilon"), ("privacy", "delta"),
            ("theorems",), ("theorems", 0, "ref"), ("theorems", 0, "statement"), ("theorems", 0, "constant"),
            ("obligations", 0, "condition"), ("stress_cases", 0, "data")]
TABLES = [(), ("source",), ("parameters", "gamma"), ("derived", "b"), ("input",), ("neighbours",), ("output",),
          ("privacy",), ("theorems", 1), ("theorems", 1, "quantities"), ("obligations", 0), ("stress_cases", 0)]
FORMULAS = [("derived", "b", "formula"), ("derived", "tail_radius", "formula"), ("privacy", "epsilon"),
            ("theorems", 1, "quantities", "error_bound"), ("neighbours", "sensitivity")]
UNSAFE = ["__import__('os').system('id')", "open('/etc/passwd').read()", "(1).__class__", "eval('1')",
          "globals()", "[x for x in ()]", "lam[0]", "f'{1}'", "exec('1')", "sqrt(1)(2)"]


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_mutations_are_rejected_naming_the_key(data):
    spec = copy.deepcopy(BASE)
    kind = data.draw(st.sampled_from(["delete", "unknown", "unsafe", "unknown_name", "wrong_type"]))
    if kind == "delete":
        path = data.draw(st.sampled_from(REQUIRED))
        _delete(spec, path)
        expected_key, fragment = _key(path), "missing"
    elif kind == "unknown":
        table = data.draw(st.sampled_from(TABLES))
        name = data.draw(st.from_regex(r"[a-z]{3,8}_x", fullmatch=True))
        _set(spec, (*table, name), 1) if table else spec.__setitem__(name, 1)
        expected_key, fragment = _key((*table, name)), "unknown key"
        if table == ("theorems", 1, "quantities"):  # a new quantity is allowed there: "1" is a valid formula
            _build(spec)
            return
    elif kind == "unsafe":
        path = data.draw(st.sampled_from(FORMULAS))
        _set(spec, path, data.draw(st.sampled_from(UNSAFE)))
        expected_key, fragment = _key(path), ""
    elif kind == "unknown_name":
        path = data.draw(st.sampled_from(FORMULAS))
        _set(spec, path, "epsilon * zz_unknown")
        expected_key, fragment = _key(path), "unknown name(s) zz_unknown"
    else:
        wrong = {("title",): [1, 2], ("parameters", "p", "min"): "one", ("theorems",): [1, 2],
                 ("source",): "000", ("parameters", "epsilon", "min_inclusive"): "no", ("output", "space"): 3}
        path = data.draw(st.sampled_from(sorted(wrong)))
        _set(spec, path, wrong[path])
        expected_key, fragment = _key(path), "must be"
    with pytest.raises(SpecError) as info:
        _build(spec)
    assert info.value.key == expected_key or info.value.key.startswith((expected_key + ".", expected_key + "[")), \
        str(info.value)
    assert fragment in info.value.message
    assert info.value.file == "spec/x.toml"


# ----------------------------------------------------------------- files and catalogues


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def test_file_level_errors(tmp_path):
    bad_toml = _write(tmp_path, "a.toml", "id = \n")
    with pytest.raises(SpecError, match=r"a\.toml: <top level>: not valid TOML"):
        load_spec(bad_toml)
    with pytest.raises(SpecError, match="cannot read file"):
        load_spec(tmp_path / "missing.toml")


def test_duplicate_ids_and_dangling_variant(tmp_path):
    text = (spec_file("laplace_mechanism")).read_text()
    _write(tmp_path, "one.toml", text)
    _write(tmp_path, "two.toml", text)
    with pytest.raises(SpecError, match=r"two\.toml: id: duplicate id 'laplace_mechanism'"):
        load_catalogue(tmp_path)
    (tmp_path / "two.toml").write_text(
        text.replace('id = "laplace_mechanism"', 'id = "laplace_corrected"\nvariant_of = "nothing_here"'))
    with pytest.raises(SpecError, match=r"two\.toml: variant_of: names 'nothing_here'"):
        load_catalogue(tmp_path)


def test_a_new_paper_declares_its_seed_files_in_its_own_folder(tmp_path):
    """No list in the code names the seed files: a paper's folder declares them (seeds.json), with its number and
    title; an undeclared seed is an error naming the key."""
    text = spec_file("laplace_mechanism").read_text().replace("000_3293018fb47a99ee.txt", "042_new.txt")
    (tmp_path / "new_paper").mkdir()
    _write(tmp_path, "new_paper/x.toml", text)
    with pytest.raises(SpecError, match=r"source\.seed: must be one of the seed files .* got '042_new\.txt'"):
        load_catalogue(tmp_path)
    seeds = {"seeds": [{"file": "042_new.txt", "number": "042", "title": "A New Paper"}]}
    _write(tmp_path, "new_paper/seeds.json", json.dumps(seeds))
    spec = load_catalogue(tmp_path)["laplace_mechanism"]
    assert source_text(spec.source).startswith("A New Paper (paper 042), section")
    _write(tmp_path, "new_paper/seeds.json", '{"seeds": [{"file": 42}]}')
    with pytest.raises(SpecError, match=r"seeds\.json: seeds\[0\]: must be a table"):
        load_catalogue(tmp_path)


def test_find_spec_reads_the_named_file_alone(tmp_path):
    text = (spec_file("laplace_mechanism")).read_text()
    (tmp_path / "paper_a").mkdir()
    _write(tmp_path, "paper_a/laplace_mechanism.toml", text)
    _write(tmp_path, "paper_a/broken.toml", "id = \n")  # a broken sibling is not read
    spec = find_spec("laplace_mechanism", tmp_path)
    assert spec.id == "laplace_mechanism" and spec.paper == "paper_a"
    _write(tmp_path, "paper_a/renamed.toml", text.replace('id = "laplace_mechanism"', 'id = "other_name"'))
    with pytest.raises(SpecError, match=r"broken\.toml"):  # not named after its id: the whole folder is loaded
        find_spec("other_name", tmp_path)
    (tmp_path / "paper_a" / "broken.toml").unlink()
    assert find_spec("other_name", tmp_path).id == "other_name"
    with pytest.raises(KeyError, match="did you mean other_name"):
        find_spec("other_nam", tmp_path)
    with pytest.raises(KeyError, match="unknown spec id"):
        find_spec("*", tmp_path)  # no glob


@pytest.mark.slow
def test_cli_rejects_a_malformed_spec_folder_with_exit_2(tmp_path):
    text = (spec_file("laplace_mechanism")).read_text().replace('type = "integer"', 'type = "int"')
    _write(tmp_path, "user_spec.toml", text)
    result = subprocess.run([sys.executable, "-m", "dptestbed", "specs", "--dir", str(tmp_path)],
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert "user_spec.toml: parameters.p.type: must be one of real, integer, choice" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_formula_code_is_never_executed(tmp_path):
    marker = tmp_path / "pwned"
    text = (spec_file("laplace_mechanism")).read_text().replace(
        'formula = "gamma/epsilon"', f'formula = "__import__(\'pathlib\').Path(\'{marker}\').touch()"')
    path = _write(tmp_path, "evil.toml", text)
    with pytest.raises(SpecError, match="derived.b.formula"):
        load_spec(path)
    assert not marker.exists()
