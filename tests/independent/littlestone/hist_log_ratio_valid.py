"""stable_histogram, VALID VARIANT (another Laplace sampler, noise dealt in a random order, dict bookkeeping).

Hist of Lemma 15 (note 003 A8): items that occur get c~ = c + Lap(2/eps), released iff c~ >= tau =
1 + (2/eps) ln(1/delta), estimate min(1, c~/n), rows in ascending id order, padding (-1, 0).
Differences from the textbook code, none changing the law:
  * Lap(b) is drawn as b*log(U1/U2) with U1, U2 i.i.d. uniform on (0, 1]: log U1 - log U2 = E2 - E1 with
    E1, E2 i.i.d. Exp(1), which is Laplace(0, 1);
  * the noises are dealt to the distinct ids in a uniformly random order (rng.permutation): still i.i.d.;
  * counts kept in a dict {id: count} of Python ints; the release test is written noise >= tau - c.
TRUTH: same law as the spec: a count-1 item is released w.p. delta/2 = 5e-7; a count-c item w.p.
1 - exp(-(c - tau)/b)/2 for c >= tau (MC in REPORT.md).
"""
import math

import numpy as np


def hist(data, *, rng, epsilon=1.0, delta=1e-6, eta=0.1, beta=0.1, n=None):
    items = [int(v) for v in np.asarray(data).ravel().tolist()]
    size = len(items)
    counts = {}
    for it in items:
        counts[it] = counts.get(it, 0) + 1
    ids = list(counts)
    b = 2.0 / epsilon
    tau = 1.0 + b * math.log(1.0 / delta)
    order = rng.permutation(len(ids)).tolist()
    u1 = 1.0 - rng.random(len(ids))
    u2 = 1.0 - rng.random(len(ids))
    noise = (b * np.log(u1 / u2)).tolist()
    released = []
    for slot, j in enumerate(order):
        x = ids[j]
        c = counts[x]
        z = noise[slot]
        if z >= tau - c:
            released.append((x, min(1.0, (c + z) / size)))
    released.sort()
    out = np.zeros((size, 2), dtype=np.float64)
    out[:, 0] = -1.0
    for r, (x, a) in enumerate(released):
        out[r, 0] = x
        out[r, 1] = a
    return out
