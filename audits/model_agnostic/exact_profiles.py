"""Exact privacy profiles of seed 000's distance-to-instability release and sparse vector
(Algorithm 1), keyed by implementation reference."""

from __future__ import annotations

import math

from dptestbed.audits.api import as_vector, dist_epsilon, lap_sf, register, svt_distribution


def _dti_dist(data, epsilon, delta_param):
    label, dist = as_vector(data)[:2]
    gamma = math.log(1 / delta_param) / epsilon
    release = float(lap_sf(gamma - dist, 1 / epsilon))
    return {int(label): release, -1: 1 - release}


@register("dptestbed.impl.model_agnostic.distance_to_instability:distance_to_instability")
def _dti(data, neighbour, env, delta):
    eps, dlt = float(env["epsilon"]), float(env["delta"])
    return dist_epsilon(_dti_dist(data, eps, dlt), _dti_dist(neighbour, eps, dlt), delta)


@register("dptestbed.impl.model_agnostic.sparse_vector:sparse_vector")
def _svt000(data, neighbour, env, delta):
    eps, dlt, T, w = float(env["epsilon"]), float(env["delta"]), int(env["T"]), float(env["w"])
    lam = math.sqrt(32 * T * math.log(1 / dlt)) / eps
    kw = dict(threshold=w, rho_scale=lam, nu_scale=2 * lam, resample_after=0, resample_scale=lam,
              count_symbol=0, limit=T + 1)
    d1 = svt_distribution(as_vector(data), **kw)
    d2 = svt_distribution(as_vector(neighbour), **kw)
    if d1 is None or d2 is None:
        return None
    return dist_epsilon(d1, d2, delta)
