"""Randomized response, per call only (no batch), with a child generator spawned
from rng, a lazy import, a log line on stderr and a numpy scalar output.
Reports the bit with probability e^eps/(1+e^eps) = 1/(1+e^-eps) (same number, logistic form)."""
import sys

_calls = 0


def rr(data, *, rng, epsilon, verbose=False, **_):
    import numpy as np  # lazy import
    global _calls
    _calls += 1
    if _calls == 1:
        print("rr_spawn: first call", file=sys.stderr)
    bit = int(np.asarray(data).ravel()[0])
    child = rng.spawn(1)[0]
    keep = 1.0 / (1.0 + np.exp(-epsilon))
    u = child.random()
    return np.int64(bit if u < keep else 1 - bit)
