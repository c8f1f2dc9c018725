"""randomized_response, VALID VARIANT (another sampler, a class with __call__, per-call only).

The keep decision is made by a single standard logistic draw: keep the bit iff L < epsilon,
L ~ Logistic(0, 1).  P[L < eps] = 1/(1 + e^-eps) = e^eps/(1 + e^eps), exactly the spec's keep
probability (0.731059 at eps = 1).  The bit is flipped otherwise, so the output law is exactly
Warner's / Dwork-Roth's randomized response: eps-DP, loss attained = eps.
The mechanism is an instance of a class (the callable `rr` below), no .batch.
TRUTH: identical law to the spec: P[out = b | b] = 0.731059 at eps = 1 (MC 4e6: see REPORT.md).
"""


class RandomizedResponder:
    """Callable respondent: out = bit if Logistic(0,1) < epsilon else 1 - bit."""

    def __call__(self, data, *, rng, epsilon=1.0):
        bit = 1 if int(data) else 0
        keep = rng.logistic(0.0, 1.0) < epsilon
        return bit if keep else 1 - bit


rr = RandomizedResponder()
