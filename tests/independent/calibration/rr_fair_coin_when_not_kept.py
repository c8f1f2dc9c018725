"""randomized_response, BUG: 'otherwise answer with a fair coin' instead of 'otherwise lie'.

The developer mixes the two textbook formulations of randomized response: with
probability keep = e^eps/(1+e^eps) report the truth, otherwise report a FAIR COIN
(the forced-response form, whose coin probability should be 2/(1+e^eps)).  The coin
agrees with the truth half of the time, so the effective keep probability is
keep' = (1 + keep)/2 = (1 + 2 e^eps) / (2 (1 + e^eps)).

TRUTH (exact), pair 0 vs 1, output 0: log(keep'/(1-keep')) = ln(1 + 2 e^eps):
  epsilon = 1 (default): 1.862 vs claim 1;  epsilon = 0.5: 1.458 vs 0.5;  epsilon = 3: 3.718 vs 3.
"""
import numpy as np


def randomized_response(data, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0]) if np.ndim(data) else int(data)
    keep = np.exp(epsilon) / (1.0 + np.exp(epsilon))
    if rng.random() < keep:
        return bit
    return int(rng.integers(0, 2))
