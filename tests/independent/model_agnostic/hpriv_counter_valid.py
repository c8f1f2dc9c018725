"""soft_label_classifier -- VALID VARIANT (tester ta).

H_Priv (000 Algorithm 8) on one query: S = K soft predictions in [0, 1] (clipped).
  n = 1/gamma regular bins [(j-1) gamma, j gamma) (last closed at 1); w_hat = w + Lap(lam);
  dist = max(0, max - second max - 1); if dist + Lap(2 lam) > w_hat: release the regular midpoint
  (2 v* - 1) gamma/2 with Flag 0; else re-draw w_hat = w + Lap(lam), Flag = 1, build the 1/2-shifted
  histogram (bins [(v - 1/2) gamma, (v + 1/2) gamma), v = 1..n-1; [0, gamma/2) and
  [1 - gamma/2, 1] in none; a single shifted bin has runner-up 0), same test with fresh Lap(2 lam):
  release v* gamma (Flag 1) or bottom (-1.0, Flag 1).  argmax ties -> smallest bin index.

Written differently: histograms are collections.Counter objects keyed by bin index and built from
exact bin arithmetic t = x * n with boundary snapping (if |t - round(t)| <= 1e-9 the value sits on
the edge round(t) and belongs to the bin to its right, as the spec's 'x = j gamma belongs to bin
j + 1'); max / second max read from a descending sort of (count, -index) pairs, so ties go to the
smallest index; Laplace variables drawn as sign * Exp(b) with an independent fair sign
(rng.random() < 1/2) and rng.exponential(b): exactly Lap(b).  fn.batch computes the (deterministic)
histograms once and draws n runs of the same noises.
TRUTH: identical law to Algorithm 8 (exact Laplace sampler, same histograms, same tie rule).
"""
import math
from collections import Counter

import numpy as np


def _lap(rng, b, size=None):
    if size is None:
        e = rng.exponential(b)
        return e if rng.random() < 0.5 else -e
    e = rng.exponential(b, size=size)
    return np.where(rng.random(size) < 0.5, e, -e)


def _bins(values, n, shift):
    cnt = Counter()
    for x in values:
        t = x * n + (0.5 if shift else 0.0)
        r = round(t)
        j = int(r) if abs(t - r) <= 1e-9 else int(math.floor(t))
        if shift:
            if 1 <= j <= n - 1:          # shifted bin v = j
                cnt[j] += 1
        else:
            cnt[min(j, n - 1) + 1] += 1  # regular bin v = j + 1 (x = 1 in the last bin)
    return cnt


def _top(cnt, nbins_first, nbins_last):
    pairs = sorted(((cnt.get(v, 0), -v) for v in range(nbins_first, nbins_last + 1)), reverse=True)
    best_count, neg_v = pairs[0]
    second = pairs[1][0] if len(pairs) > 1 else 0
    return -neg_v, max(0, best_count - second - 1)


def _prepare(data, gamma):
    n = int(round(1.0 / gamma))
    if abs(1.0 / gamma - n) > 1e-9 / gamma:
        raise ValueError("1/gamma must be an integer")
    vals = [min(1.0, max(0.0, float(x))) for x in np.asarray(data, dtype=float).reshape(-1).tolist()]
    v_reg, d_reg = _top(_bins(vals, n, False), 1, n)
    v_sh, d_sh = _top(_bins(vals, n, True), 1, n - 1)
    return n, v_reg, d_reg, v_sh, d_sh


def h_priv(data, *, rng, gamma, lam, w, **_ignored):
    n, v_reg, d_reg, v_sh, d_sh = _prepare(data, gamma)
    w_hat = w + _lap(rng, lam)
    if d_reg + _lap(rng, 2.0 * lam) > w_hat:
        return np.array([(2 * v_reg - 1) * gamma / 2.0, 0.0])
    w_hat = w + _lap(rng, lam)
    if d_sh + _lap(rng, 2.0 * lam) > w_hat:
        return np.array([v_sh * gamma, 1.0])
    return np.array([-1.0, 1.0])


def _batch(data, n_runs, *, rng, gamma, lam, w, **_ignored):
    n, v_reg, d_reg, v_sh, d_sh = _prepare(data, gamma)
    w1 = w + _lap(rng, lam, n_runs)
    first = d_reg + _lap(rng, 2.0 * lam, n_runs) > w1
    w2 = w + _lap(rng, lam, n_runs)
    second = d_sh + _lap(rng, 2.0 * lam, n_runs) > w2
    out = np.empty((n_runs, 2))
    out[:, 0] = np.where(first, (2 * v_reg - 1) * gamma / 2.0, np.where(second, v_sh * gamma, -1.0))
    out[:, 1] = np.where(first, 0.0, 1.0)
    return out


h_priv.batch = _batch
