"""Exact privacy profiles of the seed-002 mechanisms (registered by reference implementation).

- soft majority (Theorem 1) and its prose variant (E1): the label law [1 - p, p] with
  p = logistic(f eps nu) on both vote vectors (f = 1/2, resp. 1); exact discrete epsilon;
- agnostic prediction (Corollary 1): the label law P1(v) = E[clip(v + Lap(1/(r eps)), 0, 1)];
- Laplace prediction (Theorem 3): |A(S,x) - A(S',x)|/b, b = gamma/eps (per query, summed);
- Gaussian prediction: Balle-Wang on the shift, with the corrected or the printed sigma (E2);
- convex ERM: the two exact minimisers give the shift of <w, x>; then the Laplace profile.
Dataset-form inputs of the soft majority are reduced to their votes by the reference teachers.
"""

from __future__ import annotations

import numpy as np

from dptestbed.audits.api import discrete_epsilon, gaussian_epsilon, laplace_epsilon, register
from dptestbed.impl.private_prediction import convex_erm, soft_majority, stable

PKG = "dptestbed.impl.private_prediction"


def _nu(data, env) -> np.ndarray:
    r = soft_majority.n_teachers(float(env["epsilon"]), float(env["alpha"]))
    return soft_majority.margins(data, r)[0]


def _soft_majority_factory(factor):
    def profile(data, neighbour, env, delta):
        eps = float(env["epsilon"])
        nu, nu2 = _nu(data, env), _nu(neighbour, env)
        p, q = (soft_majority.vote_probability(v, eps, factor) for v in (nu, nu2))
        # independent queries compose: the product law's epsilon at delta = 0 is the sum
        if delta > 0 and nu.size > 1:
            return None
        return float(sum(discrete_epsilon([1 - a, a], [1 - b, b], delta) for a, b in zip(p, q)))
    return profile


register(f"{PKG}.soft_majority:subsample_aggregate_prediction",
         f"{PKG}.soft_majority:subsample_aggregate_prediction_corrected")(_soft_majority_factory(0.5))
register(f"{PKG}.soft_majority:subsample_aggregate_prediction_broken")(_soft_majority_factory(1.0))


def _agnostic_factory(printed):
    def profile(data, neighbour, env, delta):
        eps = float(env["epsilon"])
        r = stable.agnostic_teachers(eps, float(env["alpha"]), printed)
        b = 1.0 / (r * eps)
        p, q = (float(stable.rounding_probability(stable.agnostic_average(v, r), b)) for v in (data, neighbour))
        return discrete_epsilon([1 - p, p], [1 - q, q], delta)
    return profile


register(f"{PKG}.stable:agnostic_private_prediction")(_agnostic_factory(True))
register(f"{PKG}.stable:agnostic_private_prediction_corrected")(_agnostic_factory(False))


def _shift(data, neighbour):
    return np.atleast_1d(np.asarray(data, dtype=float)) - np.atleast_1d(np.asarray(neighbour, dtype=float))


@register(f"{PKG}.stable:stable_laplace_prediction")
def _laplace(data, neighbour, env, delta):
    return laplace_epsilon(_shift(data, neighbour), float(env["gamma"]) / float(env["epsilon"]), delta)


def _gaussian(ref: str, sigma_of) -> None:
    """The exact epsilon profile and the exact mu (the shift over sigma) of the Gaussian noise ``sigma_of``."""
    def sigma(env):
        return sigma_of(float(env["epsilon"]), float(env["delta"]), float(env["gamma"]))

    register(ref)(lambda data, neighbour, env, delta: gaussian_epsilon(_shift(data, neighbour), sigma(env), delta))
    register(ref, kind="gdp")(lambda data, neighbour, env: float(np.linalg.norm(_shift(data, neighbour))) / sigma(env))


_gaussian(f"{PKG}.stable:stable_gaussian_prediction", stable.sigma_gaussian)
_gaussian(f"{PKG}.stable:stable_gaussian_prediction_broken", stable.sigma_gaussian_printed)


def erm_prediction(data, env) -> np.ndarray:
    """<w^_S, x> of the exact minimiser at the spec's parameters."""
    X, y, x = (np.asarray(data[k], dtype=float) for k in ("X", "y", "x"))
    w = convex_erm.fit(np.atleast_2d(X), y, loss=env["loss"], lam=float(env["lam"]), R=float(env["R"]),
                       L_f=float(env["L_f"]))
    return np.atleast_1d(np.atleast_2d(x) @ w)


@register(f"{PKG}.convex_erm:convex_erm_prediction")
def _convex_erm(data, neighbour, env, delta):
    gamma = convex_erm.certified_gamma(L_f=float(env["L_f"]), L_l=float(env["L_l"]), lam=float(env["lam"]),
                                       n=float(env["n"]), c_gamma=float(env["c_gamma"]))
    return laplace_epsilon(erm_prediction(data, env) - erm_prediction(neighbour, env),
                           gamma / float(env["epsilon"]), delta)


@register(f"{PKG}.session:budgeted_session")
def _session(data, neighbour, env, delta):
    answered = int(np.floor(float(env["epsilon_total"]) / float(env["epsilon"]) + 1e-12))
    shift = _shift(data, neighbour)[:answered]
    return laplace_epsilon(shift, float(env["gamma"]) / float(env["epsilon"]), delta)
