"""The implementation-guided line search (:func:`line_search`): along each line of inputs through an anchor
(:func:`.moves.lines`), a pilot sample at every grid point; neighbouring points scored by the bound their
outputs predict (the pair search's own pilot selection); the widest jumps of the output law between
grid points bisected down to a neighbouring pair; and a climb from the best pair toward a worse one.
The pairs found join the round's pair search, named by the move that found them (``grid``, ``bisection``,
``climb``; and ``edge``: the first pairs at the lower edge of a line's domain, whatever their score), each checked
to be a neighbour under the relation (:func:`.neighbours.violation`).

Level. Every sample here is a pilot sample from streams of its own: it only chooses pairs, as the pair
search's pilot does, and no bound is ever computed from it; the verdict's estimates are drawn afresh, so
the audit's family-wise level is unchanged however many points the search visits.
"""

from __future__ import annotations

import math

import numpy as np

from ..sandbox.runner import ImplementationError
from .claims import Claim
from .moves import Line, patterns
from .neighbours import violation
from .pairs import Pair, same_input
from .rounds import Auditor
from .views import as2d, decimals, quantile_edges

LINE_KEY = 0x11AE  # the search's streams: SeedSequence(seed, spawn_key=(LINE_KEY, round, line, point))
LINE_RUNS = 1000   # runs per grid point of a batch sampler (:func:`runs_per_point`)
CALL_LINE_RUNS = 300  # ... of a single-run function (every run a call)
MIN_LINE_RUNS = 100
LOCATE = 3         # intervals between grid points bisected per line
CLIMB_STEPS = 6    # pairs tried by the climb per line
KEEP_PER_LINE = 2  # neighbouring pairs a line contributes (its best ones)
MAX_FOUND = 12     # pairs the search adds to the round's pair search
PATTERN_ANCHORS = 3  # of them, the best whose first input gets the relation's mixed-direction patterns
EDGE_PAIRS = 2     # pairs at the edge of the domain (a distance 0 against 1), beside them whatever their score
SUPPORT_DEPTH = 3  # pairs below (and above) the pilot's edge of an output's support, on a whole-valued line ...
SUPPORT_LINES = 1  # ... of this many lines (the first with such an edge)
SUPPORT_VALUES = 4  # ... whose output is one of this many whole values
SUPPORT_FILL = 32  # the widest gap between grid points filled point by point to find that edge


CELL_BINS = 16  # quantile bins of a continuous column's (and the row sum's) cells


def fit_cells(x: np.ndarray) -> dict:
    """The cells of the outputs of a pair of points, fitted on their pooled runs ``x`` (2-D): each integer-valued
    column's values as they are; each other column and the continuous part's sum cut at CELL_BINS quantiles."""
    integral = np.all((x == np.round(x)) | ~np.isfinite(x), axis=0) if x.dtype.kind == "f" else np.ones(x.shape[1], bool)
    conts = np.flatnonzero(~integral)
    edges = [quantile_edges(x[:, j], CELL_BINS) for j in conts[:8]]
    total = quantile_edges(x[:, conts].sum(axis=1), CELL_BINS) if conts.size > 1 else None
    weights = np.random.default_rng(0xCE11).integers(1, 2**62, size=x.shape[1] + 2 * len(edges) + 1, dtype=np.int64) | 1
    return {"ints": np.flatnonzero(integral), "conts": conts[:8], "edges": edges, "total": total, "weights": weights}


def cell_codes(x: np.ndarray, cells: dict) -> np.ndarray:
    """One 64-bit code per run: a hash of its integer columns' values and its continuous columns' bins."""
    parts = [np.nan_to_num(x[:, cells["ints"]].astype(float), nan=-1.5, posinf=1e300, neginf=-1e300).view(np.int64)]
    parts += [np.searchsorted(e, x[:, j], "right")[:, None] for j, e in zip(cells["conts"], cells["edges"])]
    parts += [decimals(x[:, j])[:, None] for j in cells["conts"]]  # a grid that follows the input
    if cells["total"] is not None:
        parts.append(np.searchsorted(cells["total"], x[:, cells["conts"]].sum(axis=1), "right")[:, None])
    columns = np.concatenate([p.astype(np.int64) for p in parts], axis=1)
    with np.errstate(over="ignore"):
        return (columns * cells["weights"][:columns.shape[1]]).sum(axis=1)


def cell_score(a: np.ndarray, b: np.ndarray, n: int, claim: Claim, alpha: float) -> float:
    """The largest bound a union of cells ordered by likelihood ratio predicts for ``n`` runs a side (both
    orientations), from cell codes ``a`` (one side's runs) and ``b`` (the other's)."""
    values, inverse = np.unique(np.concatenate([a, b]), return_inverse=True)
    k1 = np.bincount(inverse[:a.size], minlength=values.size).astype(float)
    k2 = np.bincount(inverse[a.size:], minlength=values.size).astype(float)
    best = -math.inf
    for num, den, nn, nd in ((k1, k2, a.size, b.size), (k2, k1, b.size, a.size)):
        order = np.argsort(-((num + 0.5) / nn) / ((den + 0.5) / nd), kind="stable")
        p1, p2 = np.cumsum(num[order]) / nn, np.cumsum(den[order]) / nd
        found = claim.approx_predicted(p1, p2, n, alpha)
        best = max(best, float(np.max(found)) if found.size else -math.inf)
    return best


def runs_per_point(points: int, pace: float | None, runner, seconds: float) -> int:
    """Runs per grid point: LINE_RUNS for a batch sampler, CALL_LINE_RUNS for a single-run function; with a
    measured ``pace`` (seconds a run, under a time budget), at most what fits in ``seconds`` on the runner's
    workers (at least MIN_LINE_RUNS)."""
    runs = LINE_RUNS if runner.batched else CALL_LINE_RUNS
    if pace is None:
        return runs
    workers = 1 if runner.batched else runner.n_workers
    return int(min(runs, max(MIN_LINE_RUNS, seconds * workers / max(pace * points, 1e-12))))


class _LineSampler:
    """The pilot samples of one line, by point (each from its own stream)."""

    def __init__(self, aud: Auditor, r: int, k: int, line: Line, n: int):
        self.aud, self.r, self.k, self.line, self.n = aud, r, k, line, n
        self.samples: dict[float, np.ndarray] = {}
        self.failed: dict[float, str] = {}  # points the implementation failed on (left out of the search)
        self.scored = 0
        self.i = next(j for j, p in enumerate(aud.pairs) if p is line.anchor)
        self.claim = aud.claims[self.i]

    def _rng(self, t: float) -> np.random.Generator:
        code = int(round(t * 1024))
        key = 2 * abs(code) + (code < 0)
        return np.random.default_rng(np.random.SeedSequence(self.aud.seed, spawn_key=(LINE_KEY, self.r, self.k, key)))

    def fill(self, ts) -> None:
        """Sample the points not sampled yet. A point the implementation fails on (an input far out, where a
        naive numeric routine overflows) is left out of the search, with its reason: the search chooses
        pairs, it never judges the implementation."""
        todo = [t for t in dict.fromkeys(ts) if t not in self.samples and t not in self.failed]
        if not todo:
            return
        params = self.line.anchor.params
        try:
            outs = self.aud.runner.sample_many([(self.line.point(t), self.n, self._rng(t), params) for t in todo])
            self.samples.update(zip(todo, outs))
            return
        except ImplementationError:
            pass
        for t in todo:  # one at a time, to know which
            try:
                self.samples[t] = self.aud.runner.sample(self.line.point(t), self.n, rng=self._rng(t), params=params)
            except ImplementationError as exc:
                self.failed[t] = exc.reason

    def score(self, t: float, u: float, n_score: int, alpha: float) -> float:
        """The margin over its claim of the bound the pair (D(t), D(u)) predicts for ``n_score`` runs a side,
        on the cells' likelihood-ratio ordered unions (-inf: nothing to show)."""
        self.fill([t, u])
        if t not in self.samples or u not in self.samples:
            return -math.inf
        self.scored += 1
        a, b = as2d(self.samples[t]), as2d(self.samples[u])
        cells = fit_cells(np.concatenate([a, b]))  # the pair's own cells: a line spans many scales
        return cell_score(cell_codes(a, cells), cell_codes(b, cells), n_score, self.claim, alpha) - self.claim.value


def _search_line(s: _LineSampler, n_score: int, alpha: float) -> list[tuple[float, float, float, str]]:
    """``(margin, t, u, move)`` of the line's best neighbouring pairs."""
    line = s.line
    s.fill(line.grid + line.partners() + line.crossings)
    found: dict[tuple[float, float], tuple[float, str]] = {}

    def note(t, u, how):
        key = (min(t, u), max(t, u))
        if key not in found:
            found[key] = (s.score(*key, n_score, alpha), how)
        return found[key][0]

    sampled = sorted(s.samples)
    points = [t for t in sampled if t not in line.crossings]  # the grid, whose gaps are bisected
    if not line.unit:  # every two points are neighbours
        for j, t in enumerate(points):
            for u in points[j + 1:]:
                note(t, u, "grid")
    else:
        for t in sampled:
            for u in (t + 1, *(v for v in sampled if t < v <= t + 1)):
                if u in s.samples:
                    note(t, u, "grid")
        # the widest jumps of the law between grid points, bisected down to a neighbouring pair
        gaps = [(s.score(a, b, n_score, alpha), a, b) for a, b in zip(points, points[1:]) if b - a > 1]
        for _, a, b in sorted(gaps, key=lambda g: -g[0])[:LOCATE]:
            while b - a > 1:
                m = math.floor((a + b) / 2) if line.integral else (a + b) / 2
                if not a < m < b:
                    break
                s.fill([m])
                a, b = (a, m) if s.score(a, m, n_score, alpha) >= s.score(m, b, n_score, alpha) else (m, b)
            if b - a <= 1:
                note(a, b, "bisection")
        # a climb from the best pair: the same width, moved by halving steps while it gets worse
        if found:
            (t, u), (best, _) = max(found.items(), key=lambda kv: kv[1][0])
            width, step, tries = u - t, max(1.0, abs(t) / 4), 0
            while tries < CLIMB_STEPS and step >= (1.0 if line.integral else 0.25):
                moved = False
                for shift in (step, -step):
                    a = t + shift
                    if line.integral:
                        a = float(round(a))
                    if not (line.lower <= a and a + width <= line.upper) or (a, a + width) in found:
                        continue
                    tries += 1
                    score = note(a, a + width, "climb")
                    if score > best:
                        best, t, moved = score, a, True
                        break
                if not moved:
                    step /= 2
    ranked = sorted(((m, t, u, how) for (t, u), (m, how) in found.items() if math.isfinite(m)), reverse=True)
    return ranked[:KEEP_PER_LINE]


def line_search(aud: Auditor, lines: list[Line], r: int, n: int, alpha: float, *, max_found: int = MAX_FOUND,
                anchor_moves_only: bool = False, first_line: int = 0) -> tuple[list[Pair], dict]:
    """The pairs the line search finds (module doc), best first, at most ``max_found``, and its record. ``n``:
    runs per grid point; events are scored for twice that (as the pair search's pilot). ``anchor_moves_only``: no
    edge, support or pattern pairs, only the anchor's move made again at the found pairs' inputs (lines through a
    constant vector moved down then up, moves.stepped: a few pairs, which thin the pair search's pilot little);
    ``first_line``: the first line's index among the round's (its random streams')."""
    candidates = []
    record: dict = {"lines": len(lines), "runs_per_point": n, "points": 0, "pairs_scored": 0, "rejected": 0}
    samplers = []
    for k, line in enumerate(lines, start=first_line):
        sampler = _LineSampler(aud, r, k, line, n)
        samplers.append(sampler)
        for margin, t, u, how in _search_line(sampler, 2 * n, alpha):
            candidates.append((margin, line, t, u, how))
        record["points"] += len(sampler.samples)
        record["pairs_scored"] += sampler.scored
        if sampler.failed:
            t, reason = next(iter(sampler.failed.items()))
            record.setdefault("failed", []).append(f"{line.name} from {line.anchor.name}: {len(sampler.failed)} points "
                                                   f"(at t = {t:g}: {reason})")
    out: list[Pair] = []
    anchor_of: dict[str, Pair] = {}  # each found pair's anchor, by name
    for margin, line, t, u, how in sorted(candidates, key=lambda c: -c[0]):
        anchor = line.anchor
        data, neighbour = line.point(t), line.point(u)
        if violation(aud.spec, data, neighbour, anchor.env):
            record["rejected"] += 1
            continue
        out.append(Pair(
            name=f"search/{line.name}/{anchor.name}/{t:g}_to_{u:g}", data=data, neighbour=neighbour,
            params=anchor.params, env=anchor.env, source="search",
            description=(f"implementation-guided line search ({line.name[5:]}, found by {how}) from stress case "
                         f"{anchor.name}: moved {t:g} and {u:g} {'sensitivities' if line.unit else ''} from it"
                         ).replace("  ", " "),
            extra={"move": how, "line": line.name, "pilot_margin": margin}))
        anchor_of[out[-1].name] = anchor
        if len(out) == max_found:
            break
    if anchor_moves_only:
        out += _patterns_at(aud, out, record, anchor_of, anchor_moves_only=True)
    else:
        out += _edge_pairs(aud, lines, out)
        out += _support_pairs(aud, samplers, out)
        out += _patterns_at(aud, out[:PATTERN_ANCHORS], record, anchor_of)
    record["found"] = [p.name for p in out]
    return out, record


def _new_line_pair(aud: Auditor, line: Line, t: float, u: float, known: list[Pair], where: str,
                   move: str) -> Pair | None:
    """The pair (D(t), D(u)) of a line, kept whatever its pilot score, or None when it is not a neighbour under the
    relation or is among ``known`` (same inputs at the same parameters)."""
    data, neighbour = line.point(t), line.point(u)
    if violation(aud.spec, data, neighbour, line.anchor.env) or any(
            same_input(data, p.data) and same_input(neighbour, p.neighbour) and p.params == line.anchor.params
            for p in known):
        return None
    return Pair(name=f"search/{line.name}/{line.anchor.name}/{t:g}_to_{u:g}", data=data, neighbour=neighbour,
                params=line.anchor.params, env=line.anchor.env, source="search",
                description=f"implementation-guided line search ({line.name[5:]}, {where}) from stress case "
                            f"{line.anchor.name}: moved {t:g} and {u:g} sensitivities from it",
                extra={"move": move, "line": line.name})


def _edge_pairs(aud: Auditor, lines: list[Line], found: list[Pair]) -> list[Pair]:
    """The first EDGE_PAIRS distinct pairs at the lower edge of a unit line's domain (t at its bound against t + 1: a
    distance to instability of 0 against 1), not among ``found``, whatever their pilot score: an implementation that
    answers the edge apart (a distance of 0 answered bottom without its noisy test) releases on one side only with a
    mass a little above delta (delta e^epsilon / 2), which a pilot of a few hundred runs does not score, while the
    round's estimate shows it wherever delta is not tiny (at delta 0.05, epsilon 1: 0.068 against never)."""
    out: list[Pair] = []
    for line in lines:
        if len(out) == EDGE_PAIRS:
            break
        t = line.lower
        if not (line.unit and math.isfinite(t) and t + 1 <= line.upper):
            continue
        pair = _new_line_pair(aud, line, t, t + 1, found + out, "the domain's edge", "edge")
        if pair is not None:
            out.append(pair)
    # ... and the same inputs at the parameter point of the largest delta (moves.LARGE_DELTA), where that mass shows
    home = [c.delta for p, c in zip(aud.pairs, aud.claims) if p.source != "parameter" and c.kind == "dp"]
    far = [(c.delta, p) for p, c in zip(aud.pairs, aud.claims)
           if p.source == "parameter" and c.kind == "dp" and home and c.delta > max(home)]
    if far:
        point = max(far, key=lambda f: f[0])[1]
        out += [e.derived(name=f"{e.name}@{point.name.rsplit('@', 1)[-1]}", params=point.params, env=point.env)
                for e in out if not violation(aud.spec, e.data, e.neighbour, point.env)]
    return out


def _support_edges(s: _LineSampler) -> list[tuple[float, int]]:
    """The points t of a whole-valued unit line where a discrete output's pilot count turns from 0 to positive
    (the first t seen, coming from where it is absent), when the line's outputs are a few whole values, after the grid's gaps around it are sampled point by point
    (SUPPORT_FILL at most): the pilot's edge of that output's support, as ``(t, direction)`` (+1: absent below t)."""
    line = s.line
    if not (line.unit and line.integral):
        return []
    rows = {t: as2d(x) for t, x in s.samples.items() if t not in s.failed}
    if not rows or any(x.shape[1] != 1 for x in rows.values()):
        return []
    values = np.unique(np.concatenate([np.unique(x) for x in rows.values()]))
    if values.size > SUPPORT_VALUES or not np.all(values == np.round(values)):
        return []  # a few discrete outputs (a label or bottom): a continuous output's tails are the event views' to see
    edges: list[tuple[float, int]] = []
    for v in values:
        for direction in (1, -1):
            seen = sorted((t for t in rows if np.any(rows[t] == v)), key=lambda t: direction * t)
            absent = [t for t in rows if not np.any(rows[t] == v) and direction * t < direction * seen[0]] if seen else []
            if not absent:
                continue
            a = max(absent, key=lambda t: direction * t)
            if 1 < abs(seen[0] - a) <= SUPPORT_FILL:  # the gap filled: the first point seen, to the unit
                between = [a + direction * k for k in range(1, int(abs(seen[0] - a)))]
                s.fill(between)
                rows.update((t, as2d(s.samples[t])) for t in between if t in s.samples)
                first = next((t for t in between if t in rows and np.any(rows[t] == v)), seen[0])
            else:
                first = seen[0]
            edges.append((first, direction))
    return list(dict.fromkeys(edges))


def _support_pairs(aud: Auditor, samplers: list[_LineSampler], found: list[Pair]) -> list[Pair]:
    """The SUPPORT_DEPTH neighbouring pairs just outside the pilot's edge of a discrete output's support
    (:func:`_support_edges`) on the first SUPPORT_LINES lines that have one, whatever their score: a pilot of a few
    hundred runs first sees an output where its probability is about 1/runs, so where an implementation truncates
    its noise (a release impossible a few scales below the threshold, possible one unit above: 4e-3 against 0 at a
    distance to instability of 8 against 9), the pairs that show it lie just beyond what the pilot saw, and only the
    round's estimate, with its 10^5 runs, tells a truncated tail from the spec's thin one."""
    out: list[Pair] = []
    lines_used = 0
    for s in samplers:
        if lines_used == SUPPORT_LINES:
            break
        line, pairs = s.line, []
        for first, direction in _support_edges(s):
            for k in range(SUPPORT_DEPTH):
                u = first - direction * k
                t = u - direction
                t, u = min(t, u), max(t, u)
                if line.lower <= t and u <= line.upper:
                    pairs.append((t, u))
        before = len(out)
        for t, u in dict.fromkeys(pairs):
            pair = _new_line_pair(aud, line, t, u, found + out, "the pilot's edge of an output's support", "support edge")
            if pair is not None:
                out.append(pair)
        lines_used += len(out) > before
    return out


def _anchor_move(anchor: Pair | None, start) -> list[tuple[str, np.ndarray]]:
    """The move of ``anchor`` (the pair a line was drawn through) made again from ``start`` (an input the line
    found): a constant long vector moved down in its first half and up in its second (moves.stepped) splits
    answers that share a noise only where the line found the implementation uncertain, far from the anchor's."""
    if anchor is None or not all(isinstance(x, np.ndarray) for x in (anchor.data, anchor.neighbour, start)) \
            or anchor.data.shape != anchor.neighbour.shape or anchor.data.shape != start.shape:
        return []
    return [("anchor_move", start + (anchor.neighbour - anchor.data))]


def _patterns_at(aud: Auditor, found: list[Pair], record: dict, anchors: dict[str, Pair],
                 anchor_moves_only: bool = False) -> list[Pair]:
    """The relation's mixed-direction patterns (:func:`.moves.patterns`) applied at both inputs of the best
    pairs the lines found: where the implementation's sensitive region is, the pattern that spreads a move over
    every entry (votes moved back in some rows and forward in others) leaks most, and from the input on the far
    side of the implementation's threshold (a pattern from a row of gap 8 moves to 6 and 10; from the gap-10 row
    beside it, to 8 and 12); and the move of the pair's anchor (``anchors``: by the found pair's name; that move
    alone with ``anchor_moves_only``)."""
    out: list[Pair] = []
    seen: list = []  # the inputs patterns were applied from (an input two found pairs share, once)
    for pair in found:
        for side, start in (("first", pair.data), ("second", pair.neighbour)):
            if any(same_input(start, s) for s in seen):
                continue
            seen.append(start)
            moves = [] if anchor_moves_only else list(patterns(aud.spec, start, pair.env))
            for name, nb in moves + _anchor_move(anchors.get(pair.name), start):
                if violation(aud.spec, start, nb, pair.env):
                    record["rejected"] += 1
                    continue
                out.append(Pair(name=f"{pair.name}/{name}" + ("" if side == "first" else "_from_second"), data=start,
                                neighbour=nb, params=pair.params, env=pair.env, source="search",
                                description=f"{pair.description}; then the pattern {name} from its {side} input",
                                extra={**pair.extra, "move": f"{pair.extra.get('move')}, pattern {name} from its "
                                                             f"{side} input"}))
    return out
