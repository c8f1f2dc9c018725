"""Distance to instability (000 Alg 2), valid but unusual.

The Laplace noise is put on the threshold instead of on the distance:
dist + L > Gamma  <=>  dist > Gamma - L, and -L has the law of L (Laplace is
symmetric), so 'dist > Gamma + L' has exactly the law of Alg 2.  Laplace is
drawn as the difference of two exponentials of scale 1/epsilon.  Per-call
only (no .batch), returns a Python int, takes unknown keywords, lazy import.
"""


def a_stab(data, *, rng, epsilon, delta, beta=None, **unused):
    import math

    label, dist = int(data[0]), int(data[1])
    b = 1.0 / epsilon
    noisy_gamma = math.log(1.0 / delta) / epsilon + (rng.exponential(b) - rng.exponential(b))
    if dist > noisy_gamma:
        return label
    return -1
