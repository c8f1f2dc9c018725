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

import numpy as np

from dptestbed.spec import Spec
from dptestbed.spec.model import NEIGHBOUR_RELATIONS
from dptestbed.spec.schema import build_spec

from .neighbours import violation
from .privacy import AuditResult, audit

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


def adhoc_spec(*, epsilon: float, delta: float = 0.0, relation: str, sensitivity: float = 1.0, pairs,
               input_kind: str = "vector", params: dict | None = None, name: str = "mechanism") -> Spec:
    """The spec of an ad-hoc claim: ``epsilon``, ``delta`` under ``relation`` with ``sensitivity``,
    audited on ``pairs`` (``[(D, D'), ...]``, numbers or nested lists of numbers). ``params``: the
    mechanism's own keyword arguments (numbers), passed to every call. Raises ValueError (one line,
    naming the argument) for a bad claim, relation, input kind or pair, and for a pair that is not a neighbouring
    pair under the relation (:func:`.neighbours.violation`: an L1 move beyond the sensitivity, a non-finite
    entry, two records replaced...)."""
    if relation not in NEIGHBOUR_RELATIONS or relation == "none":
        raise ValueError(f"relation {relation!r}: choose one of {', '.join(r for r in NEIGHBOUR_RELATIONS if r != 'none')}")
    if input_kind not in INPUT_KINDS:
        raise ValueError(f"input kind {input_kind!r}: choose one of {', '.join(INPUT_KINDS)}")
    pairs = list(pairs)
    if not pairs:
        raise ValueError("pairs: give at least one neighbouring pair (D, D')")
    extra = dict(params or {})
    clash = sorted(set(extra) & {"epsilon", "delta", "sensitivity"})
    if clash:
        raise ValueError(f"params: {clash[0]!r} is the claim's own parameter; give it as a claim argument")
    if not (float(epsilon) > 0 and 0 <= float(delta) < 1 and float(sensitivity) > 0):
        raise ValueError(f"the claim needs epsilon > 0, 0 <= delta < 1 and sensitivity > 0; got epsilon = {epsilon}, "
                         f"delta = {delta}, sensitivity = {sensitivity}")
    # every parameter's domain is its one value: the claim is stated at that point, and the audit's search does not
    # move it to others (moves.parameter_points), where the user claimed nothing
    parameters = {
        "epsilon": {"type": "real", "min": float(epsilon), "max": float(epsilon), "default": float(epsilon),
                    "description": "the claimed epsilon"},
        "delta": {"type": "real", "min": float(delta), "max": float(delta), "default": float(delta),
                  "description": "the claimed delta"},
        "sensitivity": {"type": "real", "min": float(sensitivity), "max": float(sensitivity),
                        "default": float(sensitivity), "description": "how far a neighbour may move, in the relation's norm"},
    }
    for key, value in extra.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"params: {key!r} must be a number, got {type(value).__name__}")
        parameters[key] = {"type": "integer" if isinstance(value, int) else "real", "default": value,
                           "min": value, "max": value, "description": "a keyword argument of the mechanism"}
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
        "privacy": {"epsilon": "epsilon", "delta": "delta", "theorem": "Claim 1"},
        "theorems": [{"ref": "Claim 1", "kind": "privacy", "constant": "user",
                      "statement": f"{name} is (epsilon, delta)-differentially private under {relation}"}],
        "stress_cases": stress,
    }
    spec = build_spec(document, f"<ad-hoc claim of {name}>")
    env = spec.bind({})
    for k, pair in enumerate(pairs):
        problem = violation(spec, *(_as_array(side) for side in pair), env)
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


def audit_mechanism(mechanism, *, epsilon: float, delta: float = 0.0, relation: str, pairs,
                    sensitivity: float = 1.0, input_kind: str = "vector", params: dict | None = None,
                    **options) -> AuditResult:
    """Audit ``mechanism`` (a callable meeting the contract ``fn(data, *, rng, **params)``, or a
    reference string ``path/to/file.py:function``) against an ad-hoc claim (:func:`adhoc_spec`);
    ``options`` are those of :func:`.privacy.audit` (``samples``, ``seed``, ``confidence``, ...)."""
    name = mechanism if isinstance(mechanism, str) else getattr(mechanism, "__qualname__", "mechanism")
    spec = adhoc_spec(epsilon=epsilon, delta=delta, relation=relation, sensitivity=sensitivity, pairs=pairs,
                      input_kind=input_kind, params=params, name=str(name))
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
