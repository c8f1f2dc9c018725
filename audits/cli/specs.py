"""``dptestbed specs`` (list the catalogue) and ``dptestbed show ID`` (one spec, its derived
quantities and theorem values evaluated)."""

from __future__ import annotations

import json

import numpy as np

from dptestbed.spec import Spec
from dptestbed.spec.model import source_text

from ..base.serialize import jsonable
from ..base.verdict import EXIT_OK
from ..sandbox.runner import missing_reference
from ..schemas import FORMATS
from .options import EXIT_HELP, UserError, catalogue, get_spec, parse_params


def _profile_json(profile) -> dict | None:
    """A spec's [privacy.profile] as formulas (None without one)."""
    if profile is None:
        return None
    out = {"kind": profile.kind, "source": profile.source}
    if profile.value is not None:
        out[profile.kind] = profile.value.source
    else:
        out["points"] = [[a.source, b.source] for a, b in profile.points]
    return out


def register(subparsers) -> None:
    """Add ``specs`` and ``show`` to the ``dptestbed`` parser."""
    p = subparsers.add_parser("specs", help="list the specs", epilog=EXIT_HELP["specs"])
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (format dptestbed-specs/1, audits/schemas/specs.schema.json)")
    p.add_argument("--paper", nargs="+", action="extend", metavar="NAME", help="only these papers (spec/ folders)")
    p.add_argument("--dir", help="load specs from this folder instead of the packaged catalogue")
    p.set_defaults(func=cmd_specs)

    p = subparsers.add_parser("show", help="show one spec, with derived quantities evaluated", epilog=EXIT_HELP["show"])
    p.add_argument("id")
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="parameter value (repeatable)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (format dptestbed-spec/1, audits/schemas/spec.schema.json)")
    p.add_argument("--dir", help="load specs from this folder")
    p.set_defaults(func=cmd_show)


def spec_summary(spec: Spec) -> dict:
    """The JSON object of ``dptestbed specs --json`` for one spec."""
    return {
        "id": spec.id,
        "title": spec.title,
        "paper": spec.paper,
        "seed": spec.seed,
        "source": spec.source,
        "implementation": spec.implementation,
        "variant_of": spec.variant_of,
        "erratum": spec.erratum,
        "broken": spec.broken,
        "known_violation": spec.known_violation,
        "privacy": None if spec.privacy is None else {
            "epsilon": spec.privacy.epsilon.source,
            "delta": spec.privacy.delta.source,
            "theorem": spec.privacy.theorem,
            "neighbours": spec.neighbours["relation"],
            "profile": _profile_json(spec.privacy.profile),
        },
        "neighbours": jsonable(spec.neighbours),
        "theorems": [
            {"ref": t.ref, "kind": t.kind, "statement": t.statement, "constant": t.constant,
             "quantities": {k: f.source for k, f in t.quantities.items()},
             "preconditions": [f.source for f in t.preconditions]}
            for t in spec.theorems
        ],
    }


def cmd_specs(args) -> int:
    cat = catalogue(args)
    papers = args.paper or cat.papers
    unknown = [p for p in papers if p not in cat.papers]
    if unknown:
        raise UserError(f"unknown paper {unknown[0]!r}; papers: {', '.join(cat.papers)}")
    specs = [s for s in cat.values() if s.paper in papers]
    if args.json:
        print(json.dumps({"format": FORMATS["specs"], "specs": [spec_summary(s) for s in specs]}, indent=2))
        return EXIT_OK
    width = max((len(s.id) for s in specs), default=2)
    spec_only = 0
    for paper in papers:
        group = [s for s in specs if s.paper == paper]
        print(f"{paper or '(no paper folder)'}: {len(group)} specs")
        for spec in group:
            seed = (spec.seed or "external")[:3]
            tag = f" [variant of {spec.variant_of}]" if spec.variant_of else ""
            if missing_reference(spec.implementation):
                tag += " [spec only: no reference implementation yet]"
                spec_only += 1
            print(f"  {spec.id:<{width}}  {seed:<8}  {len(spec.theorems):>2} thm  {spec.title}{tag}")
    print(f"{len(specs)} specs, {sum(len(s.theorems) for s in specs)} theorems")
    if spec_only:
        print("(spec only: check your own implementation of it with 'dptestbed check ID --impl file.py:function')")
    return EXIT_OK


def cmd_show(args) -> int:
    spec = get_spec(args)
    try:
        env = spec.bind(parse_params(args.param, spec))
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        out = {"format": FORMATS["spec"], **spec_summary(spec)}
        out["parameters"] = {n: {"value": env.get(n), "domain": p.domain_text(), "description": p.description}
                             for n, p in spec.parameters.items()}
        out["derived"] = {n: {"formula": d.formula.source, "latex": d.formula.latex(), "value": env.get(n),
                              "constant": d.constant, "description": d.description}
                          for n, d in spec.derived.items()}
        out["theorem_values"] = _theorem_values(spec, env)
        print(json.dumps(jsonable(out), indent=2))
        return EXIT_OK
    print(f"{spec.id}: {spec.title}")
    print(f"  source: {source_text(spec.source)}")
    if spec.variant_of:
        print(f"  variant of {spec.variant_of}" + (f" (erratum {spec.erratum['id']})" if spec.erratum else ""))
    if spec.broken:
        print(f"  deliberately broken: {spec.broken}")
    if spec.known_violation:
        print(f"  known not to keep its claim: {spec.known_violation}")
    print("  parameters:")
    for name, p in spec.parameters.items():
        print(f"    {name} = {_fmt(env.get(name))}    [{p.domain_text()}] {p.description}")
    if spec.derived:
        print("  derived:")
        for name, d in spec.derived.items():
            print(f"    {_equation(name, d.formula.source, env.get(name))}    ({d.constant}) {d.description}")
    print(f"  input: {spec.input['description']}")
    print(f"  neighbours: {spec.neighbours['relation']}: {spec.neighbours['description']}")
    print(f"  output: {spec.output['space']} ({spec.output['encoding']})")
    if spec.privacy:
        claim = spec.privacy
        print(f"  privacy ({claim.theorem}): {_equation('epsilon', claim.epsilon.source, _value(claim.epsilon, env))}, "
              f"{_equation('delta', claim.delta.source, _value(claim.delta, env))}")
        profile = claim.profile
        if profile is not None:
            if profile.value is not None:
                stated = f"{profile.kind} = {profile.value.source} = {_fmt(_value(profile.value, env))}"
            else:
                stated = f"{profile.kind} at " + ", ".join(
                    f"({_fmt(_value(a, env))}, {_fmt(_value(b, env))})" for a, b in profile.points)
            print(f"  audited as a curve: {stated} ({profile.source})")
    print("  theorems:")
    values = _theorem_values(spec, env)
    for t in spec.theorems:
        print(f"    {t.ref} [{t.kind}; constant: {t.constant}] {t.statement}")
        for name, v in values[t.ref].items():
            print(f"        {_equation(name, t.quantities[name].source, v)}")
    return EXIT_OK


def _theorem_values(spec: Spec, env: dict) -> dict:
    """Per theorem, its quantities at ``env`` (None where not computable)."""
    out = {}
    for t in spec.theorems:
        scope = spec.theorem_values(t.ref, env)
        out[t.ref] = {name: scope.get(name) for name in t.quantities}
    return out


def _equation(name: str, formula: str, value) -> str:
    """``name = formula = value``, without the formula when it is the name itself or its value
    (``epsilon = 1``, not ``epsilon = epsilon = 1``)."""
    shown = _fmt(value)
    return f"{name} = {shown}" if formula.strip() in (name, shown) else f"{name} = {formula} = {shown}"


def _value(formula, env):
    return formula.evaluate(env) if formula.names <= env.keys() else None


def _fmt(value) -> str:
    if value is None:
        return "?"
    if isinstance(value, (float, np.floating, np.ndarray)) and np.ndim(value) == 0:
        v = float(value)
        return f"{v:.6g}"
    return str(value)
