"""OpenDP 0.16 measurements wrapped for dptestbed's implementation contract.

Each wrapper takes the spec's input and parameter names, builds the OpenDP measurement and invokes
it: the noise comes from the samplers of OpenDP's Rust library, never from the ``rng`` argument, so
audit them with ``--randomness own``::

    dptestbed audit geometric_mechanism --impl examples/libraries/opendp_mechanisms.py:geometric \\
        --randomness own --param epsilon=1 --param sensitivity=1 --param p=1 --samples 100000

A vector measurement adds independent noise of the same scale to every coordinate whatever the
vector's length, so each ``batch`` (n releases at once, shape ``(n, p)``) invokes it once on the
answer repeated n times.  Randomized response is a measurement on one bool: its batch invokes it n
times.  ``misconfigured_laplace_scale_for_2eps`` is the Laplace wrapper with one realistic mistake;
an audit must report it "claim violated".
"""

import numpy as np
import opendp.prelude as dp

dp.enable_features("contrib")


def _repeated(measurement, data, n, dtype):
    """n releases of the vector ``data``: one invocation on the answer repeated n times."""
    f = np.asarray(data, dtype=dtype)
    return np.asarray(measurement(np.tile(f, n).tolist()), dtype=dtype).reshape(n, f.size)


# spec laplace_mechanism: f(D) + Lap(gamma/epsilon)^p (OpenDP's float Laplace, exact on a fine grid)
def laplace_batch(data, n, *, rng, epsilon, gamma):
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float)
    return _repeated(dp.m.make_laplace(*space, scale=gamma / epsilon), data, n, float)


def laplace(data, *, rng, epsilon, gamma):
    return laplace_batch(data, 1, rng=rng, epsilon=epsilon, gamma=gamma)[0]


laplace.batch = laplace_batch


# spec gaussian_mechanism: f(D) + N(0, sigma^2 I) for an L2 sensitivity (OpenDP states rho-zCDP, rho =
# sensitivity^2/(2 sigma^2); the spec audits the exact (epsilon, delta(epsilon)) profile of that sigma)
def gaussian_batch(data, n, *, rng, sigma, sensitivity):
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float)
    return _repeated(dp.m.make_gaussian(*space, scale=sigma), data, n, float)


def gaussian(data, *, rng, sigma, sensitivity):
    return gaussian_batch(data, 1, rng=rng, sigma=sigma, sensitivity=sensitivity)[0]


gaussian.batch = gaussian_batch


# spec geometric_mechanism: OpenDP's Laplace on integers is the discrete Laplace (two-sided geometric),
# scale = sensitivity/epsilon
def geometric_batch(data, n, *, rng, epsilon, sensitivity):
    space = dp.vector_domain(dp.atom_domain(T="i64")), dp.l1_distance(T="i64")
    return _repeated(dp.m.make_laplace(*space, scale=sensitivity / epsilon), data, n, np.int64)


def geometric(data, *, rng, epsilon, sensitivity):
    return geometric_batch(data, 1, rng=rng, epsilon=epsilon, sensitivity=sensitivity)[0]


geometric.batch = geometric_batch


# spec randomized_response: keep the bit with probability e^epsilon/(1 + e^epsilon)
def randomized_response_batch(data, n, *, rng, epsilon):
    measurement = dp.m.make_randomized_response_bool(prob=float(np.exp(epsilon) / (1 + np.exp(epsilon))))
    return np.array([measurement(bool(data)) for _ in range(n)], dtype=np.int8)


def randomized_response(data, *, rng, epsilon):
    return int(randomized_response_batch(data, 1, rng=rng, epsilon=epsilon)[0])


randomized_response.batch = randomized_response_batch


# the per-call path: the same measurement, one invocation per release and no batch (about 100 us a call)
def randomized_response_per_call(data, *, rng, epsilon):
    measurement = dp.m.make_randomized_response_bool(prob=float(np.exp(epsilon) / (1 + np.exp(epsilon))))
    return int(measurement(bool(data)))


# ------------------------------------------------------------------ misconfigured (must be "claim violated")

# the scale computed for 2 epsilon (e.g. a budget split in two, both halves spent on one release)
def misconfigured_laplace_scale_for_2eps(data, *, rng, epsilon, gamma):
    return laplace(data, rng=rng, epsilon=2 * epsilon, gamma=gamma)


misconfigured_laplace_scale_for_2eps.batch = (
    lambda data, n, *, rng, epsilon, gamma: laplace_batch(data, n, rng=rng, epsilon=2 * epsilon, gamma=gamma))
