"""The divergence round of an audit of a Renyi-type claim (rho-zCDP, Renyi DP): after the event rounds, the
Renyi divergences of the best pair's two output laws bounded from below on a partition of a view into cells
(:func:`divergence_round`).

Why. An event alone shows a Renyi divergence only through its own cell, far below the mechanism's divergence
(a Gaussian shift with rho = 0.5 shows at most 0.37 through any one event), so events alone can show a
violation of a rho or Renyi claim but never have power at it. A partition of the outputs into C cells loses
little (data processing: D_a(P||Q) >= D_a(P_cells||Q_cells)), and a lower confidence bound on each cell's
probability on each side bounds the partitioned divergence from below:

    D_a(P||Q) >= 1/(a - 1) ln sum_c p_lo(c)^a q_hi(c)^(1 - a)      (a > 1)

since every term grows with p and shrinks with q (a cell's term can only be smaller at the bounds, and a
sum of smaller non-negative terms is smaller; leaving a cell out only lowers it). Both directions, orders
a in ORDERS; rho_lb = max over them of D_a / a (a Renyi list: its own orders, max_i D_{a_i} / eps_i).

Cells. Quantile cells of the winning event's view on a fit quarter of the round's samples, tails refined
(levels reaching to CELL_MIN_COUNT runs), then neighbouring cells merged until each holds CELL_MIN_COUNT runs
of the fit sample on both sides (stable estimates); a view with few values has one cell per value.

Level. The round's share of the audit's alpha (DIVERGENCE_ALPHA_SHARE), set aside before the first round of
every audit of a Renyi-type claim, is split over the round's pairs and, within a pair, over the 4 C one-sided
Clopper-Pearson bounds (Bonferroni): every bound of every pair holds at once with probability at least
1 - share, whatever the orders tried.

Power: the bound's shrinkage under its confidence intervals, r = (plug-in divergence of the cells) / (its lower
bound), at the order and direction of the plug-in maximum; the smallest parameter the round could show above
the claim is claim x r (a mechanism whose partitioned divergence is that much above the claim has its lower
bound above the claim). The audit has power when that is within the claim's resolution.
"""

from __future__ import annotations

import math

import numpy as np

from ..base.stats import bonferroni, cp_lower, cp_upper
from .claims import Claim
from .events import Candidate
from .rounds import Auditor
from .views import as2d

DIVERGENCE_ALPHA_SHARE = 0.3  # of the audit's alpha, for a Renyi-type claim
DIVERGENCE_KEY = 0xD1E  # the round's streams: SeedSequence(seed, spawn_key=(DIVERGENCE_KEY, pair, side))
ORDERS = (1.25, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0)
CELLS = 48
CELL_MIN_COUNT = 200
MAX_PAIRS = 2
MIN_RUNS = 40_000


def divergence_claim(claim: Claim) -> bool:
    return claim.kind in ("zcdp", "renyi")


def _cells(view_fit: np.ndarray) -> np.ndarray | None:
    """Cell edges of a 1-D view (fit sample of both sides): None when the view has few values (one cell each)."""
    values = np.unique(view_fit)
    if values.size <= 256:
        return None
    n = view_fit.size
    tail = np.geomspace(CELL_MIN_COUNT / n, 0.5, CELLS // 2)
    levels = np.unique(np.concatenate([tail, 1 - tail]))
    return np.unique(np.quantile(view_fit, levels))


def _codes(s: np.ndarray, edges: np.ndarray | None, values: np.ndarray) -> np.ndarray:
    if edges is not None:
        return np.searchsorted(edges, s, "right")
    idx = np.clip(np.searchsorted(values, s), 0, max(values.size - 1, 0))
    return np.where(values[idx] == s, idx, values.size)  # an unseen value: a cell of its own


def _merged(k1: np.ndarray, k2: np.ndarray) -> np.ndarray:
    """Cell labels merging neighbouring cells until each holds CELL_MIN_COUNT of both fit counts."""
    labels, current, acc1, acc2 = np.empty(k1.size, dtype=np.int64), 0, 0, 0
    for c in range(k1.size):
        labels[c] = current
        acc1, acc2 = acc1 + k1[c], acc2 + k2[c]
        if acc1 >= CELL_MIN_COUNT and acc2 >= CELL_MIN_COUNT:
            current, acc1, acc2 = current + 1, 0, 0
    if current and (acc1 or acc2) and (acc1 < CELL_MIN_COUNT or acc2 < CELL_MIN_COUNT):
        labels[labels == current] = current - 1  # a short last group joins the one before
    return labels


def _orders(claim: Claim) -> tuple:
    return ORDERS if claim.kind == "zcdp" else tuple(a for a, _ in claim.points)


def _divergences(p: np.ndarray, q: np.ndarray, orders: tuple) -> np.ndarray:
    """D_a of cell laws p against q (sub-probabilities allowed) for every order a in ``orders``."""
    out = np.full(len(orders), -np.inf)
    for j, a in enumerate(orders):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            terms = np.where(p > 0, p ** a * q ** (1 - a), 0.0)
            total = float(np.sum(terms))
        if total > 0 and math.isfinite(total):
            out[j] = math.log(total) / (a - 1)
    return out


def _parameter(claim: Claim, d: np.ndarray) -> float:
    """The claim's parameter shown by divergences ``d`` at the claim's orders (:func:`_orders`): rho >= D_a / a;
    a Renyi list's scale >= D_{a_i} / eps_i."""
    if claim.kind == "zcdp":
        return float(np.max(d / np.array(ORDERS)))
    return float(np.max(d / np.array([e for _, e in claim.points])))


def divergence_round(aud: Auditor, chosen: list[Candidate], runs: int, alpha: float) -> dict:
    """The round (module doc) on the pairs of the best candidate at the audit's own point and of the best
    overall, ``runs`` fresh runs a side each (a quarter to fit the cells). Returns its record: per pair the
    bound, the plug-in, the order, the cells; overall ``bound``, ``claim``, ``pair`` and ``minimum_detectable``."""
    runs = max(int(runs), MIN_RUNS)
    best_here = max(aud.at_point(chosen), key=lambda c: aud.relative(c, c.eps_lb))
    best = max(chosen, key=lambda c: aud.relative(c, c.eps_lb))
    targets = [best_here] + ([best] if best.pair_index != best_here.pair_index else [])
    level = bonferroni(alpha, len(targets))
    record: dict = {"alpha": alpha, "runs": runs, "pairs": []}
    for c in targets:
        i, claim = c.pair_index, aud.claims[c.pair_index]
        pair = aud.pairs[i]
        x = [aud.runner.sample(side, runs, rng=np.random.default_rng(
            np.random.SeedSequence(aud.seed, spawn_key=(DIVERGENCE_KEY, i, k))), params=pair.params)
            for k, side in enumerate((pair.data, pair.neighbour))]
        fit = runs // 4
        view = c.event.view
        s = [c.featurizer.stat(view, as2d(xi)) for xi in x]
        pooled = np.concatenate([s[0][:fit], s[1][:fit]])
        edges = _cells(pooled)
        values = np.unique(pooled) if edges is None else np.empty(0)
        n_cells = (edges.size + 1) if edges is not None else values.size + 1
        fit_counts = [np.bincount(_codes(si[:fit], edges, values), minlength=n_cells) for si in s]
        labels = _merged(*fit_counts)
        k = [np.bincount(labels[_codes(si[fit:], edges, values)], minlength=int(labels.max()) + 1) for si in s]
        m = runs - fit
        cell_level = level / (4 * k[0].size)
        lo = [cp_lower(ki, m, cell_level) for ki in k]
        hi = [cp_upper(ki, m, cell_level) for ki in k]
        plug = [(ki + 0.5) / (m + 0.5 * ki.size) for ki in k]
        bounds, plugs = [], []
        for num, den in ((0, 1), (1, 0)):
            bounds.append(_parameter(claim, _divergences(lo[num], hi[den], _orders(claim))))
            plugs.append(_parameter(claim, _divergences(plug[num], plug[den], _orders(claim))))
        j = int(np.argmax(plugs))
        shown = max(bounds)
        shrink = plugs[j] / bounds[j] if bounds[j] > 0 else math.inf
        record["pairs"].append({"pair": pair.name, "view": view, "cells": int(k[0].size), "bound": shown,
                                "plug_in": max(plugs), "claim": claim.value,
                                "minimum_detectable": claim.value * shrink if math.isfinite(shrink) else math.inf})
    top = max(record["pairs"], key=lambda p: p["bound"] / p["claim"])
    here = record["pairs"][0]
    record.update(bound=top["bound"], claim=top["claim"], pair=top["pair"],
                  minimum_detectable=here["minimum_detectable"], power_claim=here["claim"])
    return record
