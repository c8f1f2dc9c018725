"""PRIVACY BUG (state across calls): stable_laplace_prediction_corrected whose calls on one generator come in
blocks of four: calls 4j and 4j+1 draw fresh Laplace noise z_a, z_b (and keep it), calls 4j+2 and 4j+3 return
A(S,x) - z_a and A(S,x) - z_b ("antithetic variates halve the variance of averaged answers").

Every call alone has exactly the spec's law a + Lap(gamma/epsilon) (-Lap is Lap), and consecutive calls are
independent (lag-1 pairs: (z_a, z_b), (z_b, -z_a), (-z_a, -z_b), (-z_b, z_a') are independent), so the lag-1
serial probe sees nothing; every call still draws from rng, and the state restarts with each new generator.
TRUTH: two calls of one generator, call 0 and call 2, on the same prediction a (the same data and query):
their outputs are a + z and a - z, whose sum is 2a exactly. Pair a = 0 ~ a' = gamma = 1 (epsilon 1): the joint
release of the two calls (claim by Lemma 4: 2 epsilon = 2) has the event {out_0 + out_2 = 0} with probability 1
on D and 0 on D': infinite loss against 2. One call alone: loss exactly epsilon = 1 (no violation).
Expected: implementation error (exit 5) if a serial/history probe looks beyond lag 1, otherwise pass (a miss).
"""
import numpy as np

_STATE = []          # list of [rng, count, stash]; small LRU keyed by generator identity
_MAX = 64


def _entry(rng):
    for e in _STATE:
        if e[0] is rng:
            return e
    e = [rng, 0, [None, None]]
    _STATE.append(e)
    if len(_STATE) > _MAX:
        del _STATE[0]
    return e


def stable_laplace(data, *, rng, epsilon, gamma):
    a = np.asarray(data, dtype=float)
    b = gamma / epsilon
    e = _entry(rng)
    k = e[1] % 4
    e[1] += 1
    z = rng.laplace(0.0, b, size=a.shape)
    if k < 2:
        e[2][k] = z
        out = a + z
    else:
        prev = e[2][k - 2]
        if prev is None or np.shape(prev) != a.shape:
            out = a + z
        else:
            out = a - prev
    if out.ndim == 0:
        return float(out)
    return out
