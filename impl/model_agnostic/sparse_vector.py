"""Sparse vector technique A_sparseVec (seed 000, Algorithm 1; Dwork and Roth 2014 "Sparse" with
above/below mirrored), and the shared sparse-vector core of seed 000's online algorithms.

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

Shared core: :class:`SparseVectorRuns` holds that loop's state (the noisy threshold w_hat and the
bottom counter c) for n independent runs and performs one noisy comparison at a time. It is the
one implementation of the sparse-vector logic behind Algorithm 1 (here), A_OQR (Alg 3,
``online_query_release``), A_subSamp / A_binClas (Alg 4, 004 Alg 2, ``subsample_aggregate`` and
``classification``) and A_SL-Quer / H_Priv (Algs 6 and 8, ``soft_label``, whose two sub-tests per
query each cost one unit and each re-draw the shared threshold on a bottom). Every single-run
function is its batch sampler at n = 1, so the two cannot drift apart; the comparison draws are
made in the order Algorithm 1 makes them (one query noise per comparison, then the threshold
re-draw), so a run at n = 1 consumes the generator exactly as a scalar transcription would.
Every algorithm builds its core with :func:`new_core`, which makes the class held by :data:`CORE`
in the calling thread's context (``SparseVectorRuns`` unless a mutant set another one for the
duration of its own call: ``impl.model_agnostic.mutants``; a per-thread seam, so a mutant sampled
on two threads never runs partly as the reference, and the reference never sees its class).
"""

from __future__ import annotations

import contextvars
import math

import numpy as np

from dptestbed.impl.contract import batched
from dptestbed.impl.noise import as_vector, laplace

TOP, BOTTOM, NOT_ANSWERED = 1, 0, -1


def sparse_vector_lambda(epsilon, delta, T):
    """Alg. 1 step 2: lambda = sqrt(32 T log(1/delta))/epsilon (natural log)."""
    return math.sqrt(32.0 * T * math.log(1.0 / delta)) / epsilon


def _cutoff(T) -> int:
    if float(T) != int(T) or int(T) < 1:
        raise ValueError(f"T must be an integer >= 1, got {T!r}")
    return int(T)


class SparseVectorRuns:
    """State of n independent runs of seed 000's sparse-vector loop (Alg 1 steps 1, 3, 4.1-4.3).

    - ``w_hat`` (n,): each run's noisy threshold w + Lap(lam), drawn at construction (Alg 1
      step 3; Alg 3 step 1; Alg 6, erratum E3) and re-drawn after every bottom of that run only;
    - ``c`` (n,): each run's number of bottoms; a run is running while c <= T.

    :meth:`compare` is the only operation: q + Lap(QUERY_NOISE_FACTOR * lam) > w_hat, fresh noise
    per comparison (P7). Callers release only what the paper releases (P10): the state is never
    returned by a mechanism.
    """

    QUERY_NOISE_FACTOR = 2.0   # query noise Lap(2 lam) against threshold noise Lap(lam) (P5)
    SWEEP_BLOCK = 64           # comparisons one run's sweep draws at once, doubled while no bottom comes

    def __init__(self, rng: np.random.Generator, n: int, *, lam: float, w: float, T):
        self.rng, self.n, self.lam, self.w = rng, int(n), float(lam), float(w)
        self.T = T                                                   # cutoff (int, or inf for no halting)
        self.c = np.zeros(self.n, dtype=np.int64)                    # step 1: c <- 0, per run
        self.w_hat = self.w + laplace(rng, self.lam, self.n)         # step 3: w_hat <- w + Lap(lam), per run

    def running(self) -> np.ndarray:
        """Runs still inside the loop 'while c <= T' (Alg 1 step 4; Alg 3 step 2; Alg 6 step 3)."""
        return self.c <= self.T

    def compare(self, q, runs: np.ndarray) -> np.ndarray:
        """One noisy comparison for the runs in ``runs`` (bool (n,)); returns top (bool (n,),
        False outside ``runs``). Each bottom among ``runs`` costs one unit of c and re-draws that
        run's threshold (Alg 1 step 4.3; Alg 3 step 4; H_Priv step 7; Alg 6 step 6)."""
        q_hat = q + laplace(self.rng, self.QUERY_NOISE_FACTOR * self.lam, self.n)   # step 4.1: fresh Lap(2 lam)
        top = runs & (q_hat > self.w_hat)                                          # step 4.2: top keeps w_hat
        bottom = runs & ~top
        self.w_hat[bottom] = self.w + laplace(self.rng, self.lam, int(bottom.sum()))  # step 4.3: re-draw
        self.c += bottom                                                            #           c <- c + 1
        return top

    def sweep(self, q) -> np.ndarray:
        """Every query of ``q`` in order while a run is inside the loop (Alg 1 step 4 over a whole stream): int8
        (n, len(q)), TOP, BOTTOM, or NOT_ANSWERED once the run has halted. Many runs: one query at a time through
        :meth:`compare`, every run at once; so also a subclass, whose changed rule then applies. One run of this
        class: :meth:`_sweep_one`, the same law without a Python step per query."""
        q = np.asarray(q, dtype=float)
        out = np.full((self.n, q.size), NOT_ANSWERED, dtype=np.int8)
        if self.n == 1 and type(self) is SparseVectorRuns:
            self._sweep_one(q, out[0])
            return out
        for i, qi in enumerate(q):
            running = self.running()
            if not running.any():
                break
            top = self.compare(qi, running)
            out[:, i] = np.where(running, np.where(top, TOP, BOTTOM), NOT_ANSWERED)
        return out

    def _sweep_one(self, q: np.ndarray, out: np.ndarray) -> None:
        """One run's sweep: the comparisons q_i + Lap(2 lam) > w_hat drawn a block of queries at a time, up to the
        block's first bottom (its c + 1 and re-drawn w_hat, then the next block from the query after it). The draws
        past a bottom are never used, so every comparison has fresh noise against the threshold it meets: the law
        of :meth:`compare` query by query."""
        i, block, scale = 0, self.SWEEP_BLOCK, self.QUERY_NOISE_FACTOR * self.lam
        while i < q.size and self.c[0] <= self.T:
            j = min(q.size, i + block)
            top = q[i:j] + laplace(self.rng, scale, j - i) > self.w_hat[0]          # step 4.1-4.2, a block
            if top.all():
                out[i:j], i, block = TOP, j, 2 * block
                continue
            k = int(np.argmin(top))                                                 # the first bottom
            out[i:i + k], out[i + k] = TOP, BOTTOM
            self.w_hat[0] = self.w + laplace(self.rng, self.lam)                    # step 4.3: re-draw, c + 1
            self.c[0] += 1
            i, block = i + k + 1, self.SWEEP_BLOCK


CORE: contextvars.ContextVar[type[SparseVectorRuns]] = contextvars.ContextVar("sparse_vector_core",
                                                                              default=SparseVectorRuns)


def new_core(rng: np.random.Generator, n: int, *, lam: float, w: float, T) -> SparseVectorRuns:
    """The sparse-vector state of n runs, of the class :data:`CORE` holds in this thread's context."""
    return CORE.get()(rng, n, lam=lam, w=w, T=T)


def _batch(data, n, *, rng, epsilon, delta, T, w):
    q, T = as_vector(data), _cutoff(T)
    svt = new_core(rng, n, lam=sparse_vector_lambda(epsilon, delta, T), w=w, T=T)  # steps 1-3
    return svt.sweep(q)                                          # step 4 while c <= T; step 5: halted runs answer nothing


@batched(_batch)
def sparse_vector(data, *, rng, epsilon, delta, T, w):
    """Seed 000 Alg. 1; int8 array of length m: 1 top, 0 bottom, -1 not answered (halted)."""
    return _batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, w=w)[0]
