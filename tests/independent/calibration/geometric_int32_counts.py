"""Two-sided geometric mechanism on integer counts, the counts held as 32-bit integers."""
import numpy as np


def geometric(data, *, rng, epsilon, sensitivity, **_):
    counts = np.asarray(np.atleast_1d(data), dtype=np.float64).round().astype(np.int32)
    q = np.exp(-epsilon / sensitivity)
    noise = rng.geometric(1.0 - q, size=counts.shape) - rng.geometric(1.0 - q, size=counts.shape)
    return counts.astype(np.int64) + noise
