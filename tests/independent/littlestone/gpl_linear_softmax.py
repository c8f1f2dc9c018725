"""GenericLearner with a linear-space float64 softmax, w = exp(-eps*err/2), and 'if every weight
underflows, pick uniformly' (the fallback the spec forbids).

PRIVACY BUG on long samples: at eps = 1 the weights underflow for err > 1490. Pair: H = {[+1,+1],
[-1,+1]} on X = {0, 1}; 1486 examples (0,-1), 1490 examples (0,+1) and one (1,+1): errors (1486, 1490)
on D; D' replaces (1,+1) by (1,-1), errors (1487, 1491): P(h2) = 0.2 on D, exactly 0 on D' (e^-745.5
underflows): infinite loss. When all errors exceed 1490 the output is uniform whatever the data
(the spec: never 'uniform if all weights underflow'). Same law as the spec on small samples.
"""
import numpy as np


def _p(data, epsilon):
    H = np.asarray(data["H"]).astype(np.int64)
    x = np.asarray(data["x"]).reshape(-1).astype(np.int64)
    y = np.asarray(data["y"]).reshape(-1).astype(np.int64)
    err = (H[:, x] != y[None, :]).sum(axis=1)
    w = np.exp(-epsilon * err / 2.0)
    tot = w.sum()
    if tot == 0.0:
        return np.full(w.size, 1.0 / w.size)
    return w / tot


def learn(data, *, rng, epsilon):
    p = _p(data, epsilon)
    return int(rng.choice(p.size, p=p))


def _batch(data, N, *, rng, epsilon):
    p = _p(data, epsilon)
    return rng.choice(p.size, size=N, p=p).astype(np.int64)


learn.batch = _batch
