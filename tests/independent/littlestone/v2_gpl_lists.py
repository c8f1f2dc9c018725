"""GenericLearner (Lemma 16) with Python lists and a dict, per call only: err counts per distinct
truth table (dict keyed by the row tuple, so repeated rows share a count), log-sum-exp weights
-epsilon*err/2, inverse-CDF sampling of the row index with one uniform from rng."""
import math

import numpy as np


def gpl(data, *, rng, epsilon, **_unused):
    H = [list(map(int, row)) for row in np.asarray(data["H"]).tolist()]
    xs = [int(v) for v in np.asarray(data["x"]).reshape(-1).tolist()]
    ys = [int(v) for v in np.asarray(data["y"]).reshape(-1).tolist()]
    cache = {}
    errs = []
    for row in H:
        key = tuple(row)
        if key not in cache:
            cache[key] = sum(1 for xi, yi in zip(xs, ys) if row[xi] != yi)
        errs.append(cache[key])
    logits = [-epsilon * e / 2.0 for e in errs]
    top = max(logits)
    ws = [math.exp(l - top) for l in logits]
    total = math.fsum(ws)
    u = rng.random() * total
    acc = 0.0
    for j, wj in enumerate(ws):
        acc += wj
        if u < acc:
            return j
    return max(j for j, wj in enumerate(ws) if wj > 0.0)   # u landed on the rounding slack
