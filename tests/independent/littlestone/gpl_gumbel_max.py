"""generic_private_learner -- VALID VARIANT (Gumbel-max sampler).

What it is: Lemma 16 (paper 003), exponential mechanism over the rows of H with
weights exp(-eps * err_S(h) / 2), err_S(h) = #{i : H[h, x_i] != y_i} (counts).
Instead of normalising the weights (log-sum-exp + inverse CDF), the variant adds
i.i.d. standard Gumbel noise to the logits -eps*err/2 and returns the argmax
(Gumbel-max trick: Pr[argmax_h (l_h + G_h) = h] = e^{l_h} / sum_g e^{l_g}, exactly).
Every row of H is a candidate (duplicates are separate candidates, as the spec
says). Ties in l + G have probability 0.

TRUTH: same output law as the spec (Gumbel-max identity), so exactly eps-DP
(eps = 1 at the defaults). No under/overflow: logits are used additively.
Own Monte Carlo (REPORT.md): H = 4 rows, errors (0, 1, 2, 5) -> frequencies
match softmax(-err/2) to within 1e-3 over 1e6 draws.
"""
import numpy as np


def _logits(data, epsilon):
    H = np.asarray(data["H"])
    x = np.asarray(data["x"]).astype(np.int64)
    y = np.asarray(data["y"]).astype(np.int64)
    err = (H[:, x].astype(np.int64) != y[None, :]).sum(axis=1)
    return -float(epsilon) * err.astype(np.float64) / 2.0


def learner(data, *, rng, epsilon, **params):
    l = _logits(data, epsilon)
    return int(np.argmax(l + rng.gumbel(size=l.shape[0])))


def _batch(data, n, *, rng, epsilon, **params):
    l = _logits(data, epsilon)
    g = rng.gumbel(size=(n, l.shape[0]))
    return np.argmax(l[None, :] + g, axis=1).astype(np.int64)


learner.batch = _batch
