"""agnostic_private_prediction_corrected (seed 002 Corollary 1, erratum 002-E8 corrected):
r = ceil(2/(alpha epsilon)) teachers, v = c_1/r, label 1 with probability min(1, max(0, v + xi)),
xi ~ Lap(b), b = 1/(r epsilon).

VALID VARIANT (group valid-variant): no Laplace draw at all. The probability of label 1 averaged over xi
has the closed form (E[(xi - a)^+] = (b/2) e^(-a/b) for a >= 0):
    P1(v) = E[clip(v + xi, 0, 1)] = v + (b/2) (e^(-v/b) - e^(-(1-v)/b)),   0 <= v <= 1
(the general form E[(v + xi)^+] - E[(v + xi - 1)^+] is used, so v outside [0, 1] is handled too),
so the label is one Bernoulli(P1(v)) draw from a single uniform. Since only the label is released, this is
exactly the spec's output law. Per call only, no batch sampler.

TRUTH: same law as the spec; privacy loss on W5_extreme (0 vs 1/r, output 1) =
ln(P1(1/r)/P1(0)) = loss_rounded_extreme = 0.8620 at the defaults (epsilon = 1, alpha = 0.1, r = 20,
b = 0.05) < epsilon = 1 (the author's script, not kept checks the formula against Monte Carlo of the spec's
clip-and-round sampler).
"""
import math


def _g(a, b):
    """E[(a + xi)^+] for xi ~ Lap(b)."""
    return a + 0.5 * b * math.exp(-a / b) if a >= 0 else 0.5 * b * math.exp(a / b)


def p1(v, b):
    """E[clip(v + xi, 0, 1)] = E[(v + xi)^+] - E[(v + xi - 1)^+], valid for every real v."""
    return min(1.0, max(0.0, _g(v, b) - _g(v - 1.0, b)))


def predict(data, *, rng, epsilon, alpha):
    r = math.ceil(2.0 / (alpha * epsilon))
    c1 = float(data[1])
    b = 1.0 / (r * epsilon)
    return int(rng.random() < p1(c1 / r, b))
