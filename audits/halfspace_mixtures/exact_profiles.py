"""Exact (white-box) privacy profile of A_LearnHalf on a pair: the two laws of g^ over G."""

from __future__ import annotations

import numpy as np

from dptestbed.audits.exact import discrete_epsilon, register
from dptestbed.impl.halfspace_mixtures.learner import MAX_EXACT_LAW, exact_law, prepare

REFERENCE = "dptestbed.impl.halfspace_mixtures.learner:ppm_halfspace_learner"


def law_pair(data, neighbour, epsilon: float) -> tuple[np.ndarray, np.ndarray] | None:
    """P[g^ = J | D] and P[g^ = J | D'] on the union of both supports (J as the output label);
    None when G is too large to enumerate."""
    first, second = prepare(data), prepare(neighbour)
    if max(first.G_size, second.G_size) > MAX_EXACT_LAW:
        return None
    outcomes: dict[tuple, list[float]] = {}
    for side, inst in enumerate((first, second)):
        J, lp = exact_law(None, epsilon, inst)
        for j, v in zip(map(tuple, J), np.exp(lp)):
            outcomes.setdefault(j, [0.0, 0.0])[side] += v
    p, q = np.array(list(outcomes.values())).T
    return p, q


@register(REFERENCE)
def ppm_profile(data, neighbour, env, delta):
    """max over outputs J of |log P[g^ = J | D] - log P[g^ = J | D']| (at delta = 0)."""
    laws = law_pair(data, neighbour, float(env["epsilon"]))
    return None if laws is None else discrete_epsilon(*laws, delta)
