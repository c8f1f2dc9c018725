"""Former negative controls of the calibration checks, now implementation mutants
(:mod:`dptestbed.impl.calibration.mutants`, where they are declared with what they break and
the checks that kill them). Re-exported here so that references to ``controls:NAME`` keep
working."""

from .mutants import exponential_mechanism_half_epsilon, gaussian_2x_noise, laplace_30pct_more_noise

__all__ = ["laplace_30pct_more_noise", "gaussian_2x_noise", "exponential_mechanism_half_epsilon"]
