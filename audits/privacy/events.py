"""Events on one view and their search: threshold events, likelihood-ratio ordered unions of
outcomes, and floating-point support events, each scored by the bound it would give on the test
split (:func:`search_events`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..base.serialize import jsonable
from ..base.stats import best_predicted
from .claims import Claim
from .views import Featurizer, lookup, small_int_counts

MIN_SUPPORT_REPEATS = 4  # a continuous view with fewer repeated values has no support (and no atom) to test


@dataclass
class Event:
    view: str
    kind: str                 # "ge" | "le" | "in"
    threshold: float | None = None
    values: np.ndarray | None = None

    def indicator(self, s: np.ndarray) -> np.ndarray:
        if self.kind == "ge":
            return s >= self.threshold
        if self.kind == "le":
            return s <= self.threshold
        return lookup(self.values, s) > 0

    def count(self, s: np.ndarray, counted: tuple | None = None) -> int:
        """How many of ``s`` fall in the event; ``counted`` = ``(values, counts)`` of ``s``
        (sorted distinct values, as from :func:`small_int_counts`) counts without a pass over ``s``."""
        if counted is None:
            return int(np.count_nonzero(self.indicator(s)))
        values, k = counted
        if self.kind == "ge":
            return int(k[np.searchsorted(values, self.threshold, "left"):].sum())
        if self.kind == "le":
            return int(k[:np.searchsorted(values, self.threshold, "right")].sum())
        idx = np.clip(np.searchsorted(values, self.values), 0, len(values) - 1)
        return int(k[idx[values[idx] == self.values]].sum())

    def describe(self, featurizer: Featurizer | None = None) -> str:
        if self.kind in ("ge", "le"):
            op = ">=" if self.kind == "ge" else "<="
            return f"{self.view} {op} {self.threshold:.6g}"
        vals = self.values
        if self.view in ("row", "rowbin") and featurizer is not None:
            decode = featurizer.row_outcome if self.view == "row" else featurizer.rowbin_outcome
            rows = [decode(c) for c in vals[:8]]
            shown = ", ".join(str(r) for r in rows)
            if any(r is None for r in rows):  # rows too long for an exact code are hashed: only the hash is known
                shown = ", ".join(f"hash {int(c)}" for c in vals[:8])
                return (f"{self.view} in {{{shown}{f', ... ({len(vals)} outcomes)' if len(vals) > 8 else ''}}} "
                        "(rows too long to code exactly: each outcome is a hash of the integer entries)")
        else:
            shown = ", ".join(f"{v:.6g}" for v in np.asarray(vals[:8], dtype=float))
        more = f", ... ({len(vals)} outcomes)" if len(vals) > 8 else ""
        return f"{self.view} in {{{shown}{more}}}"

    def to_json(self, featurizer: Featurizer | None = None) -> dict:
        out = {"view": self.view, "kind": self.kind, "description": self.describe(featurizer)}
        if self.kind in ("ge", "le"):
            out["threshold"] = float(self.threshold)
        else:
            out["size"] = int(len(self.values))
            if self.view in ("row", "rowbin") and featurizer is not None and len(self.values) <= 64:
                decode = featurizer.row_outcome if self.view == "row" else featurizer.rowbin_outcome
                out["outcomes"] = [decode(c) for c in self.values]
            elif len(self.values) <= 64:
                out["outcomes"] = [jsonable(v) for v in self.values]
        return out


def _threshold_grid(pooled_sorted: np.ndarray, values: np.ndarray | None, n_levels: int = 1024) -> np.ndarray:
    """Candidate thresholds: every distinct value when there are few, else quantiles of the
    pooled sample at levels reaching 1/n into both tails."""
    if values is not None and len(values) <= 2 * n_levels:
        return values
    n = pooled_sorted.size
    tail = np.geomspace(0.5 / n, 0.5, n_levels // 2)
    levels = np.unique(np.concatenate([tail, 1 - tail]))
    idx = np.clip((levels * n).astype(np.int64), 0, n - 1)
    return np.unique(pooled_sorted[idx])


def search_events(s1: np.ndarray | None, s2: np.ndarray | None, n_test: int, claim: Claim, alpha: float,
                  view: str = "value", discrete: bool | None = None, counted: tuple | None = None):
    """Best events on one 1-D view of the select half.

    ``s1``: statistic on D's outputs, ``s2``: on D''s; or ``counted`` = ``(values, k1, k2)``, the
    sorted distinct values and each side's count of each (then ``s1``, ``s2`` are not used).
    Returns ``(found, tried)``: ``found`` a list of ``(orientation, family, event,
    predicted_bound)``, orientation +1 meaning the event is more likely under D (D is the
    numerator side), -1 under D'; ``tried`` the number of events scored. (The selection runs it
    in two steps, :func:`view_groups` for every view and then one scoring call for all views.)
    """
    search = view_groups(s1, s2, view, discrete, counted)
    return view_events(search, best_predicted(search.groups, n_test, claim, alpha), n_test, claim, alpha)


@dataclass
class ViewSearch:
    """One view's candidate events, grouped for scoring (:func:`..base.stats.best_predicted`)."""
    view: str
    groups: list          # (p1, p2) arrays per group: the events' probabilities on each side
    shapes: list          # (orientation, kind, order of the values for "in") per group
    grid: np.ndarray      # thresholds
    values: np.ndarray | None
    tried: int
    sorted_sides: tuple | None  # (a, b), the sorted samples of a continuous view: support events


SUPPORT_ONLY_VIEWS = ("low_bits", "parity", "float32")  # views searched for outcomes one side never shows (bits_only)


def support_only(view: str) -> bool:
    """Views whose events are only the outcomes one side never shows: the low bits of a correct float mechanism
    differ a little between inputs (the rounding of f(D) + noise depends on f(D)), so only their disjoint
    supports (a bit written from the input) are evidence of a leak worth carrying to the test split."""
    return view.startswith(SUPPORT_ONLY_VIEWS)


def view_groups(s1, s2, view: str, discrete: bool | None, counted: tuple | None) -> ViewSearch:
    tried = 0
    only_support = support_only(view)
    sorted_sides = None
    if counted is None:
        n1, n2 = s1.shape[0], s2.shape[0]
        counted = small_int_counts(s1, s2)
    else:
        n1, n2 = int(round(counted[1].sum())), int(round(counted[2].sum()))
    if counted is not None:  # counts per value (bincount or given), thresholds at every value
        values, k1, k2 = counted
        k1, k2 = k1.astype(float), k2.astype(float)
        n_values = values.size
        grid = values
        le1, le2 = np.cumsum(k1) / n1, np.cumsum(k2) / n2
        ge1, ge2 = np.cumsum(k1[::-1])[::-1] / n1, np.cumsum(k2[::-1])[::-1] / n2
    else:
        a, b = np.sort(s1), np.sort(s2)
        pooled = np.sort(np.concatenate([a, b]), kind="mergesort")
        new = np.empty(pooled.size, dtype=bool)
        new[0] = True
        np.not_equal(pooled[1:], pooled[:-1], out=new[1:])
        n_values = int(new.sum())
        values = pooled[new] if n_values <= 200_000 else None
        # threshold events {s >= t}, {s <= t}
        grid = _threshold_grid(pooled, values)
        grid = grid[~np.isnan(grid)] if grid.dtype.kind == "f" else grid
        ge1 = (n1 - np.searchsorted(a, grid, "left")) / n1
        ge2 = (n2 - np.searchsorted(b, grid, "left")) / n2
        le1 = np.searchsorted(a, grid, "right") / n1
        le2 = np.searchsorted(b, grid, "right") / n2
        k1 = k2 = None
    if discrete is None:
        discrete = n_values <= 4096
    # threshold events {s >= t}, {s <= t} in both orientations, then likelihood-ratio ordered
    # unions of outcomes (discrete views)
    groups, shapes = [], []
    for orient in (1, -1):
        for kind, p1, p2 in (("ge", ge1, ge2), ("le", le1, le2)):
            if only_support:
                break
            groups.append((p1, p2) if orient == 1 else (p2, p1))
            shapes.append((orient, kind, None))
            tried += len(grid)
    if discrete and values is not None and len(values) > (1 if only_support else 2):
        if k1 is None:
            k1 = (np.searchsorted(a, values, "right") - np.searchsorted(a, values, "left")).astype(float)
            k2 = (np.searchsorted(b, values, "right") - np.searchsorted(b, values, "left")).astype(float)
        for orient in (1, -1):
            num, den, nn, nd = (k1, k2, n1, n2) if orient == 1 else (k2, k1, n2, n1)
            ratio = ((num + 0.5) / nn) / ((den + 0.5) / nd)
            order = np.argsort(-ratio, kind="stable")
            order = order[(num[order] > 0) & ((den[order] == 0) if only_support else True)]
            if order.size == 0:
                continue
            groups.append((np.cumsum(num[order]) / nn, np.cumsum(den[order]) / nd))
            shapes.append((orient, "in", order))
            tried += len(order)
    if not discrete and counted is None:
        sorted_sides = (a, b)
    return ViewSearch(view, groups, shapes, grid, values, tried, sorted_sides)


def view_events(search: ViewSearch, scored: list, n_test: int, claim: Claim, alpha: float):
    """``(found, tried)`` of :func:`search_events` from the best ``(index, bound)`` of each group."""
    out, view, grid, values = [], search.view, search.grid, search.values
    for orient in (1, -1):
        best = None
        for (o, kind, _), (i, pred) in zip(search.shapes, scored):
            if o == orient and kind != "in" and pred > -np.inf and (best is None or pred > best[1]):
                best = (Event(view, kind, threshold=float(grid[i])), pred)
        if best and np.isfinite(best[1]):
            out.append((orient, "threshold", best[0], best[1]))
    for (orient, kind, order), (i, pred) in zip(search.shapes, scored):
        if kind == "in" and np.isfinite(pred):
            out.append((orient, "lr_union", Event(view, "in", values=np.sort(values[order[: i + 1]])), pred))
    tried = search.tried
    if search.sorted_sides is not None:
        found, n_support = _support_events(*search.sorted_sides, n_test, claim, alpha, view)
        out += found
        tried += n_support
    return out, tried


def _support_events(a: np.ndarray, b: np.ndarray, n_test: int, claim: Claim, alpha: float, view: str):
    """Floating-point support leaks on a continuous view (sorted samples ``a`` of D, ``b`` of D'):
    the values seen on one side and never on the other, tried when those values repeat within that side.
    Continuous noise never repeats a value; a sampler on a coarse grid (float32 uniforms, rounding)
    does, and when the two sides' grids differ the event {output on D's grid} has probability 0 on
    D' (infinite loss), which no threshold event sees. Scored like every event on fresh samples."""
    out, tried = [], 0
    for orient, x, y in ((1, a, b), (-1, b, a)):
        if int(np.count_nonzero(x[1:] == x[:-1])) < MIN_SUPPORT_REPEATS:
            continue
        starts = np.flatnonzero(np.concatenate([[True], x[1:] != x[:-1]]))
        vals, counts = x[starts], np.diff(np.append(starts, x.size))
        # an atom both sides share (a released 0) repeats too; what leaks is repeats off y's support
        rep = counts > 1
        off_y = np.searchsorted(y, vals[rep]) == np.searchsorted(y, vals[rep], "right")
        if int((counts[rep][off_y] - 1).sum()) < MIN_SUPPORT_REPEATS:
            continue
        only = np.searchsorted(y, vals) == np.searchsorted(y, vals, "right")  # never seen on the other side
        vals = vals[only]
        tried += 1
        if vals.size:
            p_num = float(counts[only].sum() / x.size)
            pred = float(claim.predicted(p_num, 0.0, n_test, alpha))
            if np.isfinite(pred):
                out.append((orient, "support", Event(view, "in", values=vals), pred))
    return out, tried


@dataclass
class Candidate:
    pair_index: int
    orient: int
    family: str
    event: Event
    featurizer: Featurizer
    select_score: float
    rank_score: float = -np.inf
    rank_p: tuple = (0.0, 0.0)  # the rank half's estimates (numerator side, denominator side)
    k1: int = 0
    k2: int = 0
    n: int = 0
    eps_lb: float = -np.inf
    p_lo: float = 0.0
    p_hi: float = 1.0
    alpha: float = 0.0
    curve_thresholds: np.ndarray | None = None  # thresholds of its scalar view, counted for the trade-off curve
    curve_counts: np.ndarray | None = None      # (thresholds, 2) counts of {view <= t} on the test split

    def anew(self) -> Candidate:
        """The same event, its estimates cleared: to be estimated on fresh samples (a later round's)."""
        return replace(self, k1=0, k2=0, n=0, eps_lb=-np.inf, curve_counts=None)

