"""Sparse vector technique A_sparseVec (seed 000, Algorithm 1; Dwork and Roth 2014 "Sparse" with
above/below mirrored).

Contract: ``sparse_vector(data, *, rng, epsilon, delta, T, w)``.
- ``data``: the query answers q_1(D)..q_m(D), float array of length m (each query has global
  sensitivity <= 1), asked in order;
- ``T``: cutoff on the number of bottoms (integer >= 1); ``w``: the public threshold;
- output: int8 array of length m, 1 = top (noisy answer above the noisy threshold),
  0 = bottom (below or equal), -1 = not answered (the algorithm halted after the (T+1)-th bottom);
  the batch sampler returns shape (n, m).

Convention of seed 000 (notes §0, P6-P8): the counter counts BOTTOMS, the threshold noise is
re-drawn after every bottom and never after a top, the loop runs while c <= T (so up to T+1
bottoms are emitted), and only top/bottom are released.
"""

from __future__ import annotations

import math

import numpy as np

from .contract import batched
from .noise import as_vector, laplace

TOP, BOTTOM, NOT_ANSWERED = 1, 0, -1


def sparse_vector_lambda(epsilon, delta, T):
    """Alg. 1 step 2: lambda = sqrt(32 T log(1/delta))/epsilon (natural log)."""
    return math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon


def _cutoff(T) -> int:
    if float(T) != int(T) or int(T) < 1:
        raise ValueError(f"T must be an integer >= 1, got {T!r}")
    return int(T)


def _batch(data, n, *, rng, epsilon, delta, T, w):
    q, T, n = as_vector(data), _cutoff(T), int(n)
    lam = sparse_vector_lambda(epsilon, delta, T)
    out = np.empty((n, q.size), dtype=np.int8)
    c = np.zeros(n, dtype=np.int64)                          # step 1, one counter per run
    w_hat = w + laplace(rng, lam, n)                         # step 3, one threshold per run
    for i, qi in enumerate(q):                               # step 4, vectorised over runs
        active = c <= T                                      # step 4: while c <= T
        q_hat = qi + laplace(rng, 2 * lam, n)                # step 4.1: fresh Lap(2 lam)
        top = q_hat > w_hat                                  # step 4.2
        out[:, i] = np.where(active, top, NOT_ANSWERED)      # step 5: halted runs answer nothing
        bottom = active & ~top                               # step 4.3: bottoms only
        w_hat[bottom] = w + laplace(rng, lam, int(bottom.sum()))
        c += bottom
    return out


@batched(_batch)
def sparse_vector(data, *, rng, epsilon, delta, T, w):
    """Seed 000 Alg. 1; int8 array of length m: 1 top, 0 bottom, -1 not answered (halted)."""
    q, T = as_vector(data), _cutoff(T)
    a = np.full(q.size, NOT_ANSWERED, dtype=np.int8)
    c = 0                                                    # step 1: c <- 0
    lam = sparse_vector_lambda(epsilon, delta, T)            # step 2: lambda <- sqrt(32 T log(1/delta))/epsilon
    w_hat = w + laplace(rng, lam)                            # step 3: w_hat <- w + Lap(lambda)
    for i, qi in enumerate(q):                               # step 4: for each q in order, while c <= T
        if c > T:                                            # step 5: halt; later queries get no answer
            break
        q_hat = qi + laplace(rng, 2 * lam)                   # step 4.1: q_hat <- q(D) + Lap(2 lambda)
        if q_hat > w_hat:
            a[i] = TOP                                       # step 4.2: output top, keep w_hat
        else:
            a[i] = BOTTOM                                    # step 4.3: output bottom,
            w_hat = w + laplace(rng, lam)                    #           re-draw w_hat <- w + Lap(lambda),
            c += 1                                           #           c <- c + 1
    return a
