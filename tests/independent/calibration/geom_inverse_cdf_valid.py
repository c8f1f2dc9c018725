"""geometric_mechanism, VALID VARIANT (closed-form inverse CDF, Python lists/ints, spawned generator).

Each coordinate's noise Z is built from its magnitude W = |Z| and an independent fair sign:
  P[W >= k] = 2 alpha^k/(1 + alpha) for k >= 1 (alpha = exp(-eps/Delta)), so with v uniform on (0, 1]
  W = ceil(L) - 1,  L = log(v (1 + alpha)/2) / log(alpha)   (W >= k  <=>  L > k  <=>  v < 2 alpha^k/(1+alpha)).
Then P[W = 0] = (1 - alpha)/(1 + alpha) and P[Z = +-k] = P[W = k]/2 = (1 - alpha)/(1 + alpha) alpha^k:
exactly Fact GM2's two-sided geometric law, so Fact GM1 (eps-DP) holds with the same loss.
Randomness: one child generator spawned from `rng` per call (rng.spawn(1)[0]); all draws from it.
Arithmetic in Python floats/ints on lists; returned as an int64 array of shape (p,).
TRUTH: same law as the spec: P[Z = 0] = 0.462117, P[Z >= 1] = 0.268941 at eps = Delta = 1 (MC below in REPORT.md).
"""
import math

import numpy as np


def _magnitude(v, alpha):
    L = math.log(v * (1.0 + alpha) / 2.0) / math.log(alpha)
    return max(0, math.ceil(L) - 1)


def geo(data, *, rng, epsilon=1.0, sensitivity=1, p=None):
    child = rng.spawn(1)[0]
    alpha = math.exp(-float(epsilon) / float(sensitivity))
    answers = [int(round(float(a))) for a in np.ravel(data).tolist()]
    out = []
    for a in answers:
        v = 1.0 - float(child.random())          # uniform on (0, 1]
        w = _magnitude(v, alpha)
        if w and child.random() < 0.5:
            w = -w
        out.append(a + w)
    return np.array(out, dtype=np.int64)
