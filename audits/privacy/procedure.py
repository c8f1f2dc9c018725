"""The audit procedure (:func:`audit`): the contract probe, the rounds, the optional tight
round, the exact profiles and the verdict."""

from __future__ import annotations

import math
import operator
import time
from functools import partial

import numpy as np

from dptestbed.spec import Spec

from ..base.serialize import jsonable
from ..sandbox.probes import probe_contract, probe_history, probe_types
from ..sandbox.runner import (
    RANDOMNESS,
    ImplementationError,
    Runner,
    as_runnable,
    implementation_ref,
    is_trusted,
    missing_reference,
)
from . import exact as exact_profiles
from .agreement import agreement_pairs, check_agreement, screen
from .budget import AlphaBudget
from .claims import Claim
from .confirm import confirmation_round, may_confirm
from .divergence import divergence_claim, divergence_round
from .estimation import REPLAY_CALLS
from .events import Candidate
from .linesearch import MIN_LINE_RUNS, runs_per_point
from .linesearch import line_search as find_on_lines
from .moves import (
    LONG_LENGTHS,
    LONGER_LENGTHS,
    TINY_VOTES,
    after_stable_rows,
    crossed_ties,
    first_row,
    lines,
    mirrored,
    padded,
    patterns,
    repeated,
    shortened,
    single_moves,
    stepped,
    stretched,
    tied_halves,
    tied_top,
    with_all_rows,
    with_few_votes,
    with_many_votes,
    with_mixed_modes,
    with_more_labels,
    with_one_label,
)
from .neighbours import violation
from .options import AuditOptions
from .pairs import Pair, candidate_pairs, parameter_pairs, same_input
from .pairs import claim as pair_claim
from .progress import ProgressBar
from .records import CAPACITY_MOVES
from .result import (
    AUDIT_RESOLUTION,
    DIFFERS,
    IMPL_ERROR,
    NO_POWER,
    NO_VIOLATION,
    TOLERANCE,
    VIOLATION,
    AuditError,
    AuditResult,
)
from .rounds import K_MAX, PAIR_PHASE_SECONDS, SLOW_PAIR, SLOW_RUN_SECONDS, Auditor
from .serial import check_serial
from .tight import estimate_anew, tight_round
from .tradeoff import GRID, claimed_curve, estimated_points

POWER_MAX_SAMPLES = 100_000_000  # the most samples per side a round sized for power may draw (the full suite's classical
# Gaussian at epsilon 0.25, delta 1e-6 claims mu = 0.047 and needs about 7.7e7 with four events estimated: at 3e7 and
# 5e7 it missed power by 0.4% and 0.6%; the estimation counts in batches, so 5e7 a side held 545 MB)
WIDENED = 4  # pairs of stress cases' two-label vote rows widened to three labels (moves.with_more_labels: 2 a case),
# and of every later case with a tie at the top of a row (moves.tied_top)
POWER_TARGET = 0.7  # a round sized for power aims at this fraction of the resolution
CALL_FIRST_ROUND = 100_000  # a single-run function's first round, samples per side
CALL_SECOND_ROUND = 1_000_000  # ... its second (full) round, unless sized larger for power
CALL_MAX_SAMPLES = 30_000_000  # ... and the most a round of its draws for power (a sample count: no clock decides; a
# correct per-call discrete Gaussian at epsilon 0.5, sensitivity 3, whose curve claim has a point at epsilon 0.125, was
# short of power on each of two power rounds of 10^7, its event {value >= 28} detecting 1.051 against 1.05; by the exact
# pmf that event needs 1.1e7 on one round)
CALL_ROUND_SECONDS = 900.0  # ... unless that round would take longer at the measured pace (_round_seconds; a guard: an item's
# CPU limit, 3,000 s for a user's audit, would cut it; the verdict is then "no power", naming what power needs)
POWER_MAX_ELEMENTS = 400_000_000  # ... and the most output values per side (sampled in chunks; the reference svt_lyu_1
# at epsilon 0.5, c = 2, 10 values a run, needed 3.2e7 runs a side in one false-alarm seed and was short of power at 2e8)
SECOND_ROUND_ELEMENTS = 200_000_000  # a batched second round's output values per side before it is sized for power
CAPACITY_RUNS = 2  # runs of each side of a capacity pair before the audit (_within_capacity)
BUDGET_MAX_SAMPLES = 300_000_000  # the most a round may draw per side under a time budget (time decides)
BATCHED_ELEMENTS = 20_000_000  # ``batched_samples`` is capped so that runs x output width stays below this
MIN_BATCHED_SAMPLES = 100_000
ESCALATE_MARGIN = 1.05
# a batch sampler's next round also runs when its prediction is this close below the claim and the best event's
# rarer side was seen at most RARE_COUNT times: the prediction holds that event fixed, and a leak on little mass
# (near delta) shows only through rarer events that more samples score (seed 000's Alg 4 with lam/4 at m = 6,
# 11.44 against 8, predicts 7.3 to 7.5 from 10^6 samples, its best event seen 13 to 26 times on the rarer side;
# a correct Laplace at its exact epsilon predicts 0.997 against 1 on an event seen 1.2e5 times on either side)
BATCHED_ESCALATE_MARGIN = 0.9
RARE_COUNT = 50
EXACT_BUDGET = 3.0   # seconds for exact profiles of pairs without a carried candidate
EXACT_CURVE_DELTAS = (1e-6, 1e-4, 1e-3, 1e-2, 0.05, 0.1, 0.2, 0.35, 0.5)  # the exact trade-off curve's points
LINE_SECONDS = 15.0  # the line search's sampling of a slow implementation, at its measured pace
# under a time budget: the line search's share of the budget (at most LINE_SECONDS) and the first round's of what
# is left after it (later rounds take what fits in the rest, a fifth kept in reserve)
BUDGET_LINE_SHARE, BUDGET_FIRST_SHARE = 0.15, 0.4
DOMAIN_RUNS = 4  # runs of the reference on each side of a searched pair: the pair is in the spec's domain
REFERENCE_MB = 1024.0  # ... in a child process, stopped when it holds this much more memory (the pair is left out)
REFERENCE_SECONDS = 60.0  # ... or runs this long


def history_points(spec: Spec, params: dict, accepts) -> list[tuple[str, dict]]:
    """For :func:`..sandbox.probes.probe_history`: the point ``params`` with one numeric parameter moved within its
    domain (a real one divided by 10, else multiplied; an integer one up by 1, else down), for each parameter the implementation
    takes (``accepts(name)``)."""
    out = []
    for name, p in spec.parameters.items():
        value = params.get(name)
        if p.type not in ("real", "integer") or not accepts(name) or isinstance(value, bool) \
                or not isinstance(value, (int, float, np.integer, np.floating)):
            continue
        moves = (value + 1, value - 1) if p.type == "integer" else ((value / 10, value * 10) if value else (1.0, -1.0))
        moved = next((m for m in moves if p.violation(m) is None), None)
        if moved is not None:
            out.append((name, {**params, name: moved}))
    return out


def _probe(spec: Spec, runner: Runner, ref: str, pair: Pair, randomness: str) -> np.ndarray:
    """The contract probe before any statistics (:func:`..sandbox.probes.probe_contract`), on the audit's own workers:
    randomness from rng (``randomness="own"``: draws that do not repeat across workers and tasks),
    and for an implementation other than the spec's reference, the reference's output encoding."""
    reference = None
    if ref != spec.implementation and spec.implementation and not missing_reference(spec.implementation):
        reference = as_runnable(spec.implementation)
    return probe_contract(runner, pair.data, pair.params, reference=reference, randomness=randomness)


def _resized_pairs(spec: Spec, anchors: list[Pair]) -> list[Pair]:
    """The stress cases cut short (moves.shortened), with the relation's patterns at the cut inputs, repeated
    long (moves.repeated; the first one longer still, and stretched: moves.stretched), and the first two padded with candidates that never compete (moves.padded), inside the spec's domain (the reference runs on them) and checked to be neighbours."""
    out = []
    for k, anchor in enumerate(anchors):
        for short in shortened(spec, anchor):
            out.append(short)
            out += [short.derived(name=f"{short.name}/{name}", neighbour=nb) for name, nb in
                    patterns(spec, short.data, short.env)] + single_moves(spec, short)
        long = [p for p in repeated(spec, anchor) if _keeps_claim(spec, p)]
        out += long
        if k == 0 and long and long[-1].data.size == LONG_LENGTHS[-1]:
            # a claim kept with every one of 65 answers moved holds at any length (a sparse vector's, a noisy max's;
            # one for a fixed number of answers is not kept at 65): the exact profiles are not walked out to 257
            out += repeated(spec, anchor, LONGER_LENGTHS) + stretched(spec, anchor)
    out += [p for anchor in anchors[:2] for p in padded(spec, anchor)]
    out = [p for p in out if not same_input(p.data, p.neighbour) and not violation(spec, p.data, p.neighbour, p.env)]
    return _in_reference_domain(spec, out)


def _keeps_claim(spec: Spec, pair: Pair) -> bool:
    """The spec's own mechanism keeps the claim on ``pair`` by its exact profile (False when none is known): a vector
    repeated long moves every copy, which a claim for a fixed number of answers (q epsilon for q queries, one answer of
    a Laplace or Gaussian mechanism) does not cover, while a sparse vector's or a noisy max's covers any number."""
    claim = pair_claim(spec, pair.env)
    try:
        value = exact_profiles.exact_bound(spec, pair, claim)
    except (ValueError, TypeError, IndexError, ArithmeticError):  # (a profile that cannot take this input)
        return False
    return value is not None and value <= claim.value * (1 + 1e-9)


def _in_reference_domain(spec: Spec, pairs: list[Pair], skipped: list[str] | None = None) -> list[Pair]:
    """The searched and moved pairs on which the spec's reference implementation runs (a pair it refuses lies
    outside the spec's domain, where no implementation owes an answer); all of them without a reference. The
    reference runs in a child process stopped at REFERENCE_MB more memory or REFERENCE_SECONDS a pair: a pair
    too large for it (the Littlestone learner at d = 4 expands its sample to 1.7e8 examples, 7.9 GB) is left out,
    named in ``skipped``."""
    if not pairs or not spec.implementation or not is_trusted(spec.implementation) \
            or missing_reference(spec.implementation):
        return pairs
    from ..sandbox.bounded import DONE, LIMIT, bounded_map

    sides = [(p.data, p.neighbour, p.params) for p in pairs]
    runs = partial(_reference_runs, spec.implementation)
    answers = bounded_map(runs, sides, limit_mb=REFERENCE_MB, seconds=REFERENCE_SECONDS)
    kept = []
    for p, side, (status, value) in zip(pairs, sides, answers):
        if status == LIMIT:
            if skipped is not None:
                skipped.append(f"{p.name}: left out, the spec's reference on {DOMAIN_RUNS} runs of each side: {value}")
        elif (value if status == DONE else runs(side)):  # no answer from the child: here, as before
            kept.append(p)
    return kept


def _reference_runs(reference: str, sides: tuple) -> bool:
    """The reference ran DOMAIN_RUNS times on both inputs of a pair (False: it refused one)."""
    from ..sandbox.runner import call_batch

    data, neighbour, params = sides
    try:
        for side in (data, neighbour):
            call_batch(as_runnable(reference), side, DOMAIN_RUNS, rng=np.random.default_rng(0), params=params)
    except ImplementationError as exc:
        if "MemoryError" in exc.reason:  # past the bounded child's memory cap: too large, not refused
            raise MemoryError(exc.reason) from None
        return False
    return True


def _within_capacity(spec: Spec, runner: Runner, pairs: list[Pair], skipped: list[str]) -> list[Pair]:
    """The pairs, less the searched ones of :data:`.records.CAPACITY_MOVES` (inputs an implementation may be unable
    to hold at all: ids near 2^31 or 2^53 sized into a dense array) and those at a value of an ``extension``
    parameter other than its default (q queries in one call, beyond the paper's one) on whose both sides it raises
    on CAPACITY_RUNS runs: it cannot take such an input, on either side, so the pair compares nothing (named in
    ``skipped``). A pair it takes on one side only stays, and its error is the audit's verdict."""
    kept = []
    for p in pairs:
        extended = [n for n, q in spec.parameters.items() if q.extension and n in p.params and p.params[n] != q.default]
        if extended or (p.source == "search" and p.name.startswith(CAPACITY_MOVES)):
            failed = []
            for side in (p.data, p.neighbour):
                try:
                    runner.sample(side, CAPACITY_RUNS, rng=np.random.default_rng(0), params=p.params)
                except ImplementationError as exc:
                    failed.append(exc.reason)
            if len(failed) == 2:
                beyond = "".join(f" ({n} = {p.params[n]}: {spec.parameters[n].extension})" for n in extended)
                skipped.append(f"{p.name}: left out, the implementation raised on both sides{beyond}: {failed[0]}")
                continue
        kept.append(p)
    return kept


def _resolve_impl(spec: Spec, implementation):
    if implementation is None:
        if not spec.implementation:
            raise ImplementationError(f"spec {spec.id} names no reference implementation; give one (--impl)")
        return as_runnable(spec.implementation), spec.implementation
    if isinstance(implementation, str):
        return as_runnable(implementation), implementation  # untrusted: stays a string (sandboxed)
    if callable(implementation):
        return implementation, implementation_ref(implementation)
    raise ImplementationError(f"implementation {implementation!r} is neither a reference string nor a callable")


def _candidate_json(aud: Auditor, c: Candidate) -> dict:
    pair = aud.pairs[c.pair_index]
    claim = aud.claims[c.pair_index]
    n = c.n
    point = _point_claim(aud.spec, pair, claim, c)
    return {
        "pair": {**pair.to_json(), "params": pair.params},
        "event": c.event.describe(c.featurizer),
        "event_detail": c.event.to_json(c.featurizer),
        "family": c.family,
        "numerator": "data" if c.orient == 1 else "neighbour",
        "p_data": c.k1 / n if n else None,
        "p_neighbour": c.k2 / n if n else None,
        "count_data": c.k1,
        "count_neighbour": c.k2,
        "n_per_side": n,
        "p_lo": c.p_lo,
        "p_hi": c.p_hi,
        "alpha": c.alpha,
        "epsilon_lower_bound": c.eps_lb,
        "claim": claim.to_json(),
        "exact_epsilon": pair.extra.get("exact_epsilon"),
        "predicted_bound": c.rank_score,
        "minimum_detectable_epsilon": claim.minimum_detectable((c.k1 if c.orient == 1 else c.k2) / n, n, c.alpha)
        if n else math.inf,
        **({"point_claim": point} if point else {}),
    }


def _point_claim(spec: Spec, pair: Pair, claim: Claim, c: Candidate) -> dict | None:
    """Where the audited claim is a curve (``[privacy.profile]``: GDP, zCDP, a profile, Renyi), the spec's stated
    (epsilon, delta) point on the same event and its confident probabilities: a curve can be broken where the point
    is not (Laplace noise of the Gaussian's variance breaks mu-GDP, not the paper's (epsilon, delta)), and the verdict
    says which. None for a point claim."""
    if claim.kind == "dp" or spec.privacy is None:
        return None
    try:
        eps, delta = float(spec.privacy.epsilon.evaluate(pair.env)), float(spec.privacy.delta.evaluate(pair.env))
    except (KeyError, TypeError, ValueError):
        return None
    bound = max(0.0, float(Claim("dp", eps, delta).bound(c.p_lo, c.p_hi)))
    return {"epsilon": eps, "delta": delta, "epsilon_lower_bound": bound, "broken": bound > eps + TOLERANCE}



def audit(spec: Spec, implementation=None, params: dict | None = None, options: AuditOptions | None = None,
          **settings) -> AuditResult:
    """Audit ``implementation`` (default: the spec's reference implementation) against the
    spec's privacy claim at the parameter point ``params``, as ``options`` say (default: :class:`.options.AuditOptions`'s
    defaults), with any of their fields given as keyword ``settings`` (``audit(spec, samples=20_000, seed=1)``).
    See the module docstring for the method and its guarantee. A user implementation whose audit will take
    long (no batch sampler, or a slow one) gets a one-line note in ``notes``, printed at once with ``progress``.
    """
    o = AuditOptions.of(options, settings)
    samples, rounds, batches = o.samples, (list(o.rounds) if o.rounds else None), o.batches
    t0 = time.perf_counter()
    if spec.privacy is None:
        raise AuditError(f"{spec.id} makes no privacy claim: nothing to audit")
    if o.randomness not in RANDOMNESS:
        raise AuditError(f"randomness {o.randomness!r}: choose one of {', '.join(RANDOMNESS)}")
    if not 0 < o.confidence < 1:
        raise AuditError(f"confidence must be in (0, 1), got {o.confidence}")
    params = dict(params or {})
    try:
        env = spec.bind(params)
        pairs = candidate_pairs(spec, params, max_generated=max(o.max_pairs - len(spec.stress_cases), 0),
                                max_searched=o.max_searched)
    except ValueError as exc:
        raise AuditError(str(exc)) from None
    skipped: list[str] = []  # pairs too large for the spec's reference
    pairs = ([p for p in pairs if p.source in ("stress", "generated")][:o.max_pairs]
             + _in_reference_domain(spec, [p for p in pairs if p.source == "search"], skipped))
    if not pairs:
        raise AuditError(f"{spec.id}: no neighbouring pairs to audit (no stress cases, and the relation "
                         f"{spec.neighbours['relation']!r} has no generator for this input)")
    try:
        point_claim = pair_claim(spec, env)
    except ValueError as exc:
        raise AuditError(str(exc)) from None
    result = AuditResult(
        spec=spec.id, implementation=None, claim=point_claim.to_json(),
        verdict=NO_VIOLATION, epsilon_lower_bound=0.0, exact_epsilon=None, confidence=o.confidence,
        samples_per_side=0, counterexample=None, seconds=0.0, seed=int(o.seed), pairs_tried=len(pairs),
        expected=spec.expected_privacy_verdict, spec_implementation=spec.implementation,
        params={k: env[k] for k in spec.parameters if k in env},
    )
    result.time_budget, result.randomness = o.time_budget, o.randomness
    if o.randomness == "own":
        result.notes.append("randomness: the implementation's own (--randomness own): no determinism probe and no "
                            "replay check; independent samples (the same statistics and confidence), but not "
                            "reproducible: another run with the same seed draws other samples")
        if batches is not None:
            batches = None
            result.notes.append("estimation batches not spread over Dask: with the implementation's own randomness "
                                "the execution that finishes first would decide a batch's counts")
    bar = ProgressBar(o.progress)
    try:
        impl, ref = _resolve_impl(spec, implementation)
        result.implementation = ref
    except ImplementationError as exc:
        result.implementation = implementation if isinstance(implementation, str) else spec.implementation
        result.verdict, result.reason = IMPL_ERROR, exc.reason
        result.seconds = time.perf_counter() - t0
        return result
    runner = None
    try:
        runner = Runner(impl, timeout=o.timeout, isolate=o.isolate, workers=o.jobs)
        width = max(1, int(np.prod(_probe(spec, runner, ref, pairs[0], o.randomness).shape[1:])))
        probe_types(runner, pairs[0].data, pairs[0].neighbour, pairs[0].params)
        pace = None if is_trusted(impl) and not o.time_budget else _pace(runner, pairs[0], o.seed)
        replayed = 0 if runner.batched else REPLAY_CALLS  # runs a round's replay check draws again (per-call code)
    except ImplementationError as exc:
        if runner is not None:
            runner.close()
        result.verdict, result.reason = IMPL_ERROR, exc.reason
        result.seconds = time.perf_counter() - t0
        return result
    # the stress cases at other parameter points, for the parameters the implementation takes (moves.py)
    pairs += _in_reference_domain(spec, parameter_pairs(spec, params, o.max_parameter, accepts=runner.accepts), skipped)
    pairs = _within_capacity(spec, runner, pairs, skipped)
    result.notes += skipped
    if o.randomness == "rng" and not is_trusted(impl):
        try:
            probe_history(runner, [(p.data, p.params, history_points(spec, p.params, runner.accepts)) for p in pairs])
        except ImplementationError as exc:
            runner.close()
            result.verdict, result.reason = IMPL_ERROR, exc.reason
            result.seconds = time.perf_counter() - t0
            return result
    # the confirmation round (confirm.py) of an automatic audit of a batch sampler: its share of alpha is
    # set aside now, before any sample, whether it runs or not
    confirm = rounds is None and samples is None and o.batched_samples is None and runner.batched and not o.time_budget
    # the automatic rounds of per-call code end with a round for power alone (:func:`power_round`), run only when
    # the round before it left power short: its share of alpha is set aside now, as every round's (batched code
    # keeps two rounds and the confirmation round: a third share lowers both rounds' levels, and the subsample-and-
    # aggregate mutant with its vote gap rescaled, shown broken by round 2 at half of alpha, was 7.93 against 8
    # at a third)
    power_last = rounds is None and samples is None and not runner.batched
    if rounds is None:
        if samples is None and o.batched_samples is not None and runner.batched:
            # a budget of output values, not of runs: a wide output (a histogram of n items) gets fewer runs
            samples = int(min(o.batched_samples, max(MIN_BATCHED_SAMPLES, BATCHED_ELEMENTS // width)))
        if samples is not None:
            rounds = [int(samples)]
        elif runner.batched:
            # a budget of output values, not of runs: a wide output (a histogram of n items) gets fewer runs
            rounds = [min(1_000_000, max(MIN_BATCHED_SAMPLES, BATCHED_ELEMENTS // width)),
                      min(10_000_000, max(MIN_BATCHED_SAMPLES, SECOND_ROUND_ELEMENTS // width))]
        else:  # a looped implementation: a second round only when the first is short of power or may show a
            # violation, sized for power within CALL_MAX_SAMPLES (a time budget: what fits), then the round for power
            rounds = ([CALL_FIRST_ROUND, BUDGET_MAX_SAMPLES] if o.time_budget else
                      [CALL_FIRST_ROUND, CALL_SECOND_ROUND, CALL_MAX_SAMPLES])
        if power_last and len(rounds) == 2:
            rounds.append(rounds[-1])
    rounds = [int(n) for n in rounds]
    if pace is not None and not o.time_budget:  # (under a budget, the rounds are sized to it)
        note = _slow_note(runner, ref, pace, _first_round_runs(rounds[0], len(pairs)))
        if note:
            result.notes.append(note)
            if o.progress:
                bar.note(f"dptestbed: note: {note}")
    most = BUDGET_MAX_SAMPLES if o.time_budget else POWER_MAX_SAMPLES
    round_cap = (min(most, max(MIN_BATCHED_SAMPLES, POWER_MAX_ELEMENTS // width)) if runner.batched
                 else max(rounds))
    if any(n < 300 for n in rounds):
        raise AuditError("samples must be at least 300 per side")
    # the alpha budget (budget.py), fixed before any sample: a batch sampler other than the spec's reference's is
    # compared with the function users call (agreement.py; the references' own agreement is a test), a Renyi-type
    # claim gets its divergence round (divergence.py), the tight round, if asked, is one more round
    agree = runner.batched and ref != spec.implementation
    diverge = divergence_claim(point_claim)
    serial = ref != spec.implementation  # any function but the reference: consecutive calls independent (serial.py)
    budget = AlphaBudget.split(1 - o.confidence, len(rounds) + bool(o.tight), confirm=confirm, agree=agree,
                               diverge=diverge, serial=serial)
    alpha_round, alpha_confirm, alpha_agree, alpha_diverge = (budget.per_round, budget.confirm, budget.agree,
                                                              budget.diverge)
    cpu0 = time.thread_time()
    aud = Auditor(spec, pairs, runner, int(o.seed), bar, batches, replay=o.randomness == "rng")
    search_record = None
    all_chosen: list[Candidate] = []
    kept = None
    seconds_per_sample = wall_per_run = 0.0
    try:
        if serial:  # first: every round's confidence rests on independent runs (and a dependent function ends here)
            result.serial = check_serial(aud, budget.serial, pace if o.time_budget else None)
        if o.line_search:  # the implementation-guided line search adds pairs before the first round (linesearch.py)
            # anchors: each stress case, after its rows extended to all the input may hold and its votes scaled
            # down to a few (moves.py); the first two stress cases' vote rows widened to more labels (and every tied
            # one's), and every stress case's scaled to 3 and 1 votes a row and its labels mirrored, are pairs only,
            # not anchors (each added pair thins the pair search's pilot)
            anchors, widened, tiny = [], [], []
            for p in (p for p in pairs if p.source == "stress"):
                for e in (with_all_rows(spec, p), with_few_votes(spec, p)):
                    if e is not None and not violation(spec, e.data, e.neighbour, e.env):
                        aud.add_pairs([e])
                        anchors.append(e)
                anchors.append(p)
                tiny += [e for e in [*(with_few_votes(spec, p, votes) for votes in TINY_VOTES), mirrored(spec, p, pairs)]
                         if e is not None and not violation(spec, e.data, e.neighbour, e.env)]
                if len(widened) < WIDENED or tied_top(spec, p):
                    widened += [e for e in with_more_labels(spec, p) if not violation(spec, e.data, e.neighbour, e.env)]
            # chunk scores tied between two values, or one partition tied while the other's mode is clear; one anchor of unanimous rows of many votes (the first stress
            # case's) and one of the first stress case repeated long, their lines beside the others'; and apart, a
            # constant long vector moved down then up (moves.stepped): its lines shift the constant to where answers
            # i and i + p share a noise, and its move made again there splits them
            stress = [p for p in pairs if p.source == "stress"]
            many = next((e for e in (with_many_votes(spec, p) for p in stress)
                         if e is not None and not violation(spec, e.data, e.neighbour, e.env)), None)
            tied = [e for e in tied_halves(spec, stress) + crossed_ties(spec, stress)
                    if not violation(spec, e.data, e.neighbour, e.env)]
            tied += after_stable_rows(spec, stress)  # (checked against the relation as they are built)
            tied += [e for e in (f(spec, p) for p in stress[:1] for f in (with_mixed_modes, with_one_label))
                     if e is not None and not violation(spec, e.data, e.neighbour, e.env)]
            checked = _in_reference_domain(spec, widened + tiny + tied + ([many] if many is not None else []))
            aud.add_pairs(checked)  # where the reference runs
            resized = _resized_pairs(spec, stress)
            aud.add_pairs(resized)
            # and the first stress case's first row alone, its votes moved along the row (every gap of one query)
            row = _in_reference_domain(spec, [e for e in (first_row(spec, p) for p in stress[:1])
                                              if e is not None and not violation(spec, e.data, e.neighbour, e.env)])
            aud.add_pairs(row)
            far = [e for e in checked if e is many] + [e for e in resized if "@repeated_" in e.name][:1] + row
            found_lines = lines(spec, anchors) + lines(spec, far)
            split = _in_reference_domain(spec, [p for p in stepped(spec, stress[0]) if _keeps_claim(spec, p)]
                                         if stress else [])
            aud.add_pairs(split)  # (a line's anchor is a pair of the audit: its claim)
            split_lines = lines(spec, split)
            points = sum(len(L.grid) + len(L.partners()) + len(L.crossings) for L in found_lines + split_lines)
            share = min(LINE_SECONDS, BUDGET_LINE_SHARE * o.time_budget) if o.time_budget else LINE_SECONDS
            least = (points * MIN_LINE_RUNS * pace / (1 if runner.batched else runner.n_workers)
                     if o.time_budget and pace is not None else 0.0)
            if least > share:  # under a time budget, a line search whose least sampling is over its share is left out
                result.notes.append(f"the line search was left out: its least sampling ({points:,} points, "
                                    f"{MIN_LINE_RUNS} runs each) takes about {least:.0f} s, over its {share:.0f} s "
                                    f"share of the time budget")
            else:
                n_line = runs_per_point(points, pace if o.time_budget else None, runner, share)
                found, search_record = find_on_lines(aud, found_lines, 0, n_line, alpha_round / K_MAX)
                if split_lines:  # the split constant's lines apart: their best pair and its anchor's move again
                    moved, split_record = find_on_lines(aud, split_lines, 0, n_line, alpha_round / K_MAX,
                                                        max_found=1, anchor_moves_only=True,
                                                        first_line=len(found_lines))
                    found += moved
                    search_record["split_constant"] = split_record
                # where the reference runs: an edge pair is kept whatever its score, and a line through the other
                # gap parity leaves a vote count that must sum to r (its reference refuses 21 votes of 20)
                aud.add_pairs(_in_reference_domain(spec, found))
        if not runner.batched:  # each pair's cost a run: a slow pair draws what fits (rounds.Auditor.runs)
            aud.measure_costs()
            slow = sorted((i for i in aud.cost if aud.slow(i)), key=lambda i: -aud.cost[i])
            if slow:
                result.notes.append(
                    f"{len(slow)} pair(s) whose runs cost more than {SLOW_PAIR:g} times the typical pair's "
                    f"({_per(aud.typical_cost)} a run) and {_per(SLOW_RUN_SECONDS)} drew in each phase only what fits in "
                    f"{PAIR_PHASE_SECONDS:g} s: "
                    + ", ".join(f"{aud.pairs[i].name} ({_per(aud.cost[i])} a run)" for i in slow[:4])
                    + (", ..." if len(slow) > 4 else ""))
        if o.time_budget and pace is not None:  # the first round too is sized to the budget at the measured pace
            left = o.time_budget - (time.perf_counter() - t0)
            rounds[0] = _first_round_within(rounds[0], len(aud.pairs), pace, 1 if runner.batched else runner.n_workers,
                                            BUDGET_FIRST_SHARE * left)
        elif power_last and pace is not None:  # (automatic rounds of per-call code)
            # slow per-call code: a first round is no longer than any later one may be (CALL_ROUND_SECONDS at the
            # measured pace; a per-call learner at 3.6 ms a call drew 788,000 calls, 24 min, and had no verdict at
            # 40): what power then needs is named in the verdict, as for a later round not started
            fitted = _first_round_within(rounds[0], len(aud.pairs), pace, runner.n_workers, CALL_ROUND_SECONDS)
            if fitted < rounds[0]:
                result.notes.append(f"the first round drew {fitted:,} samples a side, not {rounds[0]:,}: at "
                                    f"{_per(pace)} a call, what fits in {CALL_ROUND_SECONDS:g} s on "
                                    f"{runner.n_workers} worker(s)")
                rounds[0] = fitted
        power_targets: list[Candidate] = []
        carried: list[Candidate] = []
        may_violate = False  # the last round's decision: the next one may show a violation
        for r, N in enumerate(rounds):
            started, calls0 = time.perf_counter(), runner.calls
            if power_targets:  # a round for power alone: the last round's events, every sample estimating them
                info, chosen = power_round(aud, r, power_targets, N, alpha_round)
            else:
                # a batch sampler's later round that may show a violation searches its pairs again among the last
                # search's best, on its larger pilot (Alg 4 reading the gap as if 100 chunks voted: pairs of exact
                # loss 8.08 and 9.17 against 8 rank in either order on the first round's pilot); a round run for
                # power alone keeps the pairs (the search costs a wide output's reference 30 s)
                again = may_violate and aud.runner.batched and len(aud.contenders) > len(kept or [])
                info, chosen, kept = aud.run_round(r, N, alpha_round, None if again else kept, carried=carried,
                                                   contenders=aud.contenders if again else None)
            seconds_per_sample = (time.perf_counter() - started) / N
            # wall seconds a run (each side's, each pair's, the selection's share included) as this round went
            wall_per_run = (time.perf_counter() - started) / max(runner.calls - calls0, 1)
            result.samples_per_side += N
            all_chosen += chosen
            info["candidates"] = len(chosen)
            if r == 0 and search_record is not None:
                info["line_search"] = search_record
            result.rounds.append(info)
            if any(c.eps_lb > aud.claims[c.pair_index].value + TOLERANCE for c in chosen):
                break
            if r + 1 == len(rounds) or not chosen:
                break
            # the next round runs when it may show a violation (its predicted bound is above the
            # claim) or when this one had no power (a loss AUDIT_RESOLUTION above the claim could
            # not have been shown); it is then sized for power, within the round cap
            def outlook(c: Candidate, n_next: int = rounds[r + 1] - max(rounds[r + 1] // 3, 200)) -> tuple[float, float]:
                """The bound c's event predicts on the next round's estimation, and the bar it must pass for
                that round to run (ESCALATE_MARGIN times its claim; a rare event of a batch sampler or of the pair
                kept at the largest claim for a one-sided output, BATCHED_ESCALATE_MARGIN times)."""
                k_num, k_den = (c.k1, c.k2) if c.orient == 1 else (c.k2, c.k1)
                claim = aud.claims[c.pair_index]
                rare = k_den <= RARE_COUNT and (aud.runner.batched or c.pair_index in aud.one_sided_far)
                margin = BATCHED_ESCALATE_MARGIN if rare else ESCALATE_MARGIN
                return (float(claim.predicted(k_num / c.n, k_den / c.n, n_next, alpha_round / K_MAX)),
                        claim.value * margin + TOLERANCE)

            # any chosen event, not only the best bound so far: a structural zero at a large claim (epsilon 8)
            # bounds less than an event near a small claim on this round and more on the next
            best = max(chosen, key=lambda c: aud.relative(c, c.eps_lb))
            info["predicted_next"] = outlook(best)[0]
            rising = [c for c in chosen if operator.gt(*outlook(c))]
            may_violate = bool(rising)
            power = _power(aud, aud.at_point(all_chosen))
            power_targets, carried = [], []
            final = power_last and r + 2 == len(rounds)  # the next round is the one for power alone
            if power["ratio"] > 1 + power["resolution"]:
                if (may_violate or aud.runner.batched) and not final:
                    # a full round, at least as large as power needs: its selection on more samples finds events
                    # (rarer, of higher loss) the last one could not score; batched samples are cheap. The event
                    # it is sized for is estimated there too (its selection may choose weaker ones)
                    rounds[r + 1] = max(rounds[r + 1], _power_samples(aud, power["candidate"], alpha_round, N,
                                                                      round_cap))
                    carried = [power["candidate"]]
                else:  # per-call code, only power short: its most sensitive event once more, on as many fresh
                    power_targets = [power["candidate"]]  # samples as power needs (a third of a full round's)
                    rounds[r + 1] = _power_samples(aud, power["candidate"], alpha_round, N, round_cap, estimated=1)
                info["power_short"] = {"minimum_detectable_epsilon": power["epsilon"], "claim": power["claim"],
                                       "next_round_samples": rounds[r + 1]}
            elif final or not may_violate:
                break
            elif not aud.runner.batched and best not in rising:
                # per-call code whose best event does not rise: the events that do, once more on the next
                # round's fresh samples, without a selection (a third of a full round's runs, their pairs only)
                power_targets = rising
            if o.time_budget:  # what fits in the budget's rest at this round's pace (a fifth kept in reserve); a round
                # for power alone draws two runs a sample (one pair) at one worker's measured pace (a side's call of
                # fewer runs than a worker task holds runs on one worker), and a per-call function's replay
                rest = 0.8 * (o.time_budget - (time.perf_counter() - t0))
                if power_targets and pace is not None:  # (a time budget always measures the pace)
                    fits = int((rest - replayed * pace) / (2 * pace))
                else:
                    fits = int(rest / seconds_per_sample)
                info["time_budget_fits"] = fits
                if fits < max(300, N):
                    break
                rounds[r + 1] = min(rounds[r + 1], fits)
            elif not aud.runner.batched and (took := _round_seconds(aud, rounds[r + 1], bool(power_targets), kept, pace,
                                                                    seconds_per_sample)) > CALL_ROUND_SECONDS:
                # slow per-call code: a round that would outlast an item's time limits is not started; the
                # verdict says what it would have needed (no power, with the samples and seconds)
                info["skipped_round"] = {"samples_per_side": rounds[r + 1], "seconds": took}
                break
        if agree:
            result.agreement = check_agreement(aud, agreement_pairs(aud, all_chosen, screen(aud)), alpha_agree,
                                               timed=bool(o.time_budget))
        if diverge and all_chosen:
            result.divergence = divergence_round(aud, all_chosen, max(rounds), alpha_diverge)
        if confirm and all_chosen and may_confirm(aud, all_chosen, TOLERANCE):
            # streams of rounds len(rounds) + 2 and + 3: the tight round's are len(rounds) and + 1
            final, info = confirmation_round(aud, len(rounds) + 2, max(rounds), all_chosen, alpha_confirm,
                                             MIN_BATCHED_SAMPLES, seconds_per_sample, TOLERANCE)
            info["round"] = len(result.rounds) + 1
            result.samples_per_side += info["samples_per_side"]
            result.rounds.append(info)
            if final is not None:
                all_chosen.append(final)
        if o.tight and all_chosen:
            final, info = tight_round(aud, all_chosen, rounds, alpha_round, MIN_BATCHED_SAMPLES)
            all_chosen.append(final)
            result.samples_per_side += info["samples_per_side"]
            result.rounds.append(info)
    except ImplementationError as exc:
        result.verdict, result.reason = IMPL_ERROR, exc.reason
    finally:
        aud.close()
        runner.close()
        bar.close()
    main_cpu = time.thread_time() - cpu0
    result.timing = {"selection": aud.cpu["selection"], "sampling": runner.cpu_seconds, "counting": aud.cpu["counting"],
                     "statistics": max(main_cpu - aud.main_cpu - runner.cpu_by_thread.get(aud._main, 0.0), 0.0)}
    if aud.remote["batches"]:
        result.timing["elsewhere"] = dict(aud.remote)  # estimation batches sampled and counted on Dask workers
    result.events_tried = aud.events_tried
    result.pairs_tried = len(aud.pairs)
    result.pairs = [{**p.to_json(), "claim": aud.claims[i].to_json()} for i, p in enumerate(aud.pairs)]
    result.runs = runner.calls + aud.remote["runs"]
    result.samples_per_second = runner.calls / runner.cpu_seconds if runner.cpu_seconds > 0 else None
    if o.exact:
        cpu_exact = time.thread_time()
        _attach_exact(spec, aud, result, all_chosen)
        result.timing["exact"] = time.thread_time() - cpu_exact
    result.candidates = [_candidate_json(aud, c) for c in all_chosen]
    if all_chosen:
        violating = [c for c in all_chosen if c.eps_lb > aud.claims[c.pair_index].value + TOLERANCE]
        best = max(violating or aud.at_point(all_chosen), key=lambda c: aud.relative(c, c.eps_lb))
        result.best = _candidate_json(aud, best)
        # the bound, its exact value and its claim all belong to one candidate: the one furthest above its own
        # pair's claim, as a fraction of it (pairs at other parameter points claim other epsilons); without a
        # violation, the one at the audit's own point furthest up
        result.epsilon_lower_bound = max(0.0, best.eps_lb)
        result.tradeoff = _tradeoff(spec, aud, best) if o.exact else None
        result.exact_epsilon = aud.pairs[best.pair_index].extra.get("exact_epsilon")
        result.claim = aud.claims[best.pair_index].to_json()
        if result.verdict != IMPL_ERROR and best.eps_lb > aud.claims[best.pair_index].value + TOLERANCE:
            result.verdict = VIOLATION
            result.counterexample = result.best
        elif result.verdict == NO_VIOLATION and result.implementation != spec.implementation:
            above = [c for c in all_chosen if _exceeds_exact(aud, c)]
            if above:
                result.verdict = DIFFERS
                shown = max(above, key=lambda c: c.eps_lb)
                result.counterexample = _candidate_json(aud, shown)
                # the verdict's numbers are the counterexample's, as its claim and point are: its bound, its pair's
                # exact loss (a bound at epsilon = 1 printed beside the claim of a pair at epsilon = 8 read as 0.11x)
                result.epsilon_lower_bound = max(0.0, shown.eps_lb)
                result.exact_epsilon = aud.pairs[shown.pair_index].extra.get("exact_epsilon")
                result.claim = aud.claims[shown.pair_index].to_json()
        power = _power(aud, aud.at_point(all_chosen))
        result.power = {"minimum_detectable_epsilon": power["epsilon"], "claim": power["claim"],
                        "resolution": power["resolution"], "pair": aud.pairs[power["candidate"].pair_index].name,
                        "event": power["candidate"].event.describe(power["candidate"].featurizer)}
    if result.divergence is not None:
        _divergence_verdict(result, aud.claims[0])
    elif result.verdict == NO_VIOLATION and not (all_chosen and _has_power(_power(aud, aud.at_point(all_chosen)))):
        result.verdict = NO_POWER
    if result.verdict == NO_POWER and result.power is not None and all_chosen:
        # what would reach power: the samples a side its most sensitive event needs, and their time at this pace
        power = _power(aud, aud.at_point(all_chosen))
        needed = _power_samples(aud, power["candidate"], alpha_round, result.samples_per_side, POWER_MAX_SAMPLES * 10,
                                target=1.0)
        if needed < POWER_MAX_SAMPLES * 10:
            result.power["samples_for_power"] = needed
            # (a measurement, with the timings): a round for power alone (two runs a sample), at one worker's pace
            result.timing["seconds_for_power"] = ((2 * needed + replayed) * pace if pace is not None
                                                  else 2 * needed * wall_per_run)
    result.seconds = time.perf_counter() - t0
    return result



PACE_STREAM = 0x9ACE  # the pace sample's own stream (its runs are not used by the audit)
PACE_RUNS = {False: 200, True: 2000}  # runs of the pace sample: a single-run function, a batch sampler
PACE_SECONDS = 1.0  # a batch sampler's larger pace call (10x the runs) is made when it takes at most this
SLOW_NOTE_SECONDS = 20.0  # a first round expected to take longer than this gets a note


def _pace(runner: Runner, pair: Pair, seed: int) -> float:
    """Wall seconds per run of a user implementation on one worker (small samples from a stream of its own,
    one worker task; a batch sampler's pace is per run of one call). A call of 2 runs goes first: a worker's
    first task pays its start (imports, a sandbox's set-up), tens of ms that made a 73 ns a run batch sampler
    look like 19.8 us a run. A batch sampler is timed on a call 10 times as large too, when that takes at most
    PACE_SECONDS at the first call's pace (a call's fixed cost, a worker's round trip, is most of 2,000 runs),
    twice; the least pace a run counts."""
    rng = np.random.default_rng([int(seed), PACE_STREAM])

    def per_run(runs: int) -> float:
        started = time.perf_counter()
        runner.sample(pair.data, runs, rng=rng, params=pair.params)
        return (time.perf_counter() - started) / runs

    per_run(2)
    n = PACE_RUNS[runner.batched]
    pace = per_run(n)
    if runner.batched and 10 * n * pace <= PACE_SECONDS:  # twice: on a loaded machine one call can wait 10x
        pace = min(pace, per_run(10 * n), per_run(10 * n))
    return pace


def _first_round_runs(n: int, n_pairs: int) -> int:
    """About how many runs (both sides, every pair) a first round of ``n`` samples per side draws:
    the pair search's pilot samples, then training on the kept pairs and estimation on at most
    K_MAX candidates' pairs (rounds.Auditor.run_round)."""
    from .rounds import KEEP_PAIRS, PILOT_PAIRS, SHORT_PAIR_LIST

    train, test = max(n // 3, 200), max(n - max(n // 3, 200), 200)
    kept = n_pairs if n_pairs <= SHORT_PAIR_LIST else KEEP_PAIRS
    pilot = 0 if n_pairs <= SHORT_PAIR_LIST else n_pairs * min(train, max(n // 20 * PILOT_PAIRS // max(n_pairs, PILOT_PAIRS), 2000))
    return 2 * (pilot + kept * train + min(kept, K_MAX) * test)


def _first_round_within(n: int, n_pairs: int, pace: float, workers: int, seconds: float) -> int:
    """The largest first round of at most ``n`` samples a side (at least 300, the least a round draws) whose
    runs (:func:`_first_round_runs`) take at most ``seconds`` at ``pace`` on ``workers``."""
    def fits(m: int) -> bool:
        return _first_round_runs(m, n_pairs) * pace / max(workers, 1) <= seconds

    if fits(n):
        return n
    lo, hi = 300, n
    while hi - lo > max(1, lo // 100):
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return lo


def _round_seconds(aud: Auditor, n: int, power_only: bool, kept: list[int] | None, pace: float | None,
                   seconds_per_sample: float) -> float:
    """About how long a per-call round of ``n`` samples a side takes: its runs (a round for power alone: one
    pair, both sides) at the measured pace on the implementation's workers; without a pace, at the last round's
    (which counted its selection and every pair it kept)."""
    if pace is None:
        return n * seconds_per_sample
    runs = 2 * n if power_only else _first_round_runs(n, len(kept) if kept else len(aud.pairs))
    return pace * runs / max(1 if aud.runner.batched else aud.runner.n_workers, 1)


def _slow_note(runner: Runner, ref: str, pace: float, runs: int) -> str | None:
    """One line when the first round will take longer than SLOW_NOTE_SECONDS: the pace, the runs,
    the time, and what makes it faster."""
    workers = runner.n_workers if not runner.batched else 1
    seconds = pace * runs / max(workers, 1)
    if seconds <= SLOW_NOTE_SECONDS:
        return None
    took = f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"
    if runner.batched:
        return (f"{ref}'s batch sampler takes {_per(pace)} a run: the first round's {runs:,} runs take about "
                f"{took}; set the sample size (--samples N) or a time budget (--time-budget S)")
    return (f"{ref} has no batch sampler: {_per(pace)} a call, the first round's {runs:,} calls take about "
            f"{took} on {workers} worker(s); a batch sampler (mechanism.batch = fn(data, n, *, rng, **params), see "
            "'dptestbed check --help') is much faster, or use more workers (--jobs N)")


def _per(seconds: float) -> str:
    """A short duration: 120 µs, 1.5 ms, 2 s."""
    return (f"{seconds * 1e6:.3g} µs" if seconds < 1e-3 else f"{seconds * 1e3:.3g} ms" if seconds < 1
            else f"{seconds:.3g} s")


def _power(aud: Auditor, chosen: list[Candidate]) -> dict:
    """The audit's power: among the estimated candidates, the one whose smallest detectable loss is
    closest to its pair's claim (``ratio`` = that loss / the claim; inf when none could show one); among equal
    ratios (none could, at a claim of 8), the one of the most probable numerator event, which a round sized for
    power reaches on the fewest samples (a valid pcq: 5.3e6 a side for one event, 3e7 for another)."""
    best, best_key, best_eps = None, (math.inf, 0.0), math.inf
    for c in chosen:
        claim = aud.claims[c.pair_index]
        p_num = (c.k1 if c.orient == 1 else c.k2) / c.n if c.n else 0.0
        mde = claim.minimum_detectable(p_num, c.n, c.alpha) if c.n else math.inf
        key = (mde / claim.value if claim.value > 0 else math.inf, -p_num)
        if best is None or key < best_key:
            best, best_key, best_eps = c, key, mde
    best_ratio = best_key[0]
    claim = aud.claims[best.pair_index] if best is not None else None
    return {"candidate": best, "ratio": best_ratio, "epsilon": best_eps, "claim": None if claim is None else claim.value,
            "resolution": AUDIT_RESOLUTION if claim is None else claim.resolution}


def _divergence_verdict(result: AuditResult, claim) -> None:
    """A Renyi-type claim's verdict from its divergence round (divergence.py) beside its events: a divergence
    bound above the claim is a violation (unless an event already showed one); the power is the round's."""
    d = result.divergence
    result.power = {"minimum_detectable_epsilon": d["minimum_detectable"], "claim": d["power_claim"],
                    "resolution": claim.resolution, "pair": d["pairs"][0]["pair"],
                    "event": f"the partition of {d['pairs'][0]['view']} into {d['pairs'][0]['cells']} cells"}
    if result.verdict in (NO_VIOLATION, DIFFERS) and d["bound"] > d["claim"] + TOLERANCE:
        result.verdict = VIOLATION
        result.epsilon_lower_bound = d["bound"]
        top = next(p for p in d["pairs"] if p["pair"] == d["pair"])
        result.counterexample = {"divergence": True, "pair": {"name": top["pair"]}, "event": result.power["event"],
                                 "epsilon_lower_bound": top["bound"], "claim": {**result.claim, claim.name: top["claim"]},
                                 "cells": top["cells"], "alpha": d["alpha"]}
    elif result.verdict == NO_VIOLATION:
        result.epsilon_lower_bound = max(result.epsilon_lower_bound, d["pairs"][0]["bound"])
        if not _has_power(result.power | {"ratio": d["minimum_detectable"] / d["power_claim"]}):
            result.verdict = NO_POWER


def _tradeoff(spec: Spec, aud: Auditor, c: Candidate) -> dict | None:
    """The trade-off curve of the best candidate's pair for the report (tradeoff.py): the estimated band from its
    scalar view's thresholds, the claimed curve, and the exact curve of the spec's mechanism where known (mu's
    G_mu, or the envelope of its exact epsilon at EXACT_CURVE_DELTAS)."""
    if c.curve_counts is None or not c.n:
        return None
    pair, claim = aud.pairs[c.pair_index], aud.claims[c.pair_index]
    exact = None
    try:
        if claim.kind == "gdp":
            mu = exact_profiles.exact_bound(spec, pair, claim)
            exact = None if mu is None else claimed_curve(Claim("gdp", mu))
        else:
            points = [(exact_profiles.exact_epsilon(spec, pair, d), d) for d in EXACT_CURVE_DELTAS]
            points = [(e, d) for e, d in points if e is not None and 0 < e < math.inf]
            exact = claimed_curve(Claim("curve", 1.0, points=tuple(points))) if points else None
    except Exception:  # noqa: BLE001 - an exact profile must never break an audit
        exact = None
    return {"pair": pair.name, "view": c.event.view, "alpha": GRID.tolist(), "claimed": claimed_curve(claim),
            "exact": exact, **estimated_points(c.curve_counts, c.n, c.orient)}


def _has_power(power: dict) -> bool:
    """The most sensitive candidate could have shown a loss its claim's resolution above the claim."""
    return power["ratio"] <= 1 + power["resolution"]


def _power_samples(aud: Auditor, c: Candidate, alpha: float, last: int, cap: int, target: float = POWER_TARGET,
                   estimated: int = 0) -> int:
    """Samples per side for a round on which candidate ``c``'s event (with its estimated numerator
    probability) could show a loss ``target`` of the claim's resolution above its pair's claim (POWER_TARGET when
    sizing a round: the next round chooses its events afresh, and its best for power may be a little weaker): the
    fewest on a geometric grid up to ``cap`` (``cap`` when none does). A full round (its events chosen on a third,
    up to K_MAX of them estimated on the rest) starts the grid at 1.5 x the ``last`` round; a power round
    (:func:`power_round`, ``estimated`` events on all its samples) at a tenth of it."""
    claim = aud.claims[c.pair_index]
    p_num = (c.k1 if c.orient == 1 else c.k2) / c.n if c.n else 0.0
    start = max(last // 10, 1000) if estimated else int(1.5 * last)
    for n in np.unique(np.geomspace(min(start, cap), cap, 24).astype(np.int64)):
        test, level = (int(n), alpha / estimated) if estimated else (int(n) - max(int(n) // 3, 200), alpha / K_MAX)
        if claim.minimum_detectable(p_num, test, level) <= (1 + target * claim.resolution) * claim.value:
            return int(n)
    return cap


def power_round(aud: Auditor, r: int, targets: list[Candidate], n: int, alpha: float) -> tuple[dict, list[Candidate]]:
    """Round ``r`` when only power was short: the ``targets`` (the last round's most sensitive event and its best
    bound's), events fixed before any of this round's samples exist, each estimated on ``n`` fresh samples per
    side of its pair (round ``r``'s estimation streams) at level ``alpha`` split between them. No selection:
    every sample estimates, which needs about a third of a full round's samples for the same power."""
    finals = estimate_anew(aud, r, targets, n, alpha)
    return ({"round": r + 1, "samples_per_side": n, "train": 0, "test": n, "alpha": alpha, "power_round": True,
             "kept_pairs": sorted({aud.pairs[c.pair_index].name for c in finals}), "K": len(finals),
             "eps_lb": max(c.eps_lb for c in finals)}, finals)


def _exceeds_exact(aud: Auditor, c: Candidate) -> bool:
    """The candidate's lower bound is above the spec mechanism's exact loss on its pair."""
    exact = aud.pairs[c.pair_index].extra.get("exact_epsilon")
    return exact is not None and math.isfinite(exact) and c.eps_lb > exact + TOLERANCE


def _attach_exact(spec: Spec, aud: Auditor, result: AuditResult, chosen: list[Candidate]) -> None:
    """Exact epsilon of every pair tried (pairs with a carried candidate first; the others only
    while the total stays under EXACT_BUDGET seconds)."""
    values = []
    wanted = sorted({c.pair_index for c in chosen})
    t0 = time.perf_counter()
    for i in wanted + [i for i in range(len(aud.pairs)) if i not in wanted]:
        pair = aud.pairs[i]
        if i not in wanted and time.perf_counter() - t0 > EXACT_BUDGET:
            break
        try:
            value = exact_profiles.exact_bound(spec, pair, aud.claims[i])
        except Exception as exc:  # noqa: BLE001 - an exact profile must never break an audit
            value = None
            pair.extra["exact_error"] = f"{type(exc).__name__}: {exc}"
        pair.extra["exact_epsilon"] = value
        result.pairs[i]["exact_epsilon"] = jsonable(value)
        if value is not None:
            values.append(value)
    result.exact_epsilon_max = max(values) if values else None
