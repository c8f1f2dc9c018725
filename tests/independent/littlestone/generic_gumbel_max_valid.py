"""VALID (expected class: pass).

GenericLearner (exponential mechanism over the rows of H, Pr[h] ∝ exp(-epsilon*err_S(h)/2) with
err_S(h) the mistake COUNT) sampled by the Gumbel-max trick instead of an inverse-CDF draw:
h_hat = argmax_h (-epsilon*err_S(h)/2 + G_h), G_h i.i.d. standard Gumbel (drawn from rng).
argmax of log-weights plus i.i.d. Gumbel noise has exactly the softmax law
(P[argmax = h] = w_h / sum_g w_g), never underflows (no exponentials taken), and keeps
duplicate rows as separate candidates. Different random stream, same law.
Checked exactly vs. softmax in __main__ (chi-square-level agreement on 4e5 draws).
"""
import numpy as np


def _scores(data, epsilon):
    H = np.asarray(data["H"]).astype(np.int64)
    x = np.asarray(data["x"]).astype(np.int64)
    y = np.asarray(data["y"]).astype(np.int64)
    err = (H[:, x] != y[None, :]).sum(axis=1)
    return -epsilon * err.astype(float) / 2.0


def generic_batch(data, n, *, rng, epsilon, alpha, beta, n_param=None, H_size=None, **kw):
    s = _scores(data, epsilon)
    g = rng.gumbel(0.0, 1.0, size=(n, s.size))
    return np.argmax(s[None, :] + g, axis=1).astype(np.int64)


def generic(data, *, rng, epsilon, alpha, beta, n, H_size):
    return int(generic_batch(data, 1, rng=rng, epsilon=epsilon, alpha=alpha, beta=beta)[0])


def _gb(data, n, *, rng, epsilon, alpha, beta, H_size, **kw):
    return generic_batch(data, n, rng=rng, epsilon=epsilon, alpha=alpha, beta=beta)


generic.batch = _gb

if __name__ == "__main__":
    r = np.random.default_rng(3)
    H = np.array([[1, 1, -1], [1, -1, -1], [1, 1, -1], [-1, -1, 1]], dtype=np.int8)
    data = {"H": H, "x": np.array([0, 1, 2, 1, 0]), "y": np.array([1, 1, -1, -1, 1], dtype=np.int8)}
    s = _scores(data, 1.0)
    p = np.exp(s - s.max()); p /= p.sum()
    draws = _gb(data, 400000, rng=r, epsilon=1.0, alpha=.1, beta=.1, H_size=4)
    print("exact", np.round(p, 4), "empirical", np.round(np.bincount(draws, minlength=4) / 4e5, 4))
