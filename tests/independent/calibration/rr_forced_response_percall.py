"""Randomized response (Warner 1965; Dwork-Roth Section 3.2) in the "forced response" form,
per call only (no batch), with a lazy import and extra unused keyword arguments.

With probability q = (e^eps - 1)/(e^eps + 1) report the true bit, otherwise report a fair
coin. P[report = bit] = q + (1 - q)/2 = (1 + q)/2 = e^eps/(1 + e^eps): exactly the spec's
keep probability, so the law is the spec's. Output: numpy.int64 scalar in {0, 1}
(the same type on every call).
"""


def rr(data, *, rng, epsilon, verbose=False, **unused):
    import math  # lazy import

    import numpy as np

    bit = int(round(float(np.asarray(data).reshape(-1)[0])))
    e = math.exp(epsilon)
    q = (e - 1.0) / (e + 1.0) if epsilon < 700 else 1.0
    if rng.random() < q:
        out = bit
    else:
        out = int(rng.integers(0, 2))
    if verbose:
        print("rr", bit, out)
    return np.int64(out)
