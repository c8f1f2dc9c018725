"""private_prediction_lower_bound_corrected -- BUG (instance generator: target bits not i.i.d.).

The hard instance should have b uniform on {0,1}^d (i.i.d. fair bits) and X i.i.d. uniform on
[d].  This generator 'balances the classes': b is a uniformly random permutation of a vector with
exactly floor(d/2) ones and ceil(d/2) zeros (b = rng.permutation(np.arange(d) % 2)).  Every bit
is still marginally Bernoulli(1/2) (d even) and the points X are right, so per-point
frequencies and per-bit means look correct.

TRUTH: sum(b) = d/2 = 200 with probability 1 (spec: Bin(400, 1/2), sd 10, P[sum = 200] = 0.0399);
corr(b_i, b_j) = -1/(d-1) = -0.00251 instead of 0.  The proof's step 'fix everything but b_i'
fails: b_i is determined by the other d-1 bits, so the instance is not the theorem's.  MC
(verify_lb_balanced.py, 100,000 instances at the defaults d = 400, n = 500): sd of sum(b) 0.000
(spec's generator: 10.0); every bit mean 1/2.  The learner 'memorise the seen labels, and for an
unseen point predict the class with more bits still missing from the balanced total' errs at
point 0 w.p. 0.13675 +- 0.0011 (MC), all of it on the unseen case (err | t_0 = 0: 0.4765), below
the s = 0 instance bound Pr[t_0 = 0]/2 = 0.14303 that holds for ANY algorithm on the true
instance (5.8 s.e.).
"""
import numpy as np


def hard_instance(data=None, *, rng, d, n, **params):
    d = int(d); n = int(n)
    X = rng.integers(0, d, size=n)
    b = rng.permutation(np.arange(d) % 2)
    return np.concatenate([X, b]).astype(np.int64)


def _batch(data, N, *, rng, d, n, **params):
    return np.stack([hard_instance(None, rng=rng, d=d, n=n) for _ in range(int(N))])


hard_instance.batch = _batch
