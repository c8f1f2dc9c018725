"""Implementations written from the paper (seed 003) by hand, not from the reference: what a user
would bring to ``dptestbed check``. They are loaded by file path, as a user's file would be.

Stable histograms (Lemma 15 states only "an (epsilon, delta)-DP Hist exists" with O(.) constants;
the paper cites KKMN09 and BNS16b; each variant below is a reading of those): noise on the counts
of the items that occur, release above a threshold tau, estimates a_x = c~_x / n.
* ``hist_textbook``: tau = 1 + (2/epsilon) ln(2/delta) (the textbook threshold; a count-1 item is
  released with probability delta/4: (epsilon, delta)-DP);
* ``hist_without_one``: tau = (2/epsilon) ln(1/delta) (no "+1"; a count-1 item is released with
  probability (delta/2) e^(epsilon/2) <= delta for epsilon <= 2 ln 2: still (epsilon, delta)-DP);
* ``hist_laplace_one_over_epsilon``: noise Lap(1/epsilon), the add/remove scale, under
  replace-one (two counts move: the count-shift pair's loss is 2 epsilon: not (epsilon, delta)-DP).

``soa_ties_to_minus_one``: the SOA box (l.261) with Definition 8 (l.266-274), ties of
argmax_b Ldim(H_t^b(x)) broken towards -1 (the paper fixes no tie rule), Ldim(empty) = -1.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

# --------------------------------------------------------------------------- stable histograms


def _histogram(data, size, rng, epsilon, n, scale, tau):
    items = np.asarray(data, dtype=np.int64).reshape(-1)
    ids, counts = np.unique(items, return_counts=True)               # only items that occur
    noisy = counts[None, :] + rng.laplace(0.0, scale, size=(size, ids.size))
    out = np.zeros((size, n, 2))
    out[:, :, 0] = -1
    for run in range(size):
        keep = noisy[run] >= tau
        out[run, : keep.sum(), 0] = ids[keep]                        # ascending ids (np.unique)
        out[run, : keep.sum(), 1] = np.minimum(1.0, noisy[run, keep] / n)
    return out


def _variant(scale, tau):
    def batch(data, size, *, rng, epsilon, delta, n, **_):
        return _histogram(data, size, rng, epsilon, n, scale(epsilon), tau(epsilon, delta))

    def hist(data, *, rng, epsilon, delta, n, **_):
        return batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, n=n)[0]

    hist.batch = batch
    return hist


hist_textbook = _variant(lambda e: 2 / e, lambda e, d: 1 + (2 / e) * math.log(2 / d))
hist_without_one = _variant(lambda e: 2 / e, lambda e, d: (2 / e) * math.log(1 / d))
hist_laplace_one_over_epsilon = _variant(lambda e: 1 / e, lambda e, d: 1 + (2 / e) * math.log(1 / d))


# --------------------------------------------------------------------------- SOA, ties to -1


@cache
def _ldim(rows: frozenset) -> int:
    """Ldim by its definition: the deepest complete mistake tree shattered (Ldim(empty) = -1)."""
    if not rows:
        return -1
    best = 0
    for x in range(len(next(iter(rows)))):
        plus = frozenset(r for r in rows if r[x] == 1)
        minus = rows - plus
        if plus and minus:
            best = max(best, 1 + min(_ldim(plus), _ldim(minus)))
    return best


def soa_ties_to_minus_one(data, *, rng=None):
    H = [tuple(int(v) for v in row) for row in np.asarray(data["H"])]
    xs = [int(v) for v in np.asarray(data["x"]).reshape(-1)]
    ys = [int(v) for v in np.asarray(data["y"]).reshape(-1)]
    X = len(H[0])
    version = frozenset(H)

    def predictor(V):
        return [1 if _ldim(frozenset(h for h in V if h[x] == 1)) > _ldim(frozenset(h for h in V if h[x] == -1))
                else -1 for x in range(X)]

    h, predictions = predictor(version), []
    for x, y in zip(xs, ys):
        predictions.append(h[x])
        if version is not None:
            version = frozenset(r for r in version if r[x] == y)
            if not version:
                version = None                                        # not realizable any more
        if version is not None:
            h = predictor(version)                                    # the usual SOA update
        else:
            h = list(h)
            h[x] = y                                                  # Definition 8: patch at x_{t+1}
    mistakes = sum(p != y for p, y in zip(predictions, ys))
    return np.array(h + predictions + [mistakes], dtype=np.int64)
