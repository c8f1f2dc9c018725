"""Report noisy max -- PRIVACY BUG: the running maximum is seeded with the first answer WITHOUT its noise.

A one-pass loop keeps the best noisy answer so far; it starts from best = q_0 (the raw answer) instead of
q_0 + Lap(2/eps), then compares q_i + Lap(2/eps) for i >= 1 with `>`.  Candidate 0 carries no noise, so
P[output 0] = prod_{i >= 1} F(q_0 - q_i), F the Lap(2/eps) CDF, and every other answer moving against it
multiplies that probability by up to e^(2/b) = e^eps: the loss grows to (k - 1) epsilon.  One call at a
time, no .batch (the loop a user writes).

TRUTH (closed form): k = 5, eps = 1 (b = 2), event {output = 0}:
  - the spec's stress pair rare_output [0,3,3,3,3] vs [1,2,2,2,2]: P = F(-3)^4 = (e^-1.5/2)^4 = 1.550e-4 vs
    F(-1)^4 = (e^-0.5/2)^4 = 8.458e-3: loss exactly 4 (= (k-1) eps) against 1 (spec's mechanism 0.996);
  - one_below_rest_above [1,1,1,1,1] vs [0,2,2,2,2]: (1/2)^4 = 0.0625 vs (e^-1/2)^4 = 1.146e-3: loss 4.000.
[1.5,1,1,1,1] vs [0.5,2,2,2,2] (a searched pair): 0.139 vs 3.112e-3, loss 3.799.
At eps = 0.5 (b = 4): rare_output (F(-1)/F(-3))^4 with F(-x) = e^(-x/4)/2: loss 2.000 against 0.5.
(the author's script, not kept)
"""
import numpy as np


def rnm(data, *, rng, epsilon, **_):
    q = np.asarray(data, dtype=float).ravel()
    scale = 2.0 / epsilon
    best_index, best_value = 0, q[0]
    for i in range(1, q.shape[0]):
        v = q[i] + rng.laplace(0.0, scale)
        if v > best_value:
            best_index, best_value = i, v
    return best_index
