"""A_sparseVec (Algorithm 1), as a callable object; all noise drawn up front.

The T+1 threshold noises and the m query noises are drawn before the loop (they are
independent of the data) and consumed in order; the output is a plain Python list.
"""
import math
import sys


class SparseVector:
    def __call__(self, data, *, rng, epsilon, delta, T, w, m, beta=None, **unused):
        import numpy as np  # lazy
        q = [float(v) for v in np.asarray(data, dtype=float).reshape(-1)]
        lam = math.sqrt(32 * T * math.log(1 / delta)) / epsilon
        thr = w + rng.laplace(0.0, lam, size=int(T) + 1)
        qn = rng.laplace(0.0, 2 * lam, size=len(q))
        out, c = [], 0
        for i, v in enumerate(q):
            if c > T:
                out.append(-1)
                continue
            if v + qn[i] > thr[c]:
                out.append(1)
            else:
                out.append(0)
                c += 1
        return out

    def batch(self, data, N, *, rng, epsilon, delta, T, w, m, beta=None, **unused):
        import numpy as np
        q = np.asarray(data, dtype=float).reshape(-1)
        lam = math.sqrt(32 * T * math.log(1 / delta)) / epsilon
        thr = w + rng.laplace(0.0, lam, size=(N, int(T) + 1))
        qn = q + rng.laplace(0.0, 2 * lam, size=(N, q.size))
        out = np.full((N, q.size), -1, dtype=np.int8)
        c = np.zeros(N, dtype=np.int64)
        rows = np.arange(N)
        for i in range(q.size):
            act = c <= T
            cur = thr[rows, np.minimum(c, int(T))]
            top = act & (qn[:, i] > cur)
            bot = act & ~top
            out[top, i] = 1
            out[bot, i] = 0
            c[bot] += 1
        return out


sparse_vector = SparseVector()
print("svt_upfront_noise_class loaded", file=sys.stderr)
