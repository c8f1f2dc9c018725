"""gaussian_mechanism_classical -- BUG (privacy, triggered by the CALL PATTERN: two calls with the
same generator).

What it is: f(D) + N(0, sigma^2 I_p), sigma = Delta sqrt(2 ln(1.25/delta))/epsilon (5.38312 at
the defaults), plus a Monte-Carlo habit: antithetic variates.  The object remembers the last
generator it was given; when the NEXT call comes with the very same Generator object (and the
same p) it releases f(D) - z_previous instead of drawing, then forgets the pair.  A new
Generator starts a new pair, so calls with fresh generators are exactly the spec's mechanism,
and so is every single call's marginal law (N(0, sigma^2) is symmetric).
TRUTH: a user who answers two queries with one generator (the normal way to use the library)
releases out1 + out2 = f1 + f2 exactly.  Defaults (epsilon 0.9, delta 1e-5, sensitivity 1, p 1):
two calls with one generator on (f1, f2) = (0, 0) vs (0, 1) (the second answer moved by the
sensitivity): P[out1 + out2 == 0] = 1 vs 0 -> infinite loss, delta(eps) = 1 for every eps for
the pair of releases, against (1.8, 2e-5) by composition.  Monte Carlo (1e5 pairs a side):
P[out1 + out2 == 0] = 1.0 on (0, 0), 0.0 on (0, 1) (where out1 + out2 == 1 w.p. 1.0); one call
per fresh generator: sd 5.374 (sigma 5.383).  No .batch.
"""
import math

import numpy as np


class AntitheticGaussian:
    def __init__(self):
        self._last_rng = None
        self._spare = None

    def __call__(self, data, *, rng, epsilon=0.9, delta=1e-5, sensitivity=1.0, **_):
        f = np.array(data, dtype=np.float64).reshape(-1)
        sigma = sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon
        if rng is self._last_rng and self._spare is not None and self._spare.shape == f.shape:
            z, self._spare = self._spare, None           # antithetic partner
        else:
            z = rng.standard_normal(f.size)
            self._last_rng, self._spare = rng, -z
        return f + sigma * z


gauss = AntitheticGaussian()
