"""Private learner M that, when the pruned list is empty, returns the most frequent h_i (ties to the
smaller id) 'rather than a useless constant' (pitfall P-M6).

PRIVACY BUG: the fallback reads the G outputs without noise. On the spec's
pattern_batch2_label_flip_small_k pair (k = 4, L always empty) the mode moves from t_2 (2-2 tie) to
t_1 when one label flips: the output is t_2 with probability about 1 on D and about 0 on D'
(up to G's randomness): loss far above eps = 1 with delta = 1e-6.
"""
import os
import sys
from collections import Counter

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pl_correct import prepare, run_M, table_id


def _mode(hs, K):
    good = [h for h in hs if h is not None]
    if not good:
        return np.full(K.nx, -1, dtype=np.int8)
    cnt = Counter(table_id(h) for h in good)
    best = max(cnt.values())
    pick = min(i for i, v in cnt.items() if v == best)
    h = next(h for h in good if table_id(h) == pick)
    return np.asarray(h, dtype=np.int8)


def learn(data, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
    return run_M(data, rng, epsilon, delta, alpha, d, eta, c, k, n_prime, empty_fallback=_mode)


def _batch(data, N, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
    prep = prepare(data, d, alpha, c, k, n_prime)
    return np.stack([run_M(data, rng, epsilon, delta, alpha, d, eta, c, k, n_prime, empty_fallback=_mode, prepared=prep)
                     for _ in range(N)])


learn.batch = _batch
