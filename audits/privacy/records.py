"""The input-space search over a dataset-form input's records (``[input.records]``, spec/README.md): from a
dataset, the neighbours one record's move makes, each generator named (audits/privacy/pairs.py wraps them into pairs):

============================  ===========================================================
generator                     the record replaced, and by what
============================  ===========================================================
``sort_order``                for each sort order (each real column, each label field, the row
                              norm): the record at the low end and the median record moved past
                              the other end of that order
``magnitude``                 a record's real fields scaled to MAGNITUDE (10^12) and MAGNITUDE_FAR (10^18)
                              times the data's scale (or to the norm bound), up and down; and moved by half a unit, up and down
                              (a fractional record among whole ones: a path chosen for integer data)
``item_id``                   a record's item id replaced by a new id: next to the largest, far above it
                              (10^6: a domain read from the data), non-contiguous (a gap), below every
                              one (negative ids)
``huge_ids``                  the stress pair with every item id shifted up by 2^31 and by 2^53, on both sides
``zero``                      every changeable record but the last with zero real fields, the first one moved
                              back; the middle record's real fields set to zero (empty feature rows)
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
``offset``                    the balanced large copy with 2 or 21 records of one label given the other, one more
                              moved (mistake rates off one half, across a rounding grid)
``large_n/huge``               without labels, HUGE_N copies of one record, the last moved up (a
                              subsample taken only above some thousands of records)
``large_n/two_ends``           without labels, LARGE_N records, half as the record the anchor's pair
                              changes is on one side and half as on the other, one moved from one
                              end to the other: a trimmed or winsorised estimate with the plain
                              one's noise, right on a few records, reads its window between them
``one_end``                   at the anchor's own length, every record as the one its pair moves is on one
                              side, the last moved to the other side's value (both ways): a release
                              clamped or redrawn into a window around the data leaks most at its end
``labels``                    every label one value but the record the anchor's pair moves (on the side
                              where its first real field is lower), flipped on the other side (each value
                              alone in turn); every label the value the data hold fewer of, a record's
                              features moved as ``sort_order`` moves them
``constant``                  every changeable record far outside the data (MAGNITUDE times its scale, up
                              and down), the last one back at the first record's value on the other side
``ramp``                      the changeable records' real fields evenly spaced and sorted (0 .. k - 1, or
                              across the norm bound), increasing and decreasing; the first record moved
                              onto the second's value, the middle one half a step, the last one a step further
``distinct``                  k records of distinct item ids, the last one moved onto the first one's id
                              (k - 1 distinct), for k at and just above the counts where code switches paths
                              (DISTINCT_COUNTS: 64, 100, 128 and 256; no more: the output is as wide as the list, and
                              a per-call implementation's audit grows with it); the ``scales`` set to k
``wrap``                      with labels, 129 and 32,769 copies of one record against the same with the
                              last one's labels flipped: agreements counted in int8 or int16 wrap on one side
``composition``               499 records of two item ids, the first holding a share f of them (1/2, 3/5, 2/3,
                              3/4, 4/5, 9/10, 99/100), one more record moved to it: a branch on the largest
                              count's share
``random``                    a random dataset of the anchor's size and domains, one record
                              replaced at random (from a generator seeded by the spec id); and one of its
                              records made huge (``magnitude``'s 10^18, up and down)
``length``                    the dataset with copies of its first 1 or 3 changeable records
                              appended (a length its block counts do not divide), with the anchor's
                              own move (the same records appended to its neighbour) and its first
                              and last records moved
============================  ===========================================================

Under ``add_remove`` a replacement is not a neighbour: each replacement's new record is added instead
(:func:`as_addition`), and :func:`removals` removes the records at the ends and the middle.
"""

from __future__ import annotations

import math

import numpy as np

LARGE_N = 2048  # records of the large-n anchors of the search
# records of the one huge copy (records alike, the last moved up): a subsample of 4,096 or 10,000 records read from
# 65,536 shows the moved record (loss 13.2 or 4.7 at epsilon 1 where the noise is sized for all of them)
HUGE_N = 65_536
# the magnitude generator's factor: a record this many times the data's scale moves a relative tolerance of 1e-9
# (or any scale taken from the private rows) by 10^3 of the data's scale (10^6 moved it by 10^-3: the PPM tolerance
# mutant went unseen), while its square (10^24) stays far from overflow
MAGNITUDE = 1e12
# ... and a second, past float64's whole numbers: at 10^18 times the scale a sum's unit of last place is hundreds of
# the data's scale, so an in-range record added to it vanishes (a clipped sum computed as sum(x) - sum(x - clip(x))
# loses every record beside the huge one; at 10^12 it is off by 10^-5), its square (10^36) still finite
MAGNITUDE_FAR = 1e18
FAR_ID = 1_000_000  # an item id far above the data's: an implementation that sizes its domain by the largest id


class Dataset:
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


def _sort_keys(ds: Dataset):
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


def sort_order(ds: Dataset):
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


def magnitude(ds: Dataset):
    reals = _reals(ds)
    if not reals or not len(ds.changeable):
        return
    i = int(ds.changeable[len(ds.changeable) // 2])

    def huge(factor: float, suffix: str):
        for sign, name in ((1.0, "up"), (-1.0, "down")):
            values = {}
            for key in reals:
                col = ds.fields[key].astype(float)
                scale = max(float(np.max(np.abs(col))), 1.0)
                values[key] = ds._within(key, np.full(col.shape[1:], sign * factor * scale))
            yield f"magnitude/{name}{suffix}", ds.replaced(i, values)

    yield from huge(MAGNITUDE, "")
    for sign, name in ((1.0, "half_up"), (-1.0, "half_down")):  # off the integers where the data are whole
        yield f"magnitude/{name}", ds.replaced(i, {key: ds._within(key, ds.fields[key][i].astype(float) + sign * 0.5)
                                                   for key in reals})
    yield from huge(MAGNITUDE_FAR, "_far")  # (last: within the search's cap, the moves above come first)


def zeroed(ds: Dataset):
    """Records whose real fields are zero (a row of zero features: the one a normalisation x / |x| turns into NaN, a
    filter of empty rows drops, a log cannot take): every changeable record but the last zeroed, against the same
    with the first one back (an estimate over the non-empty rows counts 1 against 2), and the middle record zeroed
    in the dataset itself. ``(name, data, neighbour)``; none where they are zero already."""
    reals = _reals(ds)
    if not reals or len(ds.changeable) < 2:
        return
    first, last = int(ds.changeable[0]), int(ds.changeable[-1])
    zero = {key: np.zeros_like(ds.fields[key][first], dtype=float) for key in reals}
    fields = {k: v.astype(float) if k in reals else v.copy() for k, v in ds.fields.items()}
    for key in reals:
        fields[key][ds.changeable[:-1]] = zero[key]
    empty = Dataset(ds.spec_records, ds.data(fields), ds.env)
    if any(np.any(ds.fields[key][first]) for key in reals):
        yield ("zero/all_but_last", empty.data(empty.fields),
               empty.replaced(first, {key: ds.fields[key][first] for key in reals}))
    i = int(ds.changeable[len(ds.changeable) // 2])
    if i != last and any(np.any(ds.fields[key][i]) for key in reals):
        yield "zero/middle_record", ds.data(ds.fields), ds.replaced(i, zero)


SHRINK = 1e-3  # the records' real fields at this fraction of their values (:func:`shrunk`)


def shrunk(ds: Dataset):
    """Every changeable record's real fields at SHRINK times their values (the data far inside their domain), against
    the same with the first changeable record moved to the far side: the opposite direction of its own value, at the
    domain's bound (a row of norm at most L: norm L), or at the data's largest size where there is none. An
    implementation that rescales the records by their largest size (filling a bound it should only enforce) reads every
    record up to 1 / SHRINK times larger on one side only. ``(name, data, neighbour)``."""
    reals = _reals(ds)
    if not reals or len(ds.changeable) < 2:
        return
    first = int(ds.changeable[0])
    fields = {k: v.astype(float) if k in reals else v.copy() for k, v in ds.fields.items()}
    far = {}
    for key in reals:
        fields[key][ds.changeable] *= SHRINK
        row = ds.fields[key][first].astype(float)
        size = float(np.linalg.norm(row))
        direction = -row / size if size > 0 else np.ones_like(row) / np.sqrt(max(row.size, 1))
        _, bound = ds.domains[key]
        scale = (float(bound.evaluate(ds.env)) if bound is not None
                 else max(float(np.max(np.abs(ds.fields[key]))), 1.0))
        far[key] = direction * scale
    small = Dataset(ds.spec_records, ds.data(fields), ds.env)
    yield "shrunk/first_record_far", small.data(small.fields), small.replaced(first, far)


def tie(ds: Dataset):
    if ds.n < 2 or not len(ds.changeable):
        return
    i = int(ds.changeable[-1])
    for j, name in ((0, "first"), (ds.n // 2, "middle")):
        if j != i:
            yield f"tie/copy_of_{name}", ds.replaced(i, {k: v[j] for k, v in ds.fields.items() if k != ds.spec_records.changeable})


def _flip(ds: Dataset, i: int) -> dict:
    """Record ``i`` with every field moved to the other end of its domain or data."""
    out = {}
    for key, (domain, _) in ds.domains.items():
        if key == ds.spec_records.changeable:
            continue
        value = ds.fields[key][i]
        if domain in ("binary", "sign", "item") or domain.startswith("index<"):
            out[key] = ds.moved(key, value, not (np.asarray(value) >= np.median(ds.fields[key])).all())
        else:
            # a record at the mean (a dataset of equal records) moves up: down from the lower bound of a clipped
            # range (records of zeros in [0, 1]) the move would be clipped away, and the pair would change nothing
            out[key] = ds.moved(key, value, float(np.mean(value)) <= float(np.mean(ds.fields[key])))
    return out


def position(ds: Dataset):
    positions = {0: "first", ds.n - 1: "last", ds.n // 2 - 1: "before_middle", ds.n // 2: "middle"}
    m = ds.env.get("m")
    if m is not None and np.ndim(m) == 0 and 1 < float(m) < ds.n:
        positions.update({int(m) - 1: "end_of_block_1", int(m): "start_of_block_2"})
    changeable = set(ds.changeable.tolist())
    for i, name in sorted(positions.items()):
        if 0 <= i < ds.n and i in changeable:
            yield f"position/{name}", ds.replaced(i, _flip(ds, i))


WIDE_ROWS = 16  # a public array of candidate rows is also searched repeated to at least this many rows


def public_rows(ds: Dataset, params: dict):
    """The dataset with each public array of candidate rows (``public_rows``) widened, the same on both sides:
    its first row once and the others repeated to at least WIDE_ROWS rows in all (an implementation that takes
    another path for many candidates; a candidate against a crowd, whose normaliser the others set), and its
    first row twice (a duplicate candidate, whose tie an implementation may break by the
    data); with the parameter equal to the row count set. ``(name, data, params)``."""
    for key, name in ds.spec_records.public_rows:
        rows = np.asarray(ds.public.get(key))
        if rows.ndim < 1 or not len(rows):
            continue
        others = (np.concatenate([rows[:1], np.repeat(rows[1:], -(-WIDE_ROWS // (len(rows) - 1)), axis=0)])
                  if len(rows) > 1 else None)  # one row against many copies of the rest: the normaliser is theirs
        for label, wide in (("first_once_rest_repeated", others), ("first_twice", np.concatenate([rows[:1], rows]))):
            if wide is None:
                continue
            yield f"public_rows/{key}_{label}", {**ds.data(ds.fields), key: wide}, {**params, name: len(wide)}


def label_flips(ds: Dataset):
    """The first and last changeable records with only their labels (binary, sign) moved."""
    labels = _labels(ds)
    if not labels or not len(ds.changeable):
        return
    for i, where in {int(ds.changeable[0]): "first", int(ds.changeable[-1]): "last"}.items():
        yield f"label/{where}", ds.replaced(i, {k: _other_label(ds.domains[k][0], ds.fields[k][i]) for k in labels})


def one_sided_labels(ds: Dataset, other: Dataset | None = None):
    """Datasets whose labels (binary, sign) are all one value but for one record, and all one value. The lone
    record is the one the anchor's pair moves (``other`` its neighbour; else the first changeable one), taken from
    the side where its first real field is lower (a threshold learner's smallest positive sits below the queries):
    alone with each label, flipped on the other side (every label then the same). Then every label set to the value
    the data hold fewer of, with the first two moves of :func:`sort_order` (a record's features moved, its label
    kept). ``(name, data, neighbour)``. An implementation that reads the label mix (a teacher whose block holds no
    positive falls back to the whole sample's smallest positive, where one record is the only one; a label
    re-encoded by a rule that is right for one label only) is right wherever both labels are common, as in every
    stress case."""
    found = _labels(ds)
    if not found or not len(ds.changeable):
        return
    ds, i = _lone_record(ds, other)
    domain = ds.domains[found[0]][0]
    labels = [k for k in found if ds.domains[k][0] == domain]  # (the label fields of the first one's domain)
    values = (1, 0) if domain == "binary" else (1, -1)

    def with_labels(v) -> Dataset:
        return Dataset(ds.spec_records, ds.data({k: np.full_like(c, v) if k in labels else c.copy()
                                                 for k, c in ds.fields.items()}), ds.env)

    for v in values:
        flipped = _other_label(domain, v)
        lone = Dataset(ds.spec_records, with_labels(flipped).replaced(i, {k: v for k in labels}), ds.env)
        yield f"labels/lone_{v}", lone.data(lone.fields), lone.replaced(i, {k: flipped for k in labels})
    first = np.asarray(ds.fields[labels[0]])
    fewer = min(values, key=lambda v: (int(np.sum(first == v)), v))
    same = with_labels(fewer)
    for (name, nb), _ in zip(sort_order(same), range(2)):
        yield f"labels/all_{fewer}/{name}", same.data(same.fields), nb


def far_constant(ds: Dataset):
    """Every changeable record's real fields at MAGNITUDE times the data's scale, above and below (a dataset of alike
    records far outside any clipping range), against the same with its last changeable record back at the first
    one's values. ``(name, data, neighbour)``; none with label fields. An implementation that takes a shortcut for
    alike records (n times the first, unclipped) is right on the stress cases' alike records, which sit inside the
    range."""
    reals = _reals(ds)
    if not reals or _labels(ds) or len(ds.changeable) < 2:
        return
    first, last = int(ds.changeable[0]), int(ds.changeable[-1])
    for sign, name in ((1.0, "up"), (-1.0, "down")):
        fields = {k: v.astype(float) if k in reals else v.copy() for k, v in ds.fields.items()}
        for key in reals:
            scale = max(float(np.max(np.abs(fields[key]))), 1.0)
            fields[key][ds.changeable] = ds._within(key, np.full(fields[key].shape[1:], sign * MAGNITUDE * scale))
        far = Dataset(ds.spec_records, ds.data(fields), ds.env)
        yield f"constant/far_{name}", far.data(far.fields), far.replaced(last, {k: ds.fields[k][first] for k in reals})


def ramp(ds: Dataset):
    """``(name, data, neighbour)``: the changeable records' real fields set to an evenly spaced, strictly sorted ramp
    (0, 1, ..., k - 1 for an unbounded field: across any clipping range the stress cases' records sit in; the norm
    bound's -B .. B along the first coordinate for a bounded one), increasing and decreasing, against the same
    with the first record moved onto the second's value (a duplicate), the middle one half a step (sorted, no longer
    evenly spaced) or the last one a step further (evenly spaced still). A path an implementation takes for sorted,
    distinct or evenly spaced records (a closed form n (first + last) / 2 for an arithmetic series) is taken on one
    side only; none without real fields or with fewer than 3 changeable records."""
    reals = _reals(ds)
    rows = [int(i) for i in ds.changeable]
    if not reals or len(rows) < 3:
        return
    k = len(rows)
    for order in ("increasing", "decreasing"):
        fields = {key: v.astype(float) if key in reals else v.copy() for key, v in ds.fields.items()}
        steps = {}
        for key in reals:
            _, bound = ds.domains[key]
            limit = None if bound is None else float(bound.evaluate(ds.env))
            values = np.arange(k, dtype=float) if limit is None else np.linspace(-limit, limit, k)
            values = values if order == "increasing" else values[::-1].copy()
            column = fields[key]
            if column.ndim == 1:
                column[rows] = values
            else:
                column[rows] = 0.0
                column[rows, 0] = values
            steps[key] = values[1] - values[0]
        even = Dataset(ds.spec_records, ds.data(fields), ds.env)
        first, second, middle, last = rows[0], rows[1], rows[k // 2], rows[-1]
        data = even.data(even.fields)
        yield f"ramp/{order}/first_onto_second", data, even.replaced(first, {key: even.fields[key][second] for key in reals})
        yield f"ramp/{order}/middle_half_step", data, even.replaced(middle, _along_ramp(even, steps, middle, 0.5))
        yield f"ramp/{order}/last_one_step_further", data, even.replaced(last, _along_ramp(even, steps, last, 1.0))


def _along_ramp(ds: Dataset, steps: dict, i: int, by: float) -> dict:
    """Record ``i``'s real fields moved ``by`` steps of their ramp (the first coordinate of a vector field)."""
    out = {}
    for key, step in steps.items():
        row = ds.fields[key][i].copy()
        if row.ndim == 0:
            row = row + by * step
        else:
            row[0] += by * step
        out[key] = ds._within(key, row)
    return out


DISTINCT_COUNTS = (64, 65, 100, 101, 128, 129, 256, 257)


def distinct_ids(ds: Dataset, records, params: dict):
    """``(name, data, neighbour, scaled)``: k copies of the first changeable record with distinct item ids 0..k-1,
    against the last one's id moved onto the first's (k - 1 distinct ids), for k in DISTINCT_COUNTS, the ``scales``
    parameters set to k; none without an item field, scales or changeable records. A path chosen by the number of
    distinct ids (singletons pruned from long-tailed lists, a dense array up to some size) switches between the
    two sides at a count in the list ("> T" at k = T + 1, ">= T" at k = T)."""
    keys = ds.keys_of("item")
    if not keys or not records.scales or not len(ds.changeable) or (records.changeable and records.changeable in ds.public):
        return
    first = int(ds.changeable[0])
    for k in DISTINCT_COUNTS:
        fields = {key: np.repeat(v[first:first + 1], k, axis=0) for key, v in ds.fields.items()}
        for key in keys:
            fields[key] = np.arange(k, dtype=np.int64)
        wide = Dataset(ds.spec_records, ds.data(fields), ds.env)
        yield (f"distinct/{k}_ids", wide.data(wide.fields), wide.replaced(k - 1, {key: 0 for key in keys}),
               {name: type(params[name])(k) for name in records.scales if name in params})


COMPOSITION_RECORDS = 499  # records of the two-item lists of :func:`compositions` (prime: no f n is whole)
COMPOSITION_SHARES = (0.5, 0.6, 2 / 3, 0.75, 0.8, 0.9, 0.99)


def compositions(ds: Dataset, records, params: dict):
    """``(name, data, neighbour, scaled)``: COMPOSITION_RECORDS copies of the first changeable record, k of them with
    the data's most common item id and the rest with its next (or a fresh) id, against one more record moved to the
    first id, for k just below f n at each share f of COMPOSITION_SHARES (n prime, so that one pair crosses both
    "count > f n" and "count >= f n"), the ``scales`` parameters set to n; none without an item field, scales or
    changeable records. A path chosen by the share of the largest count (a supermajority answered from the top item
    alone, a majority taken as unanimity) switches between the two sides, with both counts far above any release
    threshold: no stress list (tens of records) and no list of distinct ids has two heavy items."""
    keys = ds.keys_of("item")
    if not keys or not records.scales or not len(ds.changeable) or (records.changeable and records.changeable in ds.public):
        return
    first, key = int(ds.changeable[0]), keys[0]
    ids, counts = np.unique(np.asarray(ds.fields[key])[ds.changeable], return_counts=True)
    order = np.argsort(-counts, kind="stable")
    a = int(ids[order[0]])
    b = int(ids[order[1]]) if ids.size > 1 else a + 1
    n = COMPOSITION_RECORDS
    for share in COMPOSITION_SHARES:
        k = math.floor(share * n)
        fields = {name: np.repeat(v[first:first + 1], n, axis=0) for name, v in ds.fields.items()}
        fields[key] = np.where(np.arange(n) < k, a, b).astype(np.int64)
        two = Dataset(ds.spec_records, ds.data(fields), ds.env)
        yield (f"composition/{k}_of_{n}", two.data(two.fields), two.replaced(k, {key: a}),
               {name: type(params[name])(n) for name in records.scales if name in params})


def _lone_record(ds: Dataset, other: Dataset | None) -> tuple[Dataset, int]:
    """(the side, the record): the first changeable record the anchor's two sides differ in, on the side where its
    first real field is lower; the first changeable record of ``ds`` when they differ in none (or in length)."""
    first = int(ds.changeable[0])
    if other is None or other.n != ds.n or set(other.fields) != set(ds.fields):
        return ds, first
    differ = [int(i) for i in ds.changeable if any(not np.array_equal(ds.fields[k][i], other.fields[k][i])
                                                   for k in ds.fields)]
    if not differ:
        return ds, first
    i = differ[0]
    reals = _reals(ds)
    if reals and other.changeable.size and np.ravel(other.fields[reals[0]][i])[0] < np.ravel(ds.fields[reals[0]][i])[0]:
        return other, i
    return ds, i


def random_dataset(ds: Dataset, rng: np.random.Generator):
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
    base = Dataset(ds.spec_records, ds.data(fields), ds.env)
    if len(base.changeable):
        i = int(rng.choice(base.changeable))
        yield "random", ds.data(fields), base.replaced(i, _flip(base, i))
        # a record made huge among these (not among the stress cases' zeros, which a sum that loses the records
        # beside a huge one loses unseen)
        for name, nb in magnitude(base):
            if name.endswith("_far"):
                yield f"random/{name}", ds.data(fields), nb


def _reals(ds: Dataset) -> list[str]:
    """The record's real fields (real, or vectors of bounded norm)."""
    return [k for k, (d, _) in ds.domains.items() if d == "real" or d.startswith("norm<=")]


def _labels(ds: Dataset) -> list[str]:
    """The record's label fields: binary or sign, other than the changeable flag."""
    return [k for k, (d, _) in ds.domains.items() if d in ("binary", "sign") and k != ds.spec_records.changeable]


def _other_label(domain: str, value):
    return 1 - value if domain == "binary" else -value


LONGER_BY = (1, 3)  # records added by :func:`lengthened`


def lengthened(ds: Dataset, records, params: dict, other: Dataset | None = None):
    """``(name, data, neighbour, scaled)``: the dataset with copies of its first k changeable records appended, for
    k in LONGER_BY (its ``scales`` parameters set to the new count), and ``other`` (the anchor's neighbour, of the
    same length) with the same records appended, or None: a length the stress cases' block counts no longer
    divide, where an implementation's blocks wrap around or take the left-over records (np.resize puts the first
    records, the anchor's moved one among them, in a second block); none when a public flag array marks the
    changeable records."""
    if not len(ds.changeable) or (records.changeable and records.changeable in ds.public):
        return
    for k in LONGER_BY:
        extra = ds.changeable[:k]
        if extra.size < k:
            return
        fields = {key: np.concatenate([v, v[extra]]) for key, v in ds.fields.items()}
        moved = None
        if other is not None and other.n == ds.n:
            moved = other.data({key: np.concatenate([v, ds.fields[key][extra]]) for key, v in other.fields.items()})
        scaled = {name: type(params[name])(ds.n + k) for name in records.scales if name in params}
        yield f"length/n_plus_{k}", ds.data(fields), moved, scaled


def _replicable(ds: Dataset, records, size: int) -> bool:
    """Whether the large-n datasets are made of ``ds``: ``scales`` declared, fewer records than ``size``, records that
    may change and no public flag array (it cannot be replicated with the records it describes). A list of item
    ids alone is not: its output has a row per record, so a 2,048-record copy costs seconds of audit for counts
    that only grow in proportion (its wide datasets are :func:`distinct_ids`)."""
    if not records.scales or ds.n >= size or not len(ds.changeable):
        return False
    if records.changeable and records.changeable in ds.public:
        return False
    return not all(domain == "item" for domain, _ in ds.domains.values())


WRAP_COUNTS = (129, 32_769)  # records of :func:`wrap_copies`: 2^7 + 1 (int8) and 2^15 + 1 (int16)


def wrap_copies(ds: Dataset, records, params: dict):
    """``(name, data, neighbour, scaled)``: with label fields, k copies of the first changeable record (labels as
    they are) against the same with the last one's labels flipped, for k in WRAP_COUNTS, the ``scales`` parameters
    set to k; none otherwise (:func:`_replicable`). A count summed over the records in a fixed-width integer (a
    hypothesis' agreements with the labels in int8 or int16) wraps on the side where all k agree and not on the
    other: the hypothesis that fits every record looks the worst there. The balanced large copies never reach it
    (agreements near 0) and the large constant ones have no labels."""
    labels = _labels(ds)
    if not labels or not _replicable(ds, records, max(WRAP_COUNTS) + 1):
        return
    first = int(ds.changeable[0])
    for k in WRAP_COUNTS:
        fields = {key: np.repeat(v[first:first + 1], k, axis=0) for key, v in ds.fields.items()}
        alike = Dataset(ds.spec_records, ds.data(fields), ds.env)
        flipped = {key: _other_label(ds.domains[key][0], alike.fields[key][k - 1]) for key in labels}
        yield (f"wrap/{k}_alike", alike.data(alike.fields), alike.replaced(k - 1, flipped),
               {name: type(params[name])(k) for name in records.scales if name in params})


def large_copy(ds: Dataset, records, params: dict):
    """The dataset with its changeable records replicated to about LARGE_N records in all (the others
    kept once), its ``scales`` parameters (counts of all records) set to the new count; or None. With
    label fields (binary, sign) the copy is *balanced*: every changeable record appears LARGE_N/c times
    with its labels and as often with the other ones (about 2 LARGE_N changeable records), so that
    every hypothesis errs on about half of them: mistake counts in the thousands, and ties between
    the hypotheses that a single label moves."""
    if not _replicable(ds, records, LARGE_N):
        return None
    changeable = np.zeros(ds.n, dtype=bool)
    changeable[ds.changeable] = True
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


def large_constant(ds: Dataset, records, params: dict, size: int = LARGE_N):
    """Without label fields: ``size`` copies of the first changeable record alone (its ``scales`` parameters set),
    or None: every record alike, so that an implementation whose estimate varies with which records it reads (a
    subsample of a large dataset) shows its one moved record on a sum that does not vary otherwise."""
    if not _replicable(ds, records, size) or _labels(ds):
        return None
    first = int(ds.changeable[0])
    fields = {key: np.repeat(v[first:first + 1], size, axis=0) for key, v in ds.fields.items()}
    return ds.data(fields), {name: type(params[name])(size) for name in records.scales if name in params}


def large_two_ends(ds: Dataset, other: Dataset, records, params: dict):
    """Without label fields, every field real: LARGE_N records, half as the record the anchor's pair changes is on
    its one side (``ds``) and half as it is on the other (``other``), its ``scales`` parameters set; or None (no
    one record differs). The two ends are the pair's own: a record moved from the lower clipping bound to the
    upper one gives a dataset half at each bound (module doc)."""
    i = _one_moved(ds, other, records)
    if i is None or not records.scales or ds.n >= LARGE_N:
        return None
    half = LARGE_N // 2
    fields = {k: np.concatenate([np.repeat(v[i:i + 1], half, axis=0),
                                 np.repeat(other.fields[k][i:i + 1], LARGE_N - half, axis=0)])
              for k, v in ds.fields.items()}
    return ds.data(fields), {name: type(params[name])(LARGE_N) for name in records.scales if name in params}


def _one_moved(ds: Dataset, other: Dataset, records) -> int | None:
    """The index of the one record the pair (``ds``, ``other``) moves, or None: other lengths, label fields, a field
    not real, a public flag array of the changeable records, or more than one record moved."""
    if not len(ds.changeable) or _labels(ds) or other.n != ds.n:
        return None
    if (records.changeable and records.changeable in ds.public) or any(d != "real" for d, _ in ds.domains.values()):
        return None
    differ = [int(i) for i in ds.changeable
              if any(not np.array_equal(ds.fields[k][i], other.fields[k][i]) for k in ds.fields)]
    return differ[0] if len(differ) == 1 else None


def one_end(ds: Dataset, other: Dataset, records):
    """``(name, data, neighbour)``: at the anchor's own length, every record as the one the anchor's pair moves is on
    one side, the last moved to its value on the other side (both ways); none unless exactly one real record moves.
    A release clamped, or its noise redrawn, into a window around the data (a range of width w, noise wider than w
    where n epsilon < 1) leaks most when the data sit at one end of the window."""
    i = _one_moved(ds, other, records)
    if i is None or ds.n < 2:
        return
    for start, end, name in ((ds, other, "low_to_high"), (other, ds, "high_to_low")):
        fields = {k: np.repeat(v[i:i + 1], ds.n, axis=0) for k, v in start.fields.items()}
        alike = ds.data(fields)
        moved = Dataset(ds.spec_records, alike, ds.env).replaced(ds.n - 1, {k: v[i] for k, v in end.fields.items()})
        yield f"one_end/{name}", alike, moved


def two_ends_moves(big: Dataset):
    """Neighbours of the two-ends dataset: the last low record moved to the high end, the first high one to the low
    end."""
    half = LARGE_N // 2
    for i, j, name in ((half - 1, half, "low_to_high"), (half, half - 1, "high_to_low")):
        yield f"large_n/two_ends/{name}", big.replaced(i, {k: v[j] for k, v in big.fields.items()})


def large_moves(big: Dataset, alike: bool = False):
    """Neighbours of a large copy: with label fields, the last changeable record of each label value
    given the other label (only the label moves: every mistake count moves by one, up or down, which
    breaks a tie one way or the other); else the last changeable record moved to the other end (records
    ``alike``: beyond the data's both ends, which are one)."""
    labels = _labels(big)
    if not len(big.changeable):
        return
    if not labels:
        i = int(big.changeable[-1])
        if alike:
            for to_high, name in ((True, "up"), (False, "down")):
                yield f"large_n/alike/last_record_{name}", big.replaced(
                    i, {k: big.moved(k, big.fields[k][i], to_high) for k in big.fields if k != big.spec_records.changeable})
            return
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


LABEL_OFFSETS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 21)  # labels moved off the balance of a large copy (:func:`offset_moves`)


def offset_moves(big: Dataset):
    """``(name, data, neighbour)`` of a balanced large copy with label fields: t records of the lower label given the
    other one (t in LABEL_OFFSETS), against one more. Each mistake rate then sits t records off one half, where a rate
    rounded to a grid crosses it (to 3 decimals, a grid of 4.1 records at 4,096 records: between 2,050 and 2,051
    mistakes; to 2 decimals, between 2,068 and 2,069); the balanced pair's rates sit on the grid's middle."""
    labels = _labels(big)
    if not labels or not len(big.changeable):
        return
    key = labels[0]
    domain = big.domains[key][0]
    low = 0 if domain == "binary" else -1
    rows = [int(i) for i in big.changeable if big.fields[key][i] == low]
    for t in (t for t in LABEL_OFFSETS if t < len(rows)):
        column = big.fields[key].copy()
        column[rows[-t:]] = _other_label(domain, low)
        moved = Dataset(big.spec_records, big.data({**big.fields, key: column}), big.env)
        yield (f"offset/{t}_labels_off_balance", moved.data(moved.fields),
               moved.replaced(rows[-t - 1], {key: _other_label(domain, low)}))


# the margins of a finite class's scores where code may take a shortcut (:func:`margins`): a runner-up whose weight
# exp(-epsilon m / 2) falls below one of these is skipped ("below 1e-4: return the best row"), so a pair whose margin
# crosses one at the audit's epsilon leaks it (a weight near the tail against an exact 0)
SHORTCUT_TAILS = (1e-2, 1e-3, 1e-4, 1e-5)
MAX_MARGIN_LENGTH = 4096  # records of a margin dataset (:func:`margins`) at most
MAX_UNDERFLOW_LENGTH = 20_000  # ... and of an underflow one (2 u records: u = 1,491 at epsilon 1, 7,451 at 0.2)


def underflow_bound() -> float:
    """The largest x (to 1e-9) with ``np.exp(-x) > 0`` in float64 (745.13): weights exp(-epsilon m / 2) taken
    without a shift all vanish past it, where code may fall back to anything (uniform, the best row)."""
    low, high = 700.0, 800.0
    while high - low > 1e-9:
        mid = (low + high) / 2
        low, high = (mid, high) if np.exp(-mid) > 0 else (low, mid)
    return low


OVERFLOW_ROWS = 16  # rows of a finite class tried as the triple of :func:`_overflow`
OVERFLOW_BOUND = float(np.log(np.finfo(np.float64).max))  # 709.78: exp overflows past it (weights shifted by the
# smallest exponent instead of the largest, exp(epsilon (max m - m) / 2), overflow once the mistakes spread past
# 2 x 709.78 / epsilon, where code may fall back to the best row)


def _class_table(ds: Dataset) -> tuple[str, str, np.ndarray] | None:
    """(index field, label field, candidate rows) of a finite class's sample: a public array of rows
    (``public_rows``), one ``index<ROWS`` field into its columns and one sign or binary label field; else None."""
    labels = _labels(ds)
    index = [(k, d) for k, (d, _) in ds.domains.items() if d.startswith("index<")]
    if len(labels) != 1 or len(index) != 1:
        return None
    rows = np.asarray(ds.public.get(index[0][1].split("<", 1)[1]))
    x = np.asarray(ds.fields[index[0][0]]).astype(np.int64)
    if rows.ndim != 2 or not len(rows) or (x.size and (x.min() < 0 or x.max() >= rows.shape[1])):
        return None
    return index[0][0], labels[0], rows


def mistakes_of(rows: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Each candidate row's mistakes on the sample (x, y)."""
    return (rows[:, x] != y[None, :]).sum(axis=1)


def margins(ds: Dataset, records, params: dict, epsilon: float):
    """``(name, data, neighbour, scaled, rare)`` of a finite class's sample (:func:`_class_table`) where its mistake counts
    cross what code may cut at the claim's ``epsilon``: (a) for each tau in SHORTCUT_TAILS, the changeable records
    cycled, every label one value, to the shortest length at which the best row's lead over the next reaches
    m_tau = floor(2 ln(1/tau)/epsilon) + 1 (the next row's weight exp(-epsilon m / 2) below tau), against a record
    the best row gets right and the next does not given the other label (a lead of m_tau - 2, its weight above tau);
    (b) every changeable record with both labels, cycled to u pairs, u = floor(2 x/epsilon) + 1 with x the exp
    underflow bound (:func:`underflow_bound`): every row errs u times and every weight exp(-epsilon u / 2) vanishes,
    against the last record of each label given the other one (a row back at u - 1 mistakes: its weight a denormal);
    (c) records that two rows both get right added until the rows' mistakes spread past 2 OVERFLOW_BOUND / epsilon,
    against one the most mistaken row gets wrong given the other label (:func:`_overflow`).
    The ``scales`` parameters set to the new length; ``rare``: in (a), the probability the exponential mechanism
    gives the rows but the best on the neighbour (what a shortcut would zero on the other side), else None."""
    table = _class_table(ds) if records.scales and len(ds.changeable) and epsilon > 0 else None
    if table is None or len(table[2]) < 2:  # (one row: no rival to lead)
        return
    index_key, key, rows = table
    domain = ds.domains[key][0]
    values = (1, 0) if domain == "binary" else (1, -1)
    fixed = np.setdiff1d(np.arange(ds.n), ds.changeable)
    x = np.asarray(ds.fields[index_key]).astype(np.int64)

    def built(index, labels) -> Dataset:
        fields = {k: np.concatenate([v[fixed], v[index]]) for k, v in ds.fields.items()}
        fields[key] = np.concatenate([ds.fields[key][fixed], np.asarray(labels).astype(ds.fields[key].dtype)])
        return Dataset(ds.spec_records, ds.data(fields), ds.env)

    def scaled(big: Dataset) -> dict:
        return {name: type(params[name])(big.n) for name in records.scales if name in params}

    cycle = np.arange(MAX_MARGIN_LENGTH) % len(ds.changeable)
    base = mistakes_of(rows, x[fixed], ds.fields[key][fixed])
    for tau in SHORTCUT_TAILS:
        target = math.floor(2 * math.log(1 / tau) / epsilon) + 1
        shortest = None  # (length, label value)
        for v in values:  # the mistakes after m records, every row at once
            err = base[:, None] + np.cumsum(rows[:, x[ds.changeable[cycle]]] != v, axis=1)
            top2 = np.sort(err, axis=0)[:2]
            hit = np.flatnonzero(top2[1] - top2[0] >= target)
            if hit.size and (shortest is None or hit[0] + 1 < shortest[0]):
                shortest = (int(hit[0]) + 1, v)
        if shortest is None:
            continue
        m, v = shortest
        best = built(ds.changeable[cycle[:m]], [v] * m)
        bx, by = best.fields[index_key].astype(np.int64), best.fields[key]
        err = mistakes_of(rows, bx, by)
        order = np.argsort(err, kind="stable")
        moves = [int(i) for i in best.changeable
                 if rows[order[0], bx[i]] == by[i] and rows[order[1], bx[i]] != by[i]]
        if moves:
            moved = best.replaced(moves[-1], {key: _other_label(domain, by[moves[-1]])})
            lead = err[order]
            rest = float(np.sum(np.exp(-epsilon * (lead[1:] - lead[0] - 2) / 2)))  # the rows but the best, on `moved`
            yield (f"margin/lead_{target}_tail_{tau:g}", best.data(best.fields), moved, scaled(best),
                   rest / (1 + rest))
    spread = math.floor(2 * OVERFLOW_BOUND / epsilon) + 1
    found = _overflow(ds, (index_key, key), rows, base, values, spread, built, epsilon)
    if found is not None:
        wide, moved, v = found
        yield f"overflow/spread_{spread}_label_{v}", wide.data(wide.fields), moved, scaled(wide), None
    u = math.floor(2 * underflow_bound() / epsilon) + 1
    if 2 * u > MAX_UNDERFLOW_LENGTH:
        return
    index = ds.changeable[np.arange(u) % len(ds.changeable)]
    labels = ds.fields[key][index]
    big = built(np.concatenate([index, index]), np.concatenate([labels, _other_label(domain, labels)]))
    for value, name in ((values[1], "label_up"), (values[0], "label_down")):
        with_value = [int(i) for i in big.changeable if big.fields[key][i] == value]
        if with_value:
            yield (f"margin/underflow_{u}_{name}", big.data(big.fields),
                   big.replaced(with_value[-1], {key: _other_label(domain, value)}), scaled(big), None)


def _overflow(ds: Dataset, keys: tuple[str, str], rows: np.ndarray, base: np.ndarray, values, spread: int, built,
              epsilon: float):
    """Margin (c) of :func:`margins`: ``(dataset, neighbour, label)`` or None. For two rows a and b, records that both
    get right and some other row does not (any column, either label), added in turn until the rows' mistakes spread
    past ``spread`` (a and b ahead, together; the rows past OVERFLOW_ROWS only counted), against the last one the most
    mistaken row gets wrong given the other label; kept when weights
    exp(epsilon (max m - m) / 2) sum to an overflow on the first side only. An exponential mechanism that shifts its
    exponents by their smallest (not their largest) then falls back on one side (to its best row, say) while on the
    other b keeps its share."""
    k = min(len(rows), OVERFLOW_ROWS)
    r = rows[:k]
    template = int(ds.changeable[0])
    fixed = np.setdiff1d(np.arange(ds.n), ds.changeable)
    index, label = keys
    with np.errstate(over="ignore"):
        def overflows(err: np.ndarray) -> bool:
            return not np.isfinite(np.sum(np.exp(epsilon * (err.max() - err.astype(float)) / 2)))

        for a in range(k):
            for b in range(a + 1, k):
                usable = [(col, v) for col in range(r.shape[1]) for v in values
                          if r[a, col] == v and r[b, col] == v and np.any(r[:, col] != v)]
                if not usable:
                    continue
                hurt = np.array([[r[j, col] != v for col, v in usable] for j in range(k)])  # (rows, options)
                rate = hurt.mean(axis=1)
                others = [j for j in range(k) if j not in (a, b)]
                if not others or min(rate[others]) <= 0:
                    continue
                m = int(np.ceil((spread - int(base.max() - min(base[a], base[b]))) / max(rate)))
                for size in range(max(m, 1), min(max(m, 1) + 4 * len(usable), MAX_UNDERFLOW_LENGTH) + 1):
                    cols = np.array([usable[t % len(usable)][0] for t in range(size)])
                    labs = np.array([usable[t % len(usable)][1] for t in range(size)])
                    err = base + (rows[:, cols] != labs[None, :]).sum(axis=1)
                    if not overflows(err):
                        continue
                    wide = built(np.full(size, template), labs)
                    fields = {key: v.copy() for key, v in wide.fields.items()}
                    fields[index][len(fixed):] = cols
                    wide = Dataset(wide.spec_records, wide.data(fields), wide.env)
                    top = int(np.argmax(err))  # the record moved: the last one the most mistaken row gets wrong
                    last = int(wide.changeable[len(fixed) + int(np.flatnonzero(rows[top, cols] != labs)[-1])]) \
                        if np.any(rows[top, cols] != labs) else int(wide.changeable[-1])
                    moved = wide.replaced(last, {label: _other_label(wide.domains[label][0], wide.fields[label][last])})
                    other = Dataset(wide.spec_records, moved, wide.env)
                    oerr = mistakes_of(rows, other.fields[index].astype(np.int64), other.fields[label])
                    if not overflows(oerr):
                        return wide, moved, int(labs[-1])
                    break
    return None


def item_id(ds: Dataset):
    """A changeable record's item id replaced by new ids (module doc)."""
    keys = ds.keys_of("item")
    if not keys or not len(ds.changeable):
        return
    i = int(ds.changeable[-1])
    for key in keys:
        column = np.asarray(ds.fields[key]).astype(np.int64)
        top, bottom = int(column.max()), int(column.min())
        for name, value in (("next", top + 1), ("far", max(FAR_ID, top + 1)), ("gap", top + 1000),
                            ("negative", min(-1, bottom - 1))):
            yield f"item_id/{name}", ds.replaced(i, {key: value})


HUGE_ID_OFFSETS = (2 ** 31, 2 ** 53)  # every item id shifted by this much (int32's wrap; float64's last whole step)
# searched pairs an implementation may be unable to hold at all (a dense array sized by the largest id): left out of
# an audit where it raises on both sides (procedure._within_capacity)
CAPACITY_MOVES = ("search/huge_ids/",)


def shifted_ids(ds: Dataset, other: Dataset | None):
    """``(name, data, neighbour)``: the pair ``ds``, ``other`` with every item id shifted up by each HUGE_ID_OFFSETS
    on both sides (the same records, the same move: still neighbours). An implementation that counts ids on another
    path above some size (a dict above 2^31, float64 ids that merge above 2^53) takes it on both sides, where no
    move of one id (``item_id``, at most 10^6) brings the pair."""
    keys = ds.keys_of("item")
    if not keys or other is None or set(other.fields) != set(ds.fields):
        return
    for offset in HUGE_ID_OFFSETS:
        sides = []
        for side in (ds, other):
            fields = {k: v.copy() for k, v in side.fields.items()}
            for key in keys:
                fields[key] = np.asarray(fields[key]).astype(np.int64) + np.int64(offset)
            sides.append(side.data(fields))
        yield f"huge_ids/plus_2^{int(math.log2(offset))}", sides[0], sides[1]


def resized(ds: Dataset, other: Dataset, size: int):
    """``(data, neighbour)``: the pair ``ds``, ``other`` (one record apart) with ``size`` records, for a count of
    the records (a ``scales`` parameter) the user set: the record they differ in kept once (the neighbour's version
    only there), the records that may not change all kept, the other changeable ones kept in order and, to grow,
    repeated in turn; None when the two are not one replaced record apart, there are too few changeable records to
    shrink, or a public flag array marks the changeable records (it cannot follow them)."""
    if other.n != ds.n or set(other.fields) != set(ds.fields) or size < 1 or (
            ds.spec_records.changeable and ds.spec_records.changeable in ds.public):
        return None
    differ = [i for i in range(ds.n) if any(not np.array_equal(ds.fields[k][i], other.fields[k][i]) for k in ds.fields)]
    if len(differ) != 1:
        return None
    i = differ[0]
    fixed = sorted(set(range(ds.n)) - set(int(j) for j in ds.changeable))
    others = [int(j) for j in ds.changeable if j != i]
    if size >= ds.n:
        index = list(range(ds.n)) + [others[t % len(others)] if others else i for t in range(size - ds.n)]
    elif size > len(fixed):
        index = sorted(fixed + [i] + others[:size - 1 - len(fixed)])
    else:
        return None
    fields = {k: v[index] for k, v in ds.fields.items()}
    moved = {k: v.copy() for k, v in fields.items()}
    for k in moved:
        moved[k][index.index(i)] = other.fields[k][i]
    return ds.data(fields), ds.data(moved)


def as_addition(ds: Dataset, neighbour) -> object | None:
    """The dataset with the record a replacement brought (its one changed record in ``neighbour``) added at the
    end instead: the add/remove neighbour of the same move; None when nothing changed."""
    other = Dataset(ds.spec_records, neighbour, ds.env)
    changed = [i for i in range(ds.n) if any(not np.array_equal(ds.fields[k][i], other.fields[k][i]) for k in ds.fields)]
    if len(changed) != 1:
        return None
    i = changed[0]
    fields = {k: np.concatenate([v, other.fields[k][i:i + 1].astype(v.dtype, copy=False)
                                 if np.can_cast(other.fields[k].dtype, v.dtype) else other.fields[k][i:i + 1]])
              for k, v in ds.fields.items()}
    return ds.data(fields)


def removals(ds: Dataset):
    """The dataset with one changeable record removed: the first, the middle, the last, and the ends of each
    real column's order."""
    if ds.n < 2 or not len(ds.changeable):
        return
    chosen = {int(ds.changeable[0]): "first", int(ds.changeable[len(ds.changeable) // 2]): "middle",
              int(ds.changeable[-1]): "last"}
    for name, _, column, values in _sort_keys(ds):
        order = [int(i) for i in np.argsort(values, kind="stable") if i in set(ds.changeable.tolist())]
        if order and column != "norm":
            chosen.setdefault(order[0], f"lowest_{name}")
            chosen.setdefault(order[-1], f"highest_{name}")
    for i, name in chosen.items():
        yield f"remove/{name}", ds.data({k: np.delete(v, i, axis=0) for k, v in ds.fields.items()})
