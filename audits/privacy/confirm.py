"""The confirmation round: after the verdict's rounds of an automatic audit of a batch sampler, when
no candidate's bound is above its claim but one's estimated loss is, the best event for a large
sample (:func:`.tight.select_for_size`) is estimated once more on as many fresh samples as fit in
CONFIRM_MAX_SECONDS (up to CONFIRM_MAX_SAMPLES per side), when its estimated probabilities predict
its bound above the claim there.

Level. The round's share of the audit's alpha (CONFIRM_ALPHA_SHARE) is set aside before the first
round, whenever the implementation is batched and the rounds are automatic, whether the round runs
or not: the rounds' levels sum to the audit's alpha, and the verdict's guarantee is unchanged. An
event of a correct mechanism has a loss at most its claim, so the round runs on a correct one only
when its estimates are high by chance, and its bound then still holds at its level.

Why. An (epsilon, delta) claim is shown broken on an event of probability a few times delta: the
Gaussian mechanism with a standard deviation 1.5 times too small at epsilon = 0.99, delta = 1e-5 has
loss 1.16, and the verdict's rounds (8 million samples a side) bound it at 0.95-0.99 against 0.99."""

from __future__ import annotations

from ..base.stats import cp_lower, cp_upper
from .events import Candidate
from .rounds import RANK_SHRINK, Auditor
from .tight import TIGHT_KEEP_PAIRS, TIGHT_SELECTION_FACTOR, estimate_once_more, select_for_size

CONFIRM_ALPHA_SHARE = 0.1  # of the audit's alpha, set aside for the round before the first round
CONFIRM_MAX_SAMPLES = 300_000_000  # samples per side, at most
CONFIRM_MAX_ELEMENTS = 400_000_000  # output values per side, at most (sampled in chunks)
CONFIRM_MAX_SECONDS = 60.0  # the round's estimation, at the last round's pace
CONFIRM_MARGIN = 1.05  # the round runs when an estimated loss is this far above the claim (and its shrunk prediction above it)


def may_confirm(aud: Auditor, chosen: list[Candidate], tolerance: float) -> bool:
    """No candidate's bound is above its claim, and one's estimated loss (its bound at the estimated
    probabilities themselves, ln((p1 - delta)/p2) for an (epsilon, delta) claim) is CONFIRM_MARGIN times its
    claim or more."""
    if any(c.eps_lb > aud.claims[c.pair_index].value + tolerance for c in chosen):
        return False
    for c in chosen:
        claim = aud.claims[c.pair_index]
        k_num, k_den = (c.k1, c.k2) if c.orient == 1 else (c.k2, c.k1)
        if c.n and float(claim.bound(k_num / c.n, k_den / c.n)) >= CONFIRM_MARGIN * claim.value + tolerance:
            return True
    return False


def confirmation_round(aud: Auditor, r: int, base: int, chosen: list[Candidate], alpha: float, min_samples: int,
                       seconds_per_sample: float, tolerance: float) -> tuple[Candidate | None, dict]:
    """The round on the streams of rounds ``r`` (estimation) and ``r + 1`` (its selection, on
    TIGHT_SELECTION_FACTOR x ``base`` samples), which no other round uses. Its size: as many samples
    as fit in CONFIRM_MAX_SECONDS at ``seconds_per_sample`` (the last round's pace), at most
    CONFIRM_MAX_SAMPLES and CONFIRM_MAX_ELEMENTS output values per side. Returns the estimated candidate
    (None when the winner's probabilities, shrunk to their one-sigma bounds, do not predict a bound
    above its claim at that size: nothing is estimated) and the round's record."""
    n = int(min(CONFIRM_MAX_SAMPLES, CONFIRM_MAX_ELEMENTS // max(aud.width, 1),
                CONFIRM_MAX_SECONDS / max(seconds_per_sample, 1e-12)))
    record = {"confirmation": True, "alpha": alpha, "K": 0, "candidates": 0, "train": 0, "test": 0,
              "samples_per_side": 0, "eps_lb": None}
    if n < min_samples:
        return None, {**record, "skipped": f"{n:,} samples per side fit in {CONFIRM_MAX_SECONDS:.0f} s"}
    # the selection's training (a third of its budget, both sides, up to TIGHT_KEEP_PAIRS pairs) within the same time
    base = int(min(base, n * 3 / (2 * TIGHT_KEEP_PAIRS * TIGHT_SELECTION_FACTOR)))
    best, (p1, p2), info = select_for_size(aud, chosen, r, base, alpha, n)
    record.update(train=info["train"], kept_pairs=info["kept_pairs"], samples_per_side=info["train"])
    claim = aud.claims[best.pair_index]
    seen = best.n or info["train"] // 2  # the rank half of the selection's training split
    shrunk1, shrunk2 = cp_lower(round(p1 * seen), seen, RANK_SHRINK), cp_upper(round(p2 * seen), seen, RANK_SHRINK)
    predicted = float(claim.predicted(shrunk1, shrunk2, n, alpha))
    if not predicted > claim.value + tolerance:
        return None, {**record, "skipped": f"predicted bound {predicted:.3g} at {n:,} samples per side, "
                                           f"claim {claim.value:g}"}
    final = estimate_once_more(aud, r, best, n, alpha)
    return final, {**record, "K": 1, "candidates": 1, "test": n, "samples_per_side": n + info["train"],
                   "eps_lb": final.eps_lb}
