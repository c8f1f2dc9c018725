"""Spec validation: a spec file (TOML) becomes the data model of :mod:`.model`.

A spec file is turned into a frozen :class:`Spec` by :func:`build_spec`, which
checks every key and raises :class:`SpecError` naming the file, the key and what is
wrong. The accepted keys are documented in ``spec/README.md``; this module is the
single place that enforces them.
"""

from __future__ import annotations

import math
import re
from graphlib import CycleError, TopologicalSorter
from typing import Any

from .formula import CONSTANTS, Formula, FormulaError, parse
from .model import (
    CONSTANT_ORIGINS,
    DERIVED_ORIGINS,
    INPUT_DOMAINS,
    MOVES_PATTERN,
    NEIGHBOUR_RELATIONS,
    OUTPUT_KINDS,
    PARAMETER_TYPES,
    PROFILE_KINDS,
    RECORD_DOMAINS,
    THEOREM_KINDS,
    Derived,
    Obligation,
    Parameter,
    Privacy,
    Profile,
    Records,
    Spec,
    SpecError,
    StressCase,
    Theorem,
)

ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
REF_PATTERN = re.compile(
    r"^(Theorem|Lemma|Corollary|Claim|Proposition|Observation|Fact|Remark|Definition|Section)"
    r" [A-Za-z0-9.\-]+( \(.+\))?$"
)
IMPL_PATTERN = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
# the most entries an array or table of a spec may hold (each audit point is a privacy audit of a run; the
# catalogue's largest: 2 audit points, 14 stress cases, 10 theorems)
MAX_ENTRIES = 256
MAX_ENTRIES_OF = {"audit_points": 32, "stress_cases": 64, "theorems": 64}

# --------------------------------------------------------------------------- building


def _read_records(file: str, table: dict, known: set) -> Records:
    reader = _Reader(file, table, "input.records")
    raw = reader.get("fields", dict, required=True)
    fields = []
    for key, domain in raw.items():
        if not isinstance(domain, str):
            raise reader.error(f"fields.{key}", f"must be a domain string, got {type(domain).__name__}")
        bound = None
        if domain.startswith("norm<="):
            bound = reader.parse(f"fields.{key}", domain[len("norm<="):], condition=False)
            _require_known(reader, f"fields.{key}", bound, known)
        elif not (domain in ("real", "binary", "sign", "item") or domain.startswith("index<") and len(domain) > 6):
            raise reader.error(f"fields.{key}", f"unknown domain {domain!r}; domains: {', '.join(RECORD_DOMAINS)}")
        fields.append((key, domain, bound))
    if not fields:
        raise reader.error("fields", "must name at least one field")
    changeable = reader.text("changeable") or None
    scales, fixed = reader.text_list("scales"), reader.text_list("fixed")
    for key, names in (("scales", scales), ("fixed", fixed)):
        for name in names:
            if name not in known:
                raise reader.error(key, f"{name!r} is not a parameter")
    if fixed and not changeable:
        raise reader.error("fixed", "counts the records that may not change: it needs `changeable`")
    public_rows = reader.get("public_rows", dict, default={})
    for key, name in public_rows.items():
        if any(key == f[0] for f in fields):
            raise reader.error(f"public_rows.{key}", "is a record field, not a public array")
        if not isinstance(name, str) or name not in known:
            raise reader.error(f"public_rows.{key}", f"must name the parameter equal to its row count, got {name!r}")
    reader.finish()
    return Records(tuple(fields), changeable, scales, tuple(public_rows.items()), fixed)


def _read_profile(reader: _Reader, known: set) -> Profile:
    kinds = [k for k in PROFILE_KINDS if k in reader.table]
    if len(kinds) != 1:
        raise reader.error("", f"must give exactly one of {', '.join(PROFILE_KINDS)}; got {', '.join(kinds) or 'none'}")
    kind = kinds[0]
    source = reader.text("source", required=True)
    if kind in ("gdp", "zcdp"):
        value = _checked(reader, kind, reader.get(kind, (str, int, float), required=True), known, False)
        reader.finish()
        return Profile(kind, source, value=value)
    raw = reader.get(kind, list, required=True)
    points = []
    for i, point in enumerate(raw):
        if not isinstance(point, list) or len(point) != 2:
            raise reader.error(f"{kind}[{i}]", "must be a pair [" + ("alpha, epsilon" if kind == "renyi" else
                                                                       "epsilon, delta") + "] of formulas")
        points.append(tuple(_checked(reader, f"{kind}[{i}][{j}]", x, known, False) for j, x in enumerate(point)))
    if not points:
        raise reader.error(kind, "must list at least one point")
    reader.finish()
    return Profile(kind, source, points=tuple(points))


class _Reader:
    """Pops keys from one TOML table, checking types, and reports leftovers as unknown keys."""

    def __init__(self, file: str, table: Any, prefix: str):
        self.file, self.prefix = file, prefix
        if not isinstance(table, dict):
            raise SpecError(file, prefix, f"must be a table, got {type(table).__name__}")
        self.table = dict(table)

    def key(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def error(self, name: str, message: str) -> SpecError:
        return SpecError(self.file, self.key(name), message)

    def get(self, name: str, types, required: bool = False, default=None):
        if name not in self.table:
            if required:
                raise self.error(name, "missing required key")
            return default
        value = self.table.pop(name)
        if types is not None and (not isinstance(value, types) or isinstance(value, bool) and bool not in _tuple(types)):
            names = "/".join(t.__name__ for t in _tuple(types))
            raise self.error(name, f"must be {names}, got {type(value).__name__} {str(value)[:80]!r}")
        most = MAX_ENTRIES_OF.get(name, MAX_ENTRIES)
        if isinstance(value, (list, dict)) and len(value) > most:
            raise self.error(name, f"has {len(value):,} entries; a spec has at most {most}")
        return value

    def number(self, name: str) -> int | float | None:
        """An optional finite number that float64 can hold."""
        value = self.get(name, (int, float))
        try:
            finite = value is None or math.isfinite(float(value))
        except OverflowError:
            finite = False
        if not finite:
            raise self.error(name, f"must be a finite number within float64, got {str(value)[:40]}")
        return value

    def text(self, name: str, required: bool = False, default: str = "") -> str:
        value = self.get(name, str, required, default)
        if required and not value.strip():
            raise self.error(name, "must not be empty")
        return value

    def choice(self, name: str, options, required: bool = False, default=None):
        value = self.get(name, str, required, default)
        if value is not None and value not in options:
            raise self.error(name, f"must be one of {', '.join(options)}; got {value!r}")
        return value

    def formula(self, name: str, required: bool = False, condition: bool | None = None) -> Formula | None:
        raw = self.get(name, (str, int, float), required)
        return None if raw is None else self.parse(name, raw, condition)

    def parse(self, name: str, raw, condition: bool | None = None) -> Formula:
        try:
            parsed = parse(raw)
        except FormulaError as exc:
            raise self.error(name, str(exc)) from None
        if condition is True and not parsed.is_condition:
            raise self.error(name, f"must be a condition (a comparison such as 'k >= 1'), got {parsed.source!r}")
        if condition is False and parsed.is_condition:
            raise self.error(name, f"must be a quantity, not a condition: {parsed.source!r}")
        return parsed

    def text_list(self, name: str) -> tuple[str, ...]:
        values = self.get(name, list, default=[])
        for i, v in enumerate(values):
            if not isinstance(v, str):
                raise self.error(f"{name}[{i}]", f"must be a string, got {type(v).__name__}")
        return tuple(values)

    def finish(self) -> None:
        if self.table:
            unknown = ", ".join(sorted(self.table))
            raise SpecError(self.file, self.key(sorted(self.table)[0]), f"unknown key(s): {unknown}")


def _tuple(types):
    return types if isinstance(types, tuple) else (types,)


def build_spec(data: dict, file: str, seeds: dict[str, dict] | None = None) -> Spec:
    """Validate one parsed TOML document and return its :class:`Spec`. ``seeds``: the seed files its
    ``source.seed`` may name, with their paper's number and title (the packaged papers', its folder's and its siblings' ``seeds.json``,
    :func:`.loader.paper_seeds`)."""
    top = _Reader(file, data, "")
    spec_id = top.text("id", required=True)
    if not ID_PATTERN.match(spec_id):
        raise top.error("id", f"must match {ID_PATTERN.pattern} (lower case, digits, '_'); got {spec_id!r}")
    title = top.text("title", required=True)
    summary = top.text("summary")
    implementation = top.get("implementation", str)
    if implementation is not None and (not IMPL_PATTERN.match(implementation)
                                       or implementation.partition(":")[0].endswith(".py")):
        raise top.error("implementation", f"must look like 'package.module:function' (a module path, never a "
                                          f"file: a spec is data; pass a file with --impl); got {implementation!r}")
    variant_of = top.get("variant_of", str)
    broken = top.get("broken", str)
    known_violation = top.get("known_violation", str)

    source = _read_source(_Reader(file, top.get("source", dict, required=True), "source"), seeds or {})
    parameters = _read_parameters(file, top.get("parameters", dict, required=True))
    known = set(parameters)
    constraints = tuple(
        _checked(top, f"constraints[{i}]", raw, known, condition=True)
        for i, raw in enumerate(top.get("constraints", list, default=[]))
    )
    derived = _read_derived(file, top.get("derived", dict, default={}), known)
    known |= set(derived)

    sections = {}
    for name, keys in (("input", ("kind", "description")), ("neighbours", ("relation", "description")),
                       ("output", ("kind", "space", "encoding"))):
        reader = _Reader(file, top.get(name, dict, required=True), name)
        sections[name] = {k: reader.text(k, required=True) for k in keys}
        if name == "neighbours":
            if sections[name]["relation"] not in NEIGHBOUR_RELATIONS:
                raise reader.error("relation", f"must be one of {', '.join(NEIGHBOUR_RELATIONS)}")
            sensitivity = reader.formula("sensitivity")
            if sensitivity is not None:
                _require_known(reader, "sensitivity", sensitivity, known)
                sections[name]["sensitivity"] = sensitivity
            moves = reader.text("moves")
            if moves:
                if not MOVES_PATTERN.fullmatch(moves):
                    raise reader.error("moves", "must be 'all', 'index K', 'field NAME' or 'field NAME index K' "
                                                f"(K a whole number); got {moves!r}")
                sections[name]["moves"] = moves
        if name == "input":
            for key in ("length", "rows"):
                formula = reader.formula(key)
                if formula is not None:
                    _require_known(reader, key, formula, known)
                    sections[name][key] = formula
            domain = reader.text("domain")
            if domain:
                if domain not in INPUT_DOMAINS:
                    raise reader.error("domain", f"must be one of {', '.join(INPUT_DOMAINS)}; got {domain!r}")
                sections[name]["domain"] = domain
            labels = reader.text("labels")
            if labels:
                if labels != "any":
                    raise reader.error("labels", f"must be 'any' (a vote input may hold more labels); got {labels!r}")
                sections[name]["labels"] = labels
            records = reader.get("records", dict)
            if records is not None:
                sections[name]["records"] = _read_records(file, records, known)
        if name == "output" and sections[name]["kind"] not in OUTPUT_KINDS:
            raise reader.error("kind", f"must be one of {', '.join(OUTPUT_KINDS)}; got {sections[name]['kind']!r}")
        reader.finish()

    privacy = None
    if "privacy" in top.table:
        reader = _Reader(file, top.get("privacy", dict), "privacy")
        profile = reader.get("profile", dict)
        privacy = Privacy(
            epsilon=_checked(reader, "epsilon", reader.get("epsilon", (str, int, float), required=True), known, False),
            delta=_checked(reader, "delta", reader.get("delta", (str, int, float), required=True), known, False),
            theorem=reader.text("theorem", required=True),
            notes=reader.text("notes"),
            profile=None if profile is None else _read_profile(_Reader(file, profile, "privacy.profile"), known),
        )
        reader.finish()
        if sections["neighbours"]["relation"] == "none":
            raise SpecError(file, "neighbours.relation", "a spec with a privacy claim needs a neighbouring relation")
        missing = [p.name for p in parameters.values() if p.default is None]
        if missing:
            raise SpecError(file, f"parameters.{missing[0]}.default",
                            "a spec with a privacy claim needs a default (audit point) for every parameter")

    theorems = tuple(
        _read_theorem(_Reader(file, t, f"theorems[{i}]"), known)
        for i, t in enumerate(top.get("theorems", list, required=True))
    )
    if not theorems:
        raise top.error("theorems", "must list at least one theorem")
    seen_refs: set[str] = set()
    for i, t in enumerate(theorems):
        if t.ref in seen_refs:
            raise SpecError(file, f"theorems[{i}].ref", f"duplicate theorem ref {t.ref!r}")
        seen_refs.add(t.ref)
    if privacy is not None and privacy.theorem not in seen_refs:
        raise SpecError(file, "privacy.theorem", f"{privacy.theorem!r} is not the ref of any theorem in this spec")

    obligations = []
    for i, raw in enumerate(top.get("obligations", list, default=[])):
        reader = _Reader(file, raw, f"obligations[{i}]")
        name = reader.text("name", required=True)
        condition = _checked(reader, "condition", reader.get("condition", (str,), required=True), known, True)
        given = reader.formula("given", condition=True)
        if given is not None:
            _require_known(reader, "given", given, known)
        obligations.append(Obligation(name, condition, reader.text("source", required=True), given))
        reader.finish()

    stress = []
    for i, raw in enumerate(top.get("stress_cases", list, default=[])):
        reader = _Reader(file, raw, f"stress_cases[{i}]")
        case = StressCase(
            name=reader.text("name", required=True),
            description=reader.text("description", required=True),
            data=_stress_values(reader, "data", reader.get("data", None, required=True), known),
            neighbour=_stress_values(reader, "neighbour", reader.get("neighbour", None, required=True), known),
            params=reader.get("params", dict, default={}),
            event=reader.text("event"),
        )
        for pname, value in case.params.items():
            if pname not in parameters:
                raise reader.error(f"params.{pname}", "is not a parameter of this spec")
            problem = parameters[pname].violation(value)
            if problem:
                raise reader.error(f"params.{pname}", problem)
        stress.append(case)
        reader.finish()

    audit_points = []
    for i, raw in enumerate(top.get("audit_points", list, default=[])):
        if not isinstance(raw, dict) or not raw:
            raise top.error(f"audit_points[{i}]", "must be a non-empty table of parameter values")
        for pname, value in raw.items():
            if pname not in parameters:
                raise top.error(f"audit_points[{i}].{pname}", "is not a parameter of this spec")
            problem = parameters[pname].violation(value)
            if problem:
                raise top.error(f"audit_points[{i}].{pname}", problem)
        audit_points.append(dict(raw))
    if audit_points and privacy is None:
        raise top.error("audit_points", "only a spec with a [privacy] claim is audited")

    erratum = None
    if "erratum" in top.table:
        reader = _Reader(file, top.get("erratum", dict), "erratum")
        erratum = {k: reader.text(k, required=k in ("id", "description")) for k in ("id", "description", "printed", "corrected")}
        reader.finish()
    if erratum is not None and variant_of is None and not erratum.get("printed"):
        raise SpecError(file, "erratum", "an erratum needs 'variant_of' (the corrected spec) or 'printed' text")
    if broken is not None and variant_of is None:
        raise SpecError(file, "broken", "a broken variant must name the mechanism it breaks in 'variant_of'")
    if (broken is not None or known_violation is not None) and privacy is None:
        raise SpecError(file, "broken" if broken is not None else "known_violation",
                        "only a spec with a [privacy] claim can be expected to violate it")
    top.finish()

    return Spec(
        id=spec_id, title=title, file=str(file), source=source, parameters=parameters, derived=derived,
        input=sections["input"], neighbours=sections["neighbours"], output=sections["output"],
        theorems=theorems, privacy=privacy, summary=summary, implementation=implementation,
        variant_of=variant_of, erratum=erratum, broken=broken, known_violation=known_violation, constraints=constraints,
        obligations=tuple(obligations), stress_cases=tuple(stress), audit_points=tuple(audit_points),
    )


def _read_source(reader: _Reader, seeds: dict[str, dict]) -> dict:
    seed = reader.get("seed", str)
    reference = reader.text("reference")
    if seed is None and not reference:
        raise reader.error("seed", "missing: give the seed file name, or 'reference' for an external source")
    if seed is not None and seed not in seeds:
        raise reader.error("seed", f"must be one of the seed files a seeds.json declares ({', '.join(seeds)}); "
                                   f"got {seed!r}")
    source = {
        "seed": seed,
        **({"paper_number": seeds[seed]["number"], "paper_title": seeds[seed]["title"]} if seed else {}),
        "section": reader.text("section", required=seed is not None),
        "algorithm": reader.text("algorithm"),
        "reference": reference,
        "also": list(reader.text_list("also")),
    }
    reader.finish()
    return source


def _read_parameters(file: str, table: dict) -> dict[str, Parameter]:
    if not table:
        raise SpecError(file, "parameters", "must declare at least one parameter")
    out = {}
    for name, raw in table.items():
        reader = _Reader(file, raw, f"parameters.{name}")
        if not NAME_PATTERN.match(name) or name in CONSTANTS:
            raise reader.error("", f"{name!r} is not a valid parameter name")
        ptype = reader.choice("type", PARAMETER_TYPES, required=True)
        param = Parameter(
            name=name,
            type=ptype,
            description=reader.text("description", required=True),
            min=reader.number("min"),
            max=reader.number("max"),
            min_inclusive=reader.get("min_inclusive", bool, default=True),
            max_inclusive=reader.get("max_inclusive", bool, default=True),
            choices=tuple(reader.get("choices", list, required=ptype == "choice", default=[])),
            default=reader.get("default", None),
            extension=reader.text("extension"),
        )
        if param.extension and param.default is None:
            raise reader.error("extension", "an extension parameter needs the paper's value as its default")
        if param.min is not None and param.max is not None and param.min > param.max:
            raise reader.error("min", f"min {param.min} is above max {param.max}")
        if ptype == "choice" and not param.choices:
            raise reader.error("choices", "a choice parameter needs at least one choice")
        if param.default is not None:
            problem = param.violation(param.default)
            if problem:
                raise reader.error("default", f"default {problem}")
        reader.finish()
        out[name] = param
    return out


def _read_derived(file: str, table: dict, known: set[str]) -> dict[str, Derived]:
    items = {}
    for name, raw in table.items():
        reader = _Reader(file, raw, f"derived.{name}")
        if not NAME_PATTERN.match(name) or name in CONSTANTS:
            raise reader.error("", f"{name!r} is not a valid name")
        if name in known:
            raise reader.error("", f"{name!r} is already a parameter")
        items[name] = Derived(
            name=name,
            formula=reader.formula("formula", required=True, condition=False),
            description=reader.text("description", required=True),
            where=reader.text("where"),
            constant=reader.choice("constant", DERIVED_ORIGINS, default="paper"),
        )
        reader.finish()
    graph = {}
    for name, item in items.items():
        unknown = item.formula.names - known - items.keys()
        if unknown:
            raise SpecError(file, f"derived.{name}.formula",
                            f"unknown name(s) {', '.join(sorted(unknown))} (not a parameter or derived quantity)")
        graph[name] = item.formula.names & items.keys()
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as exc:
        raise SpecError(file, f"derived.{exc.args[1][0]}.formula", f"circular definition: {' -> '.join(exc.args[1])}") from None
    return {name: items[name] for name in order}


def _read_theorem(reader: _Reader, known: set[str]) -> Theorem:
    ref = reader.text("ref", required=True)
    if not REF_PATTERN.match(ref):
        raise reader.error("ref", f"must be numbered as in the paper, e.g. 'Theorem 2.7' or 'Lemma 15'; got {ref!r}")
    quantities_raw = reader.get("quantities", dict, default={})
    quantities: dict[str, Formula] = {}
    scope = set(known) | set(quantities_raw)
    for name, raw in quantities_raw.items():
        if not NAME_PATTERN.match(name):
            raise reader.error(f"quantities.{name}", "is not a valid name")
        quantities[name] = _checked(reader, f"quantities.{name}", raw, scope, condition=None)
    theorem = Theorem(
        ref=ref,
        kind=reader.choice("kind", THEOREM_KINDS, required=True),
        statement=reader.text("statement", required=True),
        constant=reader.choice("constant", CONSTANT_ORIGINS, required=True),
        quantities=quantities,
        preconditions=tuple(
            _checked(reader, f"preconditions[{i}]", raw, scope, condition=True)
            for i, raw in enumerate(reader.get("preconditions", list, default=[]))
        ),
        assumptions=reader.text_list("assumptions"),
        check=reader.text("check"),
        also=reader.text_list("also"),
        notes=reader.text("notes"),
        not_checked=reader.text("not_checked"),
    )
    reader.finish()
    return theorem


def _checked(reader: _Reader, key: str, raw, known: set[str], condition: bool | None) -> Formula:
    if not isinstance(raw, (str, int, float)) or isinstance(raw, bool):
        raise reader.error(key, f"must be a formula string, got {type(raw).__name__}")
    parsed = reader.parse(key, raw, condition)
    _require_known(reader, key, parsed, known)
    return parsed


def _require_known(reader: _Reader, key: str, parsed: Formula, known: set[str]) -> None:
    unknown = parsed.names - known
    if unknown:
        raise reader.error(key, f"unknown name(s) {', '.join(sorted(unknown))} in {parsed.source!r}")


def _stress_values(reader: _Reader, key: str, value, known: set[str]):
    """Stress-case data: numbers, booleans, formula strings (over parameters and derived
    quantities), or nested arrays / tables of those. Strings are parsed, never executed."""
    if isinstance(value, bool) or isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        return _checked(reader, key, value, known, condition=False)
    if isinstance(value, list):
        return [_stress_values(reader, f"{key}[{i}]", v, known) for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {k: _stress_values(reader, f"{key}.{k}", v, known) for k, v in value.items()}
    raise reader.error(key, f"must be numbers, formula strings, or arrays/tables of them; got {type(value).__name__}")


def resolve_stress_values(value, env: dict):
    """Evaluate the formula strings inside stress-case data against ``env``."""
    if isinstance(value, Formula):
        return float(value.evaluate(env))
    if isinstance(value, list):
        return [resolve_stress_values(v, env) for v in value]
    if isinstance(value, dict):
        return {k: resolve_stress_values(v, env) for k, v in value.items()}
    return value
