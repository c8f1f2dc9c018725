"""Valid variants of seed 001's learner for the checks' false-alarm tests: the same law from another sampler,
and a more conservative learner (epsilon/2: more private, about twice the error)."""

import numpy as np

from dptestbed.impl.halfspace_mixtures.learner import exact_law, ppm_halfspace_learner, prepare, to_output


def gumbel_batch(data, n, *, rng, epsilon):
    """Same law, another sampler: Gumbel-max over the exact log-law of G."""
    inst = prepare(data)
    J, logp = exact_law(data, float(epsilon), inst)
    idx = np.argmax(logp[None, :] + rng.gumbel(size=(int(n), logp.size)), axis=1)
    return to_output(J[idx], inst.public, inst.d)


def gumbel(data, *, rng, epsilon):
    return gumbel_batch(data, 1, rng=rng, epsilon=epsilon)[0]


gumbel.batch = gumbel_batch


def half_epsilon_batch(data, n, *, rng, epsilon):
    """More conservative: Step 9 at epsilon/2 (epsilon/2-DP, about twice the error)."""
    return ppm_halfspace_learner.batch(data, n, rng=rng, epsilon=float(epsilon) / 2)


def half_epsilon(data, *, rng, epsilon):
    return half_epsilon_batch(data, 1, rng=rng, epsilon=epsilon)[0]


half_epsilon.batch = half_epsilon_batch
