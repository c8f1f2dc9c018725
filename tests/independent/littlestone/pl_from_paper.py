"""The private learner M of seed 003 (Theorem 17 with G = Algorithm G) written from the paper and the spec
files alone (no function of the testbed is called):

The batch samplers draw the same law faster: G's exact output law on each distinct batch (its coins, the level and
the tournament labels, walked by replay), the counts of h_1..h_k multinomial over it, then the rest per run.

- SOA: version space as a bit mask over the rows of H; the predictor h(x) = the label b whose side
  V^b(x) has the larger Littlestone dimension (Ldim of the empty class -1, ties to +1); Definition 8: once
  the sequence is not realizable, the predictor after the longest realizable prefix, overwritten point-wise
  by the later examples (later ones win);
- G (accuracy alpha/2): n = ceil(2^(d+3)/alpha) auxiliary examples, budget N = floor(c 4^(d+1) n), batch of
  m = N + n examples read strictly in order; level k uniform in {0..d}; S ~ D~_k depth first (S_0, S_1 ~
  D~_{k-1}, then T_0, T_1 of n examples; f_b = SOA(S_b o T_b); equal: redraw all four; else x = the smallest
  point where they differ, y a fair coin, S = S_0 o T_0 o (x, y) if f_0(x) != y else S_1 o T_1 o (x, y));
  Fail once the draws would pass N; output SOA(S o T) with T the next n examples;
- M: k positional batches of m, Hist at (epsilon/2, delta) on the k outputs (noise Lap(4/epsilon) on the
  counts of the outputs that occur, released iff >= 1 + (4/epsilon) ln(1/delta), a = noisy count / k),
  pruning to a >= 3 eta/4 without Fail, GenericLearner at epsilon/2 on the last n' examples (weights
  exp(-(epsilon/2) err/2)), the all -1 function when nothing is left.

Functions (the truths are in tests/independent/MANIFEST.toml):
- ``learn``: the above (the spec's algorithm);
- ``learn_generic_sensitivity_three``: GenericLearner with weights exp(-(epsilon/2) err/6) (the score's
  sensitivity taken as 3): more private than claimed, and its choice on S' is 3 times flatter. Truth: on the
  distribution of Theorem 17's checks (thresholds on 2 points, target (-1, +1), mass 1/40 on point 0) at k = 128,
  n' = 400, eta = 0.2 it outputs t_1 (loss 1/40) instead of the target about 3 times as often as the reference (0.22
  and 0.26 in two runs of 300, against 0.077): its expected loss is about 3 times the reference's; every bound of the
  paper holds;
- ``learn_no_noise``: Hist without noise (true counts against the threshold) and GenericLearner replaced by
  the first hypothesis of fewest errors: not private (truth: on the spec's stress pair pattern_threshold_crossing it
  outputs t_1 with probability about 1/2 on D' and 0 on D, an infinite loss);
- ``learn_constant_target_guess``: the threshold t_1 = (+1, ..., +1) whatever the data (a constant label): loss 1/40
  on that distribution, within alpha = 0.4, but it misses the target in every run.
"""
import math
from functools import lru_cache

import numpy as np


class _SOA:
    def __init__(self, H):
        H = np.unique(np.asarray(H, dtype=np.int64).reshape(len(H), -1), axis=0)
        self.X = H.shape[1]
        self.full = (1 << H.shape[0]) - 1
        self.pos = [sum(1 << r for r in range(H.shape[0]) if H[r, x] == 1) for x in range(self.X)]
        self.ldim = lru_cache(maxsize=None)(self._ldim)
        self.predictor = lru_cache(maxsize=None)(self._predictor)

    def _ldim(self, mask):
        if mask == 0:
            return -1
        best = 0
        for x in range(self.X):
            plus, minus = mask & self.pos[x], mask & ~self.pos[x]
            if plus and minus:
                best = max(best, 1 + min(self.ldim(plus), self.ldim(minus)))
        return best

    def _predictor(self, mask):
        return tuple(1 if self.ldim(mask & self.pos[x]) >= self.ldim(mask & ~self.pos[x]) else -1
                     for x in range(self.X))

    def run(self, xs, ys):
        """SOA(sequence) as a tuple of +-1 (Definition 8 beyond the longest realizable prefix)."""
        mask, t = self.full, 0
        for t, (x, y) in enumerate(zip(xs, ys)):
            nxt = mask & (self.pos[x] if y == 1 else ~self.pos[x])
            if not nxt:
                h = list(self.predictor(mask))
                for x2, y2 in zip(xs[t:], ys[t:]):
                    h[x2] = y2
                return tuple(h)
            mask = nxt
        return self.predictor(mask)


class _Fail(Exception):
    pass


FAIL = "Fail"


class _Coins:
    """G's coins: the level, then the tournament labels, from ``rng`` or replayed from a recorded prefix."""

    def __init__(self, rng=None, prefix=()):
        self.rng, self.prefix, self.used = rng, prefix, 0

    def label(self):
        if self.rng is not None:
            return 1 if self.rng.random() < 0.5 else -1
        if self.used == len(self.prefix):
            raise _NeedCoin
        self.used += 1
        return self.prefix[self.used - 1]


class _NeedCoin(Exception):
    pass


def _g(soa, xs, ys, d, n, N, rng, level=None, coins=None):
    """One run of Algorithm G on the batch (xs, ys) (lists), budget N: a truth table or FAIL (``level`` and
    ``coins`` given: that level and those tournament labels, for the law)."""
    at = [0]
    coins = coins or _Coins(rng)

    def draw(count):
        if at[0] + count > N:
            raise _Fail
        a = at[0]
        at[0] += count
        return xs[a:a + count], ys[a:a + count]

    def sample(level):
        if level == 0:
            return [], []
        while True:
            s0, s1 = sample(level - 1), sample(level - 1)
            t0, t1 = draw(n), draw(n)
            seq0, seq1 = (s0[0] + t0[0], s0[1] + t0[1]), (s1[0] + t1[0], s1[1] + t1[1])
            f0, f1 = soa.run(*seq0), soa.run(*seq1)
            if f0 != f1:
                break
        x = next(i for i in range(soa.X) if f0[i] != f1[i])
        y = coins.label()
        chosen = seq0 if f0[x] != y else seq1
        return chosen[0] + [x], chosen[1] + [y]

    level = int(rng.integers(0, d + 1)) if level is None else level
    try:
        S = sample(level)
    except _Fail:
        return FAIL
    a = at[0]
    return soa.run(S[0] + xs[a:a + n], S[1] + ys[a:a + n])


def _g_law(soa, xs, ys, d, n, N):
    """G's output law on one batch, {truth table or FAIL: probability}: the tree of its coins walked by
    replay (level uniform in 0..d, each tournament label a fair coin)."""
    law = {}
    for level in range(d + 1):
        stack = [((), 1.0 / (d + 1))]
        while stack:
            prefix, p = stack.pop()
            try:
                h = _g(soa, xs, ys, d, n, N, None, level, _Coins(prefix=prefix))
            except _NeedCoin:
                stack += [(prefix + (1,), p / 2), (prefix + (-1,), p / 2)]
                continue
            law[h] = law.get(h, 0.0) + p
    return law


def _examples(data, start, stop):
    """Positions [start, stop) of the sample, dense or sparse form, as two lists."""
    if "fill_x" not in data:
        return (np.asarray(data["x"])[start:stop].astype(int).tolist(),
                np.asarray(data["y"])[start:stop].astype(int).tolist())
    fx, fy = np.atleast_1d(np.asarray(data["fill_x"])), np.atleast_1d(np.asarray(data["fill_y"]))
    j = np.arange(start, stop)
    x, y = fx[j % fx.size].astype(int), fy[j % fy.size].astype(int)
    for p, xv, yv in zip(np.asarray(data["idx"], dtype=float).astype(int), np.asarray(data["x"]),
                         np.asarray(data["y"])):
        if start <= p < stop:
            x[p - start], y[p - start] = int(xv), int(yv)
    return x.tolist(), y.tolist()


def _sizes(d, alpha, c):
    n = math.ceil(2 ** (d + 3) / alpha)
    N = math.floor(c * 4 ** (d + 1) * n)
    return n, N, N + n


def _m(data, rng, epsilon, delta, alpha, d, eta, c, k, n_prime, generic_divisor=2.0, noise=True):
    soa = _SOA(data["H"])
    n, N, m = _sizes(d, alpha, c)
    outs = []
    for i in range(k):
        xs, ys = _examples(data, i * m, (i + 1) * m)
        outs.append(_g(soa, xs, ys, d, n, N, rng))
    items = sorted(set(outs), key=lambda h: (h == FAIL, h))
    counts = np.array([outs.count(h) for h in items], dtype=float)
    final = _examples(data, k * m, k * m + n_prime)
    return _finish(soa, final, items, counts, rng, epsilon, delta, eta, k, generic_divisor, noise)


def _m_batch(data, size, rng, epsilon, delta, alpha, d, eta, c, k, n_prime, generic_divisor=2.0, noise=True):
    """``size`` runs of M: G's exact law on each distinct batch, the counts of h_1..h_k multinomial over it (G's
    coins are independent across batches and runs), then Hist, pruning and GenericLearner per run."""
    soa = _SOA(data["H"])
    n, N, m = _sizes(d, alpha, c)
    groups = {}
    for i in range(k):
        xs, ys = _examples(data, i * m, (i + 1) * m)
        groups.setdefault((tuple(xs), tuple(ys)), []).append(i)
    laws = [(len(members), _g_law(soa, list(key[0]), list(key[1]), d, n, N)) for key, members in groups.items()]
    items = sorted({h for _, law in laws for h in law}, key=lambda h: (h == FAIL, h))
    counts = np.zeros((size, len(items)))
    for count, law in laws:
        p = np.array([law.get(h, 0.0) for h in items])
        counts += rng.multinomial(count, p / p.sum(), size=size)
    final = _examples(data, k * m, k * m + n_prime)
    return np.stack([_finish(soa, final, items, row, rng, epsilon, delta, eta, k, generic_divisor, noise)
                     for row in counts])


def _finish(soa, final, items, counts, rng, epsilon, delta, eta, k, generic_divisor, noise):
    """Hist at (epsilon/2, delta), pruning, GenericLearner at epsilon/2 on S' = ``final`` (or the default)."""
    tau = 1 + (4 / epsilon) * math.log(1 / delta)
    noisy = counts + (rng.laplace(0.0, 4 / epsilon, size=counts.size) if noise else 0.0)
    kept = [h for h, c_, a in zip(items, noisy, noisy / k) if c_ >= tau and a >= 3 * eta / 4 and h != FAIL]
    if not kept:
        return np.full(soa.X, -1, dtype=np.int8)
    xs, ys = final
    table = np.array(kept, dtype=np.int64)
    errors = (table[:, np.asarray(xs, dtype=int)] != np.asarray(ys)[None, :]).sum(axis=1)
    if not noise:
        return table[int(np.argmin(errors))].astype(np.int8)
    score = -(epsilon / 2) * errors / generic_divisor
    w = np.exp(score - score.max())
    j = int(np.searchsorted(np.cumsum(w), rng.random() * w.sum(), side="right"))
    return table[min(j, len(kept) - 1)].astype(np.int8)


def _learner(**variant):
    def learner(data, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
        return _m(data, rng, epsilon, delta, alpha, d, eta, c, k, n_prime, **variant)

    def batch(data, size, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
        return _m_batch(data, int(size), rng, epsilon, delta, alpha, d, eta, c, k, n_prime, **variant)

    learner.batch = batch
    return learner


learn = _learner()
learn_generic_sensitivity_three = _learner(generic_divisor=6.0)
learn_no_noise = _learner(noise=False)


def learn_constant_target_guess(data, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
    return np.ones(np.asarray(data["H"]).shape[1], dtype=np.int8)


def _constant_batch(data, size, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
    return np.ones((int(size), np.asarray(data["H"]).shape[1]), dtype=np.int8)


learn_constant_target_guess.batch = _constant_batch
