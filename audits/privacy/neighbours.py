"""Neighbouring pairs checked against the spec's relation: :func:`violation` says, in one line, why a pair
(D, D') is not a neighbouring pair under ``spec.neighbours`` (None when it is, or when the input's form is
one the relation's rule cannot be read on). The auditor checks every pair it generates or searches with it,
and refuses a user's ad-hoc pair that breaks it: a "violation" on a pair that is not a neighbour would show
nothing.

What moves. ``[neighbours] moves`` names the entries the relation moves: ``all`` (default), ``index K``
(entry K of the last axis; every other entry is fixed), ``field NAME`` (key NAME of a dict input; every
other key is fixed), or both. ``[input] domain`` (:data:`dptestbed.spec.model.INPUT_DOMAINS`) bounds the
moved entries' values; a search never leaves it. Dataset-form inputs (``[input.records]``) are checked
record by record: replace-one relations change exactly one record (the changeable ones only, when a
``changeable`` flag is declared), add/remove adds or removes exactly one.

========================  ==============================================================================
relation                  a pair of numeric arrays of one shape (the moved entries) is a neighbour when
========================  ==============================================================================
``vector_l1``             ``sum |D - D'| <= sensitivity``
``vector_l2``             ``sqrt(sum (D - D')^2) <= sensitivity``
``query_answers``         ``max |D - D'| <= sensitivity`` (every answer moves, in any directions)
``votes_one_move``,       along the last axis, every row is unchanged or moves one unit from one entry to
``histogram_one_move``    another (counts stay whole and >= 0)
``scores_one_move``       one column (the last axis) changes, within [0, 1]
``replace_one``           records: one replaced; a bit: any two bits; an array of items: one position
``add_remove``            records: one added or removed (anywhere)
========================  ==============================================================================
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from dptestbed.spec import Spec

RELATIVE_SLACK = 1e-9  # a move measured in floating point may exceed the sensitivity by this fraction

__all__ = ["violation", "moved_part", "moved_entries", "domain_violation", "sensitivity"]


def sensitivity(spec: Spec, env: dict) -> float:
    s = spec.neighbours.get("sensitivity")
    return 1.0 if s is None else float(s.evaluate(env))


def moved_entries(spec: Spec) -> tuple[str | None, int | None]:
    """``(field, index)`` of ``[neighbours] moves`` (None for the whole input / every entry)."""
    text = spec.neighbours.get("moves") or "all"
    field = re.search(r"field (\w+)", text)
    index = re.search(r"index (\d+)", text)
    return (field.group(1) if field else None), (int(index.group(1)) if index else None)


def _numeric(value) -> np.ndarray | None:
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError):
        return None
    return arr if arr.dtype.kind in "biuf" else None


def moved_part(spec: Spec, data) -> tuple[np.ndarray | None, Any]:
    """``(moved entries as an array, the fixed rest)`` of one side's input, or ``(None, None)`` when the
    input has no numeric moved part."""
    field, index = moved_entries(spec)
    rest: Any = None
    value = data
    if field is not None:
        if not isinstance(data, dict) or field not in data:
            return None, None
        value = data[field]
        rest = {k: v for k, v in data.items() if k != field}
    arr = _numeric(value)
    if arr is None:
        return None, None
    if index is not None:
        if arr.ndim == 0 or arr.shape[-1] <= index:
            return None, None
        fixed = np.delete(arr, index, axis=-1)
        return arr[..., index], (rest, fixed)
    return arr, rest


def domain_violation(spec: Spec, values: np.ndarray) -> str | None:
    """Why ``values`` (moved entries) leave the spec's ``[input] domain``, or None."""
    values = np.asarray(values, dtype=float)
    if not np.all(np.isfinite(values)):
        return "an entry is not a finite number"
    domain = spec.input.get("domain", "real")
    if "integer" in domain and not np.array_equal(values, np.round(values)):
        return f"an entry is not a whole number (the input's domain: {domain})"
    if domain.startswith("nonnegative") and np.any(values < 0):
        return f"an entry is negative (the input's domain: {domain})"
    if domain == "unit interval" and (np.any(values < 0) or np.any(values > 1)):
        return "an entry is outside [0, 1] (the input's domain: unit interval)"
    return None


def _same(a, b) -> bool:
    try:
        if isinstance(a, tuple) or isinstance(b, tuple):
            return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and all(
                _same(x, y) for x, y in zip(a, b))
        if a is None or b is None:
            return a is b
        if isinstance(a, dict) or isinstance(b, dict):
            return isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys() and all(
                _same(a[k], b[k]) for k in a)
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    except (ValueError, TypeError):
        return False


def violation(spec: Spec, data, neighbour, env: dict) -> str | None:
    """Why (``data``, ``neighbour``) is not a neighbouring pair under the spec's relation at ``env``
    (one line), or None (module doc). Inputs whose form the relation's rule cannot be read on (a dict
    without declared records or a moved field, a nested structure) are not judged (None)."""
    relation = spec.neighbours["relation"]
    records = spec.input.get("records")
    if records is not None and relation in ("replace_one", "replace_one_private", "replace_one_label", "add_remove"):
        return _records_violation(spec, records, data, neighbour, relation)
    if relation == "replace_one" and spec.input.get("kind") == "bit":
        ok = all(np.ndim(x) == 0 and float(x) in (0.0, 1.0) for x in (data, neighbour))
        return None if ok else "a bit must be 0 or 1 on both sides"
    a, rest_a = moved_part(spec, data)
    b, rest_b = moved_part(spec, neighbour)
    if a is None or b is None:
        return None
    if a.shape != b.shape:
        return f"the two sides have different shapes ({a.shape} and {b.shape})"
    if not _same(rest_a, rest_b):
        return f"an entry the relation fixes differs ({spec.neighbours.get('moves')})"
    for side in (a, b):
        problem = domain_violation(spec, side)
        if problem:
            return problem
    diff = (b.astype(float) - a.astype(float)).ravel()
    s = sensitivity(spec, env)
    allowed = s * (1 + RELATIVE_SLACK)
    if relation == "vector_l1":
        moved = float(np.abs(diff).sum())
        return None if moved <= allowed else f"the L1 distance is {moved:.6g}, more than the sensitivity {s:g}"
    if relation == "vector_l2":
        moved = float(math.sqrt(float(np.square(diff).sum())))
        return None if moved <= allowed else f"the L2 distance is {moved:.6g}, more than the sensitivity {s:g}"
    if relation == "query_answers":
        moved = float(np.abs(diff).max(initial=0.0))
        return None if moved <= allowed else f"an answer moves by {moved:.6g}, more than the sensitivity {s:g}"
    if relation in ("votes_one_move", "histogram_one_move"):
        return _one_move_violation(a, b)
    if relation == "scores_one_move":
        if a.ndim != 2:
            return None
        columns = np.flatnonzero(np.any(a != b, axis=0))
        if columns.size > 1:
            return f"{columns.size} columns (chunks) change; one may"
        return None
    if relation == "replace_one" and a.ndim == 1 and spec.input.get("kind") in ("items",):
        changed = int(np.count_nonzero(a != b))
        return None if changed <= 1 else f"{changed} positions differ; one may"
    return None


def _one_move_violation(a: np.ndarray, b: np.ndarray) -> str | None:
    if not (np.array_equal(a, np.round(a)) and np.array_equal(b, np.round(b))):
        return "a vote count is not a whole number"
    if np.any(a < 0) or np.any(b < 0):
        return "a vote count is negative"
    rows_a = a.reshape(-1, a.shape[-1]) if a.ndim else a.reshape(1, 1)
    rows_b = b.reshape(-1, b.shape[-1]) if b.ndim else b.reshape(1, 1)
    for r, (x, y) in enumerate(zip(rows_a, rows_b)):
        d = (y - x).astype(np.int64)
        if not d.any():
            continue
        if sorted(d[d != 0].tolist()) != [-1, 1]:
            return f"row {r} does not move exactly one vote (changes {d.tolist()})"
    return None


def _records_violation(spec: Spec, records, data, neighbour, relation: str) -> str | None:
    keys = [key for key, _, _ in records.fields]
    whole = "." in keys

    def rows(side) -> dict | None:
        if whole:
            arr = _numeric(side)
            return None if arr is None or arr.ndim == 0 else {".": arr}
        if not isinstance(side, dict) or any(k not in side for k in keys):
            return None
        out = {k: np.asarray(side[k]) for k in keys}
        return out if len({len(v) for v in out.values()}) == 1 else None

    ra, rb = rows(data), rows(neighbour)
    if ra is None or rb is None:
        return None
    if not whole:
        public_a = {k: v for k, v in data.items() if k not in keys}
        public_b = {k: v for k, v in neighbour.items() if k not in keys}
        if not _same(public_a, public_b):
            return "a public (non-record) part of the input differs"
    na, nb = len(next(iter(ra.values()))), len(next(iter(rb.values())))
    if relation == "add_remove":
        if abs(na - nb) != 1:
            return f"the datasets have {na} and {nb} records; add/remove changes the count by one"
        big, small = (ra, rb) if na > nb else (rb, ra)
        n_small = min(na, nb)
        for i in range(n_small + 1):
            if all(np.array_equal(np.delete(big[k], i, axis=0), small[k]) for k in keys):
                return None
        return "removing no single record of the larger dataset gives the smaller one"
    if na != nb:
        return f"the datasets have {na} and {nb} records; a replacement keeps the count"
    changed = np.zeros(na, dtype=bool)
    for k in keys:
        x, y = ra[k], rb[k]
        if x.shape != y.shape:
            return f"field {k!r} has different shapes on the two sides"
        diff = x != y
        changed |= diff.reshape(na, -1).any(axis=1) if diff.ndim > 1 else diff
    if int(changed.sum()) > 1:
        return f"{int(changed.sum())} records differ; one may"
    if records.changeable and changed.any():
        flags = ra.get(records.changeable)
        if flags is None and isinstance(data, dict):
            flags = np.asarray(data.get(records.changeable))
        if flags is not None and np.ndim(flags) == 1 and not int(np.asarray(flags)[changed][0]) == 1:
            return "a record that is not changeable (public) differs"
    return None
