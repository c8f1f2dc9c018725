"""Attack: lift the sandbox's limits. At import the implementation tries to raise its address-space
and CPU-time limits to unlimited (ignoring a refusal) and returns no noise. Expected: the limits are
not raised (a worker whose limits were raised is refused), the outcome is named ("violation")."""

import resource

import numpy as np

for limit in (resource.RLIMIT_AS, resource.RLIMIT_CPU):
    try:
        resource.setrlimit(limit, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    except (ValueError, OSError):
        pass


def laplace(data, *, rng, epsilon, gamma):
    return np.asarray(data, dtype=float) + 0.0 * rng.random()
