"""Competitive checks of seed 000 Sec. 4 (conformance): the implementation's accuracy against the
spec's reference algorithm on the same instance. Registered on import by audits/checks/experiments.py.

The paper's accuracy bounds sit 10-300 times above the reference's error on the testbed's instances
(Corollary 4.1: 0.00375 against T/m = 0.375; Theorem 4.6: 0.0026 against 15 alpha = 0.75), so an
implementation several times less accurate than the paper's algorithm keeps every bound. Beside
each such bound a check compares the implementation with the reference at the bound check's
parameter point (epsilon, delta, m, T, k), on one instance drawn for the check, with as many runs
of the reference (its own stream, ``Context.sample_reference``) as of the implementation:
failure = a run whose error exceeds ``FACTOR`` times an upper 0.999 confidence bound on the
reference's (1 - ``BETA``) error quantile (``experiments.reference_comparison``), tested against
``BETA``. It tests conformance (a law or accuracy that differs from the spec's algorithm), not the
paper's statement: "differs from the spec".

The instance makes the mechanism's part of the error the whole error. The chunk classifiers are the
midpoint consistent learner (the middle of the version space (L, R] of thresholds consistent with
the chunk's records: L the largest negative point, R the smallest positive one; a valid realizable
ERM) on n' = 2 uniform records per chunk, with its exact law (:func:`midpoint_thresholds_exact`).
Its law is symmetric about t* = 1/2, so the chunk majority is right on every query but t* itself
and every misclassification is the mechanism's: the bottoms of the sparse vector around the decision
boundary (where the vote gap is below the threshold w, about k/17 with the paper's k). On these
instances the reference misclassifies 2.4-3.3% of the queries and a run's error is concentrated
(its 0.9 quantile within 10% of its mean), so an implementation whose error is about 1.7 times the
reference's fails nearly every run: the check states the multiple it detects
(``detectable_factor``: the smallest multiple c such that c times the reference's measured errors
fails with power >= 1/2 at level 1e-4, ``experiments.detectable_factor``). A constant label (error 1/2) fails; a
mechanism without noise (no bottoms) passes here and fails the privacy audit.
"""

from __future__ import annotations

import math

import numpy as np

from dptestbed.audits.api import Context, Control, experiment, reference_comparison, scalar

from .classification import CTRL_PCQ_CONST
from .label_private import CTRL_LPL_CONST
from .thresholds import T_STAR, votes_on

_MUT = "dptestbed.impl.model_agnostic.mutants"
FACTOR = 1.5  # a run fails when its error exceeds FACTOR x the reference's upper (1 - BETA) quantile
BETA = 0.1
N_PRIME = 2  # records per chunk of the midpoint learner: a wide band of bottoms (tens of queries per run)
TRIALS = {"quick": 400, "full": 2_000}

CTRL_PCQ_EPS_THIRD = Control("private_classification_queries_epsilon_third",
                             f"{_MUT}:private_classification_queries_epsilon_third",
                             "Sec. 4.1 mechanism calibrated with epsilon/3 (lam and w 3 times the spec's): "
                             "(epsilon/3, delta)-DP, about 3 times the reference's misclassification")
CTRL_LPL_EPS_THIRD = Control("label_private_learner_epsilon_third", f"{_MUT}:label_private_learner_epsilon_third",
                             "A_Priv whose labelling run is calibrated with epsilon/3: about 3 times the "
                             "reference's err(h_hat)")


def midpoint_thresholds_exact(rng, k: int, n_prime: int, t_star: float = T_STAR) -> np.ndarray:
    """k chunk thresholds of the midpoint consistent learner on n' uniform points labelled 1[x >= t*],
    exact law: N+ ~ Bin(n', 1 - t*) points lie above t*, the smallest of them at t* + (1 - t*)(1 - U^(1/N+))
    (R = 1 when N+ = 0), the largest of the N- = n' - N+ below at t* - t*(1 - V^(1/N-)) (L = 0 when N- = 0);
    the threshold is (L + R)/2."""
    above = rng.binomial(n_prime, 1 - t_star, size=k)
    below = n_prime - above
    u, v = rng.random(k), rng.random(k)
    right = np.where(above > 0, t_star + (1 - t_star) * (1 - u ** (1.0 / np.maximum(above, 1))), 1.0)
    left = np.where(below > 0, t_star - t_star * (1 - v ** (1.0 / np.maximum(below, 1))), 0.0)
    return (left + right) / 2


def _instance(ctx: Context) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(public points x ~ U[0, 1], target labels 1[x >= t*], votes of k_chunks midpoint chunk classifiers, k)."""
    k = int(math.ceil(scalar(ctx.env["k"]) - 1e-9))
    thresholds = midpoint_thresholds_exact(ctx.rng, k, N_PRIME)
    x = ctx.rng.random(int(ctx.params["m"]))
    return x, (x >= T_STAR).astype(np.int64), votes_on(thresholds, x), k


def compare(impl_errors: np.ndarray, reference_errors: np.ndarray, **detail) -> dict:
    """``reference_comparison`` at FACTOR and BETA, with the implementation's quantile and the instance."""
    out = reference_comparison(impl_errors, reference_errors, factor=FACTOR, beta=BETA)
    out["error_quantile"] = float(np.quantile(impl_errors, 1 - BETA))
    out["instance"].update(detail)
    return out


# =========================================================================== Sec. 4.1 mechanism


def _pcq_errors(out: np.ndarray, y: np.ndarray, quantity: str, rng) -> np.ndarray:
    out = np.asarray(out).reshape(-1, y.size)
    if quantity == "h_priv":  # bottom and not answered replaced by a fair coin (seed l.350)
        out = np.where(out >= 0, out, rng.integers(0, 2, size=out.shape))
    return np.mean(out != y[None, :], axis=1)


def _pcq_vs_reference(ctx: Context, quantity: str) -> dict:
    x, y, votes, k = _instance(ctx)
    impl = _pcq_errors(ctx.sample(votes, ctx.trials), y, quantity, ctx.rng)
    ref = _pcq_errors(ctx.sample_reference(votes, ctx.trials), y, quantity, ctx.rng)
    return compare(impl, ref, chunks=k, n_prime=N_PRIME, m=int(ctx.params["m"]), T=int(ctx.params["T"]))


_PCQ_TITLE = ("(conformance: accuracy against the spec's algorithm, not a bound of the paper) the mechanism's {what} "
              "on the same votes as the reference's: P[{short} > 1.5 q] <= 0.1, q an upper 0.999 confidence bound on "
              "the reference's 0.9 quantile")
_PCQ_INSTANCE = ("{point}; one instance: k = {k:,} chunk classifiers, each the midpoint consistent learner on "
                 "n' = 2 uniform records (exact law, symmetric about t* = 0.5: the chunk majority is right on every "
                 "query, every error is the mechanism's bottom band), m public points x ~ U[0, 1] with target labels "
                 "1[x >= 0.5]; 400 runs of the implementation and 400 of the reference (its own stream) on the same "
                 "votes. The bound beside it sits {ratio} times above the reference's error; here the reference errs "
                 "{ref} and a mechanism about 1.7 times worse fails (detectable_factor)")
_PCQ_POINTS = (
    # (ref, name, params, point text, k, ratio of the bound check, reference error on this instance, quantity)
    ("Corollary 4.1", "vs-reference", {"epsilon": 8.0, "delta": 1e-3, "m": 800, "T": 300, "alpha": 0.05, "beta": 0.1,
                                       "gamma": 0.0},
     "the point of thresholds-realizable: epsilon = 8, delta = 1e-3, m = 800, T = 300", 16_790, "100", "about 0.026",
     "misclassification"),
    ("Theorem 4.3", "vs-reference", {"epsilon": 8.0, "delta": 1e-3, "m": 1843, "T": 841, "alpha": 0.1, "beta": 0.1,
                                     "gamma": 0.0},
     "the point of thresholds-sweep: epsilon = 8, delta = 1e-3, m = 1,843, T = 841", 30_647, "74", "about 0.024",
     "misclassification"),
    ("Theorem 4.4", "vs-reference", {"epsilon": 8.0, "delta": 1e-3, "m": 2765, "T": 1097, "alpha": 0.08, "beta": 0.15,
                                     "gamma": 0.01},
     "the point of moderate-epsilon: epsilon = 8, delta = 1e-3, m = 2,765, T = 1,097 (misclassification against the "
     "target's labels, without the flip noise, whose floor gamma both would share)", 36_044, "29", "about 0.033",
     "misclassification"),
    ("Claim 4.5", "vs-reference", {"epsilon": 8.0, "delta": 1e-3, "m": 1843, "T": 841, "alpha": 0.1, "beta": 0.1,
                                   "gamma": 0.0},
     "the point of h-priv-thresholds: epsilon = 8, delta = 1e-3, m = 1,843, T = 841; err(h_priv) with every bottom "
     "and unanswered point replaced by a fair coin", 30_647, "108", "about 0.012", "h_priv"),
)

for _ref, _name, _params, _point, _k, _ratio, _err, _quantity in _PCQ_POINTS:
    _what, _short = (("misclassification rate (bottom and not answered count as mistakes)", "misclassification")
                     if _quantity == "misclassification" else ("err(h_priv) (bottom and not answered -> coin)",
                                                               "err(h_priv)"))
    experiment("private_classification_queries", _ref, _name, "bound",
               title=_PCQ_TITLE.format(what=_what, short=_short),
               instance=_PCQ_INSTANCE.format(point=_point, k=_k, ratio=_ratio, ref=_err),
               predicate=f"failure: a run's {_short} exceeds 1.5 q",
               trials=TRIALS, params=_params, controls=(CTRL_PCQ_CONST, CTRL_PCQ_EPS_THIRD), tests="conformance",
               slack_definition="0.9 quantile of the implementation's error over 1.5 q")(
        lambda ctx, _quantity=_quantity: _pcq_vs_reference(ctx, _quantity))


# =========================================================================== A_Priv (Alg 5)


APRIV_SUPPORT = (0.6, 0.4)  # public points lo + width u: the target sits at 0.8, so the threshold 0.5 errs 1/2


def _apriv_vs_reference(ctx: Context) -> dict:
    u, _, votes, k = _instance(ctx)
    lo, width = APRIV_SUPPORT
    data = {"x": lo + width * u, "votes": votes}

    def errors(t_hat):  # err(h_t) = |t - t*| in the support's unit coordinate (t = +-inf: 1/2)
        t_hat = np.asarray(t_hat, dtype=float).reshape(-1)
        return np.abs(np.clip((np.nan_to_num(t_hat, posinf=lo + width, neginf=lo) - lo) / width, 0.0, 1.0) - T_STAR)

    impl, ref = errors(ctx.sample(data, ctx.trials)), errors(ctx.sample_reference(data, ctx.trials))
    return compare(impl, ref, chunks=k, n_prime=N_PRIME, m=int(ctx.params["m"]), T=int(ctx.params["T"]))


_LPL_POINTS = (
    ("Theorem 4.6", {"epsilon": 8.0, "delta": 1e-3, "m": 9587, "T": 2165, "alpha": 0.05, "beta": 0.05, "gamma": 0.0},
     "the point of moderate-epsilon: epsilon = 8, delta = 1e-3, m = 9,587, T = 2,165", 54_830, "290"),
    ("Theorem 4.7", {"epsilon": 8.0, "delta": 1e-3, "m": 9587, "T": 2451, "alpha": 0.05, "beta": 0.05, "gamma": 0.01},
     "the point of moderate-epsilon: epsilon = 8, delta = 1e-3, m = 9,587, T = 2,451 (err(h_hat) against the "
     "target, without the flip noise, whose floor both would share)", 58_627, "69"),
)

for _ref, _params, _point, _k, _ratio in _LPL_POINTS:
    experiment("label_private_learner", _ref, "vs-reference", "bound",
               title="(conformance: accuracy against the spec's algorithm, not a bound of the paper) err(h_hat) of the "
                     "learner on the same public points and votes as the reference's: P[err(h_hat) > 1.5 q] <= 0.1, "
                     "q an upper 0.999 confidence bound on the reference's 0.9 quantile",
               instance=f"{_point}; one instance: k = {_k:,} midpoint chunk classifiers on n' = 2 records each (exact "
                        "law, symmetric about t* = 0.5: the chunk majority is right everywhere, the bottoms of the "
                        "labelling run around t* get coin labels and move the final ERM threshold), m public points "
                        "x ~ U[0.6, 1] (the votes' u ~ U[0, 1] mapped to 0.6 + 0.4 u: the target sits at 0.8, so the "
                        "constant threshold 0.5 errs 1/2), err(h_hat) = |t_hat - 0.8|/0.4; 400 runs of the learner and 400 of the reference on "
                        f"the same data. The bound beside it sits {_ratio} times above the reference's error; here the "
                        "reference's mean err(h_hat) is about 0.008 (0.9 quantile 0.013) and a learner 2 times worse "
                        "fails (detectable_factor)",
               predicate="failure: a run's err(h_hat) exceeds 1.5 q",
               trials=TRIALS, params=_params, controls=(CTRL_LPL_CONST, CTRL_LPL_EPS_THIRD), tests="conformance",
               seconds={"quick": 240.0, "full": 1800.0},
               slack_definition="0.9 quantile of the learner's err(h_hat) over 1.5 q")(_apriv_vs_reference)
