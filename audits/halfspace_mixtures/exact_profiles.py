"""Exact (white-box) privacy profile of A_LearnHalf on a pair: the two laws of g^ over G."""

from __future__ import annotations

import numpy as np

from dptestbed.audits.api import discrete_epsilon, register
from dptestbed.impl.halfspace_mixtures.learner import MAX_EXACT_LAW, exact_law, prepare

REFERENCE = "dptestbed.impl.halfspace_mixtures.learner:ppm_halfspace_learner"


def law_pair(data, neighbour, epsilon: float) -> tuple[np.ndarray, np.ndarray] | None:
    """P[g^ = g | D] and P[g^ = g | D'] for every g of G in canonical order; None when G is too
    large to enumerate or the pair is no PPM-neighbours. PPM-neighbours share the status bits and
    the public rows, hence G, its order and the output encoding of each member (``learner.to_output``)."""
    first, second = prepare(data), prepare(neighbour)
    same_public = np.array_equal(first.public, second.public) and np.array_equal(first.W, second.W)
    if not same_public or first.G_size > MAX_EXACT_LAW:
        return None
    return tuple(np.exp(exact_law(None, epsilon, inst)[1]) for inst in (first, second))


@register(REFERENCE)
def ppm_profile(data, neighbour, env, delta):
    """max over outputs g of |log P[g^ = g | D] - log P[g^ = g | D']| (at delta = 0)."""
    laws = law_pair(data, neighbour, float(env["epsilon"]))
    return None if laws is None else discrete_epsilon(*laws, delta)
