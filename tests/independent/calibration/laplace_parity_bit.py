"""Laplace mechanism whose outputs carry the parity of the input in their last mantissa bit.

The noise is correct; the author then overwrites the lowest bit of every output with the parity of the
(rounded) sum of the input, meant as a 'checksum' for a downstream consumer.

Truth (privacy bug): f = [0] vs f' = [1] (gamma = 1 at the defaults): every output on D has its last
mantissa bit 0 and every output on D' has it 1, so M(D) and M(D') have disjoint supports: infinite loss
against the claimed 1. Each output differs from f + Lap(gamma/eps) by at most one ulp, so no threshold event
on the values tells the two laws apart.
"""
import numpy as np


def laplace(data, *, rng, epsilon, gamma, **_):
    f = np.asarray(data, dtype=float)
    out = f + rng.laplace(0.0, gamma / epsilon, size=f.shape)
    parity = np.uint64(int(np.rint(f.sum())) & 1)
    bits = out.view(np.uint64)
    return ((bits & ~np.uint64(1)) | parity).view(np.float64)
