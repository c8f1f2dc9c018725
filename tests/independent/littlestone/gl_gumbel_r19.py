"""VALID (generic_private_learner): GenericLearner by Gumbel-max, per call only (no .batch).

What it is: err_S(h) counted from the per-point label counts (err(h) = sum_x [h(x)=+1] neg(x) + [h(x)=-1] pos(x)),
then argmax_h (-(eps/2) err(h) + G_h) with G_h i.i.d. standard Gumbel from rng.  Gumbel-max samples exactly
Pr[h] proportional to exp(-eps err(h)/2) (log-space, no underflow, no normaliser).
TRUTH: equal in law to the spec; privacy loss = the spec's (0.993 at eps = 1 on tight_two_hypotheses, <= eps).
Expected: pass (exit 0).
"""
import numpy as np


def _errors(data):
    H = np.asarray(data["H"], dtype=np.int64)
    H = H.reshape(H.shape[0], -1)
    x = np.asarray(data["x"], dtype=np.int64).ravel()
    y = np.asarray(data["y"], dtype=np.int64).ravel()
    nx = H.shape[1]
    pos = np.bincount(x[y == 1], minlength=nx).astype(np.int64)
    neg = np.bincount(x[y != 1], minlength=nx).astype(np.int64)
    return (H == 1).astype(np.int64) @ neg + (H != 1).astype(np.int64) @ pos


def gl_gumbel(data, *, rng, epsilon, **params):
    err = _errors(data).astype(np.float64)
    z = rng.gumbel(size=err.shape[0])
    return int(np.argmax(-0.5 * epsilon * err + z))
