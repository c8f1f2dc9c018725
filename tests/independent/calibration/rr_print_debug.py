"""Randomized response with leftover debugging: every call prints a line to stdout and issues a
warnings.warn (UserWarning), as code under development does. Keep the bit iff rng.random() < e^eps/(1+e^eps).
Output Python int; batch int8 (N,) (also prints once). Law: the spec's; the printing is no part of the output."""
import math
import sys
import warnings

import numpy as np


def rr(data, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0])
    keep = math.exp(epsilon) / (1.0 + math.exp(epsilon))
    print(f"rr: epsilon={epsilon} keep={keep:.4f}")
    warnings.warn("rr: debug build")
    sys.stderr.write("rr called\n")
    return bit if rng.random() < keep else 1 - bit


def _batch(data, N, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0])
    keep = math.exp(epsilon) / (1.0 + math.exp(epsilon))
    print(f"rr batch: N={N}")
    return np.where(rng.random(N) < keep, bit, 1 - bit).astype(np.int8)


rr.batch = _batch
