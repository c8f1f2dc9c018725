"""private_prediction_lower_bound_corrected -- VALID VARIANT (instance generator).

The hard instance drawn with a different sampler and spawned generators:
- two child generators are spawned from rng (rng.spawn(2)): one for the points, one for
  the bits;
- the n points are rint(U * d) mod d with U uniform on [0, 1) (round-and-wrap instead of
  floor: point 0 collects [0, 1/(2d)) and [1 - 1/(2d), 1), point k the interval
  [(k - 1/2)/d, (k + 1/2)/d), each of length exactly 1/d);
- the d target bits are the bits of ceil(d/8) uniform random bytes (np.unpackbits, first d).
A class instance with __call__, per call only (no .batch).

TRUTH: X i.i.d. uniform on {0, ..., d-1} (up to the 2^-53 grid of rng.random), b i.i.d.
fair bits independent of X: the spec's law of the hard instance; every statement about
it (instance_bound 0.3579 at d = 400, n = 500, epsilon = 0.1, s = 2) is unchanged.
"""
import numpy as np


class HardInstance:
    def __call__(self, data=None, *, rng, d, n, **_):
        gx, gb = rng.spawn(2)
        u = gx.random(n)
        X = np.rint(u * d).astype(np.int64) % d
        nbytes = (d + 7) // 8
        bits = np.unpackbits(gb.integers(0, 256, size=nbytes, dtype=np.uint8))[:d]
        return np.concatenate([X, bits.astype(np.int64)])


instance = HardInstance()
