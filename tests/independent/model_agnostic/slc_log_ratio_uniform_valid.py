"""soft_label_classifier (H_Priv, Algorithm 8, one call), VALID, written differently.

- Laplace(b) drawn as b * ln(U1/U2) (U1, U2 i.i.d. uniform on (0,1]): ln U1 - ln U2 =
  E2 - E1, a difference of two Exp(1), exactly Laplace(0, 1).
- GenHist via scaled coordinates t = x/gamma-units = x * (1/gamma), snapped to 9 decimals
  before flooring (boundary-safe: x = j gamma -> bin j+1; x = 1 -> last bin), shifted index
  floor(t + 1/2) kept when in 1..n-1.
- top-2 counts via np.partition instead of sorting; ties to the smallest bin via np.argmax.
Everything else as the spec: w_hat = w + Lap(lam) at the start; first test dist + Lap(2 lam) >
w_hat -> ((2v-1) gamma/2, 0); else refresh w_hat, Flag 1, shifted test -> (v gamma, 1) or (-1, 1).
TRUTH: valid (same output law as the spec's algorithm).
"""
import numpy as np


def _lap(rng, b):
    u1 = 1.0 - rng.random()
    u2 = 1.0 - rng.random()
    return b * np.log(u1 / u2)


def _dist_and_mode(counts):
    if counts.size == 0:
        return 0, 0
    v = int(np.argmax(counts))
    if counts.size == 1:
        return max(0, int(counts[0]) - 0 - 1), v
    top2 = np.partition(counts, counts.size - 2)[-2:]
    return max(0, int(top2[1]) - int(top2[0]) - 1), v


def soft_label_classifier(data, *, rng, gamma, lam, w, epsilon, delta, T, m, beta, alpha,
                          nu, n_prime):
    inv = 1.0 / gamma
    n = int(round(inv))
    if abs(inv - n) > 1e-9 / gamma:
        raise ValueError("1/gamma must be an integer")
    x = np.clip(np.asarray(data, dtype=np.float64).reshape(-1), 0.0, 1.0)
    t = np.round(x * n, 9)
    reg = np.minimum(np.floor(t).astype(np.int64), n - 1)          # 0-based regular bin
    sh = np.floor(np.round(t + 0.5, 9)).astype(np.int64)           # shifted index 1..n-1 valid
    w_hat = w + _lap(rng, lam)
    counts = np.bincount(reg, minlength=n)
    dist, j = _dist_and_mode(counts)
    if dist + _lap(rng, 2.0 * lam) > w_hat:
        v = j + 1
        return np.array([(2 * v - 1) * gamma / 2, 0.0])
    w_hat = w + _lap(rng, lam)
    keep = sh[(sh >= 1) & (sh <= n - 1)]
    scounts = np.bincount(keep - 1, minlength=n - 1)[: n - 1]
    dist, j = _dist_and_mode(scounts)
    if dist + _lap(rng, 2.0 * lam) > w_hat:
        v = j + 1
        return np.array([v * gamma, 1.0])
    return np.array([-1.0, 1.0])
