"""PRIVACY BUG (generic_private_learner): "normalised" log-weights shifted by their MIN instead of their max.

What it is: log-weights l_h = -(eps/2) err(h); the code subtracts l.min() (a slip for l.max()), so the
weights exp(l - l.min()) = exp((eps/2)(max_err - err(h))) are >= 1 and overflow to inf once the error
SPREAD (max_err - min_err) is large; a "numerical fallback" then returns the argmin (first minimiser)
deterministically.  Below the overflow the law is exactly the spec's (the shift cancels in the ratio).
Only the spread of the errors -- a private quantity -- decides which branch runs.

TRUTH (exact, eps = 1): H = [[+1,+1,+1],[+1,+1,-1],[-1,-1,-1]] (h0, h1, h2), X = {0,1,2}.
  D : position 0 = (1,+1), then 1418 x (0,+1), then (2,+1)    (n = 1420)
  D': position 0 = (1,-1), the rest the same                   (a replace-one neighbour)
  errors D = (0, 1, 1420): spread 1420, (1/2)*1420 = 710 > ln(max float64) = 709.78 -> inf -> argmin: h0 w.p. 1
  errors D'= (1, 2, 1419): spread 1418, sum of weights e^709 (1 + e^-0.5) = 1.32e308 finite -> exact softmax:
            P_D'(h1) = e^-0.5/(1 + e^-0.5) = 0.3775;  P_D(h1) = 0.
  Event {output = h1}: 0 vs 0.3775 -> privacy loss = infinity (claim eps = 1, delta = 0).
  (The spec gives P_D(h1) = 0.3775 too: loss 0 on this event.)  Any epsilon: the trigger is a spread of
  about 1419.6/eps, i.e. n >= ~1420/eps examples on which the class's rows disagree.
Expected: claim violated (exit 1).
"""
import numpy as np


def _errors(data):
    H = np.asarray(data["H"], dtype=np.int64)
    H = H.reshape(H.shape[0], -1)
    x = np.asarray(data["x"], dtype=np.int64).ravel()
    y = np.asarray(data["y"], dtype=np.int64).ravel()
    nx = H.shape[1]
    pos = np.bincount(x[y == 1], minlength=nx).astype(np.int64)
    neg = np.bincount(x[y != 1], minlength=nx).astype(np.int64)
    return (H == 1).astype(np.int64) @ neg + (H != 1).astype(np.int64) @ pos


def _probs(err, epsilon):
    logw = -0.5 * epsilon * err.astype(np.float64)
    logw = logw - logw.min()                      # (the slip: should be logw.max())
    with np.errstate(over="ignore", invalid="ignore"):
        w = np.exp(logw)
        tot = w.sum()
        p = w / tot
    if not (np.isfinite(tot) and np.all(np.isfinite(p))):
        return None                               # "numerically a hard argmin"
    return p


def gl_minshift(data, *, rng, epsilon, **params):
    err = _errors(data)
    p = _probs(err, epsilon)
    if p is None:
        return int(np.argmin(err))
    return int(rng.choice(p.size, p=p))


def _batch(data, n, *, rng, epsilon, **params):
    err = _errors(data)
    p = _probs(err, epsilon)
    if p is None:
        return np.full(n, int(np.argmin(err)), dtype=np.int64)
    return rng.choice(p.size, size=n, p=p).astype(np.int64)


gl_minshift.batch = _batch
