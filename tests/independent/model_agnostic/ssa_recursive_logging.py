"""Sub-sample and aggregate (000 Alg 4, corrected dist*), valid but unusual.

Same law as the spec, written differently: the rows are consumed by a
recursive generator; the mode is found by a stable sort on (-count, label);
dist* = max(0, ceil(gap/2) - 1) via (gap + 1) // 2 - 1; Laplace noise is
log(U1/U2) * scale (the log-ratio of two uniforms is Laplace(1)); the noisy
threshold is stored as w - Lap(lam) (symmetric law); the per-run generator is
a child drawn from rng; progress goes to stderr; returns a list of Python
ints.  The batch returns an int64 array.
"""
import sys

import numpy as np


def _lap(g, scale, size=None):
    u1 = 1.0 - g.random(size)   # in (0, 1]
    u2 = 1.0 - g.random(size)
    return scale * np.log(u1 / u2)


def _mode_dist(row):
    order = sorted(range(len(row)), key=lambda r: (-int(row[r]), r))
    top = int(row[order[0]])
    second = int(row[order[1]]) if len(order) > 1 else 0
    gap = top - second
    return order[0], max(0, (gap + 1) // 2 - 1)


def _answers(rows, g, lam, w, T, state):
    if not rows:
        return
    head, rest = rows[0], rows[1:]
    if state["c"] > T:
        yield -2
        yield from _answers(rest, g, lam, w, T, state)
        return
    mode, dist = _mode_dist(head)
    if dist + float(_lap(g, 2.0 * lam)) > state["w_hat"]:
        yield int(mode)
    else:
        state["c"] += 1
        state["w_hat"] = w - float(_lap(g, lam))
        yield -1
    yield from _answers(rest, g, lam, w, T, state)


class _Subsamp:
    def __call__(self, data, *, rng, epsilon, delta, T, m, beta, **extra):
        lam = float(np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon)
        w = 2.0 * lam * float(np.log(2.0 * m / delta))
        g = np.random.default_rng(int(rng.integers(2**63)))
        rows = [list(r) for r in np.asarray(data).reshape(len(data), -1)]
        state = {"c": 0, "w_hat": w - float(_lap(g, lam))}
        res = list(_answers(rows, g, lam, w, T, state))
        print(f"subsamp: {len(res)} rows, c={state['c']}", file=sys.stderr)
        return res

    def batch(self, data, n, *, rng, epsilon, delta, T, m, beta, **extra):
        ct = np.asarray(data, dtype=np.int64)
        lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
        w = 2.0 * lam * np.log(2.0 * m / delta)
        md = [_mode_dist(r) for r in ct]
        rows = ct.shape[0]
        out = np.full((n, rows), -2, dtype=np.int64)
        c = np.zeros(n, dtype=np.int64)
        w_hat = w - _lap(rng, lam, n)
        for i in range(rows):
            active = c <= T
            rel = md[i][1] + _lap(rng, 2.0 * lam, n) > w_hat
            out[active & rel, i] = md[i][0]
            bot = active & ~rel
            out[bot, i] = -1
            c = c + bot
            w_hat = np.where(bot, w - _lap(rng, lam, n), w_hat)
        return out


subsamp = _Subsamp()
