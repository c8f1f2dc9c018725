"""Broken variants of sparse vector and the distance-to-instability release (seed 000).

Each is the reference with exactly one bug, obtained by handing it a wrong parameter (how a
mis-derived scale arises) or by post-processing its output; every check of these specs names
at least one, and ``dptestbed verify`` must report each as violated.
"""

from __future__ import annotations

import math

import numpy as np

from ..mutant import post_processed, with_params
from .distance_to_instability import distance_to_instability
from .sparse_vector import sparse_vector

__all__ = [
    "sparse_vector_3x_noise", "sparse_vector_30pct_more_noise", "sparse_vector_halts_early",
    "distance_to_instability_2x_noise", "distance_to_instability_threshold_shifted",
    "distance_to_instability_threshold_halved", "distance_to_instability_leaks_distance",
]


def _epsilon_over(factor: float):
    def transform(params: dict) -> dict:
        params["epsilon"] = params["epsilon"] / factor  # lam = sqrt(32 T log(1/delta))/epsilon
        return params
    return transform


sparse_vector_3x_noise = with_params(
    sparse_vector, _epsilon_over(3.0), "Sparse vector with lam three times too large (threshold and query noise).")
sparse_vector_30pct_more_noise = with_params(sparse_vector, _epsilon_over(1.3), "Sparse vector with lam 30% too large.")


def _halt_early(out, data, rng, params) -> np.ndarray:
    """Post-process transcripts so that the run stops after the T-th bottom (``while c < T``)."""
    out = np.array(out, dtype=np.int8, copy=True)
    bottoms = np.cumsum(out == 0, axis=1)
    after = np.concatenate([np.zeros((out.shape[0], 1), bool), bottoms[:, :-1] >= int(params["T"])], axis=1)
    out[after] = -1
    return out


sparse_vector_halts_early = post_processed(
    sparse_vector, _halt_early, "Sparse vector that halts after T bottoms instead of T + 1 (the loop reads ``c < T``).")


def _dti_2x(params: dict) -> dict:
    # noise Lap(2/epsilon) with the threshold Gamma = log(1/delta)/epsilon unchanged:
    # epsilon' = epsilon/2 and log(1/delta') = log(1/delta)/2
    params["epsilon"] = params["epsilon"] / 2
    params["delta"] = math.sqrt(params["delta"])
    return params


def _dti_shift(params: dict) -> dict:
    params["delta"] = params["delta"] * math.exp(-1.0)  # Gamma' = Gamma + 1/epsilon
    return params


def _dti_halve(params: dict) -> dict:
    params["delta"] = math.sqrt(params["delta"])  # Gamma' = Gamma / 2
    return params


distance_to_instability_2x_noise = with_params(
    distance_to_instability, _dti_2x, "A_stab adding Lap(2/epsilon) (as if dist had sensitivity 2), threshold unchanged.")
distance_to_instability_threshold_shifted = with_params(
    distance_to_instability, _dti_shift, "A_stab with the threshold Gamma shifted up by 1/epsilon.")
distance_to_instability_threshold_halved = with_params(
    distance_to_instability, _dti_halve, "A_stab with the threshold log(1/delta)/(2 epsilon): half the paper's Gamma.")


def _leak(out, data, rng, params) -> np.ndarray:
    """Where the reference outputs bottom (-1), output a noisy distance instead (trap P10)."""
    out = np.asarray(out)
    dist = float(np.asarray(data, dtype=float).ravel()[1])
    noisy = np.floor(dist + rng.laplace(0.0, 1.0 / params["epsilon"], size=out.shape))
    return np.where(out == -1, noisy, out)


distance_to_instability_leaks_distance = post_processed(
    distance_to_instability, _leak,
    "A_stab that outputs a noisy distance instead of bottom (releases more than f(D) or bottom).")
