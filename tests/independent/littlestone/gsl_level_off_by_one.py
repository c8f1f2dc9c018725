"""Algorithm G drawing its level with rng.integers(0, d) (k in {0..d-1}) instead of {0..d}.

DIFFERS: the deepest level k = d is never used (level-0 outputs get weight 1/d instead of 1/(d+1); at
d = 1 G always runs level 0, i.e. it is the SOA on T ~ D^n). Theorem 10's proof needs the level k* <= d
of Lemma 12, so the guarantee is no longer proved; whether it actually fails depends on D.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gsl_correct import Klass, params_G, run_G


def g(data, *, rng, d, alpha, c):
    K = Klass(data["H"])
    xs = np.asarray(data["x"]).reshape(-1).astype(np.int64)
    ys = np.asarray(data["y"]).reshape(-1).astype(np.int64)
    n, N = params_G(d, alpha, c)
    level = int(rng.integers(0, d))
    h = run_G(K, xs, ys, 0, xs.size, rng, d, n, N, level=level)
    return np.zeros(K.nx, dtype=np.int8) if h is None else np.asarray(h, dtype=np.int8)
