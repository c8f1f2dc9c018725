"""averaged_learner_corrected (seed 002 Lemma 2, erratum 002-E5 corrected): A'(S', x) = (1/r) sum_j A(S'_j, x)
over the r block predictions (deterministic, no privacy claim).

STABILITY BUG (group utility-bug: Lemma 2's structural statement is broken): a "robust" average.
The largest and the smallest block predictions are dropped before averaging (a trimmed mean over the
middle r - 2 blocks when r >= 3), to protect against one bad block. The averaging no longer divides one
block's influence by r: one block moving by gamma can move the trimmed mean by gamma/(r - 2).
Per call only.

TRUTH (exact, the author's script, not kept), gamma = 1, r = 4 (defaults):
  data = (0, 1, 2, 3) -> (0, 2, 2, 3) (block 2 moves by gamma = 1, L1 change gamma):
  trimmed means 1.5 -> 2.0, a change of 0.5 = gamma/2 > gamma' = gamma/r = 0.25 (Lemma 2 stability).
  Jensen step of Lemma 2 (expectation) fails pathwise too: blocks (0, 3, 3, 3) with the absolute loss
  at y = 0: (1/r) sum_j l(A_j) = 2.25 < l(A') = 3.
  On the spec's stress case (0,0,0,0) -> (gamma,0,0,0) the trimmed mean stays 0 (change 0 <= gamma/r).
"""
import numpy as np


def averaged(data, *, rng):
    a = np.sort(np.asarray(data, dtype=float).ravel())
    if a.size >= 3:
        a = a[1:-1]
    return float(a.mean())
