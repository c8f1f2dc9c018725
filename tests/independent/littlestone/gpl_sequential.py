"""generic_private_learner (seed 003 Lemma 16, GenericLearner): P[h] proportional to
exp(-epsilon * err_S(h) / 2), err_S(h) = #{i : H[h, x_i] != y_i} (counts).

VALID VARIANT (group valid-variant): errors counted with numpy, and the row drawn by SEQUENTIAL
CONDITIONING (chain rule) instead of one inverse-CDF lookup: walk the rows in order and stop at row i
with probability P[i | not any of 0..i-1] = w_i / sum_{j >= i} w_j, computed in log
space from suffix log-sum-exps (no underflow for any error counts). One uniform per row visited.
P[stop at i] = prod_{j<i} (1 - w_j/W_j) * w_i/W_i = w_i / W_0: exactly the spec's softmax law.
Per call only, no batch sampler.

TRUTH: same law as the spec. Exact loss on tight_two_hypotheses at epsilon = 1: errors (10, 1) vs
(11, 0): ln(P_D[0]/P_D'[0]) = 0.9933 < 1 (the spec's 0.993); the author's script, not kept compares the
sampler's frequencies with the softmax on the stress cases.
"""
import math

import numpy as np


def learn(data, *, rng, epsilon):
    H = np.asarray(data["H"], dtype=np.int64)
    x = np.asarray(data["x"], dtype=np.int64).ravel()
    y = np.asarray(data["y"], dtype=np.int64).ravel()
    err = (H[:, x] != y[None, :]).sum(axis=1)
    logw = [-0.5 * epsilon * float(e) for e in err]
    k = len(logw)
    # suffix log-sum-exp: L[i] = log sum_{j >= i} exp(logw[j])
    L = [0.0] * k
    L[k - 1] = logw[k - 1]
    for i in range(k - 2, -1, -1):
        a, b = logw[i], L[i + 1]
        m = max(a, b)
        L[i] = m + math.log(math.exp(a - m) + math.exp(b - m))
    for i in range(k - 1):
        if rng.random() < math.exp(logw[i] - L[i]):
            return i
    return k - 1
