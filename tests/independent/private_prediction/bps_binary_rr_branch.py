"""budgeted_prediction_session: 'classifier fast path' -- when every prediction is
a 0/1 label the session answers with randomized response at the same epsilon per
answer (keep w.p. e^eps/(1+e^eps)) instead of Laplace; otherwise Laplace(gamma/eps).
Each path alone is epsilon-DP per answer; the branch on the data's values is not."""
import math

import numpy as np


def session(data, *, rng, epsilon_total, epsilon, gamma):
    f = np.atleast_1d(np.asarray(data, dtype=float))
    q = f.size
    k = min(q, int(math.floor(epsilon_total / epsilon + 1e-12)))
    out = np.full(q, np.inf)
    binary = bool(np.all((f == 0.0) | (f == 1.0)))
    keep = math.exp(epsilon) / (1.0 + math.exp(epsilon))
    for t in range(k):
        if binary:
            out[t] = f[t] if rng.random() < keep else 1.0 - f[t]
        else:
            out[t] = f[t] + rng.laplace(0.0, gamma / epsilon)
    return out
