"""Private learner M whose GenericLearner scores the candidates on the WHOLE sample (all k*m + n'
positions) instead of its own block S'.

DIFFERS: a record inside batch i now reaches both Hist (eps/2, delta) and GenericLearner (eps/2), so
M is (eps, delta)-DP by basic composition: within the claim, but no longer the (eps/2, delta) of
disjoint blocks (spec notes, P-M9: 'an audit measuring a loss near epsilon points to overlapping
data'); the output law differs.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pl_correct import prepare, run_M


def _everything(k, m, total):
    return 0, total


def learn(data, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
    return run_M(data, rng, epsilon, delta, alpha, d, eta, c, k, n_prime, generic_positions=_everything)


def _batch(data, N, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
    prep = prepare(data, d, alpha, c, k, n_prime)
    return np.stack([run_M(data, rng, epsilon, delta, alpha, d, eta, c, k, n_prime, generic_positions=_everything, prepared=prep)
                     for _ in range(N)])


learn.batch = _batch
