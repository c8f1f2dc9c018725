"""BUG (expected class: claim violated, exit 1). bounded_sum.

Sign-preserving clipping: the implementer clips the MAGNITUDE of each record,
x -> sign(x) * clip(|x|, lower, upper), "so that negative records keep their sign".
For records already in [lower, upper] = [0, 1] nothing changes (and the law on
non-negative data is exactly the spec's), but a negative record x <= -1 becomes -1
instead of lower = 0. The clipped sum then has sensitivity upper + upper = 2 under
replace_one, while the noise is Lap((upper-lower)/epsilon) = Lap(1).
Pair (n = 10): D = [0]*9 + [-5], D' = [0]*9 + [5]: clipped sums -1 and +1, so the
release is -1 + Lap(1) vs 1 + Lap(1): privacy loss 2 > epsilon = 1 (e.g. event
{out > 1}: P_D' = 0.5, P_D = 0.5 e^-2, ratio e^2).
"""
import numpy as np


def _clip(x, lower, upper):
    return np.sign(x) * np.clip(np.abs(x), lower, upper)


def bounded_sum(data, *, rng, epsilon, lower, upper, **_):
    x = np.asarray(data, dtype=float).reshape(-1)
    s = float(np.sum(_clip(x, lower, upper)))
    return float(s + rng.laplace(0.0, (upper - lower) / epsilon))


def _batch(data, n, *, rng, epsilon, lower, upper, **_):
    x = np.asarray(data, dtype=float).reshape(-1)
    s = float(np.sum(_clip(x, lower, upper)))
    return s + rng.laplace(0.0, (upper - lower) / epsilon, size=n)


bounded_sum.batch = _batch
