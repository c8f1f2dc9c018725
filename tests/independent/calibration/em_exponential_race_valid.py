"""exponential_mechanism -- VALID VARIANT (class with __call__, exponential-race sampler).

Selects argmin_i E_i / w_i with E_i i.i.d. Exp(1), w_i = exp(-epsilon*loss_i/(2*sensitivity)),
computed in log space: argmin_i (log E_i + epsilon*loss_i/(2*sensitivity)).  The minimum of
independent exponentials with rates w_i is attained at i with probability w_i / sum_j w_j
(the 'exponential race'; equivalently Gumbel-max, since -log E is Gumbel), so the law is exactly
the spec's softmax. Ties have probability 0. Per-call only (no batch). The instance is the fn.
TRUTH: same law as the spec; epsilon-DP (0.664 on [0,1,1] vs [1,0,0] at epsilon = 1).
"""
import numpy as np


class ExponentialRace:
    def __init__(self):
        self.calls = 0

    def __call__(self, data, *, rng, epsilon=1.0, sensitivity=1.0, **_):
        self.calls += 1
        loss = np.asarray(data, dtype=np.float64).ravel()
        k = loss.size
        e = rng.standard_exponential(k)
        key = np.log(e) + (float(epsilon) / (2.0 * float(sensitivity))) * loss
        return int(np.argmin(key))


em = ExponentialRace()
