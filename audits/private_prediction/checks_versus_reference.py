"""Competitive checks of seed 002 (conformance): the implementation's accuracy against the spec's
reference algorithm on the same instances, beside the paper bounds that sit far above the reference's
error on the testbed's instances (Theorem 1: 0.0005 against alpha = 0.01; Corollary 1: an excess of
0.03 against alpha = 0.2; Corollary 3: a loss 30 times below its bound). An implementation several
times less accurate than the paper's algorithm keeps those bounds; each check here compares it with
the reference at the bound check's point, on the same datasets (and queries), as many draws of each:
failure = a dataset on which the implementation's error exceeds 1.5 times an upper 0.999 confidence
bound on the reference's 0.9 quantile (``experiments.reference_comparison``), tested against 0.1. It
tests conformance ("differs from the spec"), not the paper's statement; the instance states the
multiple of the reference's error it detects (``detectable_factor``). Registered on import by
audits/checks/experiments.py.
"""

from __future__ import annotations

import numpy as np

from dptestbed.audits.api import Context, experiment, reference_comparison, scalar

from .checks_pac import CONSTANT, SPEC, THETA, THM1_PARAMS, threshold_data
from .checks_stable import (
    AGN,
    AGN_CONST,
    ERM_COMMON,
    ERM_NEGATED,
    RIDGE_LL,
    agnostic_errors,
    ridge_opt,
    ridge_population_losses,
)
from .common import mutant_control

FACTOR, BETA = 1.5, 0.1
TITLE = ("(conformance: accuracy against the spec's algorithm, not a bound of the paper) {what} on the same {data} "
         "as the reference's: P[{short} > 1.5 q] <= 0.1, q an upper 0.999 confidence bound on the reference's 0.9 "
         "quantile")
THIRD = mutant_control("soft_majority_third_of_block", "teachers trained on the first third of their blocks: about 2.5 "
                                                       "times the reference's error")
ERM_TRIPLE_LAM = mutant_control("erm_triple_regularisation", "the ERM regularised with 3 lam: about 4 times the "
                                                             "reference's excess loss")


def _compare(impl: np.ndarray, ref: np.ndarray, **detail) -> dict:
    out = reference_comparison(impl, ref, factor=FACTOR, beta=BETA)
    out["error_quantile"] = float(np.quantile(impl, 1 - BETA))
    out["instance"].update(detail)
    return out


QUERIES = 100_000


def _theorem1_errors(ctx: Context) -> tuple[np.ndarray, np.ndarray]:
    """err_D of the implementation and of the reference per fresh threshold dataset, each from the same QUERIES
    uniform queries with one answer of each."""
    n = int(scalar(ctx.env["sample_size"]))
    impl, ref = np.empty(ctx.trials), np.empty(ctx.trials)
    for t in range(ctx.trials):
        X, y = threshold_data(ctx.rng, n)
        x = ctx.rng.random(QUERIES)
        data = {"X": X[0], "y": y[0], "x": x}
        impl[t] = np.mean(ctx.sample(data, 1).reshape(-1) != (x >= THETA))
        ref[t] = np.mean(ctx.sample_reference(data, 1).reshape(-1) != (x >= THETA))
    return impl, ref


for _spec, _extra in ((SPEC, {}), ("subsample_aggregate_prediction", {"delta": THM1_PARAMS["alpha"]})):
    experiment(_spec, "Theorem 1", "vs-reference", "bound",
               title=TITLE.format(what="err_D(M(S)) of the soft majority", data="threshold datasets and queries",
                                  short="err_D"),
               instance="the point of thresholds-explicit-n: thresholds on [0, 1], target 1/2, D = U[0, 1], epsilon = 2, "
                        "alpha = 0.01, beta = 0.2 (r = 18 threshold teachers of m = 1,798 records, n = 32,364); per "
                        f"trial a fresh dataset and {QUERIES:,} uniform queries answered by the implementation and by the "
                        "reference (its own stream); err_D estimated from them. The bound alpha sits 20 times above "
                        "the reference's 0.8 quantile (0.0005); here the reference's mean error is about 0.0005 and an "
                        "implementation about 2 times worse fails (detectable_factor)",
               predicate="failure: a dataset's err_D exceeds 1.5 q",
               trials={"quick": 300, "full": 3_000}, params={**THM1_PARAMS, **_extra}, controls=(CONSTANT, THIRD),
               tests="conformance", seconds={"quick": 120.0, "full": 1800.0},
               slack_definition="0.9 quantile of the implementation's err_D over 1.5 q")(
        lambda ctx: _compare(*_theorem1_errors(ctx), queries=QUERIES))


@experiment(
    "agnostic_private_prediction_corrected", "Corollary 1", "vs-reference", "bound",
    title=TITLE.format(what="the excess error err_P(M(S)) - OPT", data="grid-threshold datasets", short="excess error"),
    instance="the point of grid-thresholds: X = U[0, 1], y = 1[x >= 1/2] XOR Bern(0.2) (OPT = 0.2), 101 grid "
             "thresholds, grid ERM teachers, epsilon = 1, alpha = 0.2, beta = 0.2 (r = 10, m = 1,844); the excess "
             "error of each dataset exact given the votes, with Pr[label 1 | votes] of the implementation and of "
             "the reference each from 200,000 runs per vote count. The bound alpha sits 6.7 times above the "
             "reference's 0.8 quantile of the excess (0.03); an implementation about 2 times worse fails "
             "(detectable_factor)",
    predicate="failure: a dataset's excess error exceeds 1.5 q",
    trials={"quick": 300, "full": 5000},
    params={"epsilon": 1.0, "alpha": 0.2, "beta": 0.2, "N": AGN["grid"]},
    controls=(AGN_CONST, mutant_control("agnostic_triple_noise", "rounding noise Lap(3/(r eps)): about 3 times the "
                                                                 "reference's excess error")),
    tests="conformance",
    slack_definition="0.9 quantile of the implementation's excess error over 1.5 q",
)
def _corollary1_vs_reference(ctx: Context) -> dict:
    impl, ref = agnostic_errors(ctx, [ctx.sample, ctx.sample_reference], ctx.trials) - AGN["eta"]
    return _compare(impl, ref, OPT=AGN["eta"])


@experiment(
    "convex_erm_prediction", "Corollary 3", "vs-reference", "bound",
    title=TITLE.format(what="the excess population loss E_P l(M(S)) - OPT", data="datasets and test points",
                       short="excess loss"),
    instance="the point of ridge-lam-cor3: x uniform on the unit sphere of R^3, y = <w*, x> + U[-0.1, 0.1], "
             "|w*| = 0.75, K = B(1), squared loss, n = 10,000, lam = lam_cor3 = 0.0523, c_gamma = 4, epsilon = 1; "
             "per trial a fresh dataset and 2,000 test points answered by the implementation and by the reference; "
             "the excess over OPT = 0.00167. Corollary 3's bound sits 30 times above the reference's loss; here the "
             "reference's mean excess is about 0.002 and an implementation about 1.7 times worse fails "
             "(detectable_factor)",
    predicate="failure: a dataset's excess loss exceeds 1.5 q",
    trials={"quick": 300, "full": 3000},
    params={**ERM_COMMON, "n": 10_000, "c_gamma": 4.0, "epsilon": 1.0, "lam": 2 * RIDGE_LL / np.sqrt(5000.0)},
    controls=(ERM_NEGATED, ERM_TRIPLE_LAM),
    tests="conformance",
    slack_definition="0.9 quantile of the implementation's excess loss over 1.5 q",
)
def _corollary3_vs_reference(ctx: Context) -> dict:
    impl, ref = ridge_population_losses(ctx, int(scalar(ctx.env["n"])), ctx.trials, reference=True) - ridge_opt()
    return _compare(impl, ref, OPT=ridge_opt())
