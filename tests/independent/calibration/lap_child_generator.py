"""Laplace mechanism (seed 000 Lemma 2.6) with the common 'derive a child generator' pattern: every call
seeds a fresh numpy Generator from one 63-bit integer drawn from rng
(np.random.default_rng(rng.integers(0, 2**63))) and draws the Laplace noise from it. All randomness is a
deterministic function of rng's stream (same seed, same output; successive calls advance rng), so the
contract holds; the law is f + Lap(gamma/epsilon)^p (the child streams are PCG64 seeded through
SeedSequence, the usual independence assumption of numpy). Batch: the same with one child per batch."""
import numpy as np


def laplace(data, *, rng, epsilon, gamma):
    child = np.random.default_rng(int(rng.integers(0, 2 ** 63)))
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f + child.laplace(0.0, gamma / epsilon, size=f.size)


def _batch(data, N, *, rng, epsilon, gamma):
    child = np.random.default_rng(int(rng.integers(0, 2 ** 63)))
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    return f[None, :] + child.laplace(0.0, gamma / epsilon, size=(N, f.size))


laplace.batch = _batch
