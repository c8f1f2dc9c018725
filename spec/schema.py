"""The spec data model and its validation.

A spec file (TOML) is turned into a frozen :class:`Spec` by :func:`build_spec`, which
checks every key and raises :class:`SpecError` naming the file, the key and what is
wrong. The accepted keys are documented in ``spec/README.md``; this module is the
single place that enforces them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from graphlib import CycleError, TopologicalSorter
from typing import Any

import numpy as np

from .formula import CONSTANTS, Formula, FormulaError, parse

SEED_FILES = {
    "000_3293018fb47a99ee.txt": "000",
    "001_6ec4a1fa037037bf.txt": "001",
    "002_d5eb9f32f0c0d0b4.txt": "002",
    "003_ec992fd227b58c98.txt": "003",
    "004_f7be43c317f79e24.txt": "004",
}
THEOREM_KINDS = ("privacy", "utility", "sample-complexity", "structural")
CONSTANT_ORIGINS = ("paper", "proof", "asymptotic", "user")
DERIVED_ORIGINS = ("paper", "proof", "testbed")
PARAMETER_TYPES = ("real", "integer", "choice")
OUTPUT_KINDS = ("real", "real_vector", "discrete", "sequence", "hypothesis", "structure")
NEIGHBOUR_RELATIONS = {
    "add_remove": "D and D' differ by adding or removing one record",
    "replace_one": "D and D' differ in one record, replaced",
    "replace_one_private": "one private record replaced; public records are fixed",
    "replace_one_label": "one record's label changed; features fixed (label privacy)",
    "query_answers": "every query answer moves by at most the sensitivity (one record's effect)",
    "votes_one_move": "one voter (chunk) changes its vote: one count -1, another +1",
    "scores_one_move": "one chunk's score changes arbitrarily within [0, 1]",
    "histogram_one_move": "one record moves between histogram bins",
    "vector_l1": "the input vector moves by at most the sensitivity in L1 norm",
    "vector_l2": "the input vector moves by at most the sensitivity in L2 norm",
    "none": "no privacy claim (structural object)",
}
ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")
NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
REF_PATTERN = re.compile(
    r"^(Theorem|Lemma|Corollary|Claim|Proposition|Observation|Fact|Remark|Definition|Section)"
    r" [A-Za-z0-9.\-]+( \(.+\))?$"
)
IMPL_PATTERN = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")


class SpecError(ValueError):
    """A spec that breaks the schema. ``str()`` is one line: file, key, what is wrong."""

    def __init__(self, file: str, key: str, message: str):
        self.file, self.key, self.message = str(file), key, message
        super().__init__(f"{self.file}: {key or '<top level>'}: {message}")


@dataclass(frozen=True)
class Parameter:
    name: str
    type: str
    description: str
    min: float | None = None
    max: float | None = None
    min_inclusive: bool = True
    max_inclusive: bool = True
    choices: tuple = ()
    default: Any = None

    def domain_text(self) -> str:
        if self.type == "choice":
            return "one of " + ", ".join(map(str, self.choices))
        lo = "" if self.min is None else f"{self.min:g} {'<=' if self.min_inclusive else '<'} "
        hi = "" if self.max is None else f" {'<=' if self.max_inclusive else '<'} {self.max:g}"
        return f"{lo}{self.name}{hi}" + (" (integer)" if self.type == "integer" else "")

    def violation(self, value) -> str | None:
        """Why ``value`` is outside the domain, or None when it is inside."""
        if self.type == "choice":
            return None if value in self.choices else f"must be {self.domain_text()}"
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            return f"must be a number, got {str(value)[:40]!r}"
        try:
            finite = math.isfinite(float(value))
        except OverflowError:  # an integer beyond float64
            finite = False
        if not finite:
            return "must be finite (and within float64)"
        if self.type == "integer" and float(value) != int(value):
            return f"must be an integer, got {value!r}"
        too_low = self.min is not None and (value < self.min or (value == self.min and not self.min_inclusive))
        too_high = self.max is not None and (value > self.max or (value == self.max and not self.max_inclusive))
        return f"must satisfy {self.domain_text()}, got {value!r}" if too_low or too_high else None


@dataclass(frozen=True)
class Derived:
    name: str
    formula: Formula
    description: str
    where: str = ""
    constant: str = "paper"


@dataclass(frozen=True)
class Theorem:
    ref: str
    kind: str
    statement: str
    constant: str
    quantities: dict[str, Formula] = field(default_factory=dict)
    preconditions: tuple[Formula, ...] = ()
    assumptions: tuple[str, ...] = ()
    check: str = ""
    also: tuple[str, ...] = ()
    notes: str = ""


@dataclass(frozen=True)
class Obligation:
    name: str
    condition: Formula
    source: str
    given: Formula | None = None


@dataclass(frozen=True)
class StressCase:
    name: str
    description: str
    data: Any
    neighbour: Any
    params: dict = field(default_factory=dict)
    event: str = ""


@dataclass(frozen=True)
class Privacy:
    epsilon: Formula
    delta: Formula
    theorem: str
    notes: str = ""


@dataclass(frozen=True)
class Spec:
    id: str
    title: str
    file: str
    source: dict
    parameters: dict[str, Parameter]
    derived: dict[str, Derived]  # in evaluation (topological) order
    input: dict
    neighbours: dict
    output: dict
    theorems: tuple[Theorem, ...]
    privacy: Privacy | None = None
    summary: str = ""
    implementation: str | None = None
    variant_of: str | None = None
    erratum: dict | None = None
    broken: str | None = None
    known_violation: str | None = None
    constraints: tuple[Formula, ...] = ()
    obligations: tuple[Obligation, ...] = ()
    stress_cases: tuple[StressCase, ...] = ()
    paper: str = ""  # the catalogue folder the spec is in ("" for a spec file given on its own)
    # further parameter points the privacy audit visits beside the defaults (where units matter)
    audit_points: tuple[dict, ...] = ()

    @property
    def expected_privacy_verdict(self) -> str | None:
        """"violation" for a deliberately broken control or a published mechanism whose claim is
        known to fail; None when the audit has no presumed outcome."""
        return "violation" if (self.broken or self.known_violation) else None

    @property
    def seed(self) -> str | None:
        return self.source.get("seed")

    def defaults(self) -> dict:
        return {p.name: p.default for p in self.parameters.values() if p.default is not None}

    def bind(self, values: dict | None = None, *, use_defaults: bool = True) -> dict:
        """Check ``values`` against the domains and return them with every derived quantity
        that can be computed. Raises ValueError naming the parameter at fault."""
        env = dict(self.defaults()) if use_defaults else {}
        for name, value in (values or {}).items():
            if name not in self.parameters:
                raise ValueError(f"{self.id}: unknown parameter {name!r}; parameters: {', '.join(self.parameters)}")
            env[name] = value
        for name, value in env.items():
            problem = self.parameters[name].violation(value)
            if problem:
                raise ValueError(f"{self.id}: parameter {name} {problem}")
        for condition in self.constraints:
            if condition.names <= env.keys() and not bool(np.all(condition.evaluate(env))):
                raise ValueError(f"{self.id}: parameters violate the constraint {condition.source}")
        for name, quantity in self.derived.items():
            if quantity.formula.names <= env.keys():
                env[name] = quantity.formula.evaluate(env)
        return env

    def theorem_values(self, ref: str, env: dict) -> dict:
        """``env`` (from :meth:`bind`) extended with the quantities of theorem ``ref`` that can be
        computed (they may refer to each other, in any order)."""
        theorem = next(t for t in self.theorems if t.ref == ref)
        scope = dict(env)
        for _ in range(len(theorem.quantities)):
            for name, formula in theorem.quantities.items():
                if name not in scope and formula.names <= scope.keys():
                    scope[name] = formula.evaluate(scope)
        return scope


# --------------------------------------------------------------------------- building


RECORD_DOMAINS = {
    "real": "any real number (each column of a 2-D field)",
    "binary": "0 or 1",
    "sign": "-1 or +1",
    "item": "an integer id (new ids allowed)",
    "index<KEY>": "an integer in [0, number of columns of the public array KEY)",
    "norm<=FORMULA": "a real row vector of L2 norm at most FORMULA",
}


@dataclass(frozen=True)
class Records:
    """``[input.records]``: the private records of a dataset-form input, for the auditor's search of
    neighbouring pairs (audits/pairs.py). ``fields`` maps each key of the input (a dict) that holds
    one entry per record to its domain (:data:`RECORD_DOMAINS`; the key ``"."`` when the input is
    itself the array of records); every other key is public and identical on both sides.
    ``changeable``: a field of 0/1 flags, only records flagged 1 may change (and the flag never
    does). ``scales``: parameters equal to the number of records (``n``): the search may
    replicate the changeable records and set these to the new count."""

    fields: tuple[tuple[str, str, Formula | None], ...]  # (key, domain, bound formula for norm<=)
    changeable: str | None = None
    scales: tuple[str, ...] = ()


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
    scales = reader.text_list("scales")
    for name in scales:
        if name not in known:
            raise reader.error("scales", f"{name!r} is not a parameter")
    reader.finish()
    return Records(tuple(fields), changeable, scales)


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
            raise self.error(name, f"must be {names}, got {type(value).__name__} {value!r}")
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


def build_spec(data: dict, file: str) -> Spec:
    """Validate one parsed TOML document and return its :class:`Spec`."""
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

    source = _read_source(_Reader(file, top.get("source", dict, required=True), "source"))
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
        if name == "input":
            length = reader.formula("length")
            if length is not None:
                _require_known(reader, "length", length, known)
                sections[name]["length"] = length
            records = reader.get("records", dict)
            if records is not None:
                sections[name]["records"] = _read_records(file, records, known)
        if name == "output" and sections[name]["kind"] not in OUTPUT_KINDS:
            raise reader.error("kind", f"must be one of {', '.join(OUTPUT_KINDS)}; got {sections[name]['kind']!r}")
        reader.finish()

    privacy = None
    if "privacy" in top.table:
        reader = _Reader(file, top.get("privacy", dict), "privacy")
        privacy = Privacy(
            epsilon=_checked(reader, "epsilon", reader.get("epsilon", (str, int, float), required=True), known, False),
            delta=_checked(reader, "delta", reader.get("delta", (str, int, float), required=True), known, False),
            theorem=reader.text("theorem", required=True),
            notes=reader.text("notes"),
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


def _read_source(reader: _Reader) -> dict:
    seed = reader.get("seed", str)
    reference = reader.text("reference")
    if seed is None and not reference:
        raise reader.error("seed", "missing: give the seed file name, or 'reference' for an external source")
    if seed is not None and seed not in SEED_FILES:
        raise reader.error("seed", f"must be one of the seed files {', '.join(SEED_FILES)}; got {seed!r}")
    source = {
        "seed": seed,
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
        )
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
