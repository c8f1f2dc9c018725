"""BUG: the generic learner removes duplicate examples before counting errors ("dedupe the sample"):
err(h) = #{distinct (x, y) pairs in S : H[h, x] != y}.  Replacing one example still moves every
err by at most 1 (a distinct pair may disappear and another appear), so it IS epsilon-DP, but the
scores no longer scale with n: with a domain of |X| points there are at most 2|X| distinct pairs,
so the exponential mechanism stays near uniform however large n is, and Lemma 16's accuracy
(loss_D(h_hat) <= 2 alpha w.p. 1 - beta at n = 3249) fails, e.g. |X| = 4, H of 4 rows, the best
h with loss 0.1 and others with loss 0.5: P(select a bad h) stays around 1/2.
Expected class: claim violated (the accuracy theorem), privacy audit passes.
"""
import numpy as np


def learner(data, *, rng, epsilon, **_):
    H = np.asarray(data["H"])
    x = np.asarray(data["x"]).astype(np.int64)
    y = np.asarray(data["y"]).astype(np.int64)
    pairs = np.unique(np.stack([x, y], axis=1), axis=0)      # bug: deduplicated sample
    err = (H[:, pairs[:, 0]] != pairs[:, 1][None, :]).sum(axis=1).astype(float)
    s = -epsilon * err / 2.0
    s = s - s.max()
    p = np.exp(s)
    p /= p.sum()
    return int(rng.choice(H.shape[0], p=p))
