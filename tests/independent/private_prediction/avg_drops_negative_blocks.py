"""averaged_learner_corrected -- BUG (Lemma 2 stability broken for negative predictions).

"Clean the block predictions before averaging": the code treats a block prediction as a
probability and drops invalid ones (negative or non-finite) before taking the mean; the
mean is then over the surviving blocks (0.0 if none survives).

TRUTH: identical to the spec whenever every block prediction is >= 0 (e.g. all the
[0, 1] predictions of a classifier).  With a negative entry the divisor changes:
  (4, 4, 4, 0) -> 3.0  vs  (4, 4, 4, -1) -> 4.0: one entry moved by gamma = 1, output moved
  by 1.0 = 4 x the claimed gamma/r = 0.25 (Lemma 2 stability);
  (2, 2, 2, 0) -> 1.5  vs  (2, 2, 2, -1e-9) -> 2.0: a move of 1e-9 moves the output by 0.5.
Jensen also fails pathwise for losses of the prediction (the output is not the average).
"""
import numpy as np


def average(data, *, rng=None, **_):
    a = np.asarray(data, dtype=np.float64).ravel()
    good = a[np.isfinite(a) & (a >= 0.0)]
    if good.size == 0:
        return 0.0
    return float(good.mean())
