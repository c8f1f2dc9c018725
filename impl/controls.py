"""Negative controls: deliberately broken variants of the reference implementations.

Every theorem check ships at least one of these, and ``dptestbed verify`` must report each
as violated (the check's power is shown, not assumed). Each control is the reference
implementation with exactly one thing broken, obtained either by handing the reference a
wrong parameter (which is how such bugs arise: a mis-derived scale) or by post-processing
its output. All keep the contract ``mechanism(data, *, rng, **params)`` and carry a batch
sampler. They are never used as implementations of a spec.
"""

from __future__ import annotations

import inspect
import math

import numpy as np

from .contract import batched

__all__ = [
    "laplace_30pct_more_noise",
    "sparse_vector_3x_noise", "sparse_vector_30pct_more_noise", "sparse_vector_halts_early",
    "distance_to_instability_2x_noise", "distance_to_instability_threshold_shifted",
    "distance_to_instability_threshold_halved", "distance_to_instability_leaks_distance",
    "gaussian_2x_noise", "exponential_mechanism_half_epsilon",
]


def _accepted(function, params: dict) -> dict:
    """The subset of ``params`` that ``function``'s signature names (all of them with **kw)."""
    signature = inspect.signature(function)
    if any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()):
        return dict(params)
    return {k: v for k, v in params.items() if k in signature.parameters}


def _call(reference, data, rng, params):
    return reference(data, rng=rng, **_accepted(reference, params))


def _call_batch(reference, data, n, rng, params):
    sampler = getattr(reference, "batch", None)
    if sampler is not None:
        return np.asarray(sampler(data, n, rng=rng, **_accepted(sampler, params)))
    return np.stack([np.asarray(_call(reference, data, rng, params)) for _ in range(n)])


def _laplace():
    from .laplace import laplace_mechanism
    return laplace_mechanism


def _sparse_vector():
    from .sparse_vector import sparse_vector
    return sparse_vector


def _distance_to_instability():
    from .distance_to_instability import distance_to_instability
    return distance_to_instability


# --------------------------------------------------------------------------- Laplace


def _laplace_more(params):
    params = dict(params)
    params["epsilon"] = params["epsilon"] / 1.3  # scale gamma/epsilon is 30% larger
    return params


def _laplace_30_batch(data, n, *, rng, **params):
    return _call_batch(_laplace(), data, n, rng, _laplace_more(params))


@batched(_laplace_30_batch)
def laplace_30pct_more_noise(data, *, rng, **params):
    """Laplace mechanism whose noise scale is 1.3 gamma/epsilon (the Tumult fudge factor)."""
    return _call(_laplace(), data, rng, _laplace_more(params))


# --------------------------------------------------------------------------- sparse vector


def _svt_scaled(factor):
    def transform(params):
        params = dict(params)
        params["epsilon"] = params["epsilon"] / factor  # lam = sqrt(32 T log(1/delta))/epsilon
        return params
    return transform


_svt3 = _svt_scaled(3.0)
_svt13 = _svt_scaled(1.3)


def _svt3_batch(data, n, *, rng, **params):
    return _call_batch(_sparse_vector(), data, n, rng, _svt3(params))


@batched(_svt3_batch)
def sparse_vector_3x_noise(data, *, rng, **params):
    """Sparse vector with lam three times too large (threshold and query noise)."""
    return _call(_sparse_vector(), data, rng, _svt3(params))


def _svt13_batch(data, n, *, rng, **params):
    return _call_batch(_sparse_vector(), data, n, rng, _svt13(params))


@batched(_svt13_batch)
def sparse_vector_30pct_more_noise(data, *, rng, **params):
    """Sparse vector with lam 30% too large."""
    return _call(_sparse_vector(), data, rng, _svt13(params))


def _halt_early(out: np.ndarray, T: int) -> np.ndarray:
    """Post-process transcripts so that the run stops after the T-th bottom (``while c < T``)."""
    out = np.array(out, dtype=np.int8, copy=True)
    squeeze = out.ndim == 1
    out = np.atleast_2d(out)
    bottoms = np.cumsum(out == 0, axis=1)
    after = np.concatenate([np.zeros((out.shape[0], 1), bool), bottoms[:, :-1] >= T], axis=1)
    out[after] = -1
    return out[0] if squeeze else out


def _halts_early_batch(data, n, *, rng, **params):
    return _halt_early(_call_batch(_sparse_vector(), data, n, rng, params), int(params["T"]))


@batched(_halts_early_batch)
def sparse_vector_halts_early(data, *, rng, **params):
    """Sparse vector that halts after T bottoms instead of T + 1 (the loop reads ``c < T``)."""
    return _halt_early(_call(_sparse_vector(), data, rng, params), int(params["T"]))


# --------------------------------------------------------------------------- distance to instability


def _dti_2x(params):
    # noise Lap(2/epsilon) with the threshold Gamma = log(1/delta)/epsilon unchanged:
    # epsilon' = epsilon/2 and log(1/delta') = log(1/delta)/2
    params = dict(params)
    params["epsilon"] = params["epsilon"] / 2
    params["delta"] = math.sqrt(params["delta"])
    return params


def _dti_shift(params):
    # Gamma' = log(1/delta')/epsilon = Gamma + 1/epsilon
    params = dict(params)
    params["delta"] = params["delta"] * math.exp(-1.0)
    return params


def _dti_halve(params):
    # Gamma' = Gamma / 2
    params = dict(params)
    params["delta"] = math.sqrt(params["delta"])
    return params


def _dti_2x_batch(data, n, *, rng, **params):
    return _call_batch(_distance_to_instability(), data, n, rng, _dti_2x(params))


@batched(_dti_2x_batch)
def distance_to_instability_2x_noise(data, *, rng, **params):
    """A_stab adding Lap(2/epsilon) (as if dist had sensitivity 2), threshold unchanged."""
    return _call(_distance_to_instability(), data, rng, _dti_2x(params))


def _dti_shift_batch(data, n, *, rng, **params):
    return _call_batch(_distance_to_instability(), data, n, rng, _dti_shift(params))


@batched(_dti_shift_batch)
def distance_to_instability_threshold_shifted(data, *, rng, **params):
    """A_stab with the threshold Gamma shifted up by 1/epsilon."""
    return _call(_distance_to_instability(), data, rng, _dti_shift(params))


def _dti_halve_batch(data, n, *, rng, **params):
    return _call_batch(_distance_to_instability(), data, n, rng, _dti_halve(params))


@batched(_dti_halve_batch)
def distance_to_instability_threshold_halved(data, *, rng, **params):
    """A_stab with the threshold log(1/delta)/(2 epsilon): half the paper's Gamma."""
    return _call(_distance_to_instability(), data, rng, _dti_halve(params))


def _leak(out, data, rng, params):
    """Where the reference outputs bottom (-1), output a noisy distance instead (trap P10)."""
    out = np.asarray(out)
    dist = float(np.asarray(data, dtype=float).ravel()[1])
    noisy = np.floor(dist + rng.laplace(0.0, 1.0 / params["epsilon"], size=out.shape))
    return np.where(out == -1, noisy, out)


def _leaks_batch(data, n, *, rng, **params):
    return _leak(_call_batch(_distance_to_instability(), data, n, rng, params), data, rng, params)


@batched(_leaks_batch)
def distance_to_instability_leaks_distance(data, *, rng, **params):
    """A_stab that outputs a noisy distance instead of bottom (releases more than f(D) or bottom)."""
    return _leak(_call(_distance_to_instability(), data, rng, params), data, rng, params)


# --------------------------------------------------------------------------- Gaussian mechanism


def _gaussian():
    from .gaussian import gaussian_mechanism
    return gaussian_mechanism


def _gauss_2x(params):
    params = dict(params)
    if "sigma" in params:  # the mechanism is parameterised by its standard deviation
        params["sigma"] = params["sigma"] * 2.0
    else:  # classical calibration sigma = sensitivity*sqrt(2 log(1.25/delta))/epsilon
        params["sensitivity"] = params["sensitivity"] * 2.0
    return params


def _gauss_2x_batch(data, n, *, rng, **params):
    return _call_batch(_gaussian(), data, n, rng, _gauss_2x(params))


@batched(_gauss_2x_batch)
def gaussian_2x_noise(data, *, rng, **params):
    """Gaussian mechanism with twice the standard deviation."""
    return _call(_gaussian(), data, rng, _gauss_2x(params))


# --------------------------------------------------------------------------- exponential mechanism


def _exponential():
    from .exponential import exponential_mechanism
    return exponential_mechanism


def _exp_flat(params):
    params = dict(params)
    params["epsilon"] = params["epsilon"] / 2  # exp(-epsilon*u/(4*sensitivity)): one factor 2 too many
    return params


def _exp_flat_batch(data, n, *, rng, **params):
    return _call_batch(_exponential(), data, n, rng, _exp_flat(params))


@batched(_exp_flat_batch)
def exponential_mechanism_half_epsilon(data, *, rng, **params):
    """Exponential mechanism sampling with exp(-epsilon*u/(4*sensitivity)) (a factor 2 too many)."""
    return _call(_exponential(), data, rng, _exp_flat(params))
