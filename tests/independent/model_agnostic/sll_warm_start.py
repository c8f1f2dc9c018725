"""soft_label_learner (000 Alg 7, A_PrvLearn: chunk learners) -- BUG (what Lemma 5.8 /
Corollary 5.10 / Lemma 5.13 test), call-pattern triggered (k > 1 chunks).

Kind: "warm start across chunks".  B is projected one-pass SGD for L2-regularised logistic
regression (w <- Proj_radius(w - eta ((sigmoid(w0 + w1 x) - y) (1, x) + reg w)), start w = 0).
The parameter vector is initialised ONCE, outside the loop over chunks, so chunk j's SGD starts
from chunk j-1's final parameters: h_j = B(D_1 ... D_j) in effect, not B(D_j).  Chunk 1 is exact;
each later chunk has seen j*n' records.  Nothing is wrong in a single-chunk call (k = 1).
(The chunks are also no longer independent, and one record influences every later column:
the downstream H_Priv / A_SL-Quer privacy argument breaks too.)

TRUTH (defaults k=300, n'=100, eta=0.1, reg=0.01, radius=10, alpha=5e-4; data of Fact W1 with
c = 1: x = s (1 + U), s = +-1, U ~ U[0, 2], y = 1[x + z > 0], z ~ N(0, 1/8); ../mc_f5.py):
  E_{D_hat}[h^B_{D_hat}(x)] for a fresh chunk (from w = 0; 3,000 chunks): x = 1: 0.8538 (sd 0.0109),
  x = -1: 0.1462 (sd 0.0109).  Corollary 5.10 asks >= 2k/3 = 200 of the k = 300 chunk predictions
  within 4 alpha sqrt(2n') = 0.0283 of that mean (w.p. >= 1 - beta' = 0.95).  With the warm start
  the later chunks converge to the full-data model (last chunk: h(1) = 0.923, h(-1) = 0.077): only
  1.25 of 300 (mean of 20 datasets, max 3) are inside at x = 1, 1.15 (max 2) at x = -1; the
  correct learner has 293-298 of 300 inside (3 datasets).  Corollary 5.10 fails with probability
  ~1 (needs 200, gets ~1).  (Lemma 5.13 through H_Priv: the mode bin follows the warm-started
  limit, |0.923 - 0.854| = 0.069 > nu' = 0.0666 at x = 1; not verified by Monte Carlo.)
"""
import numpy as np


def _sig(z):
    return 1.0 / (1.0 + np.exp(-z))


def soft_label_learner(data, *, rng, k, n_prime, learner="sgd_logistic_one_pass", eta=0.1, reg=0.01,
                       radius=10.0, gamma=0.125, lam=3.9, w=75.5, **theorem_params):
    X = np.asarray(data["X"], dtype=float)
    y = np.asarray(data["y"], dtype=float)
    k = int(k)
    n_prime = int(n_prime)
    out = np.zeros((k, 2))
    theta = np.zeros(2)  # BUG: should be re-initialised for every chunk
    for j in range(k):
        xs = X[j * n_prime:(j + 1) * n_prime]
        ys = y[j * n_prime:(j + 1) * n_prime]
        order = np.arange(xs.size)
        if learner == "sgd_logistic_permutation":
            order = rng.permutation(xs.size)
        for i in order:
            phi = np.array([1.0, xs[i]])
            g = (_sig(theta @ phi) - ys[i]) * phi + reg * theta
            theta = theta - eta * g
            nrm = np.linalg.norm(theta)
            if nrm > radius:
                theta = theta * (radius / nrm)
        out[j] = theta
    return out
