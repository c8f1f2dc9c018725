"""littlestone_dimension -- VALID VARIANT.

Different data structure and pruning from the textbook recursion:
- the class is kept as a Python int bitmask over the distinct rows (bit j = row j in V);
- the columns are reduced to one representative per split *up to complement* (x and x'
  with h(x) = -h(x') for all h induce the same split with the two sides swapped, and
  min(.,.) is symmetric), constant columns are dropped;
- memoisation on the bitmask (functools.lru_cache);
- the search over split points stops as soon as the value reaches floor(log2 |V|), which
  is an upper bound on Ldim(V) (each level halves), and split points whose smaller side
  cannot beat the current best are skipped (Ldim(W) <= floor(log2 |W|)).
Returns a Python int: -1 for the empty class, 0 for one function.

TRUTH: identical values to the recursion of the spec for every finite class (the two
reductions and both prunings are exact).
"""
import functools

import numpy as np


def ldim(data, *, rng=None, **_):
    H = np.asarray(data)
    if H.ndim != 2 or H.shape[0] == 0:
        return -1
    rows = np.unique(H.astype(np.int8), axis=0)
    nH = rows.shape[0]
    if nH == 1:
        return 0
    # column masks: bit j set iff rows[j, x] == +1
    weights = [1 << j for j in range(nH)]
    full = (1 << nH) - 1
    masks = set()
    for x in range(rows.shape[1]):
        m = 0
        for j in range(nH):
            if rows[j, x] > 0:
                m |= weights[j]
        if m == 0 or m == full:
            continue
        masks.add(min(m, full ^ m))  # one representative up to complement
    masks = sorted(masks)

    @functools.lru_cache(maxsize=None)  # noqa: UP033 (the author's code, kept as written)
    def rec(V):
        size = bin(V).count("1")
        if size == 0:
            return -1
        bound = size.bit_length() - 1  # floor(log2 size)
        best = 0
        for m in masks:
            a = V & m
            if a == 0 or a == V:
                continue
            b = V ^ a
            small = min(bin(a).count("1"), bin(b).count("1"))
            if small.bit_length() - 1 + 1 <= best:
                continue
            val = 1 + min(rec(a), rec(b))
            if val > best:
                best = val
                if best >= bound:
                    break
        return best

    return int(rec(full))
