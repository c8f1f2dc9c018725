"""``dptestbed audit ID``: audit an implementation against a spec's privacy claim.

Exit codes (:mod:`..outcomes`): 0 pass; 1 claim violated (with a counterexample); 2 bad usage
(unknown spec, bad parameter, spec without a privacy claim); 3 differs from the spec; 4 no power;
5 implementation error (it raised, returned a wrong type, NaN, or hung past ``--timeout``); 130
interrupted. ``--json`` prints one JSON object
(:meth:`dptestbed.audits.privacy.AuditResult.to_json` with ``format: dptestbed-audit/1``; schema
``audits/schemas/audit.schema.json``); anything a user implementation
prints goes to stderr, so the JSON stays parseable. ``--executor dask`` / ``--scheduler ADDRESS``
spreads the audit's estimation batches over a Dask cluster (:class:`..dask_executor.DaskBatches`):
the same result, faster for large ``--samples``.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import math
import sys
import threading

from ..outcomes import audit_class, class_exit_code
from ..schemas import FORMATS
from .options import (
    EXIT_HELP,
    UserError,
    allow_option,
    allowed,
    executor_args,
    executor_of,
    get_spec,
    jobs_of,
    parse_params,
    positive_float,
    seed_value,
    wants_dask,
)


def register(subparsers) -> None:
    """Add the ``audit`` subcommand to the ``dptestbed`` parser."""
    p = subparsers.add_parser(
        "audit", help="audit an implementation against a spec's privacy claim",
        description="Black-box privacy audit: epsilon lower bound with confidence on neighbouring pairs, "
                    "beside the exact epsilon where it is computable.", epilog=EXIT_HELP["audit"])
    p.add_argument("id", help="spec id (see 'dptestbed specs')")
    p.add_argument("--impl", metavar="REF",
                   help="implementation to audit, 'package.module:function' or 'path/to/file.py:function' "
                        "(default: the spec's reference implementation)")
    p.add_argument("--samples", type=int, metavar="N",
                   help="samples per side per pair, one round (default: 10^6, then a second round when it may show a "
                        "violation or the first had no power, for batched implementations; 10^5 for single-run ones)")
    p.add_argument("--tight", action="store_true",
                   help="after the verdict, estimate the winning event once more on fresh samples sized for a "
                        "bound close to the exact loss (slower; the default is sized for verdicts)")
    p.add_argument("--confidence", type=float, default=0.95, metavar="C", help="confidence level (default 0.95)")
    p.add_argument("--seed", type=seed_value, default=0, metavar="S", help="random seed (default 0)")
    p.add_argument("--timeout", type=positive_float, default=60.0, metavar="SECONDS",
                   help="seconds allowed per call of a user implementation (default 60)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="parameter value (repeatable)")
    p.add_argument("--dir", help="load specs from this folder instead of the packaged catalogue")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    allow_option(p)
    executor_args(p, "the audit's estimation batches (beside this process; the same result)")
    p.set_defaults(func=cmd_audit)


def _import_in_background(module: str) -> None:
    """Starts importing ``module`` in a daemon thread: the audit's first statistics need scipy
    (0.1 s to import), and until then it samples, mostly outside the interpreter lock."""
    def run():
        with contextlib.suppress(Exception):  # a failing import fails again, with its message, where it is used
            importlib.import_module(module)

    threading.Thread(target=run, name="dptestbed-import", daemon=True).start()


def cmd_audit(args) -> int:
    _import_in_background("scipy.special")
    from ..privacy import AuditError, audit
    from ..runner import missing_reference

    spec = get_spec(args)
    if args.impl is None and missing_reference(spec.implementation):
        raise UserError(f"{spec.id} has no reference implementation yet; audit yours with "
                        f"'dptestbed audit {spec.id} --impl path/to/file.py:function'")
    params = parse_params(args.param, spec)
    if args.samples is not None and args.samples < 300:
        raise UserError(f"--samples {args.samples}: need at least 300 samples per side")
    if not 0 < args.confidence < 1:
        raise UserError(f"--confidence {args.confidence}: must be strictly between 0 and 1")
    if not args.timeout > 0:
        raise UserError(f"--timeout {args.timeout}: must be positive")
    # user code may print; keep stdout for our output
    with contextlib.redirect_stdout(sys.stderr), contextlib.ExitStack() as stack:
        batches = None
        if wants_dask(args):  # (the local case imports nothing more: a one-mechanism audit starts fast)
            from ..dask_executor import DaskBatches
            from ..execution import ExecutorUnavailable

            try:
                batches = DaskBatches(client=stack.enter_context(executor_of(args, jobs_of(args)).client()))
            except ExecutorUnavailable as exc:
                raise UserError(str(exc)) from None
        try:
            result = audit(spec, implementation=args.impl, params=params, samples=args.samples,
                           confidence=args.confidence, seed=args.seed, timeout=args.timeout, progress=True,
                           tight=args.tight, batches=batches)
        except AuditError as exc:
            raise UserError(str(exc)) from None
    if args.json:
        print(json.dumps({"format": FORMATS["audit"], **result.to_json()}, indent=2))
    else:
        print(_human(result))
    return class_exit_code([audit_class(result.to_json())], allowed(args))


def _g(x, digits=4) -> str:
    if x is None:
        return "unknown"
    if isinstance(x, str):
        return x
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.{digits}g}"


def _human(r) -> str:
    from ..report import counterexample_text
    from ..report.model import audit_claim

    j = r.to_json()
    cls = audit_class(j)
    claim, params = audit_claim(j)
    lines = [f"{r.spec}: {cls.upper() if cls != 'pass' else 'pass: no violation found'}"]
    lines.append(f"  implementation: {r.implementation}")
    shown = ", ".join(f"{k}={_g(v, 6) if isinstance(v, float) else v}" for k, v in params.items())
    lines.append(f"  claim: epsilon = {_g(claim['epsilon'])}, delta = {_g(claim['delta'])} at {shown}")
    if r.verdict == "implementation error":
        lines.append(f"  reason: {r.reason}")
        lines.append(f"  {j['seconds']:.2f} s")
        return "\n".join(lines)
    conf = f"{100 * r.confidence:g}%"
    tight = f" (tightness {_g(j['tightness'], 3)} of the claim)" if j["tightness"] is not None else ""
    lines.append(f"  epsilon lower bound: {_g(j['epsilon_lower_bound'])} at {conf} confidence{tight}")
    if j.get("power"):
        p = j["power"]
        lines.append(f"  smallest loss this audit could show above the claim: {_g(p['minimum_detectable_epsilon'], 4)} "
                     f"against a claim of {_g(p['claim'])} on its most sensitive event (pair {p['pair']}); "
                     + ("no power: a violation below it is invisible at this sample size" if cls == "no power" else
                        f"within its resolution of {100 * p['resolution']:g}% above the claim"))
    elif cls == "no power":
        lines.append("  no power: no event was measured on fresh samples")
    exact = j["exact_epsilon"]
    if exact is not None:
        extra = f"; the bound reaches {100 * j['exact_tightness']:.1f}% of it" if j["exact_tightness"] is not None else ""
        whose = "" if r.implementation == r.spec_implementation else " (of the spec's mechanism)"
        lines.append(f"  exact epsilon on that pair{whose}: {_g(exact)}{extra}")
    best = j["best"]
    if j.get("counterexample"):
        lines.append("  counterexample: " + str(counterexample_text(j)).replace("\n", "\n    "))
    elif best:
        pair = best["pair"]
        label = "counterexample" if r.verdict == "violation" else "best event"
        lines.append(f"  {label}: pair {pair['name']}: D = {_short(pair['data'])}, D' = {_short(pair['neighbour'])}")
        lines.append(f"    event {best['event']}: P[M(D) in E] = {_g(best['p_data'])}, P[M(D') in E] = {_g(best['p_neighbour'])}"
                     f" ({best['count_data']} and {best['count_neighbour']} of {best['n_per_side']})")
        num = "D" if best["numerator"] == "data" else "D'"
        den = "D'" if num == "D" else "D"
        lines.append(f"    with {conf} confidence: P[M({num}) in E] >= {_g(best['p_lo'])}, P[M({den}) in E] <= {_g(best['p_hi'])}")
    else:
        lines.append("  no event with a positive lower bound was found")
    if r.expected == "violation" and r.verdict != "violation":
        lines.append("  note: this spec is a deliberately broken variant, but no violation was found at this sample size")
    tight_rounds = [info for info in r.rounds if info.get("tight")]
    if tight_rounds:
        lines.append(f"  tight round: {tight_rounds[0]['samples_per_side']:,} fresh samples per side on the best event")
    lines.append(f"  {r.samples_per_side:,} samples per side per pair in {len(r.rounds)} round(s); "
                 f"{r.pairs_tried} pairs, {r.events_tried:,} events tried; {j['seconds']:.2f} s")
    elsewhere = r.timing.get("elsewhere")
    if elsewhere:
        lines.append(f"  {elsewhere['batches']} estimation batches ({elsewhere['runs']:,} runs) sampled on Dask workers")
    return "\n".join(lines)


def _short(value, limit: int = 60) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
