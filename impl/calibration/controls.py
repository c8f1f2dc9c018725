"""Broken variants of the calibration mechanisms: each the reference with one bug.

Every theorem check of a calibration spec names at least one of these, and ``dptestbed
verify`` must report each as violated (the check's power is shown, not assumed).
"""

from __future__ import annotations

from ..mutant import with_params
from .exponential import exponential_mechanism
from .gaussian import gaussian_mechanism
from .laplace import laplace_mechanism

__all__ = ["laplace_30pct_more_noise", "gaussian_2x_noise", "exponential_mechanism_half_epsilon"]


def _epsilon_over(factor: float):
    def transform(params: dict) -> dict:
        params["epsilon"] = params["epsilon"] / factor
        return params
    return transform


laplace_30pct_more_noise = with_params(
    laplace_mechanism, _epsilon_over(1.3),
    "Laplace mechanism whose noise scale is 1.3 gamma/epsilon (the Tumult fudge factor).")


def _gauss_2x(params: dict) -> dict:
    if "sigma" in params:  # the mechanism is parameterised by its standard deviation
        params["sigma"] = params["sigma"] * 2.0
    else:  # classical calibration sigma = sensitivity*sqrt(2 log(1.25/delta))/epsilon
        params["sensitivity"] = params["sensitivity"] * 2.0
    return params


gaussian_2x_noise = with_params(gaussian_mechanism, _gauss_2x, "Gaussian mechanism with twice the standard deviation.")

exponential_mechanism_half_epsilon = with_params(
    exponential_mechanism, _epsilon_over(2.0),
    "Exponential mechanism sampling with exp(-epsilon*u/(4*sensitivity)) (a factor 2 too many).")
