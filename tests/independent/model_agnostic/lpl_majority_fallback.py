"""A_Priv: label the public points with the Sec. 4.1 mechanism (A_OQR on the
votes, printed dist), then ERM over 1-D thresholds.  Bottoms / unanswered points
get a 'best effort' label: the majority vote of the chunk classifiers on that
point (instead of a fair coin)."""
import numpy as np


def _threshold_erm(x, y):
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    # candidate t = xs[j] labels xs[j:] as 1; t = +inf labels all 0
    ones_before = np.concatenate([[0], np.cumsum(ys)])          # y=1 left of cut
    zeros_after = np.concatenate([np.cumsum((1 - ys)[::-1])[::-1], [0]])
    err = ones_before + zeros_after                              # length n+1
    cands = np.concatenate([xs, [np.inf]])
    best = err.min()
    return float(cands[np.flatnonzero(err == best)].min())


def label_private_learner(data, *, rng, epsilon, delta, T, m, beta, alpha, gamma, V):
    x = np.asarray(data["x"], dtype=float)
    votes = np.asarray(data["votes"], dtype=np.int64).reshape(-1, 2)
    lam = np.sqrt(32.0 * T * np.log(2.0 / delta)) / epsilon
    w = 2.0 * lam * np.log(2.0 * m / delta)
    labels = np.full(votes.shape[0], -2, dtype=np.int64)
    w_hat = w + rng.laplace(0.0, lam)
    c = 0
    for i, row in enumerate(votes):
        if c > T:
            break
        mode = int(np.argmax(row))
        dist = max(0, int(row[mode] - row[1 - mode]) - 1)
        if dist + rng.laplace(0.0, 2.0 * lam) > w_hat:
            labels[i] = mode
        else:
            labels[i] = -1
            c += 1
            w_hat = w + rng.laplace(0.0, lam)
    y = labels.copy()
    miss = y < 0
    y[miss] = np.argmax(votes[miss], axis=1)      # best-effort label
    return _threshold_erm(x, y)
