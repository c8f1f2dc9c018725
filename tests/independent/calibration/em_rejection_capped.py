"""exponential_mechanism, privacy bug: rejection sampler that gives up after 1000 proposals and returns the argmin.

Propose i uniformly among the K candidates, accept with exp(-eps (l_i - min l)/(2 Delta)) (<= 1):
exactly the exponential mechanism's law when it accepts.  After 1000 rejected proposals the engineer
returns the best candidate ("it wins almost surely anyway").  The acceptance rate is S/K with
S = sum of the acceptance probabilities, so the give-up probability (1 - S/K)^1000 is negligible for
short loss vectors and large once K is in the thousands with few competitive candidates.
(.batch draws the same law: the number of proposals is Geometric(S/K).)

Truth (epsilon = 1, sensitivity = 1, K = 4000): D = [0, 1, 100 x 3998], D' = [1, 0, 100 x 3998].
S = 1 + e^-0.5 (+ 3998 e^-50) = 1.60653; p = S/K = 4.0163e-4; P[give up] = (1-p)^1000 = 0.66920.
P_D[0] = 0.66920 + 0.33080/1.60653 = 0.87511; P_D'[0] = 0.33080 e^-0.5/1.60653 = 0.12489.
loss = ln(0.87511/0.12489) = 1.947 against epsilon = 1 (the spec's law on this pair: exactly 1).
"""
import numpy as np

MAX_TRIES = 1000


def _acc(data, epsilon, sensitivity):
    l = np.asarray(data, dtype=float)
    return l, np.exp(-epsilon * (l - l.min()) / (2.0 * sensitivity))


def em(data, *, rng, epsilon, sensitivity, **unused):
    l, acc = _acc(data, epsilon, sensitivity)
    K = l.size
    for _ in range(MAX_TRIES):
        i = int(rng.integers(K))
        if rng.random() < acc[i]:
            return i
    return int(np.argmin(l))


def _batch(data, n, *, rng, epsilon, sensitivity, **unused):
    l, acc = _acc(data, epsilon, sensitivity)
    K = l.size
    S = acc.sum()
    tries = rng.geometric(min(1.0, S / K), size=n)
    c = np.cumsum(acc)
    idx = np.searchsorted(c, rng.random(n) * c[-1], side="right").clip(0, K - 1)
    return np.where(tries > MAX_TRIES, int(np.argmin(l)), idx).astype(np.int64)


em.batch = _batch
