"""Sec. 4.1 classification queries (A_subSamp with the printed dist on vote rows).
Laplace by inverse CDF from uniforms of a child generator (rng.spawn); per-call
only; returns a tuple of python ints; a warning on stderr; extra kwargs ignored."""
import math
import warnings


def _lap(g, b):
    u = g.random() - 0.5                      # in [-0.5, 0.5)
    while u == -0.5:                          # probability-0-ish edge, redraw
        u = g.random() - 0.5
    return -b * math.copysign(1.0, u) * math.log1p(-2.0 * abs(u))


def private_classification_queries(data, *, rng, epsilon, delta, T, m, beta, alpha=None,
                                   gamma=None, V=None, xi=None, **unused):
    g = rng.spawn(1)[0]
    rows = [[int(v) for v in r] for r in (data.tolist() if hasattr(data, "tolist") else data)]
    if rows and not isinstance(rows[0], list):
        rows = [rows]
    lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * math.log(2.0 * m / delta)
    if len(rows) > m:
        warnings.warn("more rows than the declared m", stacklevel=2)
    out = []
    c = 0
    w_hat = w + _lap(g, lam)
    for r in rows:
        if c > T:
            out.append(-2)
            continue
        mode = max(range(len(r)), key=lambda j: (r[j], -j))     # ties -> smallest label
        runner = max((r[j] for j in range(len(r)) if j != mode), default=0)
        dist = max(0, r[mode] - runner - 1)
        if dist + _lap(g, 2.0 * lam) > w_hat:
            out.append(mode)
        else:
            out.append(-1)
            c += 1
            w_hat = w + _lap(g, lam)
    return tuple(out)
