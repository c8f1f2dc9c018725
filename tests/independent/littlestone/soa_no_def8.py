"""SOA that ignores Definition 8: once the sequence stops being realizable (empty version space) it
just keeps its last predictor and never updates again.

UTILITY BUG (structural): on a non-realizable prefix S followed by a realizable T, SOA(S o T) need
not agree with T (Definition 8 / Observation 11(2) fails); the realizable behaviour is unchanged.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from soa_correct import _Ldim, _predictor


def soa(data, **_):
    H = np.asarray(data["H"]).astype(np.int8)
    H = np.unique(H, axis=0) if H.shape[0] else H
    xs = np.asarray(data["x"], dtype=np.int64).reshape(-1)
    ys = np.asarray(data["y"], dtype=np.int64).reshape(-1)
    L = _Ldim(H)
    mask = L.full
    h = _predictor(L, mask, 1)
    stuck = False
    preds = np.empty(xs.size, dtype=np.int64)
    mistakes = 0
    for t, (x, y) in enumerate(zip(xs, ys)):
        preds[t] = h[x]
        mistakes += int(preds[t] != y)
        if stuck:
            continue
        side = mask & L.plus[x] if y == 1 else mask & ~L.plus[x] & L.full
        if side:
            if side != mask:
                mask = side
                h = _predictor(L, mask, 1)
        else:
            stuck = True
    return np.concatenate([h, preds, [mistakes]]).astype(np.int64)
