"""Soft majority as in the prose of seed 002 Section 3.1: Pr[b] proportional to exp(eps * c_b).

PRIVACY BUG (erratum 002-E1): Pr[1] = logistic(eps*nu); one record moves nu by 2, so the loss tends to
2 eps: on near_centre_tail (nu = -5 -> -3) it is ln(1+e^5) - ln(1+e^3) = 1.958 at eps = 1.
Teachers as in sap_correct (positional blocks, threshold learner).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sap_correct import _nu


def predict(data, *, rng, epsilon, alpha):
    nu, scalar = _nu(data, epsilon, alpha)
    p1 = 1.0 / (1.0 + np.exp(-epsilon * nu))      # exp(eps c_1)/(exp(eps c_0) + exp(eps c_1))
    out = (rng.random(p1.shape) < p1).astype(np.int8)
    return int(out[0]) if scalar else out


def _batch(data, N, *, rng, epsilon, alpha):
    nu, scalar = _nu(data, epsilon, alpha)
    p1 = 1.0 / (1.0 + np.exp(-epsilon * nu))
    out = (rng.random((N, p1.size)) < p1[None, :]).astype(np.int8)
    return out[:, 0] if scalar else out


predict.batch = _batch
