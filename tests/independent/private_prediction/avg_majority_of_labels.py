"""averaged_learner_corrected -- BUG (structural / Lemma 2 stability; INPUT PROPERTY: hard labels).

A' should return (1/r) sum_j A(S'_j, x).  The programmer "helpfully" treats block predictions
that are all hard labels in {0, 1} as a classification ensemble and returns the MAJORITY VOTE
(ties -> 1) instead of the average; any other input is averaged correctly.
TRUTH (defaults gamma=1, r=4, so gamma' = 0.25):
  (0,0,1,1) -> 1 (tie)   vs   (0,0,0,1) -> 0  (one block moved by 1 = gamma):
  output moves by 1 = 4 x gamma' (Lemma 2 stability rate broken by a factor r = 4).
  (0,0,0,0) -> 0 vs (0,0,0,1) -> 0: fine; only pairs that cross the vote boundary show it.
  Inputs with any non-{0,1} value (e.g. 0.3) or any {0,1}-vector pair that does not cross the
  majority (e.g. (1,1,1,0)->(1,1,1,1)) are indistinguishable from the spec EXCEPT that the
  returned value differs from the mean on every all-{0,1} input not all equal: (0,0,0,1) -> 0
  instead of 0.25.  Expectation statement: with l convex, a 0/1 vote can exceed the mean's loss
  (e.g. l(a) = a, inputs (0,0,1,1): vote 1 > mean 0.5), Jensen's step fails pathwise.
"""
import numpy as np


def averaged(data, *, rng=None, **_ignored):
    p = np.asarray(data, dtype=np.float64).ravel()
    r = p.size
    if r > 0 and np.all((p == 0.0) | (p == 1.0)):
        ones = int(p.sum())
        return 1.0 if 2 * ones >= r else 0.0
    return float(p.sum() / r)


def _batch(data, n, *, rng=None, **kw):
    return np.full(n, averaged(data, rng=rng, **kw))


averaged.batch = _batch
