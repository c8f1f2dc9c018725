"""Littlestone dimension and the Standard Optimal Algorithm (seed 003, Section 3.2, Definition 8).

:class:`Class` holds a finite class with precomputed tables: version spaces are bitmasks over
the rows of H (Python ints), ``Ldim`` is the memoised recursion of note 003 Section 5.1
(``Ldim(empty) = -1``, convention C1), and the SOA predictor of a version space is cached.

SOA state after a prefix S is ``(mask, h)``: ``mask`` the version space (non-zero while S is
realizable, then ``h`` is None and the predictor is the cached table of ``mask``), or ``mask =
0`` once S is not realizable, with ``h`` the Definition 8 predictor (the SOA predictor after the
longest realizable prefix, overwritten point-wise by the later examples, later ones winning).
:meth:`Class.run` advances a state over a whole block of examples with numpy (cumulative AND
of the agreement matrix), so SOA(S o T) costs one vectorised call per block T; it never raises
on non-realizable input (P-M5). Ties predict +1 (convention C2); the SOA is a deterministic
function of the prefix (P-G1).
"""

from __future__ import annotations

import numpy as np

from .classes import canonical


class Class:
    """A finite hypothesis class with its Ldim memo and SOA tables."""

    TIE = 1  # what an Ldim tie predicts (C1; ties to -1, the other convention, for the checks that allow both)

    def __init__(self, H):
        self.H = canonical(H)
        self.size, self.X = self.H.shape
        self.pos = self.H > 0                                   # (|H|, |X|)
        self.pos_mask = [self._to_int(self.pos[:, x]) for x in range(self.X)]
        self.full = (1 << self.size) - 1
        self._ldim: dict[int, int] = {0: -1}
        self._pred: dict[int, np.ndarray] = {}
        self._nbytes = (self.size + 7) // 8

    # ------------------------------------------------------------------ masks
    def _to_int(self, vector: np.ndarray) -> int:
        return int.from_bytes(np.packbits(vector, bitorder="little").tobytes(), "little")

    def _to_bool(self, mask: int) -> np.ndarray:
        raw = np.frombuffer(mask.to_bytes(self._nbytes, "little"), dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little")[: self.size].astype(bool)

    # ------------------------------------------------------------------ Ldim
    def ldim(self, mask: int | None = None) -> int:
        """Ldim of the version space ``mask`` (default: all of H); -1 for the empty set (C1)."""
        mask = self.full if mask is None else mask
        memo = self._ldim
        if mask in memo:
            return memo[mask]
        bound = mask.bit_count().bit_length() - 1               # Ldim(V) <= floor(log2 |V|)
        best, seen = 0, set()
        for pm in self.pos_mask:
            plus = mask & pm
            if not plus or plus == mask or plus in seen:        # x does not split V, or same split
                continue
            seen.add(plus)
            small, large = sorted((plus, mask ^ plus), key=int.bit_count)
            if small.bit_count().bit_length() <= best:          # 1 + Ldim(small side) <= best: no gain
                continue
            a = self.ldim(small)
            if 1 + a > best:
                best = max(best, 1 + min(a, self.ldim(large)))
            if best == bound:
                break
        memo[mask] = best
        return best

    # ------------------------------------------------------------------ SOA
    def predictor(self, mask: int) -> np.ndarray:
        """h(x) = argmax_b Ldim(V^b(x)), ties +1 (SOA box step 2(i), C1, C2; ``TIE``); read-only."""
        h = self._pred.get(mask)
        if h is None:
            h = np.empty(self.X, dtype=np.int8)
            for x, pm in enumerate(self.pos_mask):
                a, b = self.ldim(mask & pm), self.ldim(mask ^ (mask & pm))
                h[x] = 1 if a > b or (a == b and self.TIE == 1) else -1
            h.setflags(write=False)
            self._pred[mask] = h
        return h

    def start(self) -> tuple[int, np.ndarray | None]:
        """SOA state before any example."""
        return self.full, None

    def hypothesis(self, state) -> np.ndarray:
        """The predictor of ``state`` (SOA(S) for the prefix S that produced it)."""
        mask, h = state
        return self.predictor(mask) if mask else h

    def run(self, state, x: np.ndarray, y: np.ndarray):
        """State after feeding the examples (x_t, y_t) in order (Definition 8 once the
        sequence stops being realizable)."""
        mask, h = state
        if len(x) == 0:
            return state
        if not mask:                                            # already non-realizable
            return 0, patched(h, x, y)
        live = self._to_bool(mask)
        agree = self.pos[:, x] == (np.asarray(y) > 0)           # (|H|, T)
        agree &= live[:, None]
        prefix = np.logical_and.accumulate(agree, axis=1)
        alive = prefix.any(axis=0)
        if alive[-1]:
            return self._to_int(prefix[:, -1]), None
        t0 = int(np.argmin(alive))                              # first non-realizable prefix
        before = mask if t0 == 0 else self._to_int(prefix[:, t0 - 1])
        return 0, patched(self.predictor(before), x[t0:], y[t0:])

    def trace(self, x, y):
        """Predictions yhat_t (made before y_t) along the sequence, and the final state."""
        state = self.start()
        predictions = np.empty(len(x), dtype=np.int8)
        for t in range(len(x)):
            predictions[t] = self.hypothesis(state)[x[t]]
            state = self.run(state, x[t:t + 1], y[t:t + 1])
        return predictions, state

    def worst_case_mistakes(self, mask: int | None = None, memo=None) -> int:
        """W(V): the SOA's most mistakes over realizable sequences from version space V
        (note 003 Section 5.2): max over splitting x of max(W(V^p), 1 + W(V^-p)), p = h_V(x)."""
        mask = self.full if mask is None else mask
        memo = {} if memo is None else memo
        if mask in memo:
            return memo[mask]
        h = self.predictor(mask)
        best = 0
        for x, pm in enumerate(self.pos_mask):
            plus = mask & pm
            if not plus or plus == mask:
                continue
            same, other = (plus, mask ^ plus) if h[x] > 0 else (mask ^ plus, plus)
            best = max(best, self.worst_case_mistakes(same, memo), 1 + self.worst_case_mistakes(other, memo))
        memo[mask] = best
        return best


def patched(h: np.ndarray, x, y) -> np.ndarray:
    """Copy of ``h`` with h(x_t) = y_t for every t, later examples winning (Definition 8)."""
    out = np.array(h, dtype=np.int8)
    x, y = np.asarray(x), np.asarray(y)
    last = len(x) - 1 - np.unique(x[::-1], return_index=True)[1]
    out[x[last]] = y[last]
    return out


def _class(H) -> Class:
    return H if isinstance(H, Class) else Class(H)


def sequence(data, X: int) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) of a sample dict, validated: domain indices in 0..X-1, labels +-1."""
    x = np.asarray(data["x"], dtype=np.int64).reshape(-1)
    y = np.asarray(data["y"]).reshape(-1)
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same length, got {x.shape} and {y.shape}")
    if x.size and (x.min() < 0 or x.max() >= X):
        raise ValueError(f"x must hold domain indices in 0..{X - 1}")
    if y.size and not np.isin(y, (-1, 1)).all():
        raise ValueError("y must hold labels +1/-1")
    return x, y.astype(np.int8)


def littlestone_dimension(data, *, rng=None) -> int:
    """Ldim of the distinct rows of the truth table ``data`` (|H|, |X|); -1 for no rows."""
    H = np.asarray(data)
    if H.ndim != 2:
        raise ValueError(f"data must be a truth table of shape (|H|, |X|), got shape {H.shape}")
    if H.shape[0] == 0:
        return -1
    return Class(H).ldim()


def standard_optimal_algorithm(data, *, rng=None) -> np.ndarray:
    """SOA on the sequence data['x'], data['y'] over the class data['H'] (Definition 8 on
    non-realizable input). Returns int64 [h (|X|), predictions (T), mistakes]: h = SOA(S),
    the predictor for the next trial."""
    cls = _class(data["H"])
    x, y = sequence(data, cls.X)
    predictions, state = cls.trace(x, y)
    mistakes = int(np.sum(predictions != y))
    return np.concatenate([cls.hypothesis(state), predictions, [mistakes]]).astype(np.int64)


class ClassTiesMinus(Class):
    """The SOA with Ldim ties predicting -1: the other convention of step 2(i) (C1)."""

    TIE = -1
