"""A per-call mechanism at about 100 us a release, for timing slow library code: diffprivlib's Laplace,
one ``randomise`` call per coordinate, padded by a busy wait to 100 us a call, and no ``batch`` function
(the auditor calls it once per sample). OpenDP's per-call path costs about as much
(``opendp_mechanisms.py:randomized_response_per_call``)::

    dptestbed audit laplace_mechanism --impl examples/libraries/per_call.py:laplace_100us --randomness own \\
        --jobs 2 --samples 100000 --param epsilon=1 --param gamma=1 --param p=1
"""

import time

import numpy as np
from diffprivlib.mechanisms import Laplace

SECONDS_PER_CALL = 100e-6


def laplace_100us(data, *, rng, epsilon, gamma):
    end = time.perf_counter() + SECONDS_PER_CALL
    out = np.array([Laplace(epsilon=epsilon, sensitivity=gamma).randomise(x) for x in np.asarray(data, float).tolist()])
    while time.perf_counter() < end:  # a busy wait: sleeping overshoots by tens of microseconds
        pass
    return out
