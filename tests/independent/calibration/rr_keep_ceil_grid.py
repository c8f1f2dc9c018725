"""randomized_response -- BUG (keep probability read from a 0.1-grid table, rounded UP).

What it is: randomized response on one bit. The keep probability e^eps/(1+e^eps) is
"tabulated" at 0.1 resolution and rounded up (math.ceil(keep*10)/10), e.g. so that the
reported bit is "at least as accurate as promised".

TRUTH: at eps = 1 keep = 0.8 instead of 0.731059, so the privacy loss is
ln(0.8/0.2) = ln 4 = 1.3863 > 1 on the neighbouring bits 0 vs 1 (event {output = 0}).
At eps = 0.5: keep 0.7 (vs 0.6225), loss ln(7/3) = 0.847 > 0.5. Exact whenever
e^eps/(1+e^eps) is already a multiple of 0.1 (never in practice).
"""
import math


def rr(data, *, rng, **params):
    eps = float(params["epsilon"])
    keep = math.exp(eps) / (1.0 + math.exp(eps))
    keep = math.ceil(keep * 10.0) / 10.0     # table lookup at 0.1 resolution (BUG: rounds up)
    bit = int(data)
    return bit if rng.random() < keep else 1 - bit
