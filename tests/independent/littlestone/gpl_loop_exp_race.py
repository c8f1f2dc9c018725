"""GenericLearner (seed 003 Lemma 16): the exponential mechanism over the rows of H with weights
exp(-epsilon err_S(h)/2), err_S(h) = number of mistakes on the sample. Written differently: the error
counts by a pure-Python double loop (slow, about a millisecond per call at n = 3300), the selection by an
exponential race in log space, argmin_h (ln E_h + epsilon err_S(h)/2) with E_h i.i.d. rng.exponential(1.0)
(P[argmin_h E_h/w_h = g] = w_g / sum w). Ties have probability 0; np.argmin takes the first. Returns
a Python int. Unused keywords (alpha, beta, n, H_size) via **_. Batch: the same race vectorised, error
counts by numpy. Law: the spec's."""
import math

import numpy as np


def _errors_loop(data):
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
    return errs


def learn(data, *, rng, epsilon, **_):
    errs = _errors_loop(data)
    e = rng.exponential(1.0, size=len(errs))
    keys = [math.log(ei) + 0.5 * epsilon * err if ei > 0 else -math.inf for ei, err in zip(e, errs)]
    return int(np.argmin(keys))


def _batch(data, N, *, rng, epsilon, **_):
    H = np.asarray(data["H"]).astype(np.int64)
    x = np.asarray(data["x"]).reshape(-1).astype(np.int64)
    y = np.asarray(data["y"]).reshape(-1).astype(np.int64)
    errs = (H[:, x] != y[None, :]).sum(axis=1).astype(np.float64)
    e = rng.exponential(1.0, size=(N, errs.size))
    with np.errstate(divide="ignore"):
        keys = np.log(e) + 0.5 * epsilon * errs[None, :]
    return np.argmin(keys, axis=1).astype(np.int64)


learn.batch = _batch
