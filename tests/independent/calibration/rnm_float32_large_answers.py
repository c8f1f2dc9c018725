"""Report noisy max computed in float32 ("answers are counts; float32 halves the memory").

BUG (privacy): the answers are cast to float32 before the Laplace noise is added, and the noisy
values are float32 too.  Above 2^24 float32 cannot represent every integer (spacing 2 at 2^24,
8 at 2^26), so a move of 1 in an answer can become a move of up to the float32 spacing, and the
noise (scale 2/epsilon = 2 at the default) is itself rounded to that grid; argmax breaks the
resulting exact ties towards the lower index.

Neighbouring pair (query_answers: every answer moves by at most 1), epsilon = 1, B = 2^26:
    D  = [B + 3.875, B + 4.125]   -> float32 [B, B + 8]
    D' = [B + 4.875, B + 3.125]   -> float32 [B + 8, B]
(|D_i - D'_i| = 1 exactly; all four values are exact in float64.)
Monte Carlo (4e6 runs a side, numpy, the same float32 arithmetic; truth_calc.py):
    P_D[1] = 0.886, P_D'[1] = 0.0083  ->  loss ln(0.886/0.0083) = 4.67 on the event {index 1}
    P_D[0] = 0.114, P_D'[0] = 0.992   ->  loss 2.16 on {index 0}
so the pure claim epsilon = 1 is violated by a factor ~4.7 (the loss grows without bound with the
magnitude: at 2^30 the spacing is 128 and the output is essentially deterministic).
Below 2^23 (integers exact, rounding of fractional inputs <= 2^-4 at 2^20) the law is
indistinguishable from the spec's.
"""
import numpy as np


def rnm(data, *, rng, epsilon):
    q = np.asarray(data, dtype=np.float32)
    noise = rng.laplace(0.0, 2.0 / epsilon, size=q.shape).astype(np.float32)
    return int(np.argmax(q + noise))
