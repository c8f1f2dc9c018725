"""Helpers shared by the seed-002 checks and errata: z = 5 Monte-Carlo intervals (errata only),
the randomized rounding that turns a claim on a mean into a bound check, controls that name a
mutant, and calibration cells of a binary output against an exact law."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from dptestbed.audits.api import NOISE_FUDGE, Cell, Context, Control

Z = 5.0   # CLT half-width multiplier: two-sided level 6e-7 per comparison
MUTANTS = "dptestbed.impl.private_prediction.mutants"


def mean_ci(values) -> tuple[float, float, float]:
    """(mean, mean - Z se, mean + Z se) of a Monte-Carlo sample."""
    v = np.asarray(values, dtype=float)
    m = float(v.mean())
    half = Z * float(v.std(ddof=1)) / math.sqrt(v.size)
    return m, m - half, m + half


def rounded(rng, values, cap: float) -> int:
    """Failures of the randomized rounding of ``values`` (each >= 0) capped at ``cap``: value v
    fails with probability min(v, cap)/cap (a uniform draw below it). The failure rate is
    E[min(V, cap)]/cap <= E[V]/cap, so a claim E[V] <= mu becomes the bound P[failure] <= mu/cap,
    which the exact binomial test decides with no assumption on V's law (its reference
    alternative, a failure rate 2 beta, is a capped mean twice the claim)."""
    v = np.asarray(values, dtype=float)
    if np.any(v < 0):
        raise ValueError("randomized rounding needs non-negative values")
    return int(np.sum(rng.random(v.size) * cap < np.minimum(v, cap)))


def mutant_control(name: str, description: str) -> Control:
    """A negative control that is one of this paper's declared mutants."""
    return Control(name, f"{MUTANTS}:{name}", description)


def label_cells(ctx: Context, cases, exact: Callable[[float, float], float]) -> list[Cell]:
    """For each (label, data, x): Pr[output == 1] of ``ctx.trials`` runs on data against
    ``exact(x, 1.0)``, with the reference alternatives ``exact(x, 1 +- NOISE_FUDGE)`` (a noise
    scale off by 30%)."""
    cells = []
    for label, data, x in cases:
        out = ctx.sample(data, ctx.trials)
        alts = tuple(float(exact(x, f)) for f in (1 + NOISE_FUDGE, 1 - NOISE_FUDGE))
        cells.append(Cell(label, ctx.trials, int(np.sum(out == 1)), float(exact(x, 1.0)), alts))
    return cells
