"""generic_private_learner (seed 003 Lemma 16): exponential mechanism over the rows of H,
P[h] proportional to exp(-epsilon * err_S(h) / 2).

PRIVACY BUG (group privacy-bug): a "label-noise cleaning" step before scoring. Examples that share a
domain point x are merged: the point gets the MAJORITY label of its copies (ties -> +1) and weight equal
to its number of copies, and err_S(h) = sum over distinct points of count(x) * 1[h(x) != majority(x)].
On data without conflicting labels this is exactly the spec's err_S; but one replaced label can flip a
majority and move err_S(h) by count(x) instead of 1: the sensitivity is unbounded.
Per-call only, no batch sampler (log-sum-exp softmax, inverse CDF with one uniform).

TRUTH (exact, the author's script, not kept), epsilon = 1:
  H = [[+1, +1], [-1, -1]], x = (0,)*11 (n = 11, H_size = 2);
  D : y = (+1,)*6 + (-1,)*5  -> majority +1: err(h0) = 0, err(h1) = 11
  D': y = (+1,)*5 + (-1,)*6  (one label replaced) -> majority -1: err(h0) = 11, err(h1) = 0
  P_D[h0] = 1/(1 + e^-5.5) = 0.99593, P_D'[h0] = e^-5.5/(1 + e^-5.5) = 0.00407:
  exact loss ln(P_D[h0]/P_D'[h0]) = 5.5 against the claim epsilon = 1.
  (With 2k copies split k/k at a point the loss is epsilon*k: the auditor's balanced large-n copy.)
  On every stress case of the spec (no point carries both labels after the move) the law is the spec's.
"""
import numpy as np


def learn(data, *, rng, epsilon):
    H = np.asarray(data["H"])
    x = np.asarray(data["x"]).astype(np.int64).ravel()
    y = np.asarray(data["y"]).astype(np.int64).ravel()
    pts, inv, counts = np.unique(x, return_inverse=True, return_counts=True)
    vote = np.bincount(inv.ravel(), weights=y, minlength=len(pts))
    maj = np.where(vote >= 0, 1, -1)                       # cleaned label of each distinct point
    err = ((H[:, pts] != maj[None, :]) * counts[None, :]).sum(axis=1).astype(float)
    logit = -0.5 * epsilon * err
    logit -= logit.max()
    p = np.exp(logit)
    cdf = np.cumsum(p / p.sum())
    u = rng.random()
    return int(min(np.searchsorted(cdf, u, side="right"), len(cdf) - 1))
