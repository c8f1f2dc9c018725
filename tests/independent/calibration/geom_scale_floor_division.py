"""geometric_mechanism, BUG: integer (floor) division in the noise scale.

The developer treats the integer-valued query's scale as an integer:
scale = sensitivity // epsilon, alpha = exp(-1/scale) (alpha = 0 when scale == 0: no noise).
Correct scale is sensitivity/epsilon.

TRUTH (exact): epsilon = 1, s = 1 (default): 1 // 1 = 1 -> correct law, loss 1 (valid there).
epsilon = 0.5, s = 3, p = 3 (first audit point): 3 // 0.5 = 6.0 -> correct law, loss 0.5.
epsilon = 2 (second audit point, s = 1): 1 // 2 = 0 -> NO NOISE: output = f(D) exactly,
loss = infinity on [0] vs [1].  Any epsilon not dividing s is broken, e.g. epsilon = 0.7:
scale 1 instead of 1.4286, loss 1.0 per unit vs 0.7 claim; epsilon = 1.5: no noise.
So at the spec's default audit points (defaults and first point) the bug is invisible;
it shows at the spec's second audit point epsilon = 2 (full suite only, or --param).
"""
import numpy as np


def geometric(data, *, rng, epsilon, sensitivity, p):
    f = np.rint(np.asarray(data, dtype=float)).astype(np.int64).reshape(-1)
    scale = sensitivity // epsilon
    if scale <= 0:
        return f.copy()
    alpha = np.exp(-1.0 / scale)
    g1 = rng.geometric(1.0 - alpha, size=f.shape).astype(np.int64)
    g2 = rng.geometric(1.0 - alpha, size=f.shape).astype(np.int64)
    return f + (g1 - g2)
