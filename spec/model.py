"""The spec data model: the frozen objects a spec file becomes (:class:`Spec` and its parts) and the
vocabulary their fields take. :mod:`.schema` builds them from TOML and is the one place that validates."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .formula import Formula

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
def source_text(source: dict) -> str:
    """Where a spec's algorithm is printed, for a reader: the paper's title and number (a seed file),
    else the citation, then the section and the algorithm; e.g. ``Model-Agnostic Private Learning via
    Stability (paper 000), section 2 (Preliminaries), Lemma 2.6``."""
    number = source.get("paper_number")
    where = [f"{source.get('paper_title')} (paper {number})" if number else source.get("reference") or source.get("seed") or ""]
    if source.get("section"):
        where.append(f"section {source['section']}")
    where.append(source.get("algorithm") or "")
    return ", ".join(w for w in where if w)


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
    extension: str = ""  # why values other than the default go beyond the paper (the testbed's own extension)

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
    not_checked: str = ""  # why no experiment can check it ("analytic: ...", "not measurable: ...", ...)


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
    profile: Profile | None = None  # the curve the audit tests instead of the (epsilon, delta) point


PROFILE_KINDS = {  # [privacy.profile]: a privacy claim as a curve (audits/privacy/claims.py)
    "gdp": "mu-Gaussian differential privacy (Dong, Roth and Su 2022): a formula for mu",
    "zcdp": "rho-zero-concentrated differential privacy (Bun and Steinke 2016): a formula for rho",
    "renyi": "Renyi differential privacy (Mironov 2017) at several orders: a list of [alpha, epsilon] formulas",
    "curve": "(epsilon, delta)-DP at several points, a privacy profile: a list of [epsilon, delta] formulas",
}


@dataclass(frozen=True)
class Profile:
    """``[privacy.profile]``: the spec's privacy claim as a curve, one kind (:data:`PROFILE_KINDS`): ``value``
    the formula of mu or rho, or ``points`` the formula pairs of a Renyi or (epsilon, delta) list; ``source``
    the theorem it rests on. The (epsilon, delta) of ``[privacy]`` is then the point the paper states, which
    the profile implies (an obligation checks it); the audit tests the whole curve."""

    kind: str
    source: str
    value: Formula | None = None
    points: tuple[tuple[Formula, Formula], ...] = ()


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


INPUT_DOMAINS = {  # [input] domain: the values of the entries the neighbouring relation moves
    "real": "any real number (the default)",
    "integer": "whole numbers (a float of integral value is accepted)",
    "nonnegative": "reals >= 0",
    "nonnegative integer": "whole numbers >= 0",
    "unit interval": "reals in [0, 1]",
}
# [neighbours] moves: which entries of the input the relation moves (the rest is fixed on both sides)
MOVES_PATTERN = re.compile(r"all|(?:field [A-Za-z_][A-Za-z0-9_]*)?(?: ?index \d+)?")

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
    neighbouring pairs (audits/privacy/pairs.py). ``fields`` maps each key of the input (a dict) that holds
    one entry per record to its domain (:data:`RECORD_DOMAINS`; the key ``"."`` when the input is
    itself the array of records); every other key is public and identical on both sides.
    ``changeable``: a field of 0/1 flags, only records flagged 1 may change (and the flag never
    does). ``scales``: parameters equal to the number of records (``n``): the search may
    replicate the changeable records and set these to the new count. ``fixed``: parameters equal to the
    number of records that may not change (``n_pub``: those flagged 0): a value the user sets keeps the
    stress datasets that hold that many. ``public_rows``: public arrays of
    candidate rows (rows may repeat), each with the parameter equal to its row count: the search may widen
    them by repeating rows (identical on both sides) and set that parameter."""

    fields: tuple[tuple[str, str, Formula | None], ...]  # (key, domain, bound formula for norm<=)
    changeable: str | None = None
    scales: tuple[str, ...] = ()
    public_rows: tuple[tuple[str, str], ...] = ()  # (public key, parameter equal to its row count)
    fixed: tuple[str, ...] = ()
