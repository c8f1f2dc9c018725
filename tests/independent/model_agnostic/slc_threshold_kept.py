"""H_Priv (000 Algorithm 8): private soft-label classifier on the multiset of chunk
predictions S = (h_1(x), ..., h_K(x)). Returns [s_hat, Flag] (s_hat = -1.0 for bottom)."""
import numpy as np


def _bins(x, gamma):
    nb = int(round(1.0 / gamma))
    j = np.floor(x / gamma).astype(np.int64)
    j = np.where((j + 1) * gamma <= x, j + 1, j)         # boundary-safe: x = j*gamma -> bin j+1
    j = np.where(j * gamma > x, j - 1, j)
    return np.clip(j, 0, nb - 1), nb                     # 0-based regular bin, x = 1 in the last


def _shifted(x, gamma):
    nb = int(round(1.0 / gamma))
    v = np.floor(x / gamma + 0.5).astype(np.int64)
    v = np.where((v + 0.5) * gamma <= x, v + 1, v)
    v = np.where((v - 0.5) * gamma > x, v - 1, v)
    ok = (v >= 1) & (v <= nb - 1)
    return v[ok], nb - 1                                  # 1-based shifted bin


def _dist_mode(counts):
    top = int(np.argmax(counts))                          # ties -> smallest bin
    srt = np.sort(counts)
    second = srt[-2] if counts.size > 1 else 0
    return top, max(0, int(srt[-1]) - int(second) - 1)


def _stats(data, gamma):
    x = np.clip(np.asarray(data, dtype=float).reshape(-1), 0.0, 1.0)
    j, nb = _bins(x, gamma)
    reg = np.bincount(j, minlength=nb)
    v, ns = _shifted(x, gamma)
    sh = np.bincount(v - 1, minlength=ns)
    return _dist_mode(reg), _dist_mode(sh)


def soft_label_classifier(data, *, rng, gamma, lam, w, **theorem_parameters):
    if abs(1.0 / gamma - round(1.0 / gamma)) > 1e-9 / gamma:
        raise ValueError("1/gamma must be an integer")
    (v1, d1), (v2, d2) = _stats(data, gamma)
    w_hat = w + rng.laplace(0.0, lam)
    if d1 + rng.laplace(0.0, 2.0 * lam) > w_hat:
        return np.array([(2 * (v1 + 1) - 1) * gamma / 2.0, 0.0])
    # second test on the 1/2-shifted histogram, against the same noisy threshold
    if d2 + rng.laplace(0.0, 2.0 * lam) > w_hat:
        return np.array([(v2 + 1) * gamma, 1.0])
    return np.array([-1.0, 1.0])


def _batch(data, n, *, rng, gamma, lam, w, **theorem_parameters):
    (v1, d1), (v2, d2) = _stats(data, gamma)
    w_hat = w + rng.laplace(0.0, lam, size=n)
    t1 = d1 + rng.laplace(0.0, 2.0 * lam, size=n) > w_hat
    t2 = d2 + rng.laplace(0.0, 2.0 * lam, size=n) > w_hat
    out = np.empty((n, 2))
    out[:, 0] = np.where(t1, (2 * (v1 + 1) - 1) * gamma / 2.0, np.where(t2, (v2 + 1) * gamma, -1.0))
    out[:, 1] = np.where(t1, 0.0, 1.0)
    return out


soft_label_classifier.batch = _batch
