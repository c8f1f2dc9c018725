"""Audits without a spec file: a claim, a neighbouring relation and pairs, stated in code or on the
command line (``dptestbed audit --mechanism REF --epsilon 1 --relation vector_l1 --pair D D'``).

:func:`adhoc_spec` builds the spec such a claim amounts to as the same validated data a TOML file
would give (:func:`dptestbed.spec.schema.build_spec`; nothing is executed), so that the audit, its
pair generators and input-space search, its statistics and its report are those of every spec:
parameters ``epsilon``, ``delta``, ``sensitivity`` (and the mechanism's own keyword arguments,
``params``), the privacy claim (epsilon, delta), the relation with that sensitivity, the pairs as
stress cases. :func:`audit_mechanism` audits a callable or a reference string against it.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from dptestbed.spec import Spec
from dptestbed.spec.model import NEIGHBOUR_RELATIONS
from dptestbed.spec.schema import build_spec

from .privacy import AuditResult, audit
from .privacy.claims import Claim, implied_point, make_claim
from .privacy.neighbours import violation

ADHOC_ID = "adhoc"
INPUT_KINDS = {  # input kind -> what the pair generators and the search know of it
    "vector": "a vector of reals (the vector relations generate more pairs from each given pair)",
    "query_answers": "a vector of query answers (StatDP's patterns generate more pairs)",
    "votes": "vote counts (one vote moved)",
    "dataset": "an array of real records (the input-space search generates more pairs)",
    "bit": "one bit",
    "value": "anything else: only the given pairs are audited",
}
RECORDS = {"dataset": {"fields": {".": "real"}}}  # the records of an input kind, for the input-space search


CLAIM_PARAMETERS = {"dp": ("epsilon", "delta"), "gdp": ("mu",), "zcdp": ("rho",), "renyi": (), "curve": ()}


def adhoc_claim(*, epsilon: float | None = None, delta: float = 0.0, gdp: float | None = None,
                zcdp: float | None = None, renyi=None, curve=None) -> Claim:
    """The claim of exactly one of: ``epsilon`` (with ``delta``), ``gdp`` (mu), ``zcdp`` (rho), ``renyi``
    (``[(alpha, epsilon), ...]``), ``curve`` (``[(epsilon, delta), ...]``). ValueError (one line) otherwise."""
    given: dict[str, Any] = {k: v for k, v in (("epsilon", epsilon), ("gdp", gdp), ("zcdp", zcdp), ("renyi", renyi), ("curve", curve))
             if v is not None}
    if len(given) != 1:
        raise ValueError("state one claim: epsilon (and delta), gdp, zcdp, renyi or curve; got "
                         + (", ".join(given) or "none"))
    (kind, value), = given.items()
    if kind != "epsilon" and delta:
        raise ValueError("delta goes with epsilon: a gdp, zcdp, renyi or curve claim is a whole curve")
    if kind in ("renyi", "curve"):
        try:
            points = [(float(a), float(b)) for a, b in value]
        except (TypeError, ValueError):
            raise ValueError(f"{kind}: must be a list of pairs of numbers, got {value!r}") from None
        return make_claim(kind, points=points)
    return make_claim("dp" if kind == "epsilon" else kind, value=float(value), delta=float(delta))


def adhoc_spec(*, relation: str, sensitivity: float = 1.0, pairs, input_kind: str = "vector",
               params: dict | None = None, name: str = "mechanism", **claim) -> Spec:
    """The spec of an ad-hoc claim (``claim``: the arguments of :func:`adhoc_claim`, e.g. ``epsilon=1`` or
    ``gdp=1``) under ``relation`` with ``sensitivity``, audited on ``pairs`` (``[(D, D'), ...]``, numbers or
    nested lists of numbers). ``params``: the mechanism's own keyword arguments (numbers), passed to every
    call, as are the claim's own parameters (``epsilon``, ``delta``; ``mu``; ``rho``). Raises ValueError (one
    line, naming the argument) for a bad claim, relation, input kind or pair, and for a pair that is not a
    neighbouring pair under the relation (:func:`.privacy.neighbours.violation`: an L1 move beyond the sensitivity, a
    non-finite entry, two records replaced...)."""
    stated = adhoc_claim(**claim)
    if relation not in NEIGHBOUR_RELATIONS or relation == "none":
        raise ValueError(f"relation {relation!r}: choose one of {', '.join(r for r in NEIGHBOUR_RELATIONS if r != 'none')}")
    if input_kind not in INPUT_KINDS:
        raise ValueError(f"input kind {input_kind!r}: choose one of {', '.join(INPUT_KINDS)}")
    pairs = list(pairs)
    if not pairs:
        raise ValueError("pairs: give at least one neighbouring pair (D, D')")
    extra = dict(params or {})
    own = set(CLAIM_PARAMETERS[stated.kind]) | {"sensitivity"}
    clash = sorted(set(extra) & own)
    if clash:
        raise ValueError(f"params: {clash[0]!r} is the claim's own parameter; give it as a claim argument")
    if not float(sensitivity) > 0:
        raise ValueError(f"the claim needs sensitivity > 0; got sensitivity = {sensitivity}")
    # every parameter's domain is its one value: the claim is stated at that point, and the audit's search does not
    # move it to others (moves.parameter_points), where the user claimed nothing
    values = {"sensitivity": float(sensitivity), **dict(zip(CLAIM_PARAMETERS[stated.kind],
                                                            (stated.value, stated.delta)))}
    parameters = {key: {"type": "real", "min": value, "max": value, "default": value,
                        "description": {"sensitivity": "how far a neighbour may move, in the relation's norm"}.get(
                            key, f"the claimed {key}")}
                  for key, value in values.items()}
    for key, value in extra.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"params: {key!r} must be a number, got {type(value).__name__}")
        parameters[key] = {"type": "integer" if isinstance(value, int) else "real", "default": value,
                           "min": value, "max": value, "description": "a keyword argument of the mechanism"}
    eps, delta = implied_point(stated)
    privacy: dict[str, Any] = {"epsilon": "epsilon" if stated.kind == "dp" else repr(eps),
               "delta": "delta" if stated.kind == "dp" else repr(delta), "theorem": "Claim 1"}
    if stated.kind in ("gdp", "zcdp"):
        privacy["profile"] = {stated.kind: "mu" if stated.kind == "gdp" else "rho", "source": "stated by the user"}
    elif stated.kind != "dp":
        privacy["profile"] = {stated.kind: [[repr(a), repr(b)] for a, b in stated.points], "source": "stated by the user"}
    stress = []
    for k, pair in enumerate(pairs):
        try:
            data, neighbour = pair
        except (TypeError, ValueError):
            raise ValueError(f"pairs[{k}]: must be a pair (D, D'), got {pair!r}") from None
        stress.append({"name": f"pair_{k + 1}", "description": f"neighbouring pair {k + 1}, given with the claim",
                       "data": _plain(data, f"pairs[{k}][0]"), "neighbour": _plain(neighbour, f"pairs[{k}][1]")})
    document = {
        "id": ADHOC_ID, "title": f"ad-hoc privacy claim of {name}",
        "source": {"reference": "a claim stated by the user (no spec file)"},
        "parameters": parameters,
        "input": {"kind": input_kind, "description": INPUT_KINDS[input_kind],
                  **({"records": RECORDS[input_kind]} if input_kind in RECORDS else {})},
        "neighbours": {"relation": relation, "description": NEIGHBOUR_RELATIONS[relation], "sensitivity": "sensitivity"},
        "output": {"kind": "structure", "space": "what the mechanism returns", "encoding": "what the mechanism returns"},
        "privacy": privacy,
        "theorems": [{"ref": "Claim 1", "kind": "privacy", "constant": "user",
                      "statement": f"{name} is {stated.describe()} under {relation}"}],
        "stress_cases": stress,
    }
    spec = build_spec(document, f"<ad-hoc claim of {name}>")
    env = spec.bind({})
    for k, pair in enumerate(pairs):
        problem = violation(spec, _as_array(pair[0]), _as_array(pair[1]), env)
        if problem:
            raise ValueError(f"pairs[{k}]: not a neighbouring pair under {relation} with sensitivity {sensitivity:g}: "
                             f"{problem}")
    return spec


def _as_array(value):
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return value
    return arr if arr.ndim else float(arr)


def audit_mechanism(mechanism, *, relation: str, pairs, epsilon: float | None = None, delta: float = 0.0,
                    gdp: float | None = None, zcdp: float | None = None, renyi=None, curve=None,
                    sensitivity: float = 1.0, input_kind: str = "vector", params: dict | None = None,
                    **options) -> AuditResult:
    """Audit ``mechanism`` (a callable meeting the contract ``fn(data, *, rng, **params)``, or a
    reference string ``path/to/file.py:function``) against an ad-hoc claim (:func:`adhoc_spec`: one of
    ``epsilon``/``delta``, ``gdp``, ``zcdp``, ``renyi``, ``curve``); ``options`` are those of
    :func:`.privacy.audit` (``samples``, ``seed``, ``confidence``, ...)."""
    name = mechanism if isinstance(mechanism, str) else getattr(mechanism, "__qualname__", "mechanism")
    spec = adhoc_spec(epsilon=epsilon, delta=delta, gdp=gdp, zcdp=zcdp, renyi=renyi, curve=curve, relation=relation,
                      sensitivity=sensitivity, pairs=pairs, input_kind=input_kind, params=params, name=str(name))
    return audit(spec, implementation=mechanism, **options)


def _plain(value, where: str):
    """A pair's side as TOML-like data: a number or nested lists of numbers (no formulas: a string
    would be parsed as one, so none is accepted)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float):
        return value
    if hasattr(value, "tolist"):
        return _plain(value.tolist(), where)
    if isinstance(value, list | tuple):
        return [_plain(v, f"{where}[{i}]") for i, v in enumerate(value)]
    shown = re.sub(r"\s+", " ", repr(value))[:60]
    raise ValueError(f"{where}: must be a number or a (nested) list of numbers, got {type(value).__name__} {shown}")
