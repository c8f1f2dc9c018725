"""Moves of the implementation-guided search: from an anchor (a stress case's input at its parameters),
the one-parameter families of inputs (*lines*) along which the audit looks for where the implementation
changes its behaviour (:func:`lines`), and the parameter points on both sides of every scale
(:func:`parameter_points`).

A line is a family D(t) of inputs built from an anchor by moving the entries the relation moves
(``[neighbours] moves``, :func:`.neighbours.moved_part`) inside the input's domain (``[input] domain``):

=====================  =================================================================================
line                   D(t), and which two points are neighbours
=====================  =================================================================================
``first``, ``last``,   the first entry, the last entry, or every entry moved by t sensitivities (for an
``all``                L1 or L2 relation ``all`` moves each entry by t s/d or t s/sqrt(d)); D(t) ~ D(t')
                       when |t - t'| <= 1 (a *unit* line); the first and last also cross each integer
                       wrap (WRAPS) and power of ten (DECADES) with a neighbouring pair
``row0_vote``,         t votes moved from the mode to the runner-up, in the first row or in every row of
``rows_vote``          vote counts; a unit line on whole t
``column0``, ...       the first column (one chunk's scores), the last and the anchor pair's moved one
                       set to t in [0, 1]; every two points are neighbours (one chunk changes)
=====================  =================================================================================

The grid of a unit line reaches from a quarter sensitivity to 2^20 sensitivities on both sides of the
anchor (finer near it, and every 2^8 on to 2^62), so that a threshold of the implementation's own far above or below the spec's
(a fast path at w + 5 lambda, a scale 4 times too small) lies between two grid points; whole-number
domains keep whole t. The search (:mod:`.linesearch`) samples the grid, scores neighbouring
points, bisects where the output law jumps, and climbs toward the worst pair.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dptestbed.spec import Spec

from .neighbours import domain_violation, moved_entries, moved_part, sensitivity, violation

FINE = (0.25, 0.5, 0.75)
GEOMETRIC = tuple(2.0 ** k for k in range(0, 21))  # 1 .. 2^20 sensitivities
# and sparser to 2^62 (every 2^8): an answer scaled into a fixed-width integer (micro-units in int64 wrap at
# 2^63 / 10^6 = 9.2e12) jumps somewhere far out, and the jump between two of these is bisected to a pair
FAR = tuple(2.0 ** k for k in (24, 32, 40, 48, 56, 62))
PARTNERS_UP_TO = 32.0  # grid points up to this far get their unit neighbour t + 1 sampled too
# where a value cast to a fixed-width integer wraps (int16, int32 and uint32 above; int16 and int32 below): the first
# and last entries' lines also sample the two neighbouring points on either side of each
WRAPS = (2.0 ** 15, 2.0 ** 31, 2.0 ** 32, -(2.0 ** 15) - 1, -(2.0 ** 31) - 1)
# powers of ten, where a shortcut keyed on the answer's magnitude changes regime (a release rounded to four
# significant digits, a relative-error path above 10^4): the two lines sample a neighbouring pair across each
DECADES = tuple(sign * 10.0 ** k for k in range(1, 7) for sign in (1.0, -1.0))
COLUMN_VALUES = (0.0, 0.01, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 0.99, 1.0)
VOTE_KINDS = ("votes_one_move", "histogram_one_move")
UNIT_RELATIONS = ("vector_l1", "vector_l2", "query_answers")


@dataclass
class Line:
    """One family of inputs D(t) through an anchor."""

    name: str
    anchor: Any                   # the anchor pair (a pairs.Pair)
    point: Callable[[float], Any]  # t -> the input at t
    grid: list[float]             # the t values sampled first (the anchor at t = 0 among them)
    unit: bool                    # True: D(t) ~ D(t') iff |t - t'| <= 1; False: every two points are neighbours
    integral: bool                # t takes whole values only
    lower: float = -math.inf      # the domain's bounds on t
    upper: float = math.inf
    crossings: list[float] = field(default_factory=list)  # pairs t, t + 1 across a bound (DECADES), scored as
    #                                                        neighbours only: the grid's gaps stay the grid's

    def partners(self) -> list[float]:
        """The unit neighbours t + 1 of the near grid points (a unit line), inside the domain."""
        if not self.unit:
            return []
        return [t + 1 for t in self.grid if abs(t) <= PARTNERS_UP_TO and t + 1 <= self.upper]

    def neighbours(self, t: float, u: float) -> bool:
        return not self.unit or abs(t - u) <= 1 + 1e-12


def _with_moved(spec: Spec, data, values: np.ndarray):
    """``data`` with its moved entries (:func:`.neighbours.moved_part`) replaced by ``values`` (an integer
    array stays one while the values are whole)."""
    field, index = moved_entries(spec)
    target = np.asarray(data[field] if field is not None else data)
    arr = target.astype(target.dtype if target.dtype.kind == "f" or _integral_values(values) else float)
    if index is not None:
        arr[..., index] = values
    else:
        arr = np.asarray(values, dtype=arr.dtype).reshape(arr.shape)
    if field is not None:
        return {**data, field: arr}
    return arr


def _integral_values(values: np.ndarray) -> bool:
    values = np.asarray(values)
    return values.dtype.kind in "biu" or bool(np.all(np.isfinite(values)) and np.array_equal(values, np.round(values)))


def _bounds(base: np.ndarray, step: np.ndarray, spec: Spec) -> tuple[float, float]:
    """The t with base + t step inside the input's domain (nonnegative / unit interval)."""
    domain = spec.input.get("domain", "real")
    lo, hi = -math.inf, math.inf
    floors = []
    if domain.startswith("nonnegative") or domain == "unit interval":
        floors.append(0.0)
    for floor in floors:
        up, down = step > 0, step < 0
        if np.any(up):
            lo = max(lo, float(np.max((floor - base[up]) / step[up])))
        if np.any(down):
            hi = min(hi, float(np.min((floor - base[down]) / step[down])))
    if domain == "unit interval":
        up, down = step > 0, step < 0
        if np.any(up):
            hi = min(hi, float(np.min((1.0 - base[up]) / step[up])))
        if np.any(down):
            lo = max(lo, float(np.max((1.0 - base[down]) / step[down])))
    return lo, hi


def _unit_grid(integral: bool, lo: float, hi: float) -> list[float]:
    values = {0.0} | {s * g for s in (1, -1) for g in GEOMETRIC + FAR}
    if not integral:
        values |= {s * f for s in (1, -1) for f in FINE}
    else:
        values = {float(round(v)) for v in values}
    return sorted(v for v in values if lo - 1e-9 <= v <= hi + 1e-9)


def _vector_lines(spec: Spec, anchor, moved: np.ndarray) -> list[Line]:
    relation = spec.neighbours["relation"]
    s = sensitivity(spec, anchor.env)
    flat = moved.astype(float).ravel()
    d = flat.size
    integral = "integer" in spec.input.get("domain", "real")
    if integral and not float(s).is_integer():
        return []
    directions = {"first": np.eye(1, d, 0).ravel()}
    if d > 1:
        directions["last"] = np.eye(1, d, d - 1).ravel()
        scale = {"vector_l1": 1.0 / d, "vector_l2": 1.0 / math.sqrt(d)}.get(relation, 1.0)
        if not (integral and scale != 1.0):
            directions["all"] = np.full(d, scale)
    out = []
    for name, v in directions.items():
        step = s * v
        lo, hi = _bounds(flat, step, spec)
        grid = _unit_grid(integral, lo, hi)
        crossings: list[float] = []
        if name != "all":
            a = flat[int(np.argmax(v))]
            grid = sorted(set(grid) | set(_across_wraps(a, float(s), lo, hi)))
            crossings = sorted(set(_across(DECADES, a, float(s), lo, hi, integral)) - set(grid))
        if len(grid) < 2:
            continue

        def point(t, flat=flat, step=step, anchor=anchor):
            return _with_moved(spec, anchor.data, (flat + t * step).reshape(moved.shape))

        out.append(Line(f"line/{name}", anchor, point, grid, True, integral, lo, hi, crossings))
    return out


def _across_wraps(a: float, s: float, lo: float, hi: float) -> list[float]:
    """The t, t + 1 (whole) whose entries a + t s and a + (t + 1) s lie on either side of a fixed-width integer's
    wrap (WRAPS), inside [lo, hi], when a and s are whole (so that both entries are exact, and neighbours): an
    implementation that casts the answer to int32 is right below 2^31 only."""
    if not (float(a).is_integer() and float(s).is_integer() and s > 0):
        return []
    return _across(WRAPS, a, s, lo, hi, True)


def _across(bounds, a: float, s: float, lo: float, hi: float, whole: bool) -> list[float]:
    """The t, t + 1 whose entries a + t s and a + (t + 1) s lie on either side of each of ``bounds`` (the lower
    one below a positive bound, the upper one above a negative bound), inside [lo, hi]: whole t when ``whole``,
    else the two entries half a sensitivity from the bound."""
    out = []
    for bound in bounds:
        if whole:
            t = math.ceil((bound - a) / s) - 1 if bound > 0 else math.floor((bound - a) / s)
        else:
            t = (bound - a) / s - 0.5
        out += [float(u) for u in (t, t + 1) if lo - 1e-9 <= u <= hi + 1e-9]
    return out


def _vote_lines(spec: Spec, anchor, moved: np.ndarray) -> list[Line]:
    counts = np.asarray(moved)
    rows = counts.reshape(-1, counts.shape[-1]) if counts.ndim else None
    if rows is None or rows.shape[-1] < 2 or not _integral_values(rows):
        return []
    order = np.argsort(-rows, axis=1, kind="stable")
    mode, runner = order[:, 0], order[:, 1]
    # moving votes between two labels keeps each gap's parity (that of the row's total): the lines run through
    # the anchor and through the anchor with one vote more for every row's runner-up, so that an implementation
    # whose threshold falls on a gap of the other parity is met on both sides of it
    other = rows.astype(float)
    other[np.arange(rows.shape[0]), runner] += 1
    bases = [("", rows.astype(float))]
    if domain_violation(spec, other.reshape(counts.shape)) is None:
        bases.append(("_other_parity", other))
    out = []
    for (name, chosen), (suffix, base) in itertools.product(
            (("row0_vote", np.arange(rows.shape[0]) == 0), ("rows_vote", np.ones(rows.shape[0], bool))), bases):
        if name == "rows_vote" and rows.shape[0] == 1:
            continue
        step = np.zeros(rows.shape)
        idx = np.flatnonzero(chosen)
        step[idx, mode[idx]] -= 1
        step[idx, runner[idx]] += 1
        up = step > 0
        down = step < 0
        hi = float(np.min(base[down])) if np.any(down) else math.inf      # the mode's votes run out
        lo = -float(np.min(base[up])) if np.any(up) else -math.inf        # the runner-up's votes run out
        grid = _unit_grid(True, lo, hi)
        if len(grid) < 2:
            continue

        def point(t, base=base, step=step, anchor=anchor):
            return _with_moved(spec, anchor.data, (base + t * step).reshape(counts.shape).astype(np.int64))

        out.append(Line(f"line/{name}{suffix}", anchor, point, grid, True, True, lo, hi))
    return out


def _column_lines(spec: Spec, anchor, moved: np.ndarray) -> list[Line]:
    """One line per column moved to t in [0, 1]: the first, the last, and the one the anchor pair moves (a
    bin an implementation compares with the top one, say a runner-up held by the last chunk, is moved only by
    its own column)."""
    if moved.ndim != 2:
        return []
    base = moved.astype(float)
    columns = [0, base.shape[1] - 1]
    other, _ = moved_part(spec, anchor.neighbour)
    if other is not None and np.shape(other) == base.shape:
        columns += [int(j) for j in np.flatnonzero(np.any(np.asarray(other, dtype=float) != base, axis=0))]
    out = []
    for j in dict.fromkeys(columns):

        def point(t, base=base, anchor=anchor, j=j):
            values = base.copy()
            values[:, j] = t
            return _with_moved(spec, anchor.data, values)

        grid = sorted(set(COLUMN_VALUES) | {float(v) for v in np.unique(base[:, j])})
        out.append(Line(f"line/column{j}", anchor, point, grid, False, False, 0.0, 1.0))
    return out


MAX_ANCHORS = 6  # distinct anchors a search draws lines through (distinct inputs first)


SHORT_LENGTHS = (1, 2)  # an answer vector of free length is also tried this short ...
LONG_LENGTHS = (33, 65)  # ... and this long (past blocks of 16, 32 and 64 the length does not fill, and paths above 64)


def shortened(spec: Spec, anchor) -> list:
    """The anchor cut to its first SHORT_LENGTHS entries (both sides), when its input is a vector whose length
    the spec leaves free (no ``[input] length``): a shortcut an implementation takes on short inputs (no noise
    for two candidates) lies where the spec's stress cases never are. The cut pairs keep the relation's moves."""
    if not _free_length(spec, anchor):
        return []
    data, neighbour = anchor.data, anchor.neighbour
    return [anchor.derived(name=f"{anchor.name}@first_{k}", data=data[:k].copy(), neighbour=neighbour[:k].copy(),
                    source="search", description=f"{anchor.description} Cut to its first {k} entries.".strip())
            for k in SHORT_LENGTHS if k < data.size]


def single_moves(spec: Spec, short) -> list:
    """A pair cut to one answer (:func:`shortened`), that answer moved one sensitivity up and one down: the cut keeps
    the stress case's move (up, for most), while a lone answer compared without noise leaks where it crosses the
    threshold downward."""
    if np.size(short.data) != 1 or spec.neighbours["relation"] not in UNIT_RELATIONS:
        return []
    step = sensitivity(spec, short.env)
    return [short.derived(name=f"{short.name}/one_{name}", neighbour=short.data + sign * step)
            for sign, name in ((1.0, "up"), (-1.0, "down"))]


def repeated(spec: Spec, anchor, lengths: tuple[int, ...] = LONG_LENGTHS) -> list:
    """The anchor repeated to ``lengths`` entries, when its input is a vector of free length: the same move in
    every copy under query answers (each answer moves at most one sensitivity), in the first copy only under an
    L1 or L2 relation. An implementation that works in blocks of 16 queries (a fresh threshold noise for each,
    a noisy max per block, then a noisy max of the winners) is exact on the stress cases' 5 and 10 answers; one
    that keeps a ledger of the last 100 queries only (a session answering again past its budget) is exact below
    101 (the first stress case is also repeated to LONGER_LENGTHS)."""
    if not _free_length(spec, anchor):
        return []
    data, neighbour = anchor.data, anchor.neighbour
    out = []
    for k in (k for k in lengths if k > data.size):
        long = np.resize(data, k)
        moved = np.resize(neighbour, k) if spec.neighbours["relation"] == "query_answers" else long.copy()
        moved[:data.size] = neighbour
        out.append(anchor.derived(name=f"{anchor.name}@repeated_{k}", data=long, neighbour=moved, source="search",
                                  description=f"{anchor.description} Repeated to {k} entries.".strip()))
    return out


LONGER_LENGTHS = (129, 257)  # the first stress case is also repeated, and its ends stretched (:func:`stretched`), to these
STRETCH_GAP = 2.0 ** 20  # ... between the ends, answers this many sensitivities past every answer (past any noise scale)


def stretched(spec: Spec, anchor) -> list:
    """Under query answers of free length: the anchor's first answer at both ends of LONGER_LENGTHS entries, moved one
    sensitivity up at the first end and down at the last, between them answers STRETCH_GAP sensitivities above every
    answer (a path on which a sparse vector answers top, free of its count, whatever its noise scale) or below them
    (bottom, free where the tops are counted), the same on both sides. The ends lie k - 1 = 128 and 256 answers apart:
    an implementation that draws its noise in a buffer of 128 (or 32, 64, 256) and cycles it answers both ends with one
    draw, so one side never answers them apart, while every input of 65 answers or fewer has the spec's law (at 1,025
    answers, a session's audit held 8 GB for 375 s: longer buffers are left out)."""
    if not _free_length(spec, anchor) or spec.neighbours["relation"] != "query_answers":
        return []
    data, neighbour = np.asarray(anchor.data, dtype=float), np.asarray(anchor.neighbour, dtype=float)
    if not (np.all(np.isfinite(data)) and np.all(np.isfinite(neighbour))):
        return []
    step = float(sensitivity(spec, anchor.env))
    gap = STRETCH_GAP * step
    end = float(data[0])
    out = []
    for k in LONGER_LENGTHS:
        for name, value in (("above", max(data.max(), neighbour.max()) + gap),
                            ("below", min(data.min(), neighbour.min()) - gap)):
            long = np.full(k, value)
            long[0] = long[-1] = end
            moved = long.copy()
            moved[0], moved[-1] = end + step, end - step
            out.append(anchor.derived(name=f"{anchor.name}@stretched_{k}_{name}", source="search", data=long,
                                      neighbour=moved, description=(
                                          f"{anchor.description} Its first answer at both ends of {k} answers, moved "
                                          f"up at one end and down at the other, the answers between at {value:g}."
                                      ).strip()))
    return out


PAD_LENGTH = 2048  # entries a selection's candidates are padded to (:func:`padded`)
PAD_GAP = 64.0     # ... by candidates this many sensitivities past every answer


def padded(spec: Spec, anchor) -> list:
    """For a selection over a free-length vector (``[output] kind = "discrete"``, one index a run): the anchor's
    entries followed by PAD_LENGTH minus as many candidates PAD_GAP sensitivities above all of them, the same on both
    sides, and the same with the candidates below all of them (a loss to minimise or an answer to maximise, they
    never compete). A sampler whose cost grows with the candidates (a rejection sampler that gives up after 1,000
    proposals and returns the best, an approximate top-k above some thousands) is exact on the stress cases' few
    candidates; among 2,048 the few that compete are proposed rarely and the shortcut decides."""
    if (not _free_length(spec, anchor) or spec.output.get("kind") != "discrete"
            or spec.neighbours["relation"] != "query_answers"):
        return []
    data, neighbour = np.asarray(anchor.data, dtype=float), np.asarray(anchor.neighbour, dtype=float)
    if data.size >= PAD_LENGTH or not (np.all(np.isfinite(data)) and np.all(np.isfinite(neighbour))):
        return []
    gap = PAD_GAP * float(sensitivity(spec, anchor.env))
    out = []
    for name, value in (("above", max(data.max(), neighbour.max()) + gap),
                        ("below", min(data.min(), neighbour.min()) - gap)):
        pad = np.full(PAD_LENGTH - data.size, value)
        out.append(anchor.derived(name=f"{anchor.name}@padded_{PAD_LENGTH}_{name}", source="search",
                                  data=np.concatenate([data, pad]), neighbour=np.concatenate([neighbour, pad]),
                                  description=f"{anchor.description} With {pad.size} candidates at {value:g} after "
                                              f"it (never competing).".strip()))
    return out


def stepped(spec: Spec, anchor) -> list:
    """Under query answers, a constant vector of the longest of LONG_LENGTHS entries (the anchor's median) against
    the same moved one sensitivity down in its first half and up in its second: for every period p below that
    length, some answers i and i + p are equal on one side and move apart on the other. An implementation that
    reuses its noise every p queries (np.resize of a short draw) answers i and i + p alike on the constant side; the
    repeated anchors (:func:`repeated`) move i and i + p alike whenever p is a multiple of the anchor's length, and
    miss it. ``[]`` or the one pair."""
    if not _free_length(spec, anchor) or spec.neighbours["relation"] != "query_answers":
        return []
    base = np.asarray(anchor.data, dtype=float)
    if base.ndim != 1 or base.size == 0 or not np.all(np.isfinite(base)):
        return []
    step = float(sensitivity(spec, anchor.env))
    integral = "integer" in spec.input.get("domain", "real")
    k = LONG_LENGTHS[-1]
    flat = np.full(k, float(np.round(np.median(base))) if integral else float(np.median(base)))
    moved = flat + step * np.where(np.arange(k) < k // 2, -1.0, 1.0)
    if domain_violation(spec, flat) is not None or domain_violation(spec, moved) is not None:
        return []
    return [anchor.derived(name=f"{anchor.name}@constant_{k}/down_then_up", data=flat.astype(base.dtype),
                           neighbour=moved.astype(base.dtype), source="search",
                           description=f"{anchor.description} A constant {k} answers, moved down then up across "
                                       "its halves.".strip())]


RAMP_MOVES = ("last", "first", "middle")  # the entry moved onto its inner neighbour's value, in this order


def ramps(spec: Spec, anchor) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """``(name, data, neighbour)``: strictly monotone answer vectors, one sensitivity s apart and centred on the
    anchor's median, of the anchor's length (another length is another input to an implementation that fixed its
    own, e.g. an ad-hoc claim's batch of one answer), decreasing and increasing, against the same with its last,
    first or middle entry moved one s onto its inner neighbour's value (a tie: no longer strictly sorted). An implementation that takes a path for sorted, distinct or evenly
    spaced answers (an early exit once they can only fall, a closed form for an arithmetic series) takes it on
    one side only; the stress cases' answers repeat values and never are such a vector. Moves that leave the
    input's domain are left out."""
    base = np.asarray(anchor.data)
    if (spec.neighbours["relation"] not in UNIT_RELATIONS or not isinstance(anchor.data, np.ndarray)
            or base.ndim != 1 or base.dtype.kind not in "biuf" or not np.all(np.isfinite(base))):
        return []
    step = float(sensitivity(spec, anchor.env))
    integral = "integer" in spec.input.get("domain", "real")
    if step <= 0 or (integral and not step.is_integer()):
        return []
    n = base.size
    if n < 3:
        return []
    offsets = np.arange(n) - (n - 1) // 2 if integral else np.arange(n) - (n - 1) / 2
    up = (round(float(np.median(base))) if integral else float(np.median(base))) + step * offsets
    out = []
    for move in RAMP_MOVES:
        i, j = {"last": (n - 1, n - 2), "first": (0, 1), "middle": (n // 2, n // 2 - 1)}[move]
        for order, values in (("decreasing", up[::-1].copy()), ("increasing", up)):
            moved = values.copy()
            moved[i] = values[j]
            if domain_violation(spec, values) is None and domain_violation(spec, moved) is None:
                out.append((f"ramp/{order}_{n}/{move}_onto_next", values, moved))
    return out


def _free_length(spec: Spec, anchor) -> bool:
    """The anchor's input is a numeric vector whose length the spec leaves free (no ``[input] length``)."""
    if (spec.neighbours["relation"] not in UNIT_RELATIONS or spec.input.get("length") is not None
            or spec.input.get("rows") is not None or spec.neighbours.get("moves")):
        return False
    data, neighbour = anchor.data, anchor.neighbour
    return (isinstance(data, np.ndarray) and isinstance(neighbour, np.ndarray) and data.ndim == 1
            and data.shape == neighbour.shape)


FEW_VOTES = 10  # vote rows are also tried with about this many votes in all (an anchor of lines)
# ... and with this many (pairs only): a path for small ensembles (rows of fewer than 10 votes answered with their
# exact mode) lies below the 10-vote anchor, and a row of 1 vote is below every such count
TINY_VOTES = (3, 1)


def with_few_votes(spec: Spec, anchor, votes: int = FEW_VOTES):
    """The anchor's vote rows scaled down to about ``votes`` votes a row (rounded, each row's total kept equal to
    the others'), both sides by the same move: an implementation that reads the votes relative to a fixed number
    of chunks leaks where there are few, far from the stress cases' hundreds. None when not a vote input or
    already small."""
    if spec.neighbours["relation"] not in VOTE_KINDS:
        return None
    moved, _ = moved_part(spec, anchor.data)
    if moved is None or moved.ndim not in (1, 2) or moved.size < 2:
        return None
    rows = np.atleast_2d(moved.astype(float))
    total = float(rows.sum(axis=1).max())
    if total <= 2 * votes:
        return None
    small = np.atleast_2d(np.round(rows * votes / total)).astype(np.int64)
    small[:, 0] += votes - small.sum(axis=1)  # every row holds ``votes`` votes
    if small.min() < 0:
        return None
    return _one_vote_moved(spec, anchor, small, moved.shape, f"{votes}_votes", f"Its votes scaled to {votes} a row.")


MANY_VOTES = 2 ** 16  # ... and unanimous with this many a row


def with_many_votes(spec: Spec, anchor):
    """The anchor's vote rows made unanimous with MANY_VOTES votes a row (each on the row's mode), one vote of each
    row moved to its runner-up on the other side; None when not a vote input. A line through it (:func:`lines`)
    walks each gap down from MANY_VOTES to 0, across where a weight exp(epsilon nu / 2) computed as written
    overflows (nu = 1,420 at epsilon = 1: a soft majority w / (1 + w) turns NaN, its label 0 where it was 1), which
    rows of the stress cases' sizes never reach."""
    if spec.neighbours["relation"] not in VOTE_KINDS:
        return None
    moved, _ = moved_part(spec, anchor.data)
    if moved is None or moved.ndim not in (1, 2) or moved.size < 2:
        return None
    rows = np.atleast_2d(moved)
    many = np.zeros(rows.shape, dtype=np.int64)
    many[np.arange(rows.shape[0]), np.argmax(rows, axis=1)] = MANY_VOTES
    return _one_vote_moved(spec, anchor, many, moved.shape, "many_votes",
                           f"Its votes made unanimous, {MANY_VOTES:,} a row.")


def with_mixed_modes(spec: Spec, anchor):
    """The anchor's vote rows made unanimous (each row's total kept) on alternating labels, the second label in
    the first row, the first in the second, and so on, with one vote of the first row moved to its runner-up on
    the other side; None when not a vote input of at least three rows. Every label is then stable (each row far
    from a tie) and the pattern 1, 0, 1, ... fits no threshold, so a post-processing that weighs a row by its
    private margin (an ERM over thresholds trusting confident labels more) breaks its tie between the first two
    rows' errors differently on the two sides: the spec's output reads the labels only, the same on both sides
    but for a noise event of probability about e^-(gap - w) / lambda. No stress case has stable labels that no
    threshold fits."""
    if spec.neighbours["relation"] not in VOTE_KINDS:
        return None
    moved, _ = moved_part(spec, anchor.data)
    if moved is None or moved.ndim != 2 or moved.shape[0] < 3 or moved.shape[1] < 2:
        return None
    n_rows, n_labels = int(moved.shape[0]), int(moved.shape[1])
    rows = np.zeros((n_rows, n_labels), dtype=np.int64)
    r = np.arange(n_rows)
    rows[r, (r + 1) % 2] = moved.sum(axis=1)
    return _one_vote_moved(spec, anchor, rows, moved.shape, "mixed_modes",
                           "Its rows made unanimous on alternating labels, one vote of the first row moved.",
                           only_first=True)


def with_one_label(spec: Spec, anchor):
    """The anchor's vote rows made unanimous on their last label (each row's total kept), so that every other label
    has no vote in any row, with one vote of the first row moved to the first label on the other side; None when not
    a vote input of two labels or more. An implementation that drops the labels nobody voted for (compacting the
    label list) and forgets to map the mode back releases label 0 for the last one on one side only; the stress
    cases' rows each hold votes for their first label."""
    if spec.neighbours["relation"] not in VOTE_KINDS:
        return None
    moved, _ = moved_part(spec, anchor.data)
    if moved is None or moved.ndim != 2 or moved.shape[1] < 2:
        return None
    rows = np.zeros(moved.shape, dtype=np.int64)
    rows[:, -1] = moved.sum(axis=1)
    if rows[0, -1] < 1:
        return None
    return _one_vote_moved(spec, anchor, rows, moved.shape, "last_label_only",
                           "Its rows made unanimous on the last label, one vote of the first row moved to the first.",
                           only_first=True)


def mirrored(spec: Spec, anchor, taken: list):
    """The anchor with each vote row's labels in reverse order, both sides (a vote moved from label a to b moves from
    the mirror of a to that of b); None when not a vote input, when the mirror is the anchor or a pair of ``taken``.
    The stress cases sit at one end of the vote range at some parameter points only (every teacher voting 0 at
    epsilon 4, r = 4), where an implementation that treats the labels unlike each other leaks on the other end: a coin
    drawn on a grid of 1/1000 never answers 0 once its probability of 1 passes 0.999 (0.017 against 0 at r = 4)."""
    if spec.neighbours["relation"] not in VOTE_KINDS:
        return None
    moved, _ = moved_part(spec, anchor.data)
    other, _ = moved_part(spec, anchor.neighbour)
    if moved is None or other is None or moved.ndim not in (1, 2) or moved.shape[-1] < 2:
        return None
    data = _with_moved(spec, anchor.data, moved[..., ::-1].copy())
    neighbour = _with_moved(spec, anchor.neighbour, other[..., ::-1].copy())
    for p in [anchor, *taken]:
        if p.params == anchor.params and _same(p.data, data) and _same(p.neighbour, neighbour):
            return None
    return anchor.derived(name=f"{anchor.name}@mirrored", source="search", data=data, neighbour=neighbour,
                          description=f"{anchor.description} Its labels in reverse order.".strip())


def _same(a, b) -> bool:
    """Two inputs (arrays, or dicts of arrays) hold the same values."""
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys() and all(
            _same(a[k], b[k]) for k in a)
    return np.array_equal(np.asarray(a), np.asarray(b))


def _one_vote_moved(spec: Spec, anchor, rows: np.ndarray, shape, suffix: str, what: str,
                    only_first: bool = False):
    """The pair of ``rows`` (the anchor's moved part replaced) and the same with one vote of each row (of the first
    row only) moved from its mode to its runner-up; None when a count would go negative."""
    order = np.argsort(-rows, axis=1, kind="stable")
    r = np.arange(1 if only_first else rows.shape[0])
    neighbour = rows.copy()
    neighbour[r, order[r, 0]] -= 1   # one vote from each row's mode to its runner-up
    neighbour[r, order[r, 1]] += 1
    if neighbour.min() < 0:
        return None
    return anchor.derived(name=f"{anchor.name}@{suffix}", source="search",
                          data=_with_moved(spec, anchor.data, rows.reshape(shape)),
                          neighbour=_with_moved(spec, anchor.data, neighbour.reshape(shape)),
                          description=f"{anchor.description} {what}".strip())


def first_row(spec: Spec, anchor):
    """The anchor's first row alone (both sides), when it holds vote rows and its sides differ there; None
    otherwise. A line anchor: its votes moved along the row reach every gap of one query, ties and the gaps just
    above them included, where an implementation that answers a single query by another path (a one-row input sent
    to a stability test at the whole budget) leaks; the stress cases' rows are searched only together."""
    if spec.neighbours["relation"] not in VOTE_KINDS or not isinstance(anchor.data, np.ndarray):
        return None
    data, neighbour = anchor.data, np.asarray(anchor.neighbour)
    if data.ndim != 2 or data.shape[0] < 2 or neighbour.shape != data.shape or np.array_equal(data[0], neighbour[0]):
        return None
    return anchor.derived(name=f"{anchor.name}@first_row", data=data[:1].copy(), neighbour=neighbour[:1].copy(),
                          source="search", description=f"{anchor.description} Its first row alone.".strip())


def tied_halves(spec: Spec, anchors: list) -> list:
    """Pairs of one-chunk score rows with a tie (scores_one_move): from the stress case with the most chunks, every
    row's first half of the columns (rounded up) at its most common value a and the rest at t, for each t of
    COLUMN_VALUES, against the same with one more column at t (the mode moves from a to t). Two bins holding half the
    chunks each is where a histogram's two partitions (regular and shifted) disagree about the mode while its other
    bin is far from it: a shifted test that reads the wrong histogram's distance releases the tied bin's midpoint on
    one side only (0.24 of the time against never, claim 8), which no stress case (every row at one value with one
    or two apart) reaches."""
    if spec.neighbours["relation"] != "scores_one_move":
        return []
    found = [(a, moved) for a in anchors for moved in [moved_part(spec, a.data)[0]]
             if moved is not None and np.ndim(moved) == 2 and np.shape(moved)[1] >= 4]
    if not found:
        return []
    anchor, moved = max(found, key=lambda f: f[1].shape[1])
    rows = np.asarray(moved, dtype=float)
    values, counts = np.unique(rows, return_counts=True)
    a, half = float(values[np.argmax(counts)]), (rows.shape[1] + 1) // 2  # a tie, or a's majority of one
    out = []
    for t in (t for t in COLUMN_VALUES if t != a):
        tied = np.full(rows.shape, a)
        tied[:, half:] = t
        broken = tied.copy()
        broken[:, half - 1] = t
        out.append(anchor.derived(name=f"{anchor.name}@tied_halves/{a:g}_{t:g}", source="search",
                                  data=_with_moved(spec, anchor.data, tied),
                                  neighbour=_with_moved(spec, anchor.data, broken),
                                  description=f"{anchor.description} Every row's chunks half at {a:g}, half at {t:g}; "
                                              f"one more at {t:g} on the other side.".strip()))
    return out


def crossed_ties(spec: Spec, anchors: list) -> list:
    """Pairs of chunk score rows (scores_one_move, a ``gamma``-histogram with the threshold ``w`` in the
    anchor's parameters) where one partition is tied at the top while the other has a clear mode at distance about
    w: from the first stress case with a gamma, every row (or the single row) holds x values at each of two
    quarter points of one shifted bin (in regular bins j and j + 1) and 2x at a quarter point of the next shifted
    bin (regular bin j + 2), x = w + 1, so the shifted histogram ties 2x : 2x while the regular one has the mode 2x
    over x (distance x - 1, about w); its mirror; and the same with the partitions' roles swapped (a regular tie,
    the shifted mode 2x over x). Each is paired with one value moved across the tie, both ways. A test that reads
    one partition's runner-up or distance for the other's mode passes about half the time and then releases the
    tied bin's midpoint on one side only (0.25 of the time against never, claim 8): tied_halves' two values cannot
    tie one partition while the other's mode is clear, and no stress case is near w in the other partition."""
    if spec.neighbours["relation"] != "scores_one_move" or moved_entries(spec) != (None, None):
        return []
    found = [(a, np.ndim(a.data)) for a in anchors
             if isinstance(a.data, np.ndarray) and a.data.ndim in (1, 2) and "gamma" in a.env and "w" in a.env]
    if not found:
        return []
    anchor, ndim = found[0]
    gamma, w = float(np.asarray(anchor.env["gamma"])), float(np.asarray(anchor.env["w"]))
    bins = int(round(1.0 / gamma))
    if bins < 3 or not math.isfinite(w) or w > 10_000:
        return []
    x = int(math.ceil(w)) + 1
    rows = 1 if ndim == 1 else anchor.data.shape[0]
    quarter = lambda h: (h + 0.5) * gamma / 2  # noqa: E731 - the centre of half-bin h (width gamma/2)
    # regular bin j = half-bins 2j, 2j + 1; shifted bin v = half-bins 2v - 1, 2v (half-bin 0 and the last in none)
    js = (bins - 3) // 2  # the shifted tie's split bin j + 1 and whole bin j + 2 (half-bin 2j + 4 <= 2 bins - 1)
    jr = max(1, js)       # the regular tie's shifted bins j .. j + 2 all inside the shifted partition
    layouts = {"shifted_tie": ((2 * js + 1, x), (2 * js + 2, x), (2 * js + 4, 2 * x)),
               "shifted_tie_mirrored": ((2 * js + 1, 2 * x), (2 * js + 3, x), (2 * js + 4, x)),
               "regular_tie": ((2 * jr, x), (2 * jr + 1, x), (2 * jr + 3, 2 * x)),
               "regular_tie_mirrored": ((2 * jr, 2 * x), (2 * jr + 2, x), (2 * jr + 3, x))}
    out = []
    for name, layout in layouts.items():
        if max(h for h, _ in layout) >= 2 * bins:
            continue
        values = [quarter(h) for h, _ in layout]
        row = np.concatenate([np.full(count, v) for v, (_, count) in zip(values, layout)])
        whole = 0 if layout[0][1] == 2 * x else 2  # the tie's side held at one value; index 1 is on the other
        for src, dst in ((whole, 1), (1, whole)):
            moved_row = row.copy()
            moved_row[int(np.flatnonzero(row == values[src])[0])] = values[dst]
            data, neighbour = (np.tile(r, (rows, 1)) if ndim == 2 else r for r in (row, moved_row))
            out.append(anchor.derived(
                name=f"{anchor.name}@crossed_ties/{name}_{values[src]:g}_to_{values[dst]:g}", source="search",
                data=data, neighbour=neighbour,
                description=f"{anchor.description} Every row: "
                            f"{', '.join(f'{c} at {v:g}' for v, (_, c) in zip(values, layout))} (one partition "
                            f"tied at the top, the other's distance {x - 1}); one value moved from {values[src]:g} "
                            f"to {values[dst]:g}.".strip()))
    return out


AFTER_STABLE = 4  # pairs of moves.after_stable_rows (two a stress case, the first stress cases')


def after_stable_rows(spec: Spec, anchors: list) -> list:
    """Two-row pairs of a row stream (an array of rows, not a dict): for each stress case's first row that differs
    between its sides, that row (each side's own) after a *stable* copy of it, the same on both sides: the copy of
    one side's row with its moved column far above every stress case's (``[neighbours] moves = "index k"``: a
    distance), or with all of its votes on its mode (vote rows). An implementation that keeps what it released
    earlier in the stream and releases it again for free (a label already published re-released without its test
    or the cutoff's charge) leaks where the differing row's label was released before, which no stress case
    (the differing rows first, or every row moved) reaches: on one side the row takes the released label, on the
    other it cannot. The pairs are neighbours by construction (every row the same on both sides or the stress case's
    own pair of rows), so a pair is refused only for a reason (:func:`.neighbours.violation`) its stress case does not
    share: the relation's checker cannot tell a label a stress case moves where the relation allows it (a label
    flipped in a row of distance 0) from one it fixes."""
    field, index = moved_entries(spec)
    votes = spec.neighbours["relation"] in VOTE_KINDS
    if field is not None or not (votes or index is not None):
        return []
    sides = [(a, np.asarray(a.data), np.asarray(a.neighbour)) for a in anchors
             if isinstance(a.data, np.ndarray) and isinstance(a.neighbour, np.ndarray)
             and a.data.ndim == 2 and a.data.shape == a.neighbour.shape]
    if not sides:
        return []
    far = None if votes else 2.0 * max(float(np.max(np.abs(x[:, index]))) for _, d, n in sides for x in (d, n)) + 1.0
    out: list = []
    seen: list[tuple[np.ndarray, np.ndarray]] = []
    for anchor, data, neighbour in sides:
        differ = np.flatnonzero(np.any(data != neighbour, axis=1))
        if not differ.size:
            continue
        i = int(differ[0])
        for name, row in (("data", data[i]), ("neighbour", neighbour[i])):
            stable = row.copy()
            if votes:
                stable[:] = 0
                stable[int(np.argmax(row))] = row.sum()
            else:
                stable[index] = far
            pair = (np.stack([stable, data[i]]), np.stack([stable, neighbour[i]]))
            if any(np.array_equal(pair[0], a) and np.array_equal(pair[1], b) for a, b in seen):
                continue
            seen.append(pair)
            if violation(spec, *pair, anchor.env) not in (None, violation(spec, anchor.data, anchor.neighbour,
                                                                             anchor.env)):
                continue
            out.append(anchor.derived(name=f"{anchor.name}@after_stable_{name}_row", data=pair[0], neighbour=pair[1],
                                      source="search", description=f"{anchor.description} Its first differing row "
                                      f"after a stable copy of the {name}'s row.".strip()))
    return out[:AFTER_STABLE]


def with_more_labels(spec: Spec, anchor) -> list:
    """The anchor's two-label vote rows widened to three labels, the same on both sides, when the spec leaves the
    number of labels free (``[input] labels = "any"``): an empty label between the two ((a, b) -> (a, 0, b)) and
    before them ((0, a, b)). An implementation that measures the runner-up against a fixed label, or reads a row
    as binary, is right on every two-label row and wrong on these; row sums and the relation's one vote a row
    are kept."""
    field, index = moved_entries(spec)
    if (spec.neighbours["relation"] not in VOTE_KINDS or spec.input.get("labels") != "any" or index is not None):
        return []
    sides = [m for m in (moved_part(spec, x)[0] for x in (anchor.data, anchor.neighbour))
             if m is not None and m.ndim == 2 and m.shape[1] == 2]
    if len(sides) != 2:
        return []
    out = []
    for name, at in (("empty_label_between", 1), ("empty_label_first", 0)):
        data, neighbour = (_replaced(field, x, np.insert(m, at, 0, axis=1))
                           for x, m in zip((anchor.data, anchor.neighbour), sides))
        out.append(anchor.derived(name=f"{anchor.name}@3_labels_{name}", data=data, neighbour=neighbour,
                                  source="search", description=f"{anchor.description} Its rows widened to three "
                                  f"labels, {name.replace('_', ' ')}.".strip()))
    return out


def tied_top(spec: Spec, anchor) -> bool:
    """Whether a side of the anchor holds a vote row whose two largest counts are equal (a tie to break): its rows
    widened (:func:`with_more_labels`) are a tie beside an empty label, where a runner-up read as the second-largest
    distinct count is the empty label's."""
    for x in (anchor.data, anchor.neighbour):
        m = moved_part(spec, x)[0]
        if m is not None and m.ndim == 2 and m.shape[1] >= 2:
            top = np.sort(m, axis=1)[:, -2:]
            if np.any((top[:, 0] == top[:, 1]) & (top[:, 1] > 0)):
                return True
    return False


def _replaced(field: str | None, data, values: np.ndarray):
    """``data`` with its moved field (or the whole input) replaced by ``values`` of any shape."""
    return values if field is None else {**data, field: values}


def with_all_rows(spec: Spec, anchor):
    """The anchor extended to ``[input] rows`` rows (its rows repeated in turn) when it holds fewer: a search at
    a parameter point with more queries (``--param m=6``) looks where all of them are answered. None otherwise."""
    formula = spec.input.get("rows")
    data = anchor.data if not isinstance(anchor.data, dict) else None
    if formula is None or data is None or np.ndim(data) != 2:
        return None
    rows, have = int(float(formula.evaluate(anchor.env))), np.shape(data)[0]
    if not have < rows <= 4096:
        return None
    extended = np.resize(np.asarray(data), (rows, np.shape(data)[1]))
    return anchor.derived(name=f"{anchor.name}@{rows}_rows", data=extended, source="search",
                          neighbour=np.resize(np.asarray(anchor.neighbour), (rows, np.shape(data)[1])),
                          description=f"{anchor.description} Its rows repeated to the {rows} the input may hold.".strip())


def lines(spec: Spec, anchors: list) -> list[Line]:
    """The lines through the first MAX_ANCHORS distinct anchors whose input has a numeric moved part
    (module doc): anchors with an input not seen yet first, then the same inputs at other parameters (stress
    cases that repeat one input at three epsilons took three of the four places, and the input whose last
    column leaks got none)."""
    relation = spec.neighbours["relation"]
    out: list[Line] = []
    keys: list = []  # (moved input, its shape, the parameters) of each distinct anchor, in order
    found = []
    for anchor in anchors:
        moved, _ = moved_part(spec, anchor.data)
        if moved is None or moved.size == 0 or domain_violation(spec, moved):
            continue
        key = (moved.tobytes(), moved.shape, tuple(sorted(anchor.params.items())))
        if key not in keys:
            keys.append(key)
            found.append((anchor, moved))
    fresh = [i for i, key in enumerate(keys) if key[:2] not in [k[:2] for k in keys[:i]]]
    order = fresh + [i for i in range(len(keys)) if i not in fresh]
    for anchor, moved in (found[i] for i in order[:MAX_ANCHORS]):
        if relation in UNIT_RELATIONS:
            out += _vector_lines(spec, anchor, moved)
        elif relation in VOTE_KINDS:
            out += _vote_lines(spec, anchor, moved)
        elif relation == "scores_one_move":
            out += _column_lines(spec, anchor, moved)
    return out


def vector_patterns(relation: str, d: int, delta: float, base: np.ndarray):
    """(name, neighbour) of the relation's patterns for a numeric vector ``base`` of length ``d`` moved by
    ``delta`` (the sensitivity): one entry, the last, all, half up and half down, StatDP's mixed directions."""
    e0, e_last, ones = np.zeros(d), np.zeros(d), np.ones(d)
    e0[0] = 1.0
    e_last[-1] = 1.0
    half = np.where(np.arange(d) < (d + 1) // 2, 1.0, -1.0)
    if relation == "vector_l1":
        yield "first_up", base + delta * e0
        yield "first_down", base - delta * e0
        if d > 1:
            yield "last_up", base + delta * e_last
            yield "all_up", base + delta / d * ones
            yield "all_down", base - delta / d * ones
            yield "half_up_half_down", base + delta / d * half
    elif relation == "vector_l2":
        yield "first_up", base + delta * e0
        yield "first_down", base - delta * e0
        if d > 1:
            yield "all_up", base + delta / np.sqrt(d) * ones
    elif relation == "query_answers":
        yield "one_up", base + delta * e0
        yield "one_down", base - delta * e0
        if d > 1:
            yield "all_up", base + delta * ones
            yield "all_down", base - delta * ones
            yield "half_up_half_down", base + delta * half
            yield "first_up_rest_down", base + delta * (2 * e0 - ones)
            yield "first_down_rest_up", base - delta * (2 * e0 - ones)
            yield "last_down_rest_up", base + delta * (ones - 2 * e_last)
            yield "last_up_rest_down", base - delta * (ones - 2 * e_last)
            yield "last_up", base + delta * e_last
            yield "last_down", base - delta * e_last



# float32 rounding midpoints far above 1 (2^24 + 1, 2^26 + 4, 2^30 + 64: halfway between two float32 values,
# spacing 2, 8 and 128), where a vector kept in float32 ("the answers are counts; float32 halves the memory")
# turns a move of one sensitivity into a move of the float32 spacing: no line reaches them (the grids end at
# 2^20 sensitivities, and float64 answers that straddle no midpoint round alike)
FLOAT32_MIDPOINTS = tuple(2.0 ** k + 2.0 ** (k - 24) for k in (24, 26, 30))


def float32_midpoints(relation: str, d: int, delta: float, integral: bool):
    """``(name, data, neighbour)``: vectors of length ``d`` at each of FLOAT32_MIDPOINTS (and their negatives),
    where the relation's move of ``delta`` carries an entry from the midpoint M (float32 rounds it to the even
    side, M - spacing/2 for these M) to M + delta (rounded up): under ``query_answers`` every entry moves, half up
    and half down (D = M + delta on the even positions, D' on the odd ones), under an L1 or L2 relation the first
    entry only. Whole-number domains need a whole ``delta``."""
    if delta <= 0 or (integral and not float(delta).is_integer()):
        return
    up = np.arange(d) % 2 == 0 if relation == "query_answers" else np.arange(d) == 0
    for m in FLOAT32_MIDPOINTS:
        for sign, tag in ((1.0, ""), (-1.0, "minus_")):
            base = np.full(d, sign * m)
            yield (f"float32_midpoint/{tag}2^{int(math.log2(m))}", base + sign * delta * up,
                   base + sign * delta * (~up if relation == "query_answers" else np.zeros(d, dtype=bool)))


VOTE_PATTERNS = {  # per-row directions: +1 one vote from the mode to the runner-up, -1 back, 0 unchanged
    "all_to_runner_up": lambda r: np.ones(r), "all_to_mode": lambda r: -np.ones(r),
    "last_back": lambda r: np.where(np.arange(r) == r - 1, -1.0, 1.0),
    "last_forward": lambda r: np.where(np.arange(r) == r - 1, 1.0, -1.0),
    "every_third_back": lambda r: np.where(np.arange(r) % 3 == 2, -1.0, 1.0),
    "halves": lambda r: np.where(np.arange(r) < (r + 1) // 2, 1.0, -1.0),
    "alternate": lambda r: np.where(np.arange(r) % 2 == 0, 1.0, -1.0),
}


def patterns(spec: Spec, data, env: dict):
    """``(name, neighbour)`` of ``data`` by the relation's patterns of several entries at once (mixed
    directions: StatDP's for answers; for vote rows, one vote moved in each row, toward the runner-up in some
    and back toward the mode in others), inside the input's domain: the structural moves a search applies where
    its lines found the implementation's sensitive region."""
    relation = spec.neighbours["relation"]
    moved, _ = moved_part(spec, data)
    if moved is None or moved.size < 2:
        return
    if relation in UNIT_RELATIONS:
        flat = moved.astype(float).ravel()
        for name, nb in vector_patterns(relation, flat.size, sensitivity(spec, env), flat):
            if domain_violation(spec, nb) is None:
                yield name, _with_moved(spec, data, nb.reshape(moved.shape))
    elif relation in VOTE_KINDS and moved.ndim == 2 and moved.shape[0] >= 2 and moved.shape[1] >= 2:
        rows = moved.astype(np.int64)
        order = np.argsort(-rows, axis=1, kind="stable")
        mode, runner = order[:, 0], order[:, 1]
        r = np.arange(rows.shape[0])
        for name, direction in VOTE_PATTERNS.items():
            d = direction(rows.shape[0]).astype(np.int64)
            nb = rows.copy()
            nb[r, mode] -= d
            nb[r, runner] += d
            if nb.min() >= 0:
                yield name, _with_moved(spec, data, nb)


# --------------------------------------------------------------------------- parameter points

SCALE_FACTOR = 4.0  # a scale parameter is also audited this many times larger and smaller
# ... and the claim's epsilon also 8 times larger, 8 and 16 times smaller (a regime an implementation switches on,
# "epsilon >= 5: Gaussian noise", lies beyond 4x; far above, a pure claim's loss is past what samples can show),
# the claim's delta also at 10^-4 of it ("delta < 1e-9: ...")
FAR_EPSILON_FACTORS = (8.0, 1 / 8, 1 / 16)
# ... and twice off the powers of two (every other point keeps sensitivity / epsilon a whole number when it was one: a
# noise scale truncated to an integer, int(sensitivity / epsilon) for an exact integer sampler, is right on all of them),
# once below and once above the default (from epsilon 1, every other point above 1 is a whole number: a randomized
# response that takes its keep probability at ceil(epsilon) above 1 is exact on all of them; at 2.7, loss 3)
OFF_GRID_EPSILONS = (0.7, 2.7)
FAR_EPSILON_MAX = 16.0  # ... up to this epsilon: beyond it no round we draw (10^7 a side: ln(10^7 / 3) = 15) shows a loss
FAR_DELTA_FACTOR = 1e-4
# ... and at 0.05 when it is below a tenth of that: an output released on one side only with a mass a little above
# delta (delta e^epsilon / 2: a distance of 0 answered apart) breaks a claim of 10^-6 by 3.6e-7, which no sample
# shows, and a claim of 0.05 by 0.018 against a structural zero, which a pilot of 2,000 runs scores (136 against 0)
LARGE_DELTA = 0.05
MAX_COUNT = 64  # an integer parameter is scaled up to at most this (inputs grow with counts)
# ... and the relation's sensitivity (a parameter, real or whole) also this many times larger, whatever the cap: a
# noise scale found by bisection on a fixed bracket ([0.1, 100]) or read from a table tops out only far above the
# stress cases' scales (a discrete Gaussian's sigma at sensitivity 100 is 373: capped at 100, delta(1) = 0.13)
FAR_SENSITIVITY_FACTOR = 100


OFF_ZERO = 0.5  # a bound at 0 that may take any sign is also audited here
# a derived noise scale (a derived quantity calibrated to the claim's epsilon: sigma = gamma sqrt(2 ln(1.25/delta))/
# epsilon) is also audited on the other side of 1 from its value at the audit point, in this window: a scale squared
# where it should not be (a variance used as a standard deviation) adds more noise above 1 and less below, so every
# point that moves one parameter by SCALE_FACTOR can sit on the safe side (sigma_G from 2.4 to 39 at the defaults of
# the stable Gaussian prediction, where the bug shows only at sigma_G < 1)
BELOW_ONE, ABOVE_ONE = (1 / 16, 1 / 2), (2.0, 16.0)
SCALE_STEPS = 12  # ... reached by moving one parameter by 2^k or 2^-k, k at most this
MAX_SCALE_POINTS = 2  # ... for the first this many derived scales of the spec's order (its noise scales lead)


def _depends_on(spec: Spec, name: str, targets: frozenset[str]) -> bool:
    """Whether derived quantity ``name``'s formula reads any of ``targets``, directly or through other derived ones."""
    seen, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current in targets:
            return True
        if current in seen or current not in spec.derived:
            continue
        seen.add(current)
        todo.extend(spec.derived[current].formula.names)
    return False


def derived_scale_points(spec: Spec, params: dict) -> list[tuple[str, dict]]:
    """Parameter points that put each derived noise scale on the other side of 1 (BELOW_ONE or ABOVE_ONE): for each
    derived quantity calibrated to the claim's epsilon, positive and within a factor 64 of 1 at the audit point, the
    first point (fewest doublings or halvings, parameters other than the claim's own first) that moves one parameter
    the user did not fix into the window; the claim's epsilon at most FAR_EPSILON_MAX, its delta at most
    LARGE_DELTA; for the first MAX_SCALE_POINTS such scales. ``(name, point)`` pairs, named as
    ``gamma=0.03125 (sigma_G=0.303)``; no parameter value twice."""
    if spec.privacy is None:
        return []
    epsilons, deltas = spec.privacy.epsilon.names, spec.privacy.delta.names
    try:
        base = spec.bind(params)
    except ValueError:
        return []
    movable = [n for n, p in spec.parameters.items()
               if n not in params and p.type == "real" and isinstance(base.get(n), int | float) and base[n] > 0
               and (p.min is None or p.min >= 0)]
    movable.sort(key=lambda n: n in epsilons or n in deltas)  # the claim's own parameters last
    out: dict[str, tuple[str, dict]] = {}
    for name in spec.derived:
        if not (_depends_on(spec, name, epsilons) and _noise_scale(spec, params, base, name, epsilons)):
            continue
        v = float(base[name])
        low, high = BELOW_ONE if v > 1 else ABOVE_ONE
        found = None
        for k, moved in itertools.product(range(1, SCALE_STEPS + 1), movable):
            for x in (base[moved] * 2.0 ** k, base[moved] * 2.0 ** -k):
                if (moved in epsilons and x > FAR_EPSILON_MAX) or (moved in deltas and x > LARGE_DELTA):
                    continue
                if spec.parameters[moved].violation(x):
                    continue
                point = {**params, moved: x}
                try:
                    value = float(spec.bind(point)[name])
                except (ValueError, KeyError, ArithmeticError):
                    continue
                if low <= value <= high:
                    found = (f"{moved}={x:g} ({name}={value:.3g})", point)
                    break
            if found:
                break
        if found:
            out.setdefault(found[0].split(" ")[0], found)
        if len(out) == MAX_SCALE_POINTS:
            break
    return list(out.values())


def _noise_scale(spec: Spec, params: dict, base: dict, name: str, epsilons: frozenset[str]) -> bool:
    """Whether derived quantity ``name`` reads as a noise scale at the audit point: positive, within a factor 64 of 1
    and not 1, and smaller where the claim's epsilon is a little larger (a scale calibrated to epsilon; a loss or an
    epsilon share grows with it)."""
    v = base.get(name)
    if not isinstance(v, float | int | np.floating) or not (1 / 64 <= float(v) <= 64) or float(v) == 1:
        return False
    try:
        larger = spec.bind({**params, **{e: base[e] * 1.01 for e in epsilons if e in base}})
    except (ValueError, KeyError, ArithmeticError):
        return False
    return float(larger.get(name, v)) < float(v)


def parameter_points(spec: Spec, params: dict) -> list[tuple[str, dict]]:
    """Parameter points beside ``params`` (the audit point): each parameter the user did not fix moved,
    one at a time, to values on both sides of 1 and of its default (a bound at 0 of any sign, one that a spec
    constraint relates to another parameter, to OFF_ZERO: a clipped sum that drops duplicate records leaks only when
    lower > 0; a real scale times and divided by
    SCALE_FACTOR, and 2 or 1/2 when both of those sit on one side of 1, the claim's epsilon also by
    FAR_EPSILON_FACTORS and OFF_GRID_EPSILONS; the claim's delta divided by 100 and 10^4 and set to LARGE_DELTA;
    a whole count doubled and quadrupled, at most MAX_COUNT, never a count of the records, and a vector's length also
    at the longest of LONG_LENGTHS; the relation's sensitivity also FAR_SENSITIVITY_FACTOR times larger), inside its
    domain. ``(name, point)`` pairs, each point binding (the search
    re-centres its stress cases and lines on it). The points of :func:`derived_scale_points` come first."""
    base = {**spec.defaults(), **params}
    claim_deltas = spec.privacy.delta.names if spec.privacy is not None else set()
    length = spec.input.get("length")  # a vector's length (the stress vectors are padded to it)
    lengths: frozenset[str] = getattr(length, "names", frozenset()) if length is not None else frozenset()
    moved_by = spec.neighbours.get("sensitivity")
    sensitivities = moved_by.names if moved_by is not None else set()
    claim_epsilons = spec.privacy.epsilon.names if spec.privacy is not None else set()
    records = spec.input.get("records")
    scales = set(records.scales + records.fixed) if records is not None else set()
    bounds = {n for c in spec.constraints if len(c.names) > 1 for n in c.names}
    out = []
    for name, p in spec.parameters.items():
        if name in params or p.type not in ("real", "integer") or name not in base:
            continue
        v = base[name]
        if p.type == "real":
            if isinstance(v, int | float) and v == 0 and p.min is None and name in bounds:
                values = [OFF_ZERO]  # a bound at 0 (of any sign, in a constraint with another: lower < upper)
            elif not (isinstance(v, int | float) and v > 0 and (p.min is None or p.min >= 0)):
                continue
            elif name in claim_deltas:  # the claim's delta: smaller (at a hundredth and far below), and large
                values = [v / 100, v * FAR_DELTA_FACTOR] + ([LARGE_DELTA] if v < LARGE_DELTA / 10 else [])
            else:
                values = [v * SCALE_FACTOR, v / SCALE_FACTOR]
                if max(values) <= 1:
                    values.append(2.0)
                if min(values) >= 1:
                    values.append(0.5)
                if name in claim_epsilons:
                    values += [v * f for f in FAR_EPSILON_FACTORS + OFF_GRID_EPSILONS if v * f <= FAR_EPSILON_MAX]
        else:  # a count: only larger (an input sized by it is padded; a smaller one could not hold the input)
            if not (isinstance(v, int) and v >= 1) or name in scales:
                continue
            values = [x for x in (2 * v, 4 * v) if x <= max(MAX_COUNT, v)]
        if name in sensitivities:
            values.append(v * FAR_SENSITIVITY_FACTOR)
        if name in lengths and isinstance(v, int) and v < LONG_LENGTHS[-1]:
            values.append(LONG_LENGTHS[-1])
        for x in dict.fromkeys(values):
            x = type(v)(x)
            if x == v or p.violation(x):
                continue
            point = {**params, name: x}
            try:
                spec.bind(point)
            except ValueError:
                continue
            out.append((f"{name}={x:g}", point))
    seen = [point for _, point in out]  # the derived noise scales' points first: the pairs' cap keeps them
    return [(n, p) for n, p in derived_scale_points(spec, params) if p not in seen] + out
