import numpy as np


# BUG (leaks one training label verbatim): the mechanism samples over the DISTINCT truth tables
# (weighted by multiplicity, which by itself is the spec's law over tables), and then has to return
# one row index of the chosen table; among duplicate rows it picks the last one if the first
# training label is +1 and the first one otherwise. The choice among identical rows encodes y_1.
def gpl(data, *, rng, epsilon):
    H = np.asarray(data["H"], dtype=np.int64)
    x = np.asarray(data["x"], dtype=np.int64)
    y = np.asarray(data["y"], dtype=np.int64)
    uniq, inv, mult = np.unique(H, axis=0, return_inverse=True, return_counts=True)
    inv = np.asarray(inv).reshape(-1)
    err = (uniq[:, x] != y[None, :]).sum(axis=1).astype(float)
    logits = np.log(mult) - epsilon * err / 2.0
    p = np.exp(logits - logits.max()); p /= p.sum()
    u = int(rng.choice(len(p), p=p))
    rows = np.flatnonzero(inv == u)
    return int(rows[-1] if y[0] == 1 else rows[0])
