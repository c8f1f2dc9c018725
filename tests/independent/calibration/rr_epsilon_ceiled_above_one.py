"""BUG: randomized response whose keep probability is looked up from a table of integer epsilons
(ceil(epsilon)) whenever epsilon > 1; below 1 it uses the exact e^eps/(1+e^eps).
Why it breaks privacy: for non-integer epsilon > 1 the keep probability is that of ceil(epsilon), so the
privacy loss is ceil(epsilon) > epsilon. Concrete: epsilon = 1.5, bit 0 vs 1, output 0:
keep = e^2/(1+e^2) = 0.8808, loss ln(0.8808/0.1192) = 2.0 > 1.5; epsilon = 2.5 -> loss 3.
At epsilon = 1, 4, 8, 16 (integers) and every epsilon <= 1 it is exactly the spec's mechanism.
Expected class: claim violated (truth). (Only at epsilon in non-integer (1, inf).)
"""
import math

import numpy as np


def _keep(epsilon):
    e = float(epsilon)
    if e > 1.0:
        e = float(math.ceil(e))  # "table" of integer epsilons
    return math.exp(e) / (1.0 + math.exp(e)) if e < 700 else 1.0


def rr(data, *, rng, epsilon):
    bit = int(round(float(np.asarray(data).reshape(-1)[0]))) if np.ndim(data) else int(round(float(data)))
    keep = rng.random() < _keep(epsilon)
    return int(bit if keep else 1 - bit)


def rr_batch(data, n, *, rng, epsilon):
    bit = int(round(float(np.asarray(data).reshape(-1)[0])))
    keep = rng.random(n) < _keep(epsilon)
    return np.where(keep, bit, 1 - bit).astype(np.int8)


rr.batch = rr_batch
