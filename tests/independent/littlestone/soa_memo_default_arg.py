"""standard_optimal_algorithm, BUG (structural; call-pattern triggered): Ldim memo shared across calls.

Section 3.2 SOA with Definition 8's non-realizable extension (ties predict +1, Ldim(empty) = -1).
The Littlestone dimensions of version spaces are memoised in a dict that is a DEFAULT ARGUMENT of the
helper (so it lives for the whole process, 'the class is public and fixed inside Algorithm G'), keyed by
the tuple of surviving ROW INDICES only, not by the class.  Within one call and across calls on the same
class everything is exact.  After a call on another class H1, a call on H2 reads H1's Ldim values for the
same index tuples, predicts the wrong side, and can exceed the mistake bound Ldim(H2) on a realizable sequence.
TRUTH: H1 = rows (0=-1, 1=+1) 0000 0001 0010 0100 1001 1011 1100 1101 (Ldim 2), H2 = 0000 0011 0101 0110 1001
1010 (Ldim 2), x = [0, 2, 3, 1], y = [-1, -1, -1, -1] (realizable by row 0 of H2).  In a fresh process the call
on H2 makes 2 mistakes (predictions -1, 1, 1, -1); after one call on H1 (same x, y) the call on H2 makes 3
mistakes (predictions 1, 1, 1, -1) > Ldim(H2) = 2: the SOA mistake bound (Section 3.2) is broken, and the
output differs from the spec's deterministic SOA(S) (P-G1).  truth_soa.py reproduces it.
"""
import numpy as np


def _ldim(idx, H, _memo={}):
    if len(idx) == 0:
        return -1
    if len(idx) == 1:
        return 0
    if idx in _memo:
        return _memo[idx]
    best = 0
    for x in range(H.shape[1]):
        a = tuple(i for i in idx if H[i, x] > 0)
        if 0 < len(a) < len(idx):
            b = tuple(i for i in idx if H[i, x] < 0)
            best = max(best, 1 + min(_ldim(a, H), _ldim(b, H)))
    _memo[idx] = best
    return best


def _predictor(V, H):
    h = np.empty(H.shape[1], dtype=np.int64)
    for x in range(H.shape[1]):
        plus = tuple(i for i in V if H[i, x] > 0)
        minus = tuple(i for i in V if H[i, x] < 0)
        h[x] = 1 if _ldim(plus, H) >= _ldim(minus, H) else -1
    return h


def soa(data, *, rng=None, **params):
    H = np.asarray(data["H"])
    xs = [int(v) for v in np.asarray(data["x"]).ravel()]
    ys = [int(v) for v in np.asarray(data["y"]).ravel()]
    V = tuple(range(H.shape[0]))
    h = _predictor(V, H)
    realizable = True
    preds = []
    for x, y in zip(xs, ys):
        preds.append(int(h[x]))
        if realizable:
            V2 = tuple(i for i in V if H[i, x] == y)
            if V2:
                V = V2
                h = _predictor(V, H)
                continue
            realizable = False
        h = h.copy()
        h[x] = y
    mistakes = sum(1 for p, y in zip(preds, ys) if p != y)
    return np.concatenate([h, np.array(preds, dtype=np.int64), np.array([mistakes], dtype=np.int64)])
