"""private_prediction_lower_bound_corrected -- VALID VARIANT (another sampler).

What it is: the hard instance (X = [d], b uniform in {0,1}^d, S ~ (U[d], f_b)^n), drawn as:
  * the bits b from the binary expansion of rng.integers(0, 2**32) words (32 bits per draw,
    unpacked with np.unpackbits, little-endian, first d bits): i.i.d. fair bits;
  * the counts t = (t_0..t_{d-1}) ~ Multinomial(n, (1/d,...,1/d)), then the multiset
    {i repeated t_i times} put in a uniformly random order (rng.permutation).
  The sequence so obtained is i.i.d. uniform on [d]: P[X = x] = P[t = counts(x)] /
  (number of orderings of counts(x)) = n!/(prod t_i!) d^-n / (n!/prod t_i!) = d^-n.
  b is drawn first, independent of X.  Per-call only.
TRUTH: exactly the spec's law of the int64 array (X, b) of shape (n + d,).
"""
import numpy as np


def instance(data=None, *, rng, d=400, n=500, **params):
    d = int(d); n = int(n)
    words = rng.integers(0, 2**32, size=(d + 31) // 32, dtype=np.uint64).astype(np.uint32)
    bits = np.unpackbits(words.view(np.uint8), bitorder="little")[:d].astype(np.int64)
    counts = rng.multinomial(n, np.full(d, 1.0 / d))
    X = np.repeat(np.arange(d, dtype=np.int64), counts)
    X = X[rng.permutation(n)]
    return np.concatenate([X, bits]).astype(np.int64)
