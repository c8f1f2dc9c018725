"""Seed 000's exact privacy profiles (audits/model_agnostic/exact_profiles.py) against Monte Carlo."""

import math

import numpy as np

from dptestbed.audits.model_agnostic.exact_profiles import _dti_dist
from dptestbed.audits.privacy import exact as ex


def test_sparse_vector_transcripts_against_monte_carlo(check_transcripts):
    from dptestbed.impl.model_agnostic.sparse_vector import _batch, sparse_vector_lambda
    params = dict(epsilon=1.0, delta=1e-6, T=1, w=0.0)
    lam = sparse_vector_lambda(1.0, 1e-6, 1)
    data = [0.0, 3.0, -2.0, 1.0]
    exact = ex.svt_distribution(data, threshold=0.0, rho_scale=lam, nu_scale=2 * lam, resample_after=0,
                                resample_scale=lam, count_symbol=0, limit=2)
    check_transcripts(exact, _batch, data, 300_000, np.random.default_rng(2), **params)


def test_distance_to_instability_closed_form_against_monte_carlo():
    from dptestbed.impl.model_agnostic.distance_to_instability import _batch
    eps, delta = 1.0, 1e-2
    for dist in (0.0, 3.0, 6.0):
        d = _dti_dist([0, dist], eps, delta)
        n = 400_000
        out = _batch([0, dist], n, rng=np.random.default_rng(int(dist)), epsilon=eps, delta=delta)
        f = (out == 0).mean()
        assert abs(f - d[0]) < 5 * math.sqrt(d[0] * (1 - d[0]) / n) + 1e-6
