"""soft_label_classifier (000 Alg 8, H_Priv, one query) -- VALID VARIANT (another sampler).

In one call of H_Priv each noisy threshold is used by exactly one test:
  test 1: dist1 + Lap(2 lam) > w + Lap(lam)      (w_hat drawn at the start of the call)
  test 2: dist2 + Lap(2 lam) > w + Lap(lam)'     (w_hat re-drawn between the tests, fresh noise)
so each test is an independent Bernoulli with success probability
  P[X > w - dist],  X = Lap(2 lam) - Lap(lam),
whose tail is S(t) = (2/3) e^{-t/(2 lam)} - (1/6) e^{-t/lam} for t >= 0 and 1 - S(-t) for t < 0
(checked by Monte Carlo: 2e6 draws at t = 0, 0.5, 2, 5 agree to 3 decimals).
This file draws ONE uniform per test and compares it with that closed-form tail instead of drawing
two Laplace variables.  The output (s_hat, Flag) is a function of the two test outcomes and of the
exact histograms only, and the threshold state is not part of the output of a single call, so the
output law is EXACTLY the spec's.  GenHist: regular bin floor(x/gamma) (x = j gamma -> bin j+1,
x = 1 -> last bin), shifted bin v = floor(x/gamma + 1/2) for 1 <= v <= 1/gamma - 1; argmax ties to
the smallest bin; dist = max(0, max - second max - 1); entries clipped to [0, 1].
TRUTH: same law as the spec's H_Priv, Theorem 5.14 holds as for the reference.  Expected exit 0.
"""
import math

import numpy as np


def _tail(t, lam):
    if t >= 0:
        return (2.0 / 3.0) * math.exp(-t / (2.0 * lam)) - (1.0 / 6.0) * math.exp(-t / lam)
    return 1.0 - ((2.0 / 3.0) * math.exp(t / (2.0 * lam)) - (1.0 / 6.0) * math.exp(t / lam))


def _nbins(gamma):
    nb = int(round(1.0 / gamma))
    if abs(1.0 / gamma - nb) > 1e-9 / gamma:
        raise ValueError("1/gamma must be an integer")
    return nb


def _dist_arg(hist):
    if len(hist) == 0:
        return 0, 0
    v = int(np.argmax(hist))
    top = int(hist[v])
    if len(hist) >= 2:
        rest = np.delete(hist, v)
        second = int(rest.max())
    else:
        second = 0
    return max(0, top - second - 1), v


def soft_label_classifier(data, *, rng, gamma, lam, w, **theorem_params):
    s = np.clip(np.asarray(data, dtype=float).ravel(), 0.0, 1.0)
    nb = _nbins(gamma)
    # regular partition: bins 0..nb-1, boundary-safe (x*nb with a 1e-9 guard against j*gamma round-off)
    ridx = np.floor(s * nb + 1e-9).astype(np.int64)
    ridx = np.clip(ridx, 0, nb - 1)
    hist = np.bincount(ridx, minlength=nb)
    d1, v1 = _dist_arg(hist)
    if rng.random() < _tail(w - d1, lam):
        return np.array([(2 * (v1 + 1) - 1) * gamma / 2.0, 0.0])
    # shifted partition: bins v = 1..nb-1 cover [(v - 1/2) gamma, (v + 1/2) gamma)
    sidx = np.floor(s * nb + 0.5 + 1e-9).astype(np.int64)
    inside = (sidx >= 1) & (sidx <= nb - 1)
    shist = np.bincount(sidx[inside] - 1, minlength=nb - 1)
    d2, v2 = _dist_arg(shist)
    if rng.random() < _tail(w - d2, lam):
        return np.array([(v2 + 1) * gamma, 1.0])
    return np.array([-1.0, 1.0])
