"""The batch sampler's agreement with the function users call: an implementation's ``fn`` is the
implementation, and ``fn.batch`` only an accelerator that the audit samples in bulk; it is trusted
once it is shown to have ``fn``'s law on the pairs the verdict rests on (:func:`check_agreement`).

Method. For each of the audit's decisive pairs (the pairs of its estimated candidates, and its first
pair) and the pair on which a screen of every pair saw the two samplers differ most (:func:`screen`), and
each side, ``n`` runs of the single-run function (one call per run, in the sandboxed workers) and ``n`` runs of the batch sampler, each from a stream of its own, are compared as an
audit compares the two sides of a pair: on the first half of each sample the most distinguishing event
is selected (every view and event family of the privacy audit, delta = 0, both orientations); on the
second half its two counts give a Clopper-Pearson lower bound on ln(P_fn(E) / P_batch(E)) (or the
reverse); a bound above 0 shows the two laws differ. A disagreement is an implementation error naming
the pair, the side and the event: the batch sampler's measurements say nothing of the function.

Level. The check's share of the audit's alpha (AGREEMENT_ALPHA_SHARE) is set aside before the first
round whenever an untrusted batch sampler is audited, and split equally (Bonferroni) over the
(pair, side) comparisons; so a batch sampler with ``fn``'s law is called disagreeing with
probability at most that share, and the audit's family-wise level is unchanged."""

from __future__ import annotations

import math
import time

import numpy as np

from ..base.stats import bonferroni
from ..sandbox.runner import ImplementationError
from .claims import Claim
from .events import Candidate
from .rounds import Auditor

AGREEMENT_ALPHA_SHARE = 0.1  # of the audit's alpha, set aside before the first round
AGREEMENT_RUNS = 10_000  # runs of each sampler per pair side (halved: selection, then the test)
AGREEMENT_MIN_RUNS = 2_000
AGREEMENT_MAX_PAIRS = 2
AGREEMENT_MAX_SECONDS = 20.0  # under a time budget: the single-run function's share, at its measured pace
SAME_LAW = Claim("dp", 0.0)  # two laws agree iff every event's epsilon at delta 0 is 0
SCREEN_RUNS = 200  # runs of each sampler per pair side in the screen (:func:`screen`)
SCREEN_SECONDS = 10.0  # ... over the pairs until this many seconds have passed
SCREEN_LEVEL = 0.01  # ... scored as a test at this level would
AGREEMENT_KEY = 0xA9EE  # the check's streams: SeedSequence(seed, spawn_key=(AGREEMENT_KEY, pair, side, sampler))


def agreement_pairs(aud: Auditor, chosen: list[Candidate], screened: int | None = None) -> list[int]:
    """The pairs the check compares: those of the estimated candidates, best first, then the first pair; and the
    pair on which the screen (:func:`screen`) saw the two samplers differ most."""
    order = [c.pair_index for c in sorted(chosen, key=lambda c: -aud.relative(c, c.eps_lb))] + [0]
    decisive = list(dict.fromkeys(order))[:AGREEMENT_MAX_PAIRS]
    return decisive + ([screened] if screened is not None and screened not in decisive else [])


def screen(aud: Auditor) -> int | None:
    """The pair (its index) on whose sides ``fn`` and ``fn.batch`` differ most on SCREEN_RUNS runs each, over every
    pair of the audit within SCREEN_SECONDS of calls of ``fn`` (the first pairs first), or None. The decisive pairs
    are where the batch sampler's law matters to the verdict; but a function that takes another path on some inputs
    (a shortcut above 64 distinct items, behind a batch sampler that is right everywhere) differs on a pair the
    audit, sampling the batch, has no reason to keep. A pilot: its runs, from streams of their own, only choose the
    pair the check then compares afresh at its level."""
    runner, best, top = aud.runner, None, 0.0
    t0 = time.perf_counter()
    for i, pair in enumerate(aud.pairs):
        if time.perf_counter() - t0 > SCREEN_SECONDS:
            break
        for side in (0, 1):
            data = pair.data if side == 0 else pair.neighbour
            try:
                calls = runner.sample(data, SCREEN_RUNS, rng=_rng(aud, i, side, 10), params=pair.params, per_call=True)
                batch = runner.sample(data, SCREEN_RUNS, rng=_rng(aud, i, side, 11), params=pair.params)
            except ImplementationError:
                continue  # (an input it refuses: the audit's own phases say so)
            if calls.shape[1:] != batch.shape[1:]:
                return i
            h = SCREEN_RUNS // 2
            cands = [c for c in aud.select(i, calls, batch, h, SCREEN_LEVEL, pilot=True, claim=SAME_LAW)
                     if np.isfinite(c.rank_score)]
            score = max((c.rank_score for c in cands), default=-math.inf)
            if score > top:
                best, top = i, score
    return best


def check_agreement(aud: Auditor, pairs: list[int], alpha: float, timed: bool = False) -> dict:
    """Compare ``fn`` with ``fn.batch`` on both sides of ``pairs`` (module doc) at family-wise level
    ``alpha``; raise :class:`ImplementationError` on a disagreement. Returns the check's record. Each
    comparison draws AGREEMENT_RUNS runs of each sampler; ``timed`` (an audit under a time budget): as many as
    fit in AGREEMENT_MAX_SECONDS at the function's measured pace (at least AGREEMENT_MIN_RUNS)."""
    runner = aud.runner
    comparisons = [(i, side) for i in pairs for side in (0, 1)]
    level = bonferroni(alpha, len(comparisons))
    n = AGREEMENT_RUNS
    if timed:  # the single-run function's pace, on a first small sample (one task per worker)
        probe = max(200, runner.n_workers * 100)
        t0 = time.perf_counter()
        runner.sample(aud.pairs[pairs[0]].data, probe, rng=_rng(aud, pairs[0], 0, 2),
                      params=aud.pairs[pairs[0]].params, per_call=True)
        pace = (time.perf_counter() - t0) / probe
        n = int(min(n, max(AGREEMENT_MIN_RUNS, AGREEMENT_MAX_SECONDS / max(pace, 1e-9) / len(comparisons))))
    n -= n % 2
    record = {"alpha": alpha, "runs": n, "comparisons": len(comparisons), "worst": None}
    worst = -math.inf
    for i, side in comparisons:
        pair = aud.pairs[i]
        data = pair.data if side == 0 else pair.neighbour
        calls = runner.sample(data, n, rng=_rng(aud, i, side, 0), params=pair.params, per_call=True)
        batch = runner.sample(data, n, rng=_rng(aud, i, side, 1), params=pair.params)
        if calls.shape[1:] != batch.shape[1:]:
            raise ImplementationError(
                f"the batch sampler disagrees with the function: on pair {pair.name} ({_side(side)}) each output of "
                f"the function has shape {calls.shape[1:]}, each of the batch sampler {batch.shape[1:]}")
        h = n // 2
        cands = aud.select(i, calls[:h], batch[:h], h, level, claim=SAME_LAW)
        cands = [c for c in cands if np.isfinite(c.rank_score)]
        if not cands:
            continue
        best = max(cands, key=lambda c: c.rank_score)
        view = best.event.view
        k_calls = best.event.count(best.featurizer.stat(view, calls[h:]))
        k_batch = best.event.count(best.featurizer.stat(view, batch[h:]))
        k_num, k_den = (k_calls, k_batch) if best.orient == 1 else (k_batch, k_calls)
        bound = float(SAME_LAW.bound_from_counts(k_num, n - h, k_den, n - h, level))
        worst = max(worst, bound)
        if bound > 0:
            described = best.event.describe(best.featurizer)
            raise ImplementationError(
                f"the batch sampler disagrees with the function users call: on pair {pair.name} ({_side(side)}) the "
                f"event {described} has frequency {k_calls / (n - h):.4g} in {n - h:,} calls of the function and "
                f"{k_batch / (n - h):.4g} in {n - h:,} runs of fn.batch (their ratio is at least e^{bound:.3g} at "
                f"level {level:.2g}): fn.batch must draw from fn's law (or remove it: the audit then calls fn)")
    record["worst"] = worst if math.isfinite(worst) else None
    return record


def _rng(aud: Auditor, i: int, side: int, sampler: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(aud.seed, spawn_key=(AGREEMENT_KEY, i, side, sampler)))


def _side(side: int) -> str:
    return "the data side" if side == 0 else "the neighbour side"
