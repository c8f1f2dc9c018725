"""Laplace mechanism (seed 000 Lemma 2.6) with Laplace noise drawn as a Gaussian scale mixture:
Lap(b) = b * sqrt(2 W) * Z with W ~ Exp(1) (rng.standard_exponential) and Z ~ N(0, 1)
(rng.standard_normal), independent (the characteristic function of sqrt(2W) Z is E[exp(-W t^2)] = 1/(1 + t^2),
that of Lap(1)). Z is drawn before W. Output float64 (p,); batch (N, p). Law: f + Lap(gamma/epsilon)^p, the spec's."""
import numpy as np


def laplace(data, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    z = rng.standard_normal(f.size)
    w = rng.standard_exponential(f.size)
    return f + (gamma / epsilon) * np.sqrt(2.0 * w) * z


def _batch(data, N, *, rng, epsilon, gamma):
    f = np.asarray(data, dtype=np.float64).reshape(-1)
    z = rng.standard_normal((N, f.size))
    w = rng.standard_exponential((N, f.size))
    return f[None, :] + (gamma / epsilon) * np.sqrt(2.0 * w) * z


laplace.batch = _batch
