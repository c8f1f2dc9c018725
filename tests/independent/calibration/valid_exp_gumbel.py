"""Exponential mechanism by the Gumbel-max trick in the log domain: argmax_i of
-epsilon*(loss_i - min loss)/(2*sensitivity) + G_i, G_i i.i.d. standard Gumbel, has exactly the
softmax law P[i] proportional to exp(-epsilon*loss_i/(2*sensitivity)).  Returns a numpy int64
scalar; warns once."""
import warnings

_warned = []


def exponential_mechanism(data, *, rng, epsilon, sensitivity, **extra):
    import numpy as np
    if not _warned:
        warnings.warn("exponential_mechanism: Gumbel-max sampler in use", stacklevel=2)
        _warned.append(1)
    loss = np.asarray(data, dtype=float)
    s = -epsilon * (loss - loss.min()) / (2.0 * sensitivity)
    g = -np.log(-np.log(1.0 - rng.random(loss.size)))   # 1 - U in (0, 1]: -log(...) >= 0
    return np.int64(np.argmax(s + g))


def _batch(data, n, *, rng, epsilon, sensitivity, **extra):
    import numpy as np
    loss = np.asarray(data, dtype=float)
    s = -epsilon * (loss - loss.min()) / (2.0 * sensitivity)
    g = -np.log(-np.log(1.0 - rng.random((n, loss.size))))
    return np.argmax(s + g, axis=1).astype(np.int64)


exponential_mechanism.batch = _batch
