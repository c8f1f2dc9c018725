"""label_private_learner (000 Alg 5, A_Priv) -- VALID VARIANT.

Different code, same law:
  * a class with __call__ (entry point `learner`), per-call only (no .batch);
  * Laplace(b) drawn by inversion from ONE uniform: u ~ U(-1/2, 1/2), X = -b sgn(u) ln(1 - 2|u|)
    (exactly the Lap(b) law);
  * fair coins for bottoms / unanswered points as rng.random() < 1/2 (exactly Bernoulli(1/2));
  * binary mode / runner-up by comparison (ties -> label 0), dist = max(0, |ct0 - ct1| - 1);
  * ERM over 1-D thresholds by one sweep over the points sorted by x with running counts
    (errors evaluated at each distinct x and at +inf; first minimum = smallest t, +inf last),
    instead of a per-candidate recount.
TRUTH: same output law as the spec (labelling run = Sec. 4.1 instance of Alg 4 with A_OQR,
lam = sqrt(32 T ln(2/delta))/eps, w = 2 lam ln(2m/delta), fresh Lap(2 lam) per query, threshold
re-drawn after each bottom, halt when c > T; bottoms and unanswered points -> fair coins; ERM with
ties to the smallest t, +inf when all-0 is strictly best), so (8, 1e-3)-DP and the theorems hold
as for the reference.  Expected exit 0.  Checked against a textbook version (../mc_f7.py).
"""
import math

import numpy as np


class LabelPrivateLearner:
    @staticmethod
    def _lap(rng, b):
        u = rng.random() - 0.5
        return -b * math.copysign(1.0, u) * math.log(1.0 - 2.0 * abs(u))

    def _labels(self, votes, rng, epsilon, delta, T, m):
        lam = math.sqrt(32.0 * T * math.log(2.0 / delta)) / epsilon
        w = 2.0 * lam * math.log(2.0 * m / delta)
        what = w + self._lap(rng, lam)
        c = 0
        labels = []
        for c0, c1 in votes:
            if c > T:
                labels.append(None)
                continue
            mode = 0 if c0 >= c1 else 1
            dist = max(0, abs(c0 - c1) - 1)
            if dist + self._lap(rng, 2.0 * lam) > what:
                labels.append(mode)
            else:
                labels.append(None)
                c += 1
                what = w + self._lap(rng, lam)
        return [(l if l is not None else (1 if rng.random() < 0.5 else 0)) for l in labels]

    @staticmethod
    def _erm(x, y):
        order = sorted(range(len(x)), key=lambda i: x[i])
        n1 = sum(y)
        best_err, best_t = None, math.inf
        ones_below = 0
        zeros_below = 0
        i = 0
        while i < len(order):
            t = x[order[i]]
            # error of h_t: ones strictly below t + zeros at or above t
            err = ones_below + ((len(x) - n1) - zeros_below)
            if best_err is None or err < best_err:
                best_err, best_t = err, t
            while i < len(order) and x[order[i]] == t:
                if y[order[i]] == 1:
                    ones_below += 1
                else:
                    zeros_below += 1
                i += 1
        if best_err is None or n1 < best_err:
            best_t = math.inf
        return float(best_t)

    def __call__(self, data, *, rng, epsilon, delta, T, m, **theorem_params):
        x = [float(v) for v in np.asarray(data["x"], dtype=float).ravel()]
        votes = [(int(a), int(b)) for a, b in np.asarray(data["votes"]).reshape(-1, 2)]
        y = self._labels(votes, rng, epsilon, delta, T, m)
        return self._erm(x, y)


learner = LabelPrivateLearner()
