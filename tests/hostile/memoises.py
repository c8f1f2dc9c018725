"""Attack: pass both reproducibility checks with randomness that does not come from ``rng``. The
implementation draws its noise from OS entropy, but remembers its output per state of the ``rng`` it
is given (and the input): asked again from a generator in the same state, in the same process, it
answers the same, so two runs from generators of one seed agree and a batch drawn again in the same
worker repeats. Expected: an implementation error ("randomness not from rng"), on every run."""

import hashlib
import os

import numpy as np

_seen: dict[str, np.ndarray] = {}


def _remembered(data, n, rng, scale):
    f = np.asarray(data, dtype=float)
    key = hashlib.sha256(repr((rng.bit_generator.state, f.tolist(), n, scale)).encode()).hexdigest()
    rng.random()  # the next call sees another state
    if key not in _seen:
        own = np.random.default_rng(int.from_bytes(os.urandom(16), "little"))
        _seen[key] = f + own.laplace(0.0, scale, size=f.shape if n is None else (n, *f.shape))
    return _seen[key]


def laplace(data, *, rng, epsilon, gamma):
    return _remembered(data, None, rng, gamma / epsilon)


laplace.batch = lambda data, n, *, rng, epsilon, gamma: _remembered(data, n, rng, gamma / epsilon)
