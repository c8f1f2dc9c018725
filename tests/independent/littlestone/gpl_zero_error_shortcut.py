"""GenericLearner (Lemma 16) that returns a consistent hypothesis directly when one exists.

The author's reasoning: in the realizable case a hypothesis with zero empirical error is the best answer,
so skip the exponential mechanism. Whether a zero-error hypothesis exists depends on one example.

Truth (privacy bug): epsilon = 1, H = [[+1, +1], [+1, -1]] (|X| = 2, H_size = 2), n = 2.
D: x = [0, 1], y = [+1, +1]: errors (0, 1), the shortcut returns 0 with probability 1.
D': the first example replaced by (0, -1): errors (1, 2), exponential mechanism:
P[1] = e^-1/(e^-0.5 + e^-1) = 0.3775 on D' and exactly 0 on D: infinite loss against the claimed 1.
"""
import numpy as np


def learn(data, *, rng, epsilon, **_):
    H = np.asarray(data["H"])
    x = np.asarray(data["x"], dtype=np.int64)
    y = np.asarray(data["y"])
    errors = (H[:, x] != y).sum(axis=1)
    if errors.min() == 0:  # realizable: a consistent hypothesis
        return int(np.argmin(errors))
    logits = -epsilon * (errors - errors.min()) / 2
    p = np.exp(logits)
    p /= p.sum()
    return int(min(np.searchsorted(np.cumsum(p), rng.random(), side="right"), p.size - 1))
