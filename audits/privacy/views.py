"""Views of a mechanism's outputs: 1-D statistics (coordinates, sums, rows of the integer
columns as discrete outcomes, a naive-Bayes score...) fitted on the select half
(:class:`Featurizer`), and the counting helpers they share (table lookups, per-value counts)."""

from __future__ import annotations

import math
import weakref

import numpy as np

from ..base.serialize import jsonable

SMALL_SPAN = 1 << 16  # integer views spanning fewer values are counted by np.bincount (no sort)
SORTED_LOOKUP = 1 << 14  # :func:`lookup` with this many keys and values or more sorts the values first
ROWBIN_BINS = 32  # quantile bins of the continuous part in the row x bin view
NB_BINS = 32  # quantile bins of a continuous column in the naive-Bayes score
NB_BLOCK = 1 << 20  # (row, integer column) cells scored at once by the naive-Bayes score
MAX_FISHER_COLUMNS = 256  # the Fisher discriminant view for up to this many continuous columns
FISHER_RIDGE = 1e-9  # its covariance's ridge, relative to the mean variance
FISHER_DISTINCT = 0.999  # ... kept when its direction's cosine with the mean difference is below this
FIT_ROWS = 50_000  # rows per side the quantile bins of the row x bin and naive-Bayes views are fitted on
GROUP_SPAN = 1 << 22  # row codes spanning fewer values are grouped by a direct table (no sort)
MAX_COORD_VIEWS = 16
BIT_COLUMNS = 4  # continuous columns whose low bits are a view of their own
FLOAT32_DROPPED = (1 << 29) - 1  # the float64 mantissa bits a float32 lacks
SUMMARY_VIEWS = ("meandiff", "fisher", "nb")  # continuous summaries of the row: float64 is precision enough


def as2d(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x)
    if x.ndim == 1:
        return x[:, None]
    return x if x.ndim == 2 else x.reshape(x.shape[0], -1)


DECIMALS_CAP = 10  # decimal places told apart by :func:`decimals` (more: DECIMALS_CAP + 1)


def decimals(x: np.ndarray) -> np.ndarray:
    """The decimal places of each value (the least k <= DECIMALS_CAP with x 10^k whole to a few ulps; else
    DECIMALS_CAP + 1): a continuous draw needs more, a release rounded to a grid of 10^-k fewer. A grid that
    follows the input (four significant digits of the answer) has a step that changes across a power of ten."""
    x = np.asarray(x, dtype=np.float64)
    out = np.full(x.shape, DECIMALS_CAP + 1, dtype=np.int64)
    with np.errstate(over="ignore", invalid="ignore"):
        # x 10^k whole to 8 ulps makes x 10^CAP whole to 64 ulps <= |x 10^CAP| 2^-46 (the error grows by at most
        # 2x in ulps, plus one rounding) unless x 10^CAP overflows or x is subnormal-small: only those values go
        # through the loop, one pass for a continuous draw instead of CAP + 1 (np.spacing is slow: 90 ns a value)
        y = x * 10.0 ** DECIMALS_CAP
        fractional = np.isfinite(y) & (np.abs(x) >= 1e-290) & (np.abs(y - np.round(y)) > np.abs(y) * 2.0 ** -45)
    where = np.flatnonzero(np.isfinite(x) & ~fractional)
    values, places = x.ravel()[where], np.full(where.size, DECIMALS_CAP + 1, dtype=np.int64)
    todo = np.ones(where.size, dtype=bool)
    for k in range(DECIMALS_CAP + 1):
        if not todo.any():
            break
        with np.errstate(over="ignore", invalid="ignore"):
            y = values * 10.0 ** k
            hit = todo & (np.abs(y - np.round(y)) <= 8 * np.spacing(np.abs(y)))
        places[hit] = k
        todo &= ~hit
    out.ravel()[where] = places
    return out


def quantile_edges(x: np.ndarray, bins: int) -> np.ndarray:
    """The distinct inner cut points of ``bins`` equal-mass bins of 1-D ``x``: np.quantile's linear
    interpolation, from one sort (np.quantile takes several times longer with this many levels)."""
    a = np.sort(x.astype(float, copy=False))
    pos = np.linspace(0, 1, bins + 1)[1:-1] * (a.size - 1)
    lo = pos.astype(np.int64)
    hi = np.minimum(lo + 1, a.size - 1)
    with np.errstate(invalid="ignore"):
        return np.unique(a[lo] + (pos - lo) * (a[hi] - a[lo]))


def _bin_index(edges: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``np.searchsorted(edges, x, "right")`` (sorted ``edges``): for a few edges, one comparison
    pass per edge, several times faster than a binary search per value (30 edges: 0.6 ms against
    4.2 ms for 166,000 values)."""
    if edges.size > 64:
        return np.searchsorted(edges, x, "right")
    x = np.ascontiguousarray(x)  # a column of a wide output: one strided pass, not one per edge
    out = np.zeros(x.shape, dtype=np.int8)
    for edge in edges:
        out += x >= edge
    if x.dtype.kind == "f":
        out[np.isnan(x)] = edges.size  # NaN sorts after every edge
    return out


def _row_sums(x: np.ndarray) -> np.ndarray:
    """Row sums of 2-D ``x`` in floats (einsum: several times faster than ``sum(axis=1)`` on short rows)."""
    return np.einsum("ij->i", x, dtype=float, casting="unsafe")


def _integral_columns(x: np.ndarray) -> np.ndarray:
    """Which columns of 2-D ``x`` hold only integers (and non-finite values)."""
    if x.dtype.kind in "biu":
        return np.ones(x.shape[1], dtype=bool)
    with np.errstate(invalid="ignore"):
        return ((x == np.round(x)) | ~np.isfinite(x)).all(axis=0)


def integral(x: np.ndarray) -> bool:
    """Integer-valued (checked on at most 20,000 rows: decides which views are built)."""
    return bool(_integral_columns(as2d(x[:20_000])).all())


class Featurizer:
    """1-D statistics ("views") of a mechanism's outputs, fitted on the select half."""

    def __init__(self, x1: np.ndarray, x2: np.ndarray, learned: bool = True, inputs: tuple | None = None):
        x1, x2 = as2d(x1), as2d(x2)
        self.d = x1.shape[1]
        self.views: list[str] = []
        self._cache: list = []
        self.grouped = None
        self.bit_cols = np.empty(0, dtype=np.int64)  # the continuous float columns (:meth:`_bit_views`)
        if _negative_zeros(x1) or _negative_zeros(x2):
            # a bit-level leak: -0.0 and +0.0 compare equal, so no view of the values tells them apart
            self.views.append("negative_zeros")
        self._bit_views(x1, x2)
        self._input_views(inputs, continuous=self.bit_cols.size > 0)
        if self.d == 1:
            self.views.append("value")
            return
        head = np.concatenate([x1[:20_000], x2[:max(0, 20_000 - x1.shape[0])]])  # decides the columns' kinds
        self.int_cols = np.flatnonzero(_integral_columns(head))
        self._int_set = set(self.int_cols.tolist())
        self.cont_cols = np.setdiff1d(np.arange(self.d), self.int_cols)
        self._ints, self._conts = _columns(self.int_cols), _columns(self.cont_cols)
        self.views += [f"coord[{j}]" for j in range(min(self.d, MAX_COORD_VIEWS))]
        self.views.append("sum")
        if self.int_cols.size:
            self._fit_symbols(x1, x2)
            self._fit_rows()
            self.views.append("row")
            if len(self.symbols) <= 6:
                for v in self.symbols:
                    self.views += [f"count(=={_fmt(v)})", f"first(=={_fmt(v)})"]
        if self.cont_cols.size and self.int_cols.size:
            # the integer part's row crossed with a quantile bin of the continuous part's sum: events
            # like "four bottoms, then a top released with a value in [0, 1]" (Lyu et al.'s Alg. 3)
            with np.errstate(invalid="ignore", over="ignore"):
                total = np.concatenate([_row_sums(x1[:FIT_ROWS, self._conts]), _row_sums(x2[:FIT_ROWS, self._conts])])
            total = total[np.isfinite(total)]
            if total.size:
                self.rowbin_edges = quantile_edges(total, ROWBIN_BINS)
                self.views.append("rowbin")
        if self.cont_cols.size:
            w = x1[:FIT_ROWS, self._conts].mean(0, dtype=float) - x2[:FIT_ROWS, self._conts].mean(0, dtype=float)
            if np.isfinite(w).all() and np.linalg.norm(w) > 0:
                self.direction = w / np.linalg.norm(w)
                self.views.append("meandiff")
                self._fit_fisher(x1[:FIT_ROWS, self._conts], x2[:FIT_ROWS, self._conts], w)
        self.grouped = self.group(x1, x2)  # the distinct integer parts of the fitted samples' rows
        if learned and self.d <= 256:
            self._fit_nb(x1, x2)
            self.views.append("nb")

    def _fit_fisher(self, a: np.ndarray, b: np.ndarray, w: np.ndarray) -> None:
        """``fisher``: the continuous columns projected on Fisher's discriminant, the pooled covariance's (ridged)
        inverse times the mean difference, when it points away from the mean difference: noise that two columns
        share (one draw copied to coordinates i and i + 3) leaves a direction with no noise at all, along which
        the two sides' outputs never overlap, while the mean difference sees the full noise."""
        if a.shape[1] < 2 or a.shape[1] > MAX_FISHER_COLUMNS or min(a.shape[0], b.shape[0]) < 2 * a.shape[1]:
            return
        a, b, w = (np.asarray(v, dtype=np.float64) for v in (a, b, w))  # linalg has no float128 (np.longdouble)
        with np.errstate(invalid="ignore", over="ignore"):
            cov = (np.cov(a, rowvar=False) + np.cov(b, rowvar=False)) / 2
            if not np.isfinite(cov).all():
                return
            scale = float(np.trace(cov)) / cov.shape[0]
            if not scale > 0:
                return
            try:
                v = np.linalg.solve(cov + FISHER_RIDGE * scale * np.eye(cov.shape[0]), w)
            except (np.linalg.LinAlgError, TypeError, ValueError):
                return
        norm = float(np.linalg.norm(v))
        if not (np.isfinite(v).all() and norm > 0):
            return
        v = v / norm
        if abs(float(v @ self.direction)) < FISHER_DISTINCT:
            self.fisher = v
            self.views.append("fisher")

    # views of the bits and of the inputs --------------------------------------------------
    def _bit_views(self, x1: np.ndarray, x2: np.ndarray) -> None:
        """The low bits of continuous float columns: ``low_bits`` (one column) or ``low_bits[j]`` (the first
        BIT_COLUMNS of several) the lowest 8 bits of each float64's mantissa, and ``parity`` the number of
        continuous columns with an odd last bit; ``float32`` the number of those columns whose mantissa has its
        low 29 bits zero (a float32's precision). Continuous noise spreads these evenly whatever the input (a
        float64 draw has float32 precision with probability 2^-29); an implementation that writes the input into
        them (its parity in the last bit) or draws its noise in float32 (exact at f = 0, not at f = 1) makes
        them disjoint."""
        if x1.dtype.kind != "f":
            return
        head = np.concatenate([x1[:20_000], x2[:20_000]])
        self.bit_cols = np.flatnonzero(~_integral_columns(head))[:BIT_COLUMNS]
        if not self.bit_cols.size:
            return
        if self.d == 1:
            self.views.append("low_bits")
        else:
            self.views += [f"low_bits[{j}]" for j in self.bit_cols]
            self.views.append("parity")
        self.views.append("float32")

    def _input_views(self, inputs: tuple | None, continuous: bool) -> None:
        """``equals_data``, ``equals_neighbour``: how many output coordinates equal the pair's input (D's, D''s)
        exactly, when the inputs are numeric arrays of one output row's size: an atom at the unnoised answer
        (the exact answer released now and then) has mass on one side only. For float outputs also ``near_data``,
        ``near_neighbour``: the distance of the nearest coordinate to its unnoised value, whose threshold events
        {near <= t} see a hole or an atom of any width around the answer (noise redrawn while the release rounds
        to the answer: never within 0.005 of f(D), within it with probability 2e-3 from f(D') = f(D) + 1)."""
        self.inputs = {}
        if inputs is None:
            return
        for side, value in zip(("data", "neighbour"), inputs):
            try:
                ref = np.asarray(value, dtype=float).ravel()
            except (TypeError, ValueError):
                continue
            if ref.size == self.d and np.all(np.isfinite(ref)):
                self.inputs[f"equals_{side}"] = ref
                self.views.append(f"equals_{side}")
                if continuous:
                    self.inputs[f"near_{side}"] = ref
                    self.views.append(f"near_{side}")

    # rows (of the integer-valued columns) as discrete outcomes --------------------------
    def _fit_symbols(self, x1: np.ndarray, x2: np.ndarray) -> None:
        """The sorted distinct values of the integer-valued columns (``symbols``). When they are
        16-bit integers, one conversion of each sample gives both the symbols and its symbol
        indices, which are cached for :meth:`_known`."""
        parts = (x1[:, self._ints], x2[:, self._ints])
        small = [_as_int16(part) for part in parts]
        if all(y is not None for y in small):
            lo, hi = min(int(y.min()) for y in small), max(int(y.max()) for y in small)
            if hi - lo < 16:  # few candidates: a comparison pass each
                values = np.array([v for v in range(lo, hi + 1) if any((y == v).any() for y in small)])
            else:
                seen = np.zeros(1 << 16, dtype=bool)
                for y in small:
                    seen[y.view(np.uint16).ravel()] = True
                values = np.flatnonzero(np.roll(seen, 1 << 15)) - (1 << 15)  # bit patterns in signed order
            self.symbols = values.astype(np.result_type(*parts))
            for x, y in zip((x1, x2), small):
                self._remember(x, lookup(self.symbols, y))
            return
        counted = small_int_counts(*(part.ravel() for part in parts))
        self.symbols = counted[0] if counted is not None else np.unique(np.concatenate([p.ravel() for p in parts]))

    def _fit_rows(self) -> None:
        k = len(self.symbols)
        self.radix = max(k, 2)
        self.exact_rows = self.int_cols.size * math.log2(self.radix + 1) < 62
        # digit weights of the exact codes: (radix + 1) ** (k - 1 - j) for column j; exact in floats below 2**53
        with np.errstate(over="ignore"):  # inf places only when exact_rows is False: then they are never used
            self.place = float(self.radix + 1) ** np.arange(self.int_cols.size - 1, -1, -1)
        rng = np.random.default_rng(12345)
        self.row_weights = rng.integers(1, 2**62, size=self.int_cols.size, dtype=np.int64) | 1

    def __getstate__(self) -> dict:
        """Pickled without the cache of recent lookups (weak references; an estimation batch on a
        Dask worker carries its events' featurizers)."""
        return {**self.__dict__, "_cache": []}

    def _memo(self, x: np.ndarray) -> dict:
        """Results computed on sample ``x`` (its symbol indices, its row codes), kept for the last
        eight samples (the select and rank halves of both sides and their distinct rows: the row,
        count, first, row x bin and naive-Bayes views share them). A sample is known by its memory
        (address, shape, strides) while the array owning that memory is alive, so a reshaped view
        of it hits the cache too."""
        owner, key = _memory(x)
        for ref, k, memo in self._cache:
            if k == key and ref() is owner:
                return memo
        memo: dict = {}
        self._cache = [(weakref.ref(owner), key, memo)] + self._cache[:7]
        return memo

    def _known(self, x: np.ndarray) -> np.ndarray:
        """1 + symbol index of each integer-valued column, 0 if unseen."""
        memo = self._memo(x)
        if "known" not in memo:
            self._remember(x, lookup(self.symbols, x[:, self._ints]))
        return memo["known"]

    def _remember(self, x: np.ndarray, known: np.ndarray) -> None:
        known = known.astype(np.int16, copy=False) if len(self.symbols) < 2**15 else known
        known.flags.writeable = False  # shared by every view of the sample
        self._memo(x)["known"] = known

    def _row_codes(self, x: np.ndarray) -> np.ndarray:
        memo = self._memo(x)
        if "codes" not in memo:
            known = self._known(x)
            if self.exact_rows and self.place[0] * (self.radix + 1) <= 2**53:  # one product, exact in floats
                memo["codes"] = np.einsum("ij,j->i", known, self.place).astype(np.int64)
            elif self.exact_rows:
                code = np.zeros(x.shape[0], dtype=np.int64)
                for j in range(known.shape[1]):
                    code = code * (self.radix + 1) + known[:, j]
                memo["codes"] = code
            else:
                with np.errstate(over="ignore"):
                    memo["codes"] = (known.astype(np.int64) * self.row_weights).sum(axis=1)
            memo["codes"].flags.writeable = False  # shared by every view of the sample
        return memo["codes"]

    def int_only(self, view: str) -> bool:
        """The view is a function of the integer-valued columns alone."""
        if not self.cont_cols.size or view == "row" or view.startswith("count(==") or view.startswith("first(=="):
            return True
        return view.startswith("coord[") and int(view[6:-1]) in self._int_set

    def group(self, *samples: np.ndarray):
        """The distinct integer parts of the rows of ``samples``: ``(reps, k_1, k_2, ...)``, ``reps``
        one output row per distinct integer part (its continuous columns those of one such row) and
        ``k_i`` sample i's count of each. Every integer-only view is then computed once per
        distinct row and counted with weights. None without integer columns, or when most rows
        are distinct (no saving)."""
        if self.d == 1 or not self.int_cols.size:
            return None
        samples = tuple(as2d(x) for x in samples)
        codes = [self._row_codes(x) for x in samples]
        both = np.concatenate(codes)
        lo, hi = int(both.min()), int(both.max())
        if hi - lo < min(GROUP_SPAN, 8 * both.size):  # a direct table: first occurrence and counts per code
            idx = both - lo
            first = np.full(hi - lo + 1, -1, dtype=np.int64)
            first[idx[::-1]] = np.arange(both.size - 1, -1, -1)
            seen = np.flatnonzero(first >= 0)
            where = first[seen]
            starts = np.cumsum([0] + [c.size for c in codes])
            counts = [np.bincount(idx[a:b], minlength=hi - lo + 1)[seen] for a, b in zip(starts[:-1], starts[1:])]
        else:
            _, where, inverse = np.unique(both, return_index=True, return_inverse=True)
            starts = np.cumsum([0] + [c.size for c in codes])
            counts = [np.bincount(inverse[a:b], minlength=where.size) for a, b in zip(starts[:-1], starts[1:])]
        if where.size > both.size // 4:
            return None
        owner = np.searchsorted(starts, where, side="right") - 1
        reps = np.empty((where.size,) + samples[0].shape[1:], dtype=np.result_type(*samples))
        for i, x in enumerate(samples):
            mine = owner == i
            reps[mine] = x[where[mine] - starts[i]]
        return (reps, *counts)

    # naive Bayes log-likelihood ratio (a learned score) -------------------------------
    def _fit_nb(self, x1: np.ndarray, x2: np.ndarray) -> None:
        """Per-column log-likelihood ratios: ``nb_sym``, a table over (integer column, symbol index)
        when the integer columns have few symbols; ``nb``, ``(j, kind, keys, llr)`` for every other
        column j (``"cat"``: few integer categories; ``"bin"``: quantile bins)."""
        self.nb, self.nb_sym = [], None
        n1, n2 = x1.shape[0], x2.shape[0]
        small = hasattr(self, "symbols") and len(self.symbols) <= 64
        if small:  # every integer column at once: one count over (column, symbol index) pairs
            width = len(self.symbols) + 1
            offsets = width * np.arange(self.int_cols.size, dtype=np.int32)
            if self.grouped is not None:  # on the distinct rows, weighted by their counts
                cells = (self._known(self.grouped[0]) + offsets).ravel()
                ca, cb = (np.bincount(cells, np.repeat(c, offsets.size), width * offsets.size) for c in self.grouped[1:])
            else:  # column by column (a wide output's cells would not fit at once)
                ca, cb = (np.concatenate([np.bincount(known[:, j], minlength=width) for j in range(offsets.size)])
                          for known in (self._known(x1), self._known(x2)))
            llr = (np.log((ca + 0.5) / (n1 + 0.5)) - np.log((cb + 0.5) / (n2 + 0.5))).reshape(offsets.size, width)
            llr[:, 0] = 0.0  # an unseen value
            self.nb_sym = (llr.ravel(), offsets)
        for j in range(self.d):
            if small and j in self._int_set:
                continue
            a, b = x1[:FIT_ROWS, j], x2[:FIT_ROWS, j]  # fitted on a head: a statistic, not an estimate
            m1, m2 = a.size, b.size
            cats = np.unique(np.concatenate([a[:5000], b[:5000]]))
            if len(cats) <= 64 and integral(cats):
                ca = np.bincount(lookup(cats, a), minlength=len(cats) + 1)[1:]
                cb = np.bincount(lookup(cats, b), minlength=len(cats) + 1)[1:]
                llr = np.log((ca + 0.5) / (m1 + 0.5)) - np.log((cb + 0.5) / (m2 + 0.5))
                self.nb.append((j, "cat", cats, np.concatenate([[0.0], llr])))
            else:
                edges = quantile_edges(np.concatenate([a, b]), NB_BINS)
                ca = np.bincount(_bin_index(edges, a), minlength=len(edges) + 1)
                cb = np.bincount(_bin_index(edges, b), minlength=len(edges) + 1)
                llr = np.log((ca + 0.5) / (m1 + 0.5)) - np.log((cb + 0.5) / (m2 + 0.5))
                self.nb.append((j, "bin", edges, llr))

    def _nb_score(self, x: np.ndarray) -> np.ndarray:
        if self.nb_sym is not None:  # in blocks of NB_BLOCK cells: a wide output's cells would not fit at once
            llr, offsets = self.nb_sym
            known = self._known(x)
            step = max(1, NB_BLOCK // offsets.size)
            score = np.concatenate([_row_sums(np.take(llr, known[i:i + step] + offsets))
                                    for i in range(0, known.shape[0], step)] or [np.zeros(0)])
        else:
            score = np.zeros(x.shape[0])
        for j, kind, keys, llr in self.nb:
            col = x[:, j]
            if kind == "cat":
                score += np.take(llr, lookup(keys, col))  # llr[0] = 0: an unseen category
            else:
                score += np.take(llr, _bin_index(keys, col))
        return score

    # ----------------------------------------------------------------------------------
    def stat(self, view: str, x: np.ndarray) -> np.ndarray:
        x = as2d(x)
        if view in SUMMARY_VIEWS and x.dtype == np.longdouble:  # their sums and bins in float64: ten times faster
            x = x.astype(np.float64)
        if view == "value":
            return x[:, 0]
        if view == "negative_zeros":
            return ((x == 0) & np.signbit(x)).sum(axis=1) if x.dtype.kind == "f" else np.zeros(x.shape[0], np.int64)
        if view.startswith("low_bits"):
            j = int(view[9:-1]) if view != "low_bits" else 0
            return (np.ascontiguousarray(x[:, j], dtype=np.float64).view(np.uint64) & np.uint64(0xFF)).astype(np.int64)
        if view == "float32":
            bits = np.ascontiguousarray(x[:, self.bit_cols], dtype=np.float64).view(np.uint64)
            return ((bits & np.uint64(FLOAT32_DROPPED)) == 0).sum(axis=1).astype(np.int64)
        if view == "parity":
            bits = np.ascontiguousarray(x[:, self.bit_cols], dtype=np.float64).view(np.uint64) & np.uint64(1)
            return bits.sum(axis=1).astype(np.int64)
        if view in self.inputs:
            if view.startswith("near_"):
                with np.errstate(invalid="ignore", over="ignore"):
                    return np.abs(x.astype(np.float64, copy=False) - self.inputs[view]).min(axis=1)
            return (x == self.inputs[view]).sum(axis=1)
        if view.startswith("coord["):
            return np.ascontiguousarray(x[:, int(view[6:-1])])  # one strided pass; the searches then run on contiguous data
        if view == "sum":
            return _row_sums(x)
        if view == "row":
            return self._row_codes(x)
        if view == "meandiff":
            return np.einsum("ij,j->i", x[:, self._conts], self.direction)
        if view == "fisher":
            return np.einsum("ij,j->i", x[:, self._conts], self.fisher)
        if view == "nb":
            return self._nb_score(x)
        if view == "rowbin":
            with np.errstate(invalid="ignore", over="ignore"):
                total = _row_sums(x[:, self._conts])
                return self._row_codes(x) * (self.rowbin_edges.size + 1) + _bin_index(self.rowbin_edges, total)
        if view.startswith("count(==") or view.startswith("first(=="):
            hit = self._known(x) == 1 + int(np.searchsorted(self.symbols, float(view[8:-1])))
            if view.startswith("count"):
                return hit.sum(axis=1)
            return np.where(hit.any(axis=1), hit.argmax(axis=1), self.int_cols.size)
        raise KeyError(view)

    def rowbin_outcome(self, code) -> str | None:
        """Decode a row x bin code: the integer part's row and the interval of the continuous sum."""
        row, b = divmod(int(code), self.rowbin_edges.size + 1)
        outcome = self.row_outcome(row)
        if outcome is None:
            return None
        lo = f"{self.rowbin_edges[b - 1]:.4g}" if b > 0 else "-inf"
        hi = f"{self.rowbin_edges[b]:.4g}" if b < self.rowbin_edges.size else "inf"
        return f"{outcome} with continuous sum in [{lo}, {hi})"

    def row_outcome(self, code) -> list | None:
        """Decode a row code into the output row (exact codes only)."""
        if not getattr(self, "exact_rows", False):
            return None
        digits = []
        c = int(code)
        for _ in range(self.int_cols.size):
            c, r = divmod(c, self.radix + 1)
            digits.append(r)
        digits = digits[::-1]
        if any(r == 0 for r in digits):
            return None
        return [jsonable(self.symbols[r - 1]) for r in digits]


def _negative_zeros(x: np.ndarray) -> bool:
    """Whether the first rows of a float sample hold a -0.0 (checked on at most 20,000 rows)."""
    head = np.asarray(x)[:20_000]
    return head.dtype.kind == "f" and bool(((head == 0) & np.signbit(head)).any())


def _columns(cols: np.ndarray):
    """Column indices as a slice when they are a contiguous range (a view, not a copy), else as they are."""
    if cols.size and cols[-1] - cols[0] == cols.size - 1:
        return slice(int(cols[0]), int(cols[-1]) + 1)
    return cols


def _memory(x: np.ndarray) -> tuple:
    """``(owner, key)``: the array owning ``x``'s memory and x's place in it (address, shape, strides)."""
    owner = x
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    return owner, (x.__array_interface__["data"][0], x.shape, x.strides)


def _as_int16(x: np.ndarray) -> np.ndarray | None:
    """``x`` as int16 when every value is an integer in int16's range (exactly), else None."""
    if x.dtype == np.int16:
        return x
    if x.dtype.kind not in "biuf" or (x.dtype.kind == "f" and not integral(x[:64])):
        return None  # a continuous sample is told by its first rows
    with np.errstate(invalid="ignore"):
        y = x.astype(np.int16)
    return y if np.array_equal(y, x) else None  # NaN and out-of-range values differ after the cast


def lookup(keys: np.ndarray, x: np.ndarray) -> np.ndarray:
    """1 + index of each x in sorted unique ``keys``, 0 where x is not a key (a direct table
    when the keys are integers spanning fewer than SMALL_SPAN values, else binary search)."""
    if keys.size == 0:
        return np.zeros(np.shape(x), dtype=np.int64)
    x = np.asarray(x)
    if x.dtype.kind == "f" and keys.dtype.kind in "biuf" and np.all((keys >= -2**15) & (keys < 2**15) & (keys == np.floor(keys))):
        with np.errstate(invalid="ignore"):  # 16-bit integer keys: x as int16 (exact where x is one of them)
            small = x.astype(np.int16)
        out = lookup(keys, small)
        out[small != x] = 0  # not an integer, out of range, or NaN
        return out
    if x.dtype.kind in "iu" and x.dtype.itemsize <= 2:  # a table over all of x's dtype, indexed by bit pattern
        info, unsigned = np.iinfo(x.dtype), np.dtype(f"u{x.dtype.itemsize}")
        ok = (keys >= info.min) & (keys <= info.max)
        if keys.dtype.kind == "f":
            ok &= keys == np.floor(keys)
        pos = np.flatnonzero(ok)
        table = np.zeros(1 << (8 * x.dtype.itemsize), dtype=np.int16 if keys.size < 2**15 else np.int64)
        table[keys[pos].astype(x.dtype).view(unsigned)] = pos + 1
        return np.take(table, x.view(unsigned))  # take: faster than indexing with a narrow index
    table = _key_table(keys)
    if table is not None:
        with np.errstate(invalid="ignore"):
            off = np.asarray(x) - keys[0]
            idx = off.astype(np.int64)
        np.clip(idx, -1, table.size, out=idx)
        out = np.take(np.concatenate([[0], table, [0]]), idx + 1)  # out of range -> 0
        if off.dtype.kind == "f":
            out[idx != off] = 0  # not an integer (or NaN)
        return out
    if keys.size >= SORTED_LOOKUP and x.size >= SORTED_LOOKUP:
        # many keys (a support event holding every value of one side): the queries in sorted order, each binary
        # search starting where the last ended (3x faster on 1.7e6 of each; a random order misses the cache)
        order = np.argsort(x.reshape(-1))
        found = np.empty(x.size, dtype=np.int64)
        found[order] = np.searchsorted(keys, x.reshape(-1)[order])
        idx = np.clip(found.reshape(x.shape), 0, len(keys) - 1)
    else:
        idx = np.clip(np.searchsorted(keys, x), 0, len(keys) - 1)
    return np.where(keys[idx] == x, idx + 1, 0)


def _key_table(keys: np.ndarray) -> np.ndarray | None:
    """``table[v - keys[0]] = 1 + index of v`` for integer-valued sorted keys of small span."""
    if keys.dtype.kind not in "biuf" or not np.isfinite(keys[[0, -1]]).all():
        return None
    # integer keys: exact Python-int span (64-bit row codes differ by less than a float resolves)
    span = int(keys[-1]) - int(keys[0]) if keys.dtype.kind in "biu" else float(keys[-1]) - float(keys[0])
    if span >= SMALL_SPAN or (keys.dtype.kind == "f" and not np.all(keys == np.floor(keys))):
        return None
    table = np.zeros(int(span) + 1, dtype=np.int64)
    table[(keys - keys[0]).astype(np.int64)] = np.arange(1, keys.size + 1)
    return table


def small_int_counts(*samples: np.ndarray):
    """``(values, k_1, k_2, ...)``: the distinct values of all samples, sorted, and each sample's
    count of each, by ``np.bincount`` when all are integer-valued within a span below SMALL_SPAN
    (linear passes, no sort); None otherwise (or when a sample is empty)."""
    if any(s.size == 0 or s.dtype.kind not in "biuf" for s in samples):
        return None
    if any(s.dtype.kind == "f" and not integral(s[:64]) for s in samples):
        return None  # a continuous sample is told by its first values
    dtype = np.result_type(*(s.dtype for s in samples))
    samples = tuple(s.view(np.uint8) if s.dtype.kind == "b" else s for s in samples)
    if dtype.kind == "f":
        lo = np.min([s.min() for s in samples])  # NaN propagates (Python's min would drop it)
        hi = np.max([s.max() for s in samples])
        if not (np.isfinite(lo) and np.isfinite(hi)) or hi - lo >= SMALL_SPAN:
            return None
    else:  # Python integers: exact at any width
        lo, hi = min(int(s.min()) for s in samples), max(int(s.max()) for s in samples)
        if hi - lo >= SMALL_SPAN:
            return None
    size = int(hi - lo) + 1
    counts = []
    for s in samples:
        if s.dtype.kind == "f":
            off = s - lo
            idx = off.astype(np.int64)
            if not np.array_equal(idx, off):
                return None
        else:  # modulo 2**64: s - lo would overflow a narrow type (int8: 127 - (-128))
            idx = (s.astype(np.uint64) - np.uint64(int(lo) % 2**64)).astype(np.int64)
        counts.append(np.bincount(idx, minlength=size))
    seen = np.flatnonzero(np.sum(counts, axis=0) > 0)
    values = (seen + lo if dtype.kind == "f" else seen.astype(np.uint64) + np.uint64(int(lo) % 2**64)).astype(dtype)
    return (values, *(k[seen] for k in counts))


def weighted_counts(values: np.ndarray, *weights: np.ndarray):
    """``(distinct values sorted, summed weights of each, ...)`` of ``values`` carrying ``weights``
    (a view computed once per distinct row, the rows' counts as weights)."""
    distinct, inverse = np.unique(values, return_inverse=True)
    return (distinct, *(np.bincount(inverse, weights=w, minlength=distinct.size) for w in weights))


def _fmt(v) -> str:
    v = float(v)
    return str(int(v)) if v.is_integer() else repr(v)

