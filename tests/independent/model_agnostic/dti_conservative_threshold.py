"""Distance to instability A_stab (seed 000 Algorithm 2) with a MORE CONSERVATIVE release threshold:
release f(D) iff dist + Lap(1/epsilon) > Gamma + 0.5/epsilon, Gamma = ln(1/delta)/epsilon, else bottom (-1);
noise as sign * rng.standard_exponential()/epsilon. Returns a numpy int64 scalar; input may be a list.
Privacy: Lemma 3.3 unchanged (Laplace on dist plus post-processing); on an unstable pair the release
probability is e^(-epsilon Gamma - 0.5)/2 = 0.61 delta/2 < delta (Lemma 3.4), so (epsilon, delta)-DP holds
with room. Utility (Theorem 3.5): at stability (ln(1/delta) + ln(1/beta))/epsilon the failure probability is
e^(-(ln(1/beta) - 0.5))/2 = 0.82 beta < beta. Law differs from the spec's (P[release] scaled by e^-0.5 in
the tail): a conservative variant, not the spec's exact law."""
import math

import numpy as np


def stab(data, *, rng, epsilon, delta, **_):
    v = np.asarray(data).reshape(-1)
    f, dist = int(v[0]), float(v[1])
    thr = math.log(1.0 / delta) / epsilon + 0.5 / epsilon
    sign = 1.0 if rng.random() < 0.5 else -1.0
    noise = sign * rng.standard_exponential() / epsilon
    return np.int64(f) if dist + noise > thr else np.int64(-1)


def _batch(data, N, *, rng, epsilon, delta, **_):
    v = np.asarray(data).reshape(-1)
    f, dist = int(v[0]), float(v[1])
    thr = math.log(1.0 / delta) / epsilon + 0.5 / epsilon
    sign = np.where(rng.random(N) < 0.5, 1.0, -1.0)
    noise = sign * rng.standard_exponential(N) / epsilon
    return np.where(dist + noise > thr, f, -1).astype(np.int64)


stab.batch = _batch
