"""averaged_learner_corrected -- BUG (duplicates in the data collapse).

What it is: A'(S', x) = average of the r block predictions (paper 002, Lemma 2).
The programmer "removes repeated teachers" with np.unique before averaging
(thinking identical predictions come from duplicated blocks), so the output is
the mean of the DISTINCT block predictions.

TRUTH: Lemma 2 (stability) claims rate gamma/r = 0.25 at gamma = 1, r = 4.
Neighbouring block vectors (one entry moved by <= gamma = 1):
    (0, 0, 0, 0) -> 0.0     and     (0, 0, 0, 1) -> mean(0, 1) = 0.5
so the output moves by 0.5 = 2 * gamma/r (stability rate >= 0.5, claim 0.25).
In general all-equal vs one entry moved by g gives |mean(a, a+g) - a| = g/2, i.e.
r/2 times the claimed rate. Without repeated entries the output is exact
((0,1,2,3) -> 1.5, (0,1,2,4) -> 1.75: moves by gamma/r = 0.25).
Deterministic: the own check is exact evaluation of these vectors (REPORT.md).
"""
import numpy as np


def averaged(data, *, rng=None, **params):
    v = np.asarray(data, dtype=np.float64).ravel()
    distinct = np.unique(v)          # BUG: duplicates dropped
    return float(distinct.mean())


def _batch(data, n, *, rng=None, **params):
    return np.full(n, averaged(data, rng=rng, **params), dtype=np.float64)


averaged.batch = _batch
