import numpy as np


def _votes(data, epsilon, alpha):
    """Return (list of (c0, c1)), scalar_query flag.  Votes form or dataset form."""
    if isinstance(data, dict):
        X = np.asarray(data["X"], dtype=float); y = np.asarray(data["y"]).astype(int)
        xq = np.asarray(data["x"], dtype=float)
        r = int(np.ceil(6 * np.log(4 / alpha) / epsilon))
        m = X.size // r
        ts = []
        for j in range(r):
            Xb, yb = X[j * m:(j + 1) * m], y[j * m:(j + 1) * m]
            pos = Xb[yb == 1]
            ts.append(pos.min() if pos.size else np.inf)
        ts = np.asarray(ts)
        qs = xq.reshape(-1)
        c1s = (qs[:, None] >= ts[None, :]).sum(axis=1)
        return [(r - int(c), int(c)) for c in c1s], xq.ndim == 0
    d = np.asarray(data).reshape(-1)
    return [(int(d[0]), int(d[1]))], True


def _one(c0, c1, epsilon, u):
    x = epsilon * (c1 - c0) / 2.0
    if x > 10.0:        # logistic saturated: treat the majority as certain
        return 1
    if x < -10.0:
        return 0
    return int(u < 1.0 / (1.0 + np.exp(-x)))

def soft_majority(data, *, rng, epsilon, alpha=0.1, **kw):
    votes, scalar = _votes(data, epsilon, alpha)
    res = [_one(c0, c1, epsilon, rng.random()) for c0, c1 in votes]
    return res[0] if scalar else np.asarray(res, dtype=np.int8)

def _batch(data, n, *, rng, epsilon, alpha=0.1, **kw):
    votes, scalar = _votes(data, epsilon, alpha)
    cols = []
    for c0, c1 in votes:
        u = rng.random(n)
        x = epsilon * (c1 - c0) / 2.0
        if x > 10.0:
            cols.append(np.ones(n, dtype=np.int8))
        elif x < -10.0:
            cols.append(np.zeros(n, dtype=np.int8))
        else:
            cols.append((u < 1.0 / (1.0 + np.exp(-x))).astype(np.int8))
    out = np.stack(cols, axis=1)
    return out[:, 0] if scalar else out

soft_majority.batch = _batch
