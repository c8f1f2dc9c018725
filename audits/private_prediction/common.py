"""Helpers shared by the seed-002 checks and errata: z = 5 Monte-Carlo intervals, controls that
name a mutant, and calibration cells of a binary output against an exact law."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from dptestbed.audits.experiments import Context, Control
from dptestbed.audits.theorems import NOISE_FUDGE, Cell

Z = 5.0   # CLT half-width multiplier: two-sided level 6e-7 per comparison
MUTANTS = "dptestbed.impl.private_prediction.mutants"


def mean_ci(values) -> tuple[float, float, float]:
    """(mean, mean - Z se, mean + Z se) of a Monte-Carlo sample."""
    v = np.asarray(values, dtype=float)
    m = float(v.mean())
    half = Z * float(v.std(ddof=1)) / math.sqrt(v.size)
    return m, m - half, m + half


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
