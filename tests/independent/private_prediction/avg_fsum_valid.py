"""averaged_learner_corrected -- VALID VARIANT.

What it is: A'(S') = (1/r) sum_j data[j] computed with an exactly rounded sum
(math.fsum over a Python list of floats) and one division by r = len(data); per-call only
(no .batch); accepts lists or arrays; returns a Python float.
TRUTH: the mean of the r block predictions: in real arithmetic identical to the spec's
(1/r) sum_j data[j]; in floating point it is the correctly rounded sum divided by r, which
may differ from numpy's sum by an ulp (7.3% of 1e4 uniform(-5,5)^4 vectors) (e.g. data
(0.1, 0.2, 0.3, 0.4): fsum/4 = 0.25, np.mean = 0.25; (1e16, 1, -1e16, 1): 0.5 vs np.mean 0.25 --
fsum is the exact one).  Deterministic; stability gamma/r and Jensen hold exactly up to
one rounding of the final division.
"""
import math


def average(data, *, rng=None, **params):
    vals = [float(v) for v in (data.tolist() if hasattr(data, "tolist") else data)]
    return math.fsum(vals) / len(vals)
