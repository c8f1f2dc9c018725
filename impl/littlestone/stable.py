"""Tournament distributions D_k, their Monte-Carlo variant D~_k and Algorithm G (seed 003, Section 4).

D~_k (box at l.415): D~_0 outputs the empty sample; for k >= 1 repeat (i) S_0, S_1 ~ D~_{k-1},
T_0, T_1 ~ D^n (depth first, in this order) (ii) f_b = SOA(S_b o T_b) (iii) if f_0 = f_1 redraw
all four (P-G4) (iv) x = the smallest point where f_0, f_1 differ (C4), chosen before y ~ U{+-1}
(v) output S_b o T_b o (x, y) for the b with f_b(x) != y. One GLOBAL counter over the whole
recursion: more than N draws from D is Fail (P-G3). The exact D_k is the same process with no
budget (a reported safety cap on rounds instead).

Examples come from a *source*: :class:`Reader` reads a fixed batch by position (never past its
end: Fail, P-M1), :class:`Sampler` draws i.i.d. from a finite distribution (for the checks).

Algorithm G (box at l.473): k ~ U{0..d}; S ~ D~_k(n, N); T ~ D^n (the next n examples); output
SOA(S o T) as an int8 truth table, Fail as the all-zero row (C6). With its coins fixed G is a
deterministic function of its batch, and its only coins are k and the tournament labels y, so
:func:`output_law` computes G's exact output distribution on a batch by walking the tree of
those coins (used by the batch samplers; it gives up beyond a node budget).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from dptestbed.impl.contract import batched

from .classes import hypothesis_from_id, hypothesis_id
from .soa import Class, sequence


class Fail(Exception):
    """D~_k exceeded its budget, or G would read past the end of its batch."""


class CapReached(Fail):
    """The exact D_k sampler hit its safety cap on rounds (reported by the checks): every round drew two
    samples whose SOA outputs f_0, f_1 agreed, so no tournament example could be made."""

    def __init__(self, level: int, rounds: float):
        super().__init__(f"D_{level}: {rounds:g} rounds in a row gave f_0 = f_1 (SOA(S_0 o T_0) = SOA(S_1 o T_1)), "
                         "so no tournament happened; the safety cap on rounds stopped the sampler")
        self.level, self.rounds = level, rounds


class _NeedCoin(Exception):
    """Replay ran out of recorded coins (coin-tree exploration)."""


class Reader:
    """Reads a fixed batch (x, y) strictly in order; ``budget`` caps the counted draws."""

    def __init__(self, x, y, budget: float):
        self.x, self.y, self.budget = x, y, budget
        self.pos = 0
        self.drawn = 0

    def draw(self, n: int, counted: bool = True):
        if counted and self.drawn + n > self.budget:
            raise Fail
        if self.pos + n > len(self.x):
            raise Fail
        s = slice(self.pos, self.pos + n)
        self.pos += n
        self.drawn += n if counted else 0
        return self.x[s], self.y[s]


class Sampler(Reader):
    """Draws i.i.d. examples (x, c(x)), x ~ p, lazily (for the exact D_k process); ``block`` > 1 draws them
    that many at a time and serves them in order (the same law, fewer generator calls)."""

    def __init__(self, p, c, rng: np.random.Generator, budget: float = math.inf, block: int = 1):
        super().__init__(None, None, budget)
        self.p, self.c, self.rng, self.block = np.asarray(p), np.asarray(c, dtype=np.int8), rng, block
        self._held = np.empty(0, dtype=np.int64)

    def draw(self, n: int, counted: bool = True):
        if counted and self.drawn + n > self.budget:
            raise Fail
        self.drawn += n if counted else 0
        if self.block <= 1:
            x = self.rng.choice(len(self.p), size=n, p=self.p)
        else:
            if self._held.size < n:
                more = self.rng.choice(len(self.p), size=max(n, self.block), p=self.p)
                self._held = np.concatenate([self._held, more])
            x, self._held = self._held[:n], self._held[n:]
        return x, self.c[x]


class RngCoins:
    def __init__(self, rng: np.random.Generator):
        self.rng = rng

    def flip(self) -> int:
        return 1 if self.rng.integers(2) else -1


class ReplayCoins:
    def __init__(self, prefix: tuple):
        self.prefix, self.used = prefix, 0

    def flip(self) -> int:
        if self.used == len(self.prefix):
            raise _NeedCoin
        self.used += 1
        return self.prefix[self.used - 1]


@dataclass
class Tournament:
    """A sample S ~ D~_k as its SOA state, plus (with ``keep``) the sequence and the positions
    of its tournament examples."""

    state: tuple
    x: list = field(default_factory=list)
    y: list = field(default_factory=list)
    tournaments: list = field(default_factory=list)


@dataclass
class Stats:
    """Per-level counts of the D_k process: calls and rounds (for Lemmas 12 and 14)."""

    calls: dict = field(default_factory=dict)
    rounds: dict = field(default_factory=dict)

    def add(self, level: int, rounds: int) -> None:
        self.calls[level] = self.calls.get(level, 0) + 1
        self.rounds[level] = self.rounds.get(level, 0) + rounds


def tournament_sample(cls: Class, k: int, n: int, source: Reader, coins, *, keep: bool = False,
                      stats: Stats | None = None, max_rounds: float = math.inf, loser: bool = True) -> Tournament:
    """S ~ D~_k(n, N) (N = ``source.budget``); raises Fail (budget, end of batch) or CapReached. ``loser=False``
    keeps in step (v) the side whose f_b(x) = y (a mutant's: G then has another output law)."""
    if k == 0:                                                   # D_0: the empty sample
        return Tournament(cls.start())
    rounds = 0
    while True:
        rounds += 1
        if rounds > max_rounds:
            raise CapReached(k, max_rounds)
        S = [tournament_sample(cls, k - 1, n, source, coins, keep=keep, stats=stats, max_rounds=max_rounds,
                               loser=loser) for _ in range(2)]  # (i) S_0, S_1 ~ D~_{k-1}
        T = [source.draw(n) for _ in range(2)]                   # (i) T_0, T_1 ~ D^n
        states = [cls.run(S[b].state, *T[b]) for b in range(2)]  # (ii) f_b = SOA(S_b o T_b)
        f = [cls.hypothesis(s) for s in states]
        differ = np.flatnonzero(f[0] != f[1])
        if differ.size == 0:                                     # (iii) redraw all four
            continue
        x = int(differ[0])                                       # (iv) smallest disagreement (C4)
        y = coins.flip()                                         # (iv) y ~ U{+-1}, after x
        b = 0 if (f[0][x] != y) == loser else 1                  # (v) the loser of the guess
        if stats is not None:
            stats.add(k, rounds)
        out = Tournament(cls.run(states[b], np.array([x]), np.array([y], dtype=np.int8)))
        if keep:
            out.x = S[b].x + list(T[b][0]) + [x]
            out.y = S[b].y + list(T[b][1]) + [y]
            out.tournaments = S[b].tournaments + [len(out.x) - 1]
        return out


def g_sizes(d: int, alpha: float, c: float) -> tuple[int, int]:
    """(n, N) of Algorithm G: n = ceil(2^(d+2)/alpha), N = floor(c 4^(d+1) n) (l.473)."""
    n = math.ceil(2 ** (d + 2) / alpha)
    return n, math.floor(c * 4 ** (d + 1) * n)


def run_g(cls: Class, x, y, *, d: int, n: int, N: float, coins, k: int, loser: bool = True) -> np.ndarray:
    """One run of G at level k on the batch (x, y): SOA(S o T) or the all-zero Fail row (``loser``:
    :func:`tournament_sample`'s)."""
    return run_g_on(cls, Reader(x, y, N), n=n, coins=coins, k=k, loser=loser)


def run_g_on(cls: Class, source: Reader, *, n: int, coins, k: int, loser: bool = True) -> np.ndarray:
    """:func:`run_g` reading its examples from ``source`` (its budget N; a :class:`Sampler` for fresh i.i.d.
    data, whose run has the law of one on a batch of length N + n or more)."""
    try:
        S = tournament_sample(cls, k, n, source, coins, loser=loser)  # step 2
        T = source.draw(n, counted=False)                        # step 3: the next n examples
    except Fail:
        return np.zeros(cls.X, dtype=np.int8)
    return np.array(cls.hypothesis(cls.run(S.state, *T)), dtype=np.int8)  # step 4


def output_law(cls: Class, x, y, *, d: int, n: int, N: float, max_nodes: int = 4096) -> dict | None:
    """G's exact output distribution on the batch: {hypothesis id: probability}, by walking
    the tree of its coins (k, then the tournament labels); None beyond ``max_nodes`` replays."""
    law: dict[int, float] = {}
    nodes = 0
    for k in range(d + 1):
        stack = [((), 1.0 / (d + 1))]
        while stack:
            prefix, p = stack.pop()
            nodes += 1
            if nodes > max_nodes:
                return None
            try:
                h = run_g(cls, x, y, d=d, n=n, N=N, coins=ReplayCoins(prefix), k=k)
            except _NeedCoin:
                stack += [(prefix + (1,), p / 2), (prefix + (-1,), p / 2)]
                continue
            key = int(hypothesis_id(h))
            law[key] = law.get(key, 0.0) + p
    return law


_CLASSES: OrderedDict = OrderedDict()
LAW_MIN_RUNS = 32   # below this many runs on one batch, sampling G directly is cheaper than its law


def class_of(H) -> Class:
    """The :class:`Class` of truth table ``H`` (cached: the Ldim memo is reused across calls)."""
    H = np.asarray(H)
    key = (H.shape, H.astype(np.int8).tobytes())
    cls = _CLASSES.get(key)
    if cls is None:
        cls = _CLASSES[key] = Class(H)
        if len(_CLASSES) > 64:
            _CLASSES.popitem(last=False)
    else:
        _CLASSES.move_to_end(key)
    return cls


def _check_d(d) -> int:
    if int(d) != d or d < 1:
        raise ValueError(f"d must be an integer >= 1, got {d!r}")
    return int(d)


def _g_batch(data, size, *, rng, d, alpha, c):
    cls = class_of(data["H"])
    x, y = sequence(data, cls.X)
    d = _check_d(d)
    n, N = g_sizes(d, alpha, c)
    law = output_law(cls, x, y, d=d, n=n, N=N) if size >= LAW_MIN_RUNS else None
    if law is None:
        return np.stack([globally_stable_learner(data, rng=rng, d=d, alpha=alpha, c=c) for _ in range(size)])
    ids = np.array(list(law), dtype=np.int64)
    draws = rng.choice(len(ids), size=size, p=np.array(list(law.values())))
    return hypothesis_from_id(ids[draws], cls.X)


@batched(_g_batch)
def globally_stable_learner(data, *, rng, d, alpha, c) -> np.ndarray:
    """Algorithm G on the batch data = {'H', 'x', 'y'}: k ~ U{0..d} (step 1), S ~ D~_k with
    n = ceil(2^(d+2)/alpha) and budget N = floor(c 4^(d+1) n) (step 2), T = the next n examples
    (step 3), output SOA(S o T) (step 4); Fail (all-zero row) on budget or end of batch."""
    cls = class_of(data["H"])
    x, y = sequence(data, cls.X)
    d = _check_d(d)
    n, N = g_sizes(d, alpha, c)
    return run_g(cls, x, y, d=d, n=n, N=N, coins=RngCoins(rng), k=int(rng.integers(d + 1)))

