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
by moving one changeable record (:mod:`.records`: each generator named in the pair's name and
``source``), as the relation allows: a replacement under replace-one relations, an addition or a
removal under add/remove. The search yields at most ``max_searched`` pairs, taking the generators in
turn and, within a generator, the anchors in turn (every stress dataset's first pair before any second
one; an anchor's two large-n pairs are taken together). Beside them, each under a cap of its own: the
lengthened datasets' pairs, the one-sided labels', the far constant datasets', the lists of many distinct item
ids', the zeroed records', the large copies off balance, the sorted answers' or records' (ramps) and a cover pair (its first sort-order move) for each
stress dataset the others leave unsearched. The auditor ranks every pair by its pilot sample and keeps the best
(selection on training data: the family-wise accounting of the estimation is unchanged).
"""

from __future__ import annotations

import itertools
import math
import zlib
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from dptestbed.spec import Spec, resolve_stress_values

from ..base.serialize import jsonable
from . import records
from .claims import Claim, make_claim
from .moves import UNIT_RELATIONS, float32_midpoints, parameter_points, ramps, vector_patterns
from .neighbours import sensitivity, violation

MAX_INPUT_LENGTH = 10_000  # entries of an input vector: beyond it one audit round would not fit in memory

GENERATED_KINDS = {
    "vector_l1": {"vector", "real_vector", "query_answers"},
    "vector_l2": {"vector", "real_vector", "query_answers"},
    "query_answers": {"query_answers", "scores", "losses", "vector"},
    "votes_one_move": {"vote_counts", "votes", "histogram", "counts"},
    "histogram_one_move": {"vote_counts", "votes", "histogram", "counts"},
}

__all__ = ["Pair", "candidate_pairs", "stress_pairs", "generated_pairs", "searched_pairs", "sensitivity", "claim"]

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

    def derived(self, **changes) -> Pair:
        """A pair made from this one (a search move): the given fields changed, ``extra`` its own copy without
        what was measured on this pair (its exact loss is not the new pair's)."""
        extra = {k: v for k, v in self.extra.items() if not k.startswith("exact_")}
        return replace(self, **{"extra": extra, **changes})

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


def claim(spec: Spec, env: dict) -> Claim:
    """The spec's privacy claim at ``env`` (:class:`.claims.Claim`): its ``[privacy.profile]`` curve when it has
    one, else its (epsilon, delta). ValueError when the claim is not finite (epsilon >= 0 with 0 <= delta < 1;
    a positive mu or rho; finite points): an infinite claim can never be violated, there is nothing to audit."""
    if spec.privacy is None:
        raise ValueError(f"{spec.id}: no privacy claim: nothing to audit")
    eps, delta = float(spec.privacy.epsilon.evaluate(env)), float(spec.privacy.delta.evaluate(env))
    if not (math.isfinite(eps) and eps >= 0 and 0 <= delta < 1):
        raise ValueError(f"{spec.id}: the privacy claim (epsilon = {eps:g}, delta = {delta:g}) is not a finite epsilon "
                         "with 0 <= delta < 1: nothing to audit")
    profile = spec.privacy.profile
    if profile is None:
        return Claim("dp", eps, delta)
    if profile.value is not None:
        value = float(profile.value.evaluate(env))
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"{spec.id}: the {profile.kind} claim {profile.value.source} = {value:g} is not a positive "
                             "finite number: nothing to audit")
        return Claim(profile.kind, value)
    points = tuple((float(a.evaluate(env)), float(b.evaluate(env))) for a, b in profile.points)
    return make_claim(profile.kind, points=points)


def _param_values(spec: Spec, env: dict) -> dict:
    return {k: env[k] for k in spec.parameters if k in env}


def stress_pairs(spec: Spec, params: dict | None = None) -> list[Pair]:
    """The spec's stress cases at the audit parameters. A case whose parameters do not bind
    (e.g. a constraint fails with the user's values) is skipped, unless every case fails
    (then the first error is raised: the user's parameters are at fault)."""
    return stress_pairs_where(spec, params, strict=True)


def stress_pairs_where(spec: Spec, params: dict | None = None, skip: str | None = None,
                       strict: bool = False) -> list[Pair]:
    """:func:`stress_pairs`, leaving out the cases that set parameter ``skip`` themselves; ``strict``: raise
    the first error when no case binds (else return none)."""
    out = []
    errors = []
    for case in spec.stress_cases:
        if skip is not None and skip in case.params:
            continue
        try:
            env = spec.bind({**case.params, **(params or {})})
        except ValueError as exc:
            errors.append(exc)
            continue
        try:
            data, neighbour = (_fit_length(spec, case.name, _as_data(resolve_stress_values(side, env)), env)
                               for side in (case.data, case.neighbour))
        except ValueError as exc:  # a case longer than the point's input (more queries than its claim covers)
            errors.append(exc)
            continue
        try:
            data, neighbour = _fit_records(spec, case.name, data, neighbour, env, params or {})
        except ValueError as exc:  # a case of another count than the user's: the others may hold it
            errors.append(exc)
            continue
        out.append(Pair(
            name=case.name,
            data=data,
            neighbour=neighbour,
            params=_param_values(spec, env), env=env, source="stress",
            description=case.description, event_hint=case.event,
        ))
    if errors and not out and strict:
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


def _fit_records(spec: Spec, case: str, data, neighbour, env: dict, given: dict):
    """A stress dataset at the record counts the audit point sets (``given``, the user's or a suite's): its records
    resized to a ``scales`` parameter (:func:`.records.resized`), and a ``fixed`` parameter (the records that may not
    change) equal to the number it holds; an error naming the case and the parameter otherwise. The case as it is
    when no count is given or it already has that many records."""
    spec_records = spec.input.get("records")
    if spec_records is None or not any(name in given for name in spec_records.scales + spec_records.fixed):
        return data, neighbour
    try:
        ds, other = records.Dataset(spec_records, data, env), records.Dataset(spec_records, neighbour, env)
    except (KeyError, TypeError, ValueError, IndexError):
        return data, neighbour  # not a dataset of the declared records (e.g. the vote form of the same spec)
    for name in (name for name in spec_records.fixed if name in given):
        if ds.n - len(ds.changeable) != int(env[name]):
            raise ValueError(f"{spec.id}: no stress case holds {name} = {int(env[name])} records that may not change "
                             f"({case!r} holds {ds.n - len(ds.changeable)})")
    names = [name for name in spec_records.scales if name in given]
    if not names:
        return data, neighbour
    size = int(env[names[0]])
    if ds.n == size and other.n == size:
        return data, neighbour
    fitted = records.resized(ds, other, size)
    if fitted is None:
        raise ValueError(f"{spec.id}: stress case {case!r} has {ds.n} records and cannot be resized to "
                         f"{names[0]} = {size} (its two datasets are not one replaced record apart)")
    return fitted


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


def _moves_vectors(spec: Spec) -> bool:
    """Whether the spec's relation moves its input kind as a vector (``GENERATED_KINDS``)."""
    return spec.input.get("kind") in GENERATED_KINDS.get(spec.neighbours["relation"], ())


def _numeric_vector(data) -> bool:
    return isinstance(data, np.ndarray) and data.ndim == 1 and data.size > 0 and data.dtype.kind in "biuf"


def generated_pairs(spec: Spec, anchors: list[Pair], max_generated: int = 12) -> list[Pair]:
    """Pairs generated from the anchors' data by the relation's patterns (see module doc)."""
    relation = spec.neighbours["relation"]
    out: list[Pair] = []
    if not _moves_vectors(spec):
        return out
    for anchor in anchors:
        base = anchor.data
        if not _numeric_vector(base):
            continue
        if relation in ("vector_l1", "vector_l2", "query_answers"):
            gen = vector_patterns(relation, base.shape[0], sensitivity(spec, anchor.env), base.astype(float))
        elif relation in ("votes_one_move", "histogram_one_move"):
            gen = _moves(relation, base)
        else:
            continue
        for name, nb in gen:
            out.append(Pair(name=f"{anchor.name}/{name}", data=base, neighbour=nb, params=anchor.params,
                            env=anchor.env, source="generated",
                            description=f"{relation} pattern {name} from stress case {anchor.name}"))
    return out


def same_input(a, b) -> bool:
    try:
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    except Exception:  # noqa: BLE001 - incomparable structures are different
        return False


MAX_PARAMETER_PAIRS = 24  # stress cases at other parameter points (moves.parameter_points)


def parameter_pairs(spec: Spec, params: dict | None = None, cap: int = MAX_PARAMETER_PAIRS,
                    accepts=lambda name: True) -> list[Pair]:
    """The stress cases at the parameter points beside ``params`` (:func:`.moves.parameter_points`), the points
    taken in turn (every point's first case before any second one), at most ``cap``. A case that sets the
    moved parameter itself keeps its own value (its input is sized by it), so it is not repeated there. Only
    the parameters ``accepts(name)`` are moved, and those that size the input (``input.length`` or ``rows``,
    e.g. p, which an implementation reads from the data's shape): any other parameter the implementation does
    not take cannot change its law, while it changes the claim (an ad-hoc claim's own sensitivity)."""
    params = dict(params or {})
    sizing: set[str] = set()
    for key in ("length", "rows"):
        sizing |= getattr(spec.input.get(key), "names", frozenset())
    per_point = []
    for name, point in parameter_points(spec, params):
        moved = next(iter(set(point) - set(params)))
        if not (accepts(moved) or moved in sizing):
            continue
        try:  # a claim that says nothing there (a Gaussian at sensitivity 100: delta(1) = 1) has nothing to audit
            claim(spec, spec.bind(point))
        except ValueError:
            continue
        cases = []  # a case that sets an input-sizing parameter is resized to the point's (padded: _fit_length)
        for pair in stress_pairs_where(spec, point, skip=None if moved in sizing else moved):
            pair.name = f"{pair.name}@{name}"
            pair.source = "parameter"
            pair.description = f"{pair.description} At the parameter point {name} (the audit's point moved).".strip()
            cases.append(pair)
        per_point.append(cases)
    return _interleaved(per_point)[:cap]


def candidate_pairs(spec: Spec, params: dict | None = None, max_generated: int = 12,
                    max_searched: int = 0, max_parameter: int = 0) -> list[Pair]:
    """Stress cases, then generated pairs (at most ``max_generated``), then searched pairs (at most
    ``max_searched``) and stress cases at other parameter points (at most ``max_parameter``),
    deduplicated; a generated, searched or moved pair that is not a neighbour under the relation
    (:func:`.neighbours.violation`) is dropped."""
    stress = stress_pairs(spec, params)
    pairs: list[Pair] = []
    caps = {"generated": max_generated, "search": max_searched, "parameter": max_parameter,
            "length": MAX_LENGTH_PAIRS if max_searched else 0, "labels": MAX_LABEL_PAIRS if max_searched else 0,
            "constant": MAX_CONSTANT_PAIRS if max_searched else 0, "cover": MAX_COVER_PAIRS if max_searched else 0,
            "distinct": MAX_DISTINCT_PAIRS if max_searched else 0, "zero": MAX_ZERO_PAIRS if max_searched else 0,
            "shrunk": MAX_SHRUNK_PAIRS if max_searched else 0, "offset": MAX_OFFSET_PAIRS if max_searched else 0,
            "ramp": MAX_RAMP_PAIRS if max_searched else 0,
            "huge_ids": MAX_HUGE_ID_PAIRS if max_searched else 0, "one_end": MAX_ONE_END_PAIRS if max_searched else 0,
            "margin": MAX_MARGIN_PAIRS if max_searched else 0, "overflow": MAX_OVERFLOW_PAIRS if max_searched else 0,
            "composition": MAX_COMPOSITION_PAIRS if max_searched else 0,
            "wrap": len(records.WRAP_COUNTS) if max_searched else 0}
    more = (searched_pairs(spec, stress, max_searched) if max_searched else []) + (
        parameter_pairs(spec, params, max_parameter) if max_parameter else [])
    for p in stress + generated_pairs(spec, stress) + more:
        if same_input(p.data, p.neighbour):
            continue
        if p.source != "stress" and violation(spec, p.data, p.neighbour, p.env):
            continue
        if any(same_input(p.data, q.data) and same_input(p.neighbour, q.neighbour) and p.params == q.params for q in pairs):
            continue
        if _cap_key(p) in caps and sum(_cap_key(q) == _cap_key(p) for q in pairs) >= caps[_cap_key(p)]:
            continue
        pairs.append(p)
    return pairs


MAX_LENGTH_PAIRS = 4  # searched pairs on a lengthened dataset (records.lengthened), beside max_searched
MAX_LABEL_PAIRS = 3  # ... on datasets of one-sided labels (records.one_sided_labels)
MAX_CONSTANT_PAIRS = 2  # ... on datasets of alike records far outside the data (records.far_constant)
MAX_COVER_PAIRS = 6  # ... and the first sort-order move of the stress datasets that the others leave unsearched
MAX_DISTINCT_PAIRS = len(records.DISTINCT_COUNTS)  # ... and on lists of many distinct item ids (records.distinct_ids)
MAX_COMPOSITION_PAIRS = len(records.COMPOSITION_SHARES)  # ... and on two-item lists (records.compositions)
MAX_ZERO_PAIRS = 2  # ... and with a record's features set to zero (records.zeroed)
MAX_SHRUNK_PAIRS = 2  # ... and with the records shrunk, one moved to the far edge (records.shrunk)
MAX_OFFSET_PAIRS = len(records.LABEL_OFFSETS)  # ... and on large copies with labels off balance (records.offset_moves)
MAX_RAMP_PAIRS = 8  # ... and on sorted answers or records (moves.ramps, records.ramp)
MAX_HUGE_ID_PAIRS = 4  # ... and with every item id shifted far up (records.shifted_ids)
MAX_ONE_END_PAIRS = 2  # ... and with every record at one end of the anchor's move (records.one_end)
MAX_MARGIN_PAIRS = len(records.SHORTCUT_TAILS) + 2  # ... and a finite class's leads and underflow (records.margins)
MAX_OVERFLOW_PAIRS = 2  # ... and its mistakes spread past an exp overflow (records.margins)


def _cap_key(p: Pair) -> str:
    """The cap a pair counts against: its source's, or that of one of the generators capped apart (the lengthened
    datasets, one-sided labels, far constant datasets, cover pairs, distinct ids, zeroed or shrunk records, labels off
    balance, sorted answers or records, huge ids, records at one end, two-item lists, wrapping counts), so that the other generators
    keep their max_searched."""
    for key in ("length", "labels", "constant", "cover", "distinct", "zero", "shrunk", "offset", "ramp", "huge_ids",
                "one_end", "margin", "overflow", "composition", "wrap"):
        if p.name.startswith(f"search/{key}/"):
            return key
    return p.source


def _interleaved(per_anchor: list[list[Pair]]) -> list[Pair]:
    """One generator's pairs, the anchors taken in turn (every anchor's first pair, then every second, ...), so
    that a later stress dataset is searched within the cap too."""
    out: list[Pair] = []
    for k in range(max((len(s) for s in per_anchor), default=0)):
        out.extend(s[k] for s in per_anchor if k < len(s))
    return out


def _dataset(specs_records, anchor: Pair):
    """The anchor's neighbour as a dataset of the declared records, or None when it is not one."""
    try:
        return records.Dataset(specs_records, anchor.neighbour, anchor.env)
    except (KeyError, TypeError, ValueError, IndexError):
        return None


def _rotated(found: list, k: int) -> list:
    """``found`` started at its k-th move (k modulo its length): the k-th anchor's first pair is another move than
    the first anchor's, so that the cap's first pairs of a generator cover its moves."""
    k = k % len(found) if found else 0
    return found[k:] + found[:k]


def _two_ends(ds, specs_records, anchor: Pair):
    """:func:`.records.large_two_ends` of the anchor's two datasets, or None when its neighbour is not one."""
    other = _dataset(specs_records, anchor)
    return None if other is None else records.large_two_ends(ds, other, specs_records, anchor.params)


def _float32_pairs(spec: Spec, anchors: list[Pair]) -> list[Pair]:
    """The float32-midpoint pairs of the first anchor of each length whose data is a numeric vector the relation
    moves (``GENERATED_KINDS``), at the anchor's parameters."""
    relation = spec.neighbours["relation"]
    if not _moves_vectors(spec) or relation not in UNIT_RELATIONS:
        return []
    integral = "integer" in spec.input.get("domain", "real")
    out, lengths = [], set()
    for anchor in anchors:
        base = anchor.data
        if not _numeric_vector(base) or base.size in lengths:
            continue
        lengths.add(base.size)
        for name, data, nb in float32_midpoints(relation, base.size, float(sensitivity(spec, anchor.env)), integral):
            out.append(Pair(name=f"search/{name}/{anchor.name}", data=data, neighbour=nb, params=anchor.params,
                            env=anchor.env, source="search",
                            description=f"input-space search (float32 midpoints) from stress case {anchor.name}"))
    return out


def _ramp_pairs(spec: Spec, anchors: list[Pair]) -> list[Pair]:
    """The ramps (:func:`.moves.ramps`: strictly sorted answers, one entry moved onto its neighbour's value) of the
    first anchor of each length whose data is a numeric vector the relation moves, at the anchor's parameters; every
    anchor's moves of one kind before the next kind."""
    if not _moves_vectors(spec):
        return []
    per_anchor, lengths = [], set()
    for anchor in anchors:
        if not _numeric_vector(anchor.data) or anchor.data.size in lengths:
            continue
        lengths.add(anchor.data.size)
        per_anchor.append([Pair(name=f"search/{name}/{anchor.name}", data=data, neighbour=nb, params=anchor.params,
                                env=anchor.env, source="search",
                                description=f"input-space search (sorted answers) from stress case {anchor.name}")
                           for name, data, nb in ramps(spec, anchor)])
    return _interleaved(per_anchor)


def searched_pairs(spec: Spec, anchors: list[Pair], cap: int | None = None) -> list[Pair]:
    """Neighbours of the anchors' datasets found by the input-space search (module doc), the
    generators taken in turn. A numeric vector under a unit relation: the float32 midpoints of each distinct
    length (:func:`.moves.float32_midpoints`) and sorted answers (:func:`.moves.ramps`); other specs without
    ``[input.records]`` have none."""
    specs_records = spec.input.get("records")
    if specs_records is None:
        return _float32_pairs(spec, anchors) + _ramp_pairs(spec, anchors)
    adding = spec.neighbours["relation"] == "add_remove"
    rng = np.random.default_rng([SEARCH_SEED, zlib.crc32(spec.id.encode("utf-8"))])
    streams: dict[str, list[list[Pair]]] = {}  # per generator, per anchor
    cover: list[Pair] = []  # each anchor's first sort-order move
    for anchor in anchors:
        try:
            ds = records.Dataset(specs_records, anchor.data, anchor.env)
        except (KeyError, TypeError, ValueError, IndexError):
            continue  # not a dataset of the declared records (e.g. the vote form of the same spec)

        def pair(name, nb, data=None, params=None, env=None, anchor=anchor, ds=ds):
            if adding and not name.startswith("remove/"):  # a replacement's new record, added
                nb = records.as_addition(ds if data is None else records.Dataset(specs_records, data, env or anchor.env),
                                         nb)
                name = f"add/{name}"
            return Pair(name=f"search/{name}/{anchor.name}", data=anchor.data if data is None else data, neighbour=nb,
                        params=anchor.params if params is None else params, env=anchor.env if env is None else env,
                        source="search", description=f"input-space search ({name.split('/')[0]}) from stress case "
                                                     f"{anchor.name}")

        cover += [pair(name, nb) for name, nb in itertools.islice(records.sort_order(ds), 1)]
        for gen, found in (("sort_order", [pair(name, nb) for name, nb in records.sort_order(ds)]),
                           ("magnitude", [pair(name, nb) for name, nb in records.magnitude(ds)]),
                           ("item_id", [pair(name, nb) for name, nb in records.item_id(ds)]),
                           ("remove", [pair(name, nb) for name, nb in records.removals(ds)] if adding else []),
                           ("tie", [pair(name, nb) for name, nb in records.tie(ds)]),
                           ("position", [pair(name, nb) for name, nb in records.position(ds)]),
                           ("random", [pair(name, nb, data=d) for name, d, nb in records.random_dataset(ds, rng)]),
                           ("zero", _rotated([pair(name, nb, data=d) for name, d, nb in records.zeroed(ds)],
                                             len(streams.get("zero", [])))),
                           ("shrunk", [pair(name, nb, data=d) for name, d, nb in records.shrunk(ds)]),
                           ("ramp", _rotated([pair(name, nb, data=d) for name, d, nb in records.ramp(ds)],
                                             len(streams.get("ramp", [])))),
                           ("constant", _rotated([pair(name, nb, data=d) for name, d, nb in records.far_constant(ds)],
                                                 len(streams.get("constant", [])))),
                           ("labels", _rotated([pair(name, nb, data=d) for name, d, nb
                                                in records.one_sided_labels(ds, _dataset(specs_records, anchor))],
                                               len(streams.get("labels", []))))):
            streams.setdefault(gen, []).append([p for p in found if p.neighbour is not None])
        for name, data, params in records.public_rows(ds, anchor.params):
            try:
                env = spec.bind(params)
                wide = records.Dataset(specs_records, data, env)
            except (KeyError, TypeError, ValueError, IndexError):
                continue
            streams.setdefault("public_rows", []).append(  # one list per widening: each one's first move early
                [pair(f"{name}/{move}", nb, data=data, params=_param_values(spec, env), env=env)
                 for move, nb in [*records.label_flips(wide), *records.position(wide)]])
        for gen, made in (("distinct", records.distinct_ids(ds, specs_records, anchor.params)),
                          ("composition", records.compositions(ds, specs_records, anchor.params)),
                          # (a selection's output is one index: a learner over a finite class, whose counts are
                          # sums, at tens of thousands of records; a learner with a hypothesis vector pays per record)
                          ("wrap", records.wrap_copies(ds, specs_records, anchor.params)
                           if spec.output.get("kind") == "discrete" else ())):
            for name, data, nb, scaled in made:
                try:
                    wide_env = spec.bind({**anchor.params, **scaled})
                except ValueError:
                    continue
                streams.setdefault(gen, []).append(
                    [pair(name, nb, data=data, params=_param_values(spec, wide_env), env=wide_env)])
        try:  # (the claim's epsilon: the weights' exponent a shortcut reads)
            epsilon = float(spec.privacy.epsilon.evaluate(anchor.env)) if spec.privacy is not None else 0.0
        except (KeyError, ValueError, ArithmeticError):
            epsilon = 0.0
        for name, data, nb, scaled, rare in records.margins(ds, specs_records, anchor.params, epsilon):
            try:
                margin_env = spec.bind({**anchor.params, **scaled})
            except ValueError:
                continue
            found = pair(name, nb, data=data, params=_param_values(spec, margin_env), env=margin_env)
            found.extra["rare"] = rare  # (the pilot draws enough runs to show it: rounds.Auditor.rare_runs)
            # one list per pair: the first anchor's leads first; the overflow pairs apart (a class of three rows or more)
            streams.setdefault(name.split("/", 1)[0], []).append([found])
        other = _dataset(specs_records, anchor)
        streams.setdefault("huge_ids", []).append(_rotated(  # (already neighbours: no replacement to add)
            [anchor.derived(name=f"search/{name}/{anchor.name}", data=d, neighbour=nb, source="search",
                            description=f"input-space search (huge ids) from stress case {anchor.name}")
             for name, d, nb in records.shifted_ids(ds, other)], len(streams.get("huge_ids", []))))
        if other is not None:
            streams.setdefault("one_end", []).append(
                [pair(name, nb, data=data) for name, data, nb in records.one_end(ds, other, specs_records)])
        for name, data, moved, scaled in records.lengthened(ds, specs_records, anchor.params, other):
            try:
                longer_env = spec.bind({**anchor.params, **scaled})
                longer = records.Dataset(specs_records, data, longer_env)
            except (KeyError, TypeError, ValueError, IndexError):
                continue
            moves = [("anchor", moved)] if moved is not None else []
            moves += [(move, nb) for move, nb in records.position(longer) if move.endswith(("/first", "/last"))]
            streams.setdefault("length", []).append(
                [pair(f"{name}/{move}", nb, data=data, params=_param_values(spec, longer_env), env=longer_env)
                 for move, nb in moves])
        for kind, large in (("copy", records.large_copy(ds, specs_records, anchor.params)),
                            ("alike", records.large_constant(ds, specs_records, anchor.params)),
                            ("huge", records.large_constant(ds, specs_records, anchor.params, records.HUGE_N)),
                            ("two_ends", _two_ends(ds, specs_records, anchor))):
            if large is None:
                continue
            data, scaled = large
            try:
                large_env = spec.bind({**anchor.params, **scaled})
            except ValueError:
                continue
            big = records.Dataset(specs_records, data, large_env)
            if kind == "two_ends":
                moves = records.two_ends_moves(big)
            elif kind == "huge":  # the one move up, renamed
                moves = [("large_n/huge/last_record_up", nb) for name, nb in records.large_moves(big, True)
                         if name.endswith("_up")]
            else:
                moves = records.large_moves(big, kind == "alike")
                if kind == "copy":
                    streams.setdefault("offset", []).extend(  # one list per pair: the first anchor's offsets first
                        [pair(name, nb, data=d, params=_param_values(spec, large_env), env=large_env)]
                        for name, d, nb in records.offset_moves(big))
            streams.setdefault("large_n", []).extend(  # one list per pair: an anchor's large-n pairs are taken together
                [pair(name, nb, data=data, params=_param_values(spec, large_env), env=large_env)] for name, nb in moves)
    out: list[Pair] = []
    lists = [_interleaved(per_anchor) for per_anchor in streams.values()]
    for k in range(max((len(s) for s in lists), default=0)):  # round robin: every generator is represented
        out.extend(s[k] for s in lists if k < len(s) and not same_input(s[k].data, s[k].neighbour))
    # the stress datasets the cap's first pairs leave unsearched (the round robin reaches a late one never: ppm's case
    # without public rows), each with its first sort-order move, capped apart (MAX_COVER_PAIRS)
    if cap is None:
        return out
    searched = {p.name.rsplit("/", 1)[-1] for p in out[:cap]}
    out += [p.derived(name=p.name.replace("search/", "search/cover/", 1)) for p in cover
            if p.name.rsplit("/", 1)[-1] not in searched and not same_input(p.data, p.neighbour)]
    return out
