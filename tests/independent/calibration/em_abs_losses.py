"""BUG (expected class: claim violated (Fact EM2 accuracy) or differs from the spec). exponential_mechanism.

The implementer scores candidates by the MAGNITUDE of the loss, weight
exp(-epsilon*|loss_i|/(2*sensitivity)), "losses are error counts, always >= 0".
On non-negative losses the law is exactly the spec's; privacy still holds (|.| is
1-Lipschitz, so each |loss_i| still has sensitivity Delta). But for negative losses
(allowed by the spec: any 1-D float array, e.g. negated utilities or centred errors)
the preference is reversed. Parameters: epsilon = 1, Delta = 1, losses [-10, 0]:
the spec picks candidate 0 (loss -10) with prob 1/(1+e^-5) = 0.9933; this picks
candidate 1 (loss 0) with prob 0.9933. EM2 promises loss <= min + 2(ln 2 + ln 20) = -10
+ 7.38 = -2.62 with prob >= 0.95; here it fails with prob 0.9933.
"""
import numpy as np


def em(data, *, rng, epsilon, sensitivity, **_):
    s = -epsilon * np.abs(np.asarray(data, dtype=float).reshape(-1)) / (2.0 * sensitivity)
    s = s - s.max()
    p = np.exp(s)
    p /= p.sum()
    return int(rng.choice(p.size, p=p))


def _batch(data, n, *, rng, epsilon, sensitivity, **_):
    s = -epsilon * np.abs(np.asarray(data, dtype=float).reshape(-1)) / (2.0 * sensitivity)
    s = s - s.max()
    p = np.exp(s)
    p /= p.sum()
    return rng.choice(p.size, size=n, p=p).astype(np.int64)


em.batch = _batch
