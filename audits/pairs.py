"""Neighbouring pairs (D, D') for the privacy audit.

Contract
--------
:func:`candidate_pairs` returns the pairs an audit tries, in order: the spec's stress cases
first (each evaluated at the audit parameters: spec defaults, then the case's ``params``,
then the parameters the user gave, which win), then pairs generated from each stress case's
``data`` by the patterns of the spec's neighbouring relation, moved by exactly the spec's
``neighbours.sensitivity`` (1 when the spec gives none):

============================  ===========================================================
relation                      generated neighbours of a numeric vector D
============================  ===========================================================
``vector_l1``                 +-gamma on the first / last coordinate; gamma/d on all (up,
                              down); +gamma/d on one half, -gamma/d on the other
``vector_l2``                 +-gamma on the first coordinate; gamma/sqrt(d) on all
``query_answers``             StatDP's patterns: one up / one down (first, last), all up,
                              all down, half up half down, one up rest down, one down rest
                              up (first and last position)
``votes_one_move``,           one unit moved from the mode to the runner-up, from the
``histogram_one_move``        runner-up to the mode, from the mode to the smallest bin
============================  ===========================================================

A pattern is only valid when the input abstraction *is* the vector the relation talks about,
so pairs are generated only for the input kinds in :data:`GENERATED_KINDS` (a spec whose input
is, e.g., ``[label, dist]`` under ``query_answers`` gets its stress cases only: moving the
label would not be a neighbour). Other relations (add/remove, replace-one on raw datasets,
labels, one chunk's score) depend on the input abstraction, so only their stress cases are used. Duplicates are dropped; the number of
generated pairs is capped (``max_generated``); the auditor corrects for every pair it
carries to the estimation split, never for pairs only explored on training data.

Input-space search (:func:`searched_pairs`). A spec whose input is a dataset declares its private
records (``[input.records]``: the fields of a record and their domains, see spec/README.md); then,
from every stress case whose data is such a dataset, the search generates further neighbours of it
by replacing one changeable record, each generator named in the pair's name and ``source``:

============================  ===========================================================
generator                     the record replaced, and by what
============================  ===========================================================
``sort_order``                for each sort order (each real column, each label field, the row
                              norm): the record at the low end and the median record moved past
                              the other end of that order
``magnitude``                 a record's real fields scaled to MAGNITUDE (10^12) times the data's scale (or
                              to the norm bound), up and down
``tie``                       a record replaced by a copy of another (a duplicate, a tie)
``position``                  the records at the first, last, middle and (with a block size
                              ``m``) block-boundary positions, label or value moved to the
                              other end
``large_n``                   the changeable records replicated to about LARGE_N in all (the
                              ``scales`` parameters, counts of all records, set to the new
                              count), then the last changeable record moved (float effects of
                              large sums); with label fields (binary, sign) the copy is
                              balanced: every changeable record with its labels and as often
                              with the other ones (about 2 LARGE_N), so that every hypothesis
                              makes thousands of mistakes (linear-space weights exp(-eps m/2)
                              underflow in float64 from m = 1,491 at eps = 1) and ties between
                              hypotheses; then the last record of each label gets the other
                              label (``balanced_label_up``, ``balanced_label_down``: one breaks
                              a tie one way, the other the other way)
``random``                    a random dataset of the anchor's size and domains, one record
                              replaced at random (from a generator seeded by the spec id)
============================  ===========================================================

The search yields at most ``max_searched`` pairs, taking the generators in turn and, within a generator, the
anchors in turn (every stress dataset's first pair before any second one; an anchor's two large-n pairs
are taken together); the auditor ranks
every pair by its pilot sample and keeps the best (selection on training data: the family-wise
accounting of the estimation is unchanged).
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dptestbed.spec import Spec, resolve_stress_values

from .serialize import jsonable

MAX_INPUT_LENGTH = 10_000  # entries of an input vector: beyond it one audit round would not fit in memory

GENERATED_KINDS = {
    "vector_l1": {"vector", "real_vector", "query_answers"},
    "vector_l2": {"vector", "real_vector", "query_answers"},
    "query_answers": {"query_answers", "scores", "losses", "vector"},
    "votes_one_move": {"vote_counts", "votes", "histogram", "counts"},
    "histogram_one_move": {"vote_counts", "votes", "histogram", "counts"},
}

__all__ = ["Pair", "candidate_pairs", "stress_pairs", "generated_pairs", "searched_pairs", "sensitivity", "claim"]

LARGE_N = 2048  # records of the large-n anchors of the search
# the magnitude generator's factor: a record this many times the data's scale moves a relative tolerance of 1e-9
# (or any scale taken from the private rows) by 10^3 of the data's scale (10^6 moved it by 10^-3: the PPM tolerance
# mutant went unseen), while its square (10^24) stays far from overflow
MAGNITUDE = 1e12
SEARCH_SEED = 0x5EA2C4  # the random generator's stream (with the spec id): the same pairs at every run


@dataclass
class Pair:
    """One neighbouring pair with the parameters it is audited at."""

    name: str
    data: Any
    neighbour: Any
    params: dict          # spec parameter values (what the implementation is called with)
    env: dict             # params plus derived quantities
    source: str = "stress"  # "stress" | "generated"
    description: str = ""
    event_hint: str = ""
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"name": self.name, "source": self.source, "data": jsonable(self.data),
                "neighbour": jsonable(self.neighbour), "description": self.description}


def _as_data(value):
    """Stress-case values -> numpy arrays where they are (nested) lists of numbers."""
    if isinstance(value, list):
        try:
            arr = np.asarray(value)
        except ValueError:
            return value
        if arr.dtype.kind in "biuf":
            return arr
        return value
    return value


def sensitivity(spec: Spec, env: dict) -> float:
    s = spec.neighbours.get("sensitivity")
    if s is None:
        return 1.0
    return float(s.evaluate(env))


def claim(spec: Spec, env: dict) -> tuple[float, float]:
    """(epsilon, delta) claimed by the spec at ``env``; ValueError when the claim is not a finite
    epsilon >= 0 with 0 <= delta < 1 (an infinite claim can never be violated: nothing to audit)."""
    if spec.privacy is None:
        raise ValueError(f"{spec.id}: no privacy claim: nothing to audit")
    eps, delta = float(spec.privacy.epsilon.evaluate(env)), float(spec.privacy.delta.evaluate(env))
    if not (math.isfinite(eps) and eps >= 0 and 0 <= delta < 1):
        raise ValueError(f"{spec.id}: the privacy claim (epsilon = {eps:g}, delta = {delta:g}) is not a finite epsilon "
                         "with 0 <= delta < 1: nothing to audit")
    return eps, delta


def _param_values(spec: Spec, env: dict) -> dict:
    return {k: env[k] for k in spec.parameters if k in env}


def stress_pairs(spec: Spec, params: dict | None = None) -> list[Pair]:
    """The spec's stress cases at the audit parameters. A case whose parameters do not bind
    (e.g. a constraint fails with the user's values) is skipped, unless every case fails
    (then the first error is raised: the user's parameters are at fault)."""
    out = []
    errors = []
    for case in spec.stress_cases:
        try:
            env = spec.bind({**case.params, **(params or {})})
        except ValueError as exc:
            errors.append(exc)
            continue
        data, neighbour = (_fit_length(spec, case.name, _as_data(resolve_stress_values(side, env)), env)
                           for side in (case.data, case.neighbour))
        out.append(Pair(
            name=case.name,
            data=data,
            neighbour=neighbour,
            params=_param_values(spec, env), env=env, source="stress",
            description=case.description, event_hint=case.event,
        ))
    if errors and not out:
        raise errors[0]
    return out


def _fit_length(spec: Spec, case: str, data, env: dict):
    """A stress vector at the point's dimension: when the spec declares ``input.length`` (e.g. p),
    a shorter vector is padded with zeros (the same on both sides, so the pair stays neighbouring);
    a longer one is an error naming the case and the parameter."""
    formula = spec.input.get("length")
    if formula is None or not isinstance(data, np.ndarray) or data.ndim != 1:
        return data
    value = float(formula.evaluate(env))
    if not value <= MAX_INPUT_LENGTH:
        raise ValueError(f"{spec.id}: stress case {case!r}: the input length {formula.source} is {value:g} at this "
                         f"parameter point, more than the auditor handles ({MAX_INPUT_LENGTH:,} entries)")
    length = int(round(value))
    if data.size > length:
        raise ValueError(f"{spec.id}: stress case {case!r} has {data.size} entries, but the input length "
                         f"{formula.source} is {length} at this parameter point")
    return np.concatenate([data, np.zeros(length - data.size, dtype=data.dtype)]) if data.size < length else data


def _patterns(relation: str, d: int, delta: float, base: np.ndarray):
    """(name, neighbour) for a numeric vector ``base`` of length ``d``."""
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


def _moves(relation: str, base: np.ndarray):
    d = base.shape[0]
    if d < 2:
        return
    order = np.argsort(-base, kind="stable")
    top, second, bottom = order[0], order[1], order[-1]
    if relation in ("votes_one_move", "histogram_one_move"):
        for name, src, dst in (("mode_to_runner_up", top, second), ("runner_up_to_mode", second, top),
                               ("mode_to_smallest", top, bottom)):
            if src == dst or base[src] <= 0:
                continue
            nb = base.copy()
            nb[src] -= 1
            nb[dst] += 1
            yield name, nb


def generated_pairs(spec: Spec, anchors: list[Pair], max_generated: int = 12) -> list[Pair]:
    """Pairs generated from the anchors' data by the relation's patterns (see module doc)."""
    relation = spec.neighbours["relation"]
    out: list[Pair] = []
    if spec.input.get("kind") not in GENERATED_KINDS.get(relation, ()):
        return out
    for anchor in anchors:
        base = anchor.data
        if not isinstance(base, np.ndarray) or base.ndim != 1 or base.size == 0 or base.dtype.kind not in "biuf":
            continue
        if relation in ("vector_l1", "vector_l2", "query_answers"):
            gen = _patterns(relation, base.shape[0], sensitivity(spec, anchor.env), base.astype(float))
        elif relation in ("votes_one_move", "histogram_one_move"):
            gen = _moves(relation, base)
        else:
            continue
        for name, nb in gen:
            out.append(Pair(name=f"{anchor.name}/{name}", data=base, neighbour=nb, params=anchor.params,
                            env=anchor.env, source="generated",
                            description=f"{relation} pattern {name} from stress case {anchor.name}"))
    return out


def _same(a, b) -> bool:
    try:
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    except Exception:  # noqa: BLE001 - incomparable structures are different
        return False


def candidate_pairs(spec: Spec, params: dict | None = None, max_generated: int = 12,
                    max_searched: int = 0) -> list[Pair]:
    """Stress cases, then generated pairs (at most ``max_generated``), then searched pairs (at most
    ``max_searched``), deduplicated."""
    stress = stress_pairs(spec, params)
    pairs: list[Pair] = []
    caps = {"generated": max_generated, "search": max_searched}
    for p in stress + generated_pairs(spec, stress) + (searched_pairs(spec, stress) if max_searched else []):
        if _same(p.data, p.neighbour):
            continue
        if any(_same(p.data, q.data) and _same(p.neighbour, q.neighbour) and p.params == q.params for q in pairs):
            continue
        if p.source in caps and sum(q.source == p.source for q in pairs) >= caps[p.source]:
            continue
        pairs.append(p)
    return pairs


# =========================================================================== input-space search


class _Dataset:
    """One dataset-form input as its records (``spec.input["records"]``): the record fields as arrays
    with one entry (or row) per record, the public rest, and which records may change."""

    def __init__(self, records, data, env: dict):
        self.spec_records, self.env = records, env
        self.whole = any(key == "." for key, _, _ in records.fields)
        if self.whole:
            self.fields = {".": np.asarray(data)}
            self.public = {}
        else:
            self.fields = {key: np.asarray(data[key]) for key, _, _ in records.fields}
            self.public = {k: v for k, v in data.items() if k not in self.fields}
        self.domains = {key: (domain, bound) for key, domain, bound in records.fields}
        self.n = len(next(iter(self.fields.values())))
        flags = self.public.get(records.changeable) if records.changeable else None
        if records.changeable and records.changeable in self.fields:
            flags = self.fields[records.changeable]
        self.changeable = (np.flatnonzero(np.asarray(flags) == 1) if flags is not None else np.arange(self.n))

    def data(self, fields: dict):
        if self.whole:
            return fields["."]
        return {**{k: v for k, v in self.public.items()}, **fields}

    def replaced(self, i: int, values: dict):
        """The dataset with record ``i``'s fields in ``values`` replaced (the others kept)."""
        fields = {k: v.copy() for k, v in self.fields.items()}
        for key, value in values.items():
            fields[key] = fields[key].astype(np.result_type(fields[key].dtype, np.asarray(value).dtype), copy=False)
            fields[key][i] = value
        return self.data(fields)

    def keys_of(self, *domains) -> list[str]:
        return [k for k, (d, _) in self.domains.items() if d in domains or any(d.startswith(x) for x in domains
                                                                                 if x.endswith("<"))]

    def moved(self, key: str, value, to_high: bool):
        """A value of ``key``'s domain at the high (or low) end beyond the data."""
        domain, bound = self.domains[key]
        column = self.fields[key]
        if domain == "binary":
            return 1 - int(value)
        if domain == "sign":
            return -int(value)
        if domain == "item":  # ids stay >= 0 (-1 is a common padding): below 0, a second fresh id above them
            low = int(column.min()) - 1
            return int(column.max()) + 1 if to_high else (low if low >= 0 else int(column.max()) + 2)
        if domain.startswith("index<"):
            size = np.asarray(self.public[domain[6:]]).shape[-1]
            return size - 1 if to_high else 0
        spread = float(np.ptp(column)) + 1.0
        target = (column.max(axis=0) + spread) if to_high else (column.min(axis=0) - spread)
        return self._within(key, np.asarray(target, dtype=float))

    def _within(self, key: str, row):
        domain, bound = self.domains[key]
        if bound is None:
            return row
        limit = float(bound.evaluate(self.env))
        norm = float(np.linalg.norm(row))
        return row if norm <= limit or norm == 0 else row * (limit / norm)


def _sort_keys(ds: _Dataset):
    """(name, key, column or None, values per record): every order a record can be moved along."""
    for key in ds.domains:
        if key == ds.spec_records.changeable:
            continue
        col = ds.fields[key]
        if col.ndim == 2:
            for j in range(min(col.shape[1], 4)):
                yield f"{key}[{j}]", key, j, col[:, j]
            yield f"|{key}|", key, "norm", np.linalg.norm(col.astype(float), axis=1)
        else:
            yield key, key, None, col


def _gen_sort_order(ds: _Dataset):
    for name, key, column, values in _sort_keys(ds):
        order = [i for i in np.argsort(values, kind="stable") if i in set(ds.changeable)]
        if len(order) < 2:
            continue
        for which, i in (("low_end", order[0]), ("median", order[len(order) // 2])):
            row = ds.fields[key][i]
            if column == "norm":
                norm = float(np.linalg.norm(row)) or 1.0
                target = ds._within(key, row * (2.0 * float(values.max()) + 1.0) / norm)
            elif column is not None:
                target = np.array(row, dtype=float)
                col = ds.fields[key][:, column].astype(float)
                target[column] = col.max() + np.ptp(col) + 1.0
                target = ds._within(key, target)
            else:
                target = ds.moved(key, row, True)
            yield f"sort_order/{name}/{which}_to_top", ds.replaced(int(i), {key: target})


def _gen_magnitude(ds: _Dataset):
    reals = [k for k, (d, _) in ds.domains.items() if d == "real" or d.startswith("norm<=")]
    if not reals or not len(ds.changeable):
        return
    i = int(ds.changeable[len(ds.changeable) // 2])
    for sign, name in ((1.0, "up"), (-1.0, "down")):
        values = {}
        for key in reals:
            col = ds.fields[key].astype(float)
            scale = max(float(np.max(np.abs(col))), 1.0)
            values[key] = ds._within(key, np.full(col.shape[1:], sign * MAGNITUDE * scale))
        yield f"magnitude/{name}", ds.replaced(i, values)


def _gen_tie(ds: _Dataset):
    if ds.n < 2 or not len(ds.changeable):
        return
    i = int(ds.changeable[-1])
    for j, name in ((0, "first"), (ds.n // 2, "middle")):
        if j != i:
            yield f"tie/copy_of_{name}", ds.replaced(i, {k: v[j] for k, v in ds.fields.items() if k != ds.spec_records.changeable})


def _flip(ds: _Dataset, i: int) -> dict:
    """Record ``i`` with every field moved to the other end of its domain or data."""
    out = {}
    for key, (domain, _) in ds.domains.items():
        if key == ds.spec_records.changeable:
            continue
        value = ds.fields[key][i]
        if domain in ("binary", "sign", "item") or domain.startswith("index<"):
            out[key] = ds.moved(key, value, not (np.asarray(value) >= np.median(ds.fields[key])).all())
        else:
            out[key] = ds.moved(key, value, float(np.mean(value)) < float(np.mean(ds.fields[key])))
    return out


def _gen_position(ds: _Dataset):
    positions = {0: "first", ds.n - 1: "last", ds.n // 2 - 1: "before_middle", ds.n // 2: "middle"}
    m = ds.env.get("m")
    if m is not None and np.ndim(m) == 0 and 1 < float(m) < ds.n:
        positions.update({int(m) - 1: "end_of_block_1", int(m): "start_of_block_2"})
    changeable = set(ds.changeable.tolist())
    for i, name in sorted(positions.items()):
        if 0 <= i < ds.n and i in changeable:
            yield f"position/{name}", ds.replaced(i, _flip(ds, i))


def _gen_random(ds: _Dataset, rng: np.random.Generator):
    fields = {}
    for key, (domain, _) in ds.domains.items():
        col = ds.fields[key]
        if key == ds.spec_records.changeable:
            fields[key] = col.copy()
        elif domain == "binary":
            fields[key] = rng.integers(0, 2, size=col.shape).astype(col.dtype)
        elif domain == "sign":
            fields[key] = (2 * rng.integers(0, 2, size=col.shape) - 1).astype(col.dtype)
        elif domain == "item":
            fields[key] = rng.integers(0, 4, size=col.shape).astype(col.dtype)
        elif domain.startswith("index<"):
            fields[key] = rng.integers(0, np.asarray(ds.public[domain[6:]]).shape[-1], size=col.shape)
        else:
            scale = max(float(np.std(col.astype(float))), 1.0)
            rows = rng.normal(0.0, scale, size=col.shape)
            fields[key] = np.array([ds._within(key, r) for r in rows]) if col.ndim == 2 else rows
    base = _Dataset(ds.spec_records, ds.data(fields), ds.env)
    if len(base.changeable):
        i = int(rng.choice(base.changeable))
        yield "random", ds.data(fields), base.replaced(i, _flip(base, i))


def _labels(ds: _Dataset) -> list[str]:
    """The record's label fields: binary or sign, other than the changeable flag."""
    return [k for k, (d, _) in ds.domains.items() if d in ("binary", "sign") and k != ds.spec_records.changeable]


def _other_label(domain: str, value):
    return 1 - value if domain == "binary" else -value


def _large(ds: _Dataset, records, params: dict):
    """The dataset with its changeable records replicated to about LARGE_N records in all (the others
    kept once), its ``scales`` parameters (counts of all records) set to the new count; or None. With
    label fields (binary, sign) the copy is *balanced*: every changeable record appears LARGE_N/c times
    with its labels and as often with the other ones (about 2 LARGE_N changeable records), so that
    every hypothesis errs on about half of them: mistake counts in the thousands, and ties between
    the hypotheses that a single label moves."""
    changeable = np.zeros(ds.n, dtype=bool)
    changeable[ds.changeable] = True
    if not records.scales or ds.n >= LARGE_N or not changeable.any():
        return None
    if records.changeable and records.changeable in ds.public:
        return None  # a public flag array cannot be replicated with the records it describes
    labels = _labels(ds)
    k = int(math.ceil((LARGE_N - (ds.n - changeable.sum())) / changeable.sum()))
    if labels:
        k = int(math.ceil(LARGE_N / changeable.sum()))
    fields = {}
    for key, v in ds.fields.items():
        parts = [v[~changeable]] + [v[changeable]] * k
        if labels:
            other = _other_label(ds.domains[key][0], v[changeable]) if key in labels else v[changeable]
            parts += [other.astype(v.dtype)] * k
        fields[key] = np.concatenate(parts)
    total = len(next(iter(fields.values())))
    scaled = {name: type(params[name])(total) for name in records.scales if name in params}
    return ds.data(fields), scaled


def _gen_large(big: _Dataset):
    """Neighbours of a large copy: with label fields, the last changeable record of each label value
    given the other label (only the label moves: every mistake count moves by one, up or down, which
    breaks a tie one way or the other); else the last changeable record moved to the other end."""
    labels = _labels(big)
    if not len(big.changeable):
        return
    if not labels:
        i = int(big.changeable[-1])
        yield "large_n/last_record_flipped", big.replaced(i, _flip(big, i))
        return
    key = labels[0]
    domain = big.domains[key][0]
    column = big.fields[key]
    for low, name in ((True, "label_up"), (False, "label_down")):
        value = (0 if domain == "binary" else -1) if low else 1
        rows = [int(i) for i in big.changeable if column[i] == value]
        if rows:
            yield f"large_n/balanced_{name}", big.replaced(rows[-1], {key: _other_label(domain, column[rows[-1]])})


def _interleaved(per_anchor: list[list[Pair]]) -> list[Pair]:
    """One generator's pairs, the anchors taken in turn (every anchor's first pair, then every second, ...), so
    that a later stress dataset is searched within the cap too."""
    out: list[Pair] = []
    for k in range(max((len(s) for s in per_anchor), default=0)):
        out.extend(s[k] for s in per_anchor if k < len(s))
    return out


def searched_pairs(spec: Spec, anchors: list[Pair]) -> list[Pair]:
    """Neighbours of the anchors' datasets found by the input-space search (module doc), the
    generators taken in turn. Specs without ``[input.records]`` have none."""
    records = spec.input.get("records")
    if records is None:
        return []
    rng = np.random.default_rng([SEARCH_SEED, zlib.crc32(spec.id.encode("utf-8"))])
    streams: dict[str, list[list[Pair]]] = {}  # per generator, per anchor
    for anchor in anchors:
        try:
            ds = _Dataset(records, anchor.data, anchor.env)
        except (KeyError, TypeError, ValueError, IndexError):
            continue  # not a dataset of the declared records (e.g. the vote form of the same spec)

        def pair(name, nb, data=None, params=None, env=None, anchor=anchor):
            return Pair(name=f"search/{name}/{anchor.name}", data=anchor.data if data is None else data, neighbour=nb,
                        params=anchor.params if params is None else params, env=anchor.env if env is None else env,
                        source="search", description=f"input-space search ({name.split('/')[0]}) from stress case "
                                                     f"{anchor.name}")

        for gen, found in (("sort_order", [pair(name, nb) for name, nb in _gen_sort_order(ds)]),
                           ("magnitude", [pair(name, nb) for name, nb in _gen_magnitude(ds)]),
                           ("tie", [pair(name, nb) for name, nb in _gen_tie(ds)]),
                           ("position", [pair(name, nb) for name, nb in _gen_position(ds)]),
                           ("random", [pair(name, nb, data=d) for name, d, nb in _gen_random(ds, rng)])):
            streams.setdefault(gen, []).append(found)
        large = _large(ds, records, anchor.params)
        if large is not None:
            data, scaled = large
            try:
                env = spec.bind({**anchor.params, **scaled})
            except ValueError:
                env = None
            if env is not None:  # one list per pair: an anchor's large-n pairs are taken together
                streams.setdefault("large_n", []).extend(
                    [pair(name, nb, data=data, params=_param_values(spec, env), env=env)]
                    for name, nb in _gen_large(_Dataset(records, data, env)))
    out: list[Pair] = []
    lists = [_interleaved(per_anchor) for per_anchor in streams.values()]
    for k in range(max((len(s) for s in lists), default=0)):  # round robin: every generator is represented
        out.extend(s[k] for s in lists if k < len(s) and not _same(s[k].data, s[k].neighbour))
    return out
