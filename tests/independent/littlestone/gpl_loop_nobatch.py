"""GenericLearner (seed 003 Lemma 16), slow per-call code with NO batch sampler: the error counts
err_S(h) by a pure-Python double loop (about 2 ms per call at n = 3300, |H| = 4), the selection by an
exponential race in log space, argmin_h (ln E_h + epsilon err_S(h)/2), E_h i.i.d. rng.exponential(1.0)
(P[argmin_h E_h/w_h = g] = w_g/sum w with w_h = exp(-epsilon err_S(h)/2)). Returns a Python int.
Unused keywords via **_. Law: the spec's."""
import math

import numpy as np


def learn(data, *, rng, epsilon, **_):
    H = np.asarray(data["H"]).tolist()
    x = [int(v) for v in np.ravel(data["x"])]
    y = [int(v) for v in np.ravel(data["y"])]
    errs = []
    for row in H:
        e = 0
        for xi, yi in zip(x, y):
            if row[xi] != yi:
                e += 1
        errs.append(e)
    ex = rng.exponential(1.0, size=len(errs))
    keys = [math.log(ei) + 0.5 * epsilon * err if ei > 0 else -math.inf for ei, err in zip(ex, errs)]
    return int(np.argmin(keys))
