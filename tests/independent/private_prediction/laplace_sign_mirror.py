import numpy as np


def predict(data, *, rng, epsilon, gamma, L_l=None, sigma=None, q=None):
    # noise the magnitude, then restore the sign (keeps the code one-sided-safe for log-scale predictions)
    x = np.asarray(data, dtype=float)
    s = np.sign(x)
    y = s * (np.abs(x) + rng.laplace(0.0, gamma / epsilon, size=x.shape))
    return y if y.ndim else float(y)

def _batch(data, n, *, rng, epsilon, gamma, L_l=None, sigma=None, q=None):
    x = np.asarray(data, dtype=float)
    s = np.sign(x)
    return s * (np.abs(x) + rng.laplace(0.0, gamma / epsilon, size=(n, *x.shape)))

predict.batch = _batch
