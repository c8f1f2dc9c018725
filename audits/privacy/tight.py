"""The tight round (``audit(..., tight=True)``): after the verdict's rounds, the best event of a
selection of its own and of the verdict's candidates is estimated once more on fresh samples, as
many as its estimated probabilities say the bound needs to come close to its loss."""

from __future__ import annotations

import math

import numpy as np

from ..base.stats import bonferroni, cp_lower, cp_upper
from .claims import Claim
from .estimation import estimate_candidates
from .events import Candidate
from .rounds import RANK_SHRINK, Auditor

TIGHT_TARGET = 0.98       # the tight round aims at this fraction of the winning event's estimated loss
TIGHT_MAX_SAMPLES = 30_000_000
TIGHT_KEEP_PAIRS = 4  # pairs the tight round's own selection keeps after its pair search
TIGHT_SELECTION_FACTOR = 3  # the tight round's own selection runs on this many times round 1's budget
TIGHT_MAX_ELEMENTS = 300_000_000  # output values per side in the tight round (sampled in chunks)


def tight_round(aud: Auditor, chosen: list[Candidate], rounds: list[int], alpha_round: float,
                min_samples: int) -> tuple[Candidate, dict]:
    """The tight round, after the verdict's ``rounds`` (samples per side of each): the winner of
    :func:`select_for_size` at the round's largest size ``cap`` is estimated once more on as many
    fresh samples as :func:`_tight_samples` says. ``cap``: TIGHT_MAX_SAMPLES, at least
    ``min_samples``, within TIGHT_MAX_ELEMENTS output values, for a batched implementation; 10 x the
    largest round for a looped one. Returns the estimated candidate and the round's record."""
    cap = (min(TIGHT_MAX_SAMPLES, max(min_samples, TIGHT_MAX_ELEMENTS // max(aud.width, 1)))
           if aud.runner.batched else 10 * max(rounds))
    r = len(rounds)
    best, (p1, p2), info = select_for_size(aud, chosen, r, rounds[0], alpha_round, cap, at_point=True)
    n = _tight_samples(p1, p2, aud.claims[best.pair_index], alpha_round, cap)
    final = estimate_once_more(aud, r, best, n, alpha_round)
    return final, {**info, "round": r + 1, "tight": True, "samples_per_side": n + info["train"], "test": n,
                   "alpha": alpha_round, "K": 1, "eps_lb": final.eps_lb, "candidates": 1}


def select_for_size(aud: Auditor, chosen: list[Candidate], r: int, first_round: int, alpha: float,
                    cap: int, at_point: bool = False) -> tuple[Candidate, tuple[float, float], dict]:
    """The best event for an estimation on ``cap`` fresh samples per side: the verdict's ``chosen``
    candidates (scored from their test estimates) against a selection of its own on fresh samples
    (round ``r + 1``'s streams, TIGHT_SELECTION_FACTOR x ``first_round`` samples), its events scored
    for ``cap`` (a rare event of high loss wins there and not at the verdict's size). Returns the
    winner, its estimated probabilities (numerator side first) and the selection's record. Candidates are
    compared by their bound as a fraction of their pair's claim; ``at_point``: only those at the audit's own
    parameter point (:meth:`.rounds.Auditor.at_point`; the tight round's bound is the verdict's)."""
    info, fresh, _ = aud.run_round(r + 1, TIGHT_SELECTION_FACTOR * first_round, alpha, None,
                                   score_n=cap, keep_pairs=TIGHT_KEEP_PAIRS, estimate=False, at_point=at_point)
    pick = aud.at_point if at_point else list
    scored = [(aud.relative(c, _bound_at(c, aud.claims[c.pair_index], alpha, cap)), c, True) for c in pick(chosen)]
    scored += [(aud.relative(c, c.rank_score), c, False) for c in pick(fresh)]
    _, best, tested = max(scored, key=lambda t: t[0])
    p1, p2 = (np.array((best.k1, best.k2)[:: best.orient]) / best.n) if tested else best.rank_p
    return best, (float(p1), float(p2)), {"train": info["train"], "kept_pairs": info["kept_pairs"],
                                          "selected_for_tight_round": not tested}


def estimate_once_more(aud: Auditor, r: int, c: Candidate, n: int, alpha: float) -> Candidate:
    """Candidate ``c``'s event estimated on ``n`` fresh samples per side (round ``r``'s estimation
    streams), alone at level ``alpha``."""
    return estimate_anew(aud, r, [c], n, alpha)[0]


def estimate_anew(aud: Auditor, r: int, chosen: list[Candidate], n: int, alpha: float) -> list[Candidate]:
    """The ``chosen`` candidates' events (fixed before round ``r``'s samples exist) estimated on ``n`` fresh
    samples per side of their pairs (round ``r``'s estimation streams), at level ``alpha`` split between them."""
    finals = [c.anew() for c in chosen]
    estimate_candidates(aud, r, finals, n, bonferroni(alpha, len(finals)), aud.width, replay=aud.replay)
    return finals


def _bound_at(c: Candidate, claim: Claim, alpha: float, n: int) -> float:
    """The bound the candidate would give on ``n`` fresh samples per side, predicted from its
    estimated probabilities shrunk to their one-sigma bounds (which candidate wins at the tight
    round's size: not always the one with the best bound at the verdict's size)."""
    k_num, k_den = (c.k1, c.k2) if c.orient == 1 else (c.k2, c.k1)
    return float(claim.predicted(cp_lower(k_num, c.n, RANK_SHRINK), cp_upper(k_den, c.n, RANK_SHRINK), n, alpha))


def _tight_samples(p1: float, p2: float, claim: Claim, alpha: float, cap: int) -> int:
    """Samples per side for the tight round: the fewest on a geometric grid (from 10^6, at most
    ``cap``) at which the bound of an event with estimated probabilities ``p1`` (numerator side)
    and ``p2`` reaches TIGHT_TARGET of its plug-in bound (the claim's bound at the probabilities
    themselves: ln((p1 - delta)/p2) for an (epsilon, delta) claim); ``cap`` when none does (or p2 = 0)."""
    plug = float(claim.bound(p1, p2))
    if not (p2 > 0 and math.isfinite(plug) and plug > 0):
        return cap
    for n in np.unique(np.geomspace(min(10**6, cap), cap, 12).astype(np.int64)):
        if float(claim.predicted(p1, p2, int(n), alpha)) >= TIGHT_TARGET * plug:
            return int(n)
    return cap

