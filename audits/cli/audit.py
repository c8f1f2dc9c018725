"""``dptestbed audit ID``: audit an implementation against a spec's privacy claim.

Exit codes (:mod:`..base.verdict`): 0 pass; 1 claim violated (with a counterexample); 2 bad usage
(unknown spec, bad parameter, spec without a privacy claim); 3 differs from the spec; 4 no power;
5 implementation error (it raised, returned a wrong type, NaN, or hung past ``--timeout``); 130
interrupted. ``--json`` prints one JSON object
(:meth:`dptestbed.audits.privacy.AuditResult.to_json`: ``format: dptestbed-audit/1``, the ``class``;
schema ``audits/schemas/audit.schema.json``); anything a user implementation
prints goes to stderr, so the JSON stays parseable. ``--executor dask`` / ``--scheduler ADDRESS``
spreads the audit's estimation batches over a Dask cluster (:class:`..run.dask_executor.DaskBatches`):
the same result, faster for large ``--samples``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import math
import re
import sys
import threading

from ..base import sanitize
from ..base.verdict import (
    AUDIT_NO_VIOLATION,
    AUDIT_VIOLATION,
    CLAIM_VIOLATED,
    IMPLEMENTATION_ERROR,
    NO_POWER,
    PASS,
    class_exit_code,
)
from ..privacy.result import at_decision
from ..report.model import power_remedy
from ..sandbox.proctree import PASSING
from .options import (
    EXIT_HELP,
    UserError,
    allow_option,
    allowed,
    executor_args,
    executor_of,
    get_spec,
    implementation,
    isolation_arg,
    jobs_of,
    parse_params,
    positive_float,
    randomness_arg,
    seed_value,
    wants_dask,
)

DEADLINE = 1800.0  # seconds: the full suite's time limit of one audit
MAX_PAIR_DEPTH = 8  # lists inside lists of an ad-hoc --pair


def register(subparsers) -> None:
    """Add the ``audit`` subcommand to the ``dptestbed`` parser."""
    p = subparsers.add_parser(
        "audit", help="audit an implementation against a spec's privacy claim",
        description="Black-box privacy audit: epsilon lower bound with confidence on neighbouring pairs, "
                    "beside the exact epsilon where it is computable.", epilog=EXIT_HELP["audit"])
    p.add_argument("id", nargs="?", help="spec id (see 'dptestbed specs'); omit it with --mechanism")
    p.add_argument("--impl", metavar="REF",
                   help="implementation to audit, 'package.module:function' or 'path/to/file.py:function' "
                        "(default: the spec's reference implementation)")
    p.add_argument("--samples", type=int, metavar="N",
                   help="samples per side per pair, one round (default: 10^6, then a second round when it may show a "
                        "violation or the first had no power, up to 3*10^7, for batched implementations; 10^5, then up "
                        "to 10^6, for single-run ones)")
    p.add_argument("--time-budget", type=positive_float, metavar="SECONDS",
                   help="wall seconds for the whole audit: a second round draws as many samples as fit (up to 3*10^8 "
                        "per side), so that slow, per-call code reaches the power it can; the result then depends on "
                        "the machine's speed (default: fixed sample sizes)")
    p.add_argument("--tight", action="store_true",
                   help="after the verdict, estimate the winning event once more on fresh samples sized for a "
                        "bound close to the exact loss (slower; the default is sized for verdicts)")
    p.add_argument("--confidence", type=float, default=0.95, metavar="C", help="confidence level (default 0.95)")
    p.add_argument("--seed", type=seed_value, default=0, metavar="S", help="random seed (default 0)")
    p.add_argument("--timeout", type=positive_float, default=60.0, metavar="SECONDS",
                   help="seconds allowed per call of a user implementation (default 60)")
    p.add_argument("--deadline", type=positive_float, default=DEADLINE, metavar="SECONDS",
                   help=f"seconds the whole audit may take, however the implementation spends them (default {DEADLINE:g})")
    isolation_arg(p)
    randomness_arg(p)
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="parameter value (repeatable)")
    p.add_argument("--dir", help="load specs from this folder instead of the packaged catalogue")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    allow_option(p)
    executor_args(p, "the audit's estimation batches (beside this process; the same result)")
    adhoc = p.add_argument_group("an ad-hoc claim, without a spec file")
    adhoc.add_argument("--mechanism", metavar="REF",
                       help="the mechanism to audit, path/to/file.py:function or package.module:function; "
                            "--param NAME=VALUE then gives its own keyword arguments")
    adhoc.add_argument("--epsilon", type=positive_float, metavar="EPS", help="the claimed epsilon")
    adhoc.add_argument("--delta", type=float, default=0.0, metavar="DELTA", help="the claimed delta (default 0)")
    adhoc.add_argument("--gdp", type=positive_float, metavar="MU",
                       help="a mu-Gaussian DP claim instead (the whole trade-off curve G_mu)")
    adhoc.add_argument("--zcdp", type=positive_float, metavar="RHO", help="a rho-zCDP claim instead (Renyi D_a <= rho a)")
    adhoc.add_argument("--renyi", metavar="A:EPS,...", help="a Renyi DP claim instead, e.g. 2:0.5,8:1.5")
    adhoc.add_argument("--curve", metavar="EPS:DELTA,...",
                       help="an (epsilon, delta)-DP claim at several points instead, e.g. 1:1e-5,0.5:0.1")
    adhoc.add_argument("--relation", metavar="NAME", help="the neighbouring relation: vector_l1, vector_l2, "
                       "query_answers, replace_one, ... (see spec/README.md)")
    adhoc.add_argument("--sensitivity", type=positive_float, default=1.0, metavar="S",
                       help="how far a neighbour may move, in the relation's norm (default 1)")
    adhoc.add_argument("--input-kind", default="vector", metavar="KIND",
                       help="vector (default), query_answers, votes, dataset, bit or value: what the pair "
                            "generators and the input-space search may do with the pairs")
    adhoc.add_argument("--pair", nargs=2, action="append", metavar=("D", "D_PRIME"),
                       help="a neighbouring pair as two JSON values, e.g. --pair '[0]' '[1]' (repeatable)")
    p.set_defaults(func=cmd_audit)


def _import_in_background(module: str) -> None:
    """Starts importing ``module`` in a daemon thread: the audit's first statistics need scipy
    (0.1 s to import), and until then it samples, mostly outside the interpreter lock."""
    def run():
        with contextlib.suppress(Exception):  # a failing import fails again, with its message, where it is used
            importlib.import_module(module)

    threading.Thread(target=run, name=f"{PASSING}-import", daemon=True).start()


def _points(flag: str, text: str | None) -> list | None:
    """``"2:0.5,8:1.5"`` -> ``[(2.0, 0.5), (8.0, 1.5)]``; UserError (one line) for anything else."""
    if text is None:
        return None
    try:
        return [tuple(float(x) for x in item.split(":")) for item in text.split(",") if item.strip()]
    except ValueError:
        raise UserError(f"{flag} {text!r}: expected A:B pairs separated by commas, e.g. 2:0.5,8:1.5") from None


def _adhoc(args):
    """The spec, implementation and parameters of ``audit --mechanism`` (an ad-hoc claim)."""
    from ..adhoc import adhoc_spec

    if args.id is not None or args.impl is not None:
        raise UserError("--mechanism audits an ad-hoc claim: give it without a spec id and without --impl")
    claim = {"epsilon": args.epsilon, "gdp": args.gdp, "zcdp": args.zcdp,
             "renyi": _points("--renyi", args.renyi), "curve": _points("--curve", args.curve)}
    missing = [flag for flag, value in (("--relation", args.relation), ("--pair", args.pair)) if value is None]
    if all(v is None for v in claim.values()):
        missing.insert(0, "--epsilon (or --gdp, --zcdp, --renyi, --curve)")
    if missing:
        raise UserError(f"--mechanism needs {', '.join(missing)} (the claim, the relation, the pairs)")
    pairs = []
    for k, (data, neighbour) in enumerate(args.pair):
        try:
            pair = (json.loads(data), json.loads(neighbour))
        except json.JSONDecodeError as exc:
            raise UserError(f"--pair {k + 1}: not a JSON value: {exc.msg} in {data[:80]!r} / {neighbour[:80]!r}") from None
        except RecursionError:
            pair = None
        if pair is None or max(_depth(pair[0]), _depth(pair[1])) > MAX_PAIR_DEPTH:
            raise UserError(f"--pair {k + 1}: nested more than {MAX_PAIR_DEPTH} lists deep (a vector, a dataset of "
                            "records or a list of those is at most a few)")
        pairs.append(pair)
    params = {}
    for item in args.param or []:
        key, sep, raw = item.partition("=")
        try:
            params[key.strip()] = json.loads(raw) if sep else None
        except json.JSONDecodeError:
            params[key.strip()] = None
        if not isinstance(params[key.strip()], int | float) or isinstance(params[key.strip()], bool):
            raise UserError(f"--param {item!r}: expected NAME=NUMBER (a keyword argument of the mechanism)")
    try:
        spec = adhoc_spec(delta=args.delta, relation=args.relation, sensitivity=args.sensitivity, pairs=pairs,
                          input_kind=args.input_kind, params=params, name=args.mechanism, **claim)
    except ValueError as exc:  # its pairs[K] is the command line's --pair K+1
        raise UserError(re.sub(r"^pairs\[(\d+)\](\[[01]\])?", _pair_flag, str(exc))) from None
    return spec, args.mechanism, {}


def _pair_flag(match) -> str:
    """``pairs[K]`` (``pairs[K][0]``, ``pairs[K][1]``) of :func:`..adhoc.adhoc_spec`'s messages as the flag the user gave."""
    side = {"[0]": " D", "[1]": " D_PRIME", None: ""}[match.group(2)]
    return f"--pair {int(match.group(1)) + 1}{side}"


def cmd_audit(args) -> int:
    from ..privacy import AuditError, audit
    from ..sandbox.contract_checks import bad_reference
    from ..sandbox.runner import ImplementationError, check_loadable, missing_reference

    if args.mechanism is not None:
        implementation(args.mechanism, "--mechanism")
        spec, impl, params = _adhoc(args)
    else:
        if args.id is None:
            raise UserError("give a spec id (see 'dptestbed specs'), or --mechanism REF with an ad-hoc claim")
        if any(v is not None for v in (args.epsilon, args.gdp, args.zcdp, args.renyi, args.curve, args.relation,
                                       args.pair)):
            raise UserError("--epsilon, --gdp, --zcdp, --renyi, --curve, --relation and --pair state an ad-hoc claim: "
                            "use them with --mechanism")
        spec = get_spec(args)
        if args.impl is not None:
            implementation(args.impl, "--impl")
        if args.impl is None and missing_reference(spec.implementation):
            raise UserError(f"{spec.id} has no reference implementation yet; audit yours with "
                            f"'dptestbed audit {spec.id} --impl path/to/file.py:function'")
        impl, params = args.impl, parse_params(args.param, spec)
    if args.samples is not None and args.samples < 300:
        raise UserError(f"--samples {args.samples}: need at least 300 samples per side")
    if not 0 < args.confidence < 1:
        raise UserError(f"--confidence {args.confidence}: must be strictly between 0 and 1")
    if not args.timeout > 0:
        raise UserError(f"--timeout {args.timeout}: must be positive")
    # (after every check of the input: an interpreter that exits while a thread imports may crash)
    _import_in_background("scipy.special")
    # user code may print; keep stdout for our output
    with contextlib.redirect_stdout(sys.stderr), contextlib.ExitStack() as stack:
        batches = None
        if wants_dask(args):  # (the local case imports nothing more: a one-mechanism audit starts fast)
            from ..run.dask_executor import DaskBatches
            from ..run.execution import ExecutorUnavailable

            try:
                batches = DaskBatches(client=stack.enter_context(executor_of(args, jobs_of(args)).client()))
            except ExecutorUnavailable as exc:
                raise UserError(str(exc)) from None
        from ..sandbox import isolation
        from ..sandbox.cpulimit import deadline

        isolation.require(args.isolation)
        try:
            if impl is not None:  # a mistyped reference is bad usage, one line (as for check)
                try:
                    check_loadable(impl)
                except ImplementationError as exc:
                    if bad_reference(exc.reason):
                        raise UserError(f"{'--mechanism' if args.mechanism else '--impl'}: {exc.reason}") from None
            with deadline(args.deadline, "the audit"):
                result = audit(spec, implementation=impl, params=params, samples=args.samples,
                               confidence=args.confidence, seed=args.seed, timeout=args.timeout, progress=True,
                               tight=args.tight, batches=batches, time_budget=args.time_budget,
                               randomness=args.randomness, jobs=None if batches is not None else args.jobs)
        except (AuditError, isolation.IsolationUnavailable) as exc:
            raise UserError(str(exc)) from None
    if args.json:
        print(json.dumps({**at_decision(result.to_json()), "isolation": isolation.reported}, indent=2))
    else:
        print(_human(result) + f"\n  isolation: {isolation.summary()}")
    return class_exit_code([result.to_json()["class"]], allowed(args))


def _g(x, digits=4) -> str:
    if x is None:
        return "unknown"
    if isinstance(x, str):
        return x
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.{digits}g}"


def _human(r) -> str:
    from ..adhoc import ADHOC_ID
    from ..privacy.claims import from_json
    from ..report import counterexample_text
    from ..report.model import audit_claim, event_text

    j = r.to_json()
    cls = j["class"]
    claim, params = audit_claim(j)
    name = f"{sanitize.line(r.implementation)} (ad-hoc claim)" if r.spec == ADHOC_ID else r.spec
    lines = [f"{name}: {cls.upper() if cls != PASS else f'{PASS}: {AUDIT_NO_VIOLATION}'}"]
    lines.append(f"  implementation: {sanitize.line(r.implementation)}")
    shown = ", ".join(f"{k}={_g(v, 6) if isinstance(v, float) else v}" for k, v in params.items())
    stated = from_json(claim)
    lines.append(f"  claim: {stated.describe()} at {shown}")
    for note in r.notes:
        if not note.startswith("randomness:"):  # (said once, below)
            lines.append(f"  note: {note}")
    if r.verdict == IMPLEMENTATION_ERROR:
        lines.append(f"  reason: {r.reason}")
        lines.append(f"  {j['seconds']:.2f} s")
        return "\n".join(lines)
    conf = f"{100 * r.confidence:g}%"
    tight = f" (tightness {_g(j['tightness'], 3)} of the claim)" if j["tightness"] is not None else ""
    lines.append(f"  {stated.name} lower bound: {_g(j['epsilon_lower_bound'])} at {conf} confidence{tight}")
    if j.get("power") and cls != CLAIM_VIOLATED:
        p = j["power"]
        lines.append(f"  smallest loss this audit could show above the claim: {_g(p['minimum_detectable_epsilon'], 4)} "
                     f"against a claim of {_g(p['claim'])} on its most sensitive event (pair {p['pair']}); "
                     + (f"more than {100 * p['resolution']:g}% above the claim (the audit's resolution): "
                        + power_remedy(j) if cls == NO_POWER else
                        f"at most {100 * p['resolution']:g}% above the claim (the audit's resolution)"))
    elif cls == NO_POWER:
        lines.append("  no power: no event was measured on fresh samples")
    exact = j["exact_epsilon"]
    if exact is not None:
        extra = f"; the bound reaches {100 * j['exact_tightness']:.1f}% of it" if j["exact_tightness"] is not None else ""
        whose = "" if r.implementation == r.spec_implementation else " (of the spec's mechanism)"
        lines.append(f"  exact {stated.name} on that pair{whose}: {_g(exact)}{extra}")
    best = j["best"]
    if j.get("counterexample"):
        lines.append("  counterexample: " + str(counterexample_text(j)).replace("\n", "\n    "))
    elif best:
        pair = best["pair"]
        label = "counterexample" if r.verdict == AUDIT_VIOLATION else "best event"
        lines.append(f"  {label}: pair {pair['name']}: D = {_short(pair['data'])}, D' = {_short(pair['neighbour'])}")
        lines.append(f"    event E: {event_text(best)}: P[M(D) in E] = {_g(best['p_data'])}, P[M(D') in E] = {_g(best['p_neighbour'])}"
                     f" ({best['count_data']} and {best['count_neighbour']} of {best['n_per_side']})")
        num = "D" if best["numerator"] == "data" else "D'"
        den = "D'" if num == "D" else "D"
        lines.append(f"    with {conf} confidence: P[M({num}) in E] >= {_g(best['p_lo'])}, P[M({den}) in E] <= {_g(best['p_hi'])}")
    else:
        lines.append("  no event with a positive lower bound was found")
    if r.expected == AUDIT_VIOLATION and r.verdict != AUDIT_VIOLATION:
        lines.append("  note: this spec is a deliberately broken variant, but no violation was found at this sample size")
    tight_rounds = [info for info in r.rounds if info.get("tight")]
    if tight_rounds:
        lines.append(f"  tight round: {tight_rounds[0]['samples_per_side']:,} fresh samples per side on the best event")
    lines.append(f"  {r.samples_per_side:,} samples per side per pair in {len(r.rounds)} round(s); "
                 f"{r.pairs_tried} pairs, {r.events_tried:,} events tried; {j['seconds']:.2f} s")
    if not r.reproducible:
        why = [w for w, on in (("the implementation's own randomness", r.randomness == "own"),
                               (f"a time budget of {_g(r.time_budget)} s", r.time_budget is not None)) if on]
        lines.append(f"  not reproducible ({' and '.join(why)}): another run with the same seed draws other samples")
    elsewhere = r.timing.get("elsewhere")
    if elsewhere:
        lines.append(f"  {elsewhere['batches']} estimation batches ({elsewhere['runs']:,} runs) sampled on Dask workers")
    return "\n".join(lines)


def _short(value, limit: int = 60) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _depth(value, level: int = 0) -> int:
    """How many lists deep ``value`` is (a number: 0); stops counting past MAX_PAIR_DEPTH."""
    if not isinstance(value, list) or level > MAX_PAIR_DEPTH:
        return level
    return max((_depth(v, level + 1) for v in value), default=level + 1)
