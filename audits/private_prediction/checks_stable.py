"""Theorem checks for seed 002 Sections 3.2-3.4: Theorem 4 (Lipschitz, smooth), Lemma 4 (two
queries), the Gaussian variant (Fact G1, Lemma 1 with delta), Lemma 2 (averaging), Corollary 1
(agnostic) and Corollaries 2-4 (convex ERM).

Every implementation is sampled through ``ctx.sample`` only. A claim on an expected loss is a bound
check: the loss of each trial, capped at a multiple of the bound, is rounded to a Bernoulli
(:func:`.common.rounded`), so the claim becomes P[failure] <= beta and the exact binomial test
decides it within the run's family. Property checks are exact (deterministic learners) or setup
validations.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from scipy import stats

from dptestbed.audits.api import NOISE_FUDGE, Cell, Context, Control, experiment, gaussian_delta, scalar
from dptestbed.impl.private_prediction import teachers

from .common import label_cells, mutant_control, rounded

DOUBLE = mutant_control("laplace_double_scale", "Lap(2 gamma/epsilon): twice the noise")
REUSED = mutant_control("laplace_noise_reused_across_queries", "one noise draw shared by all queries")
GAUSS_PRINTED = Control("gaussian_printed_variance", "dptestbed.impl.private_prediction.stable:stable_gaussian_prediction_broken",
                        "the report's variance gamma ln(1/delta)/epsilon (erratum E2)")
SUM = mutant_control("averaged_learner_sum", "sums the block predictions instead of averaging them")
AGN_CONST = mutant_control("agnostic_constant_label", "answers 0 at every query")
ERM_DOUBLE = mutant_control("erm_double_noise", "Lap(2 gamma/epsilon) on the ERM prediction")
ERM_NEGATED = mutant_control("erm_negated_labels", "fits the ERM on -y (label sign slip)")
ERM_LABELS01 = mutant_control("erm_labels_01", "fits the ERM on labels mapped to {0, 1}")


# =========================================================================== Theorem 4


CAP = 10.0   # the rounded extra loss is capped at CAP times the theorem's bound: beta = 1/CAP


def _noise_law_cells(ctx: Context, a: float, scale: float, sf) -> list[Cell]:
    """Cells Pr[|M(a) - a| > t scale] against sf(t) (and sf at the scale off by +-30%)."""
    out = ctx.sample(a, ctx.trials)
    cells = []
    for t in (0.25, 1.0, 2.5):
        events = int(np.sum(np.abs(out - a) > t * scale))
        alts = tuple(float(sf(t / f)) for f in (1 + NOISE_FUDGE, 1 - NOISE_FUDGE))
        cells.append(Cell(f"|M(a) - a| > {t:g} scale", ctx.trials, events, float(sf(t)), alts))
    return cells


def _extra_loss_bound(ctx: Context, extra_of) -> dict:
    """Theorem 4 at a = y as a bound check: the extra loss ``extra_of(M - a)`` of each answer, rounded against CAP
    times the bound (:func:`.common.rounded`); half the answers from one-query calls, half from two-query calls where
    the spec has a query count (the theorem bounds every answer, however many a call holds; the spec's answers carry
    independent noise, Lemma 4)."""
    a, bound = 0.3, scalar(ctx.env["error_bound"])
    if "q" in ctx.spec.parameters:
        pairs = ctx.trials // 4
        answers = np.concatenate([np.asarray(ctx.sample(a, ctx.trials - 2 * pairs)).reshape(-1),
                                  np.asarray(ctx.sample(np.full(2, a), pairs, q=2)).reshape(-1)])
    else:
        answers = np.asarray(ctx.sample(a, ctx.trials)).reshape(-1)
    extra = extra_of(answers - a)
    return {"failures": rounded(ctx.rng, extra, CAP * bound), "trials": ctx.trials, "beta": 1 / CAP,
            "error_bound": bound, "slack": float(extra.mean()) / bound,
            "instance": {"extra_loss_mean": float(extra.mean()), "bound": bound, "cap": CAP * bound}}


for _spec in ("stable_laplace_prediction", "stable_laplace_prediction_corrected"):
    @experiment(
        _spec, "Theorem 4 (Lipschitz)", "noise-law", "calibration",
        title="the noise law behind Theorem 4(1): |M(S,x) - A(S,x)| ~ Exp(b), b = gamma/epsilon",
        instance="A(S, x) = 0.3, epsilon = 1, gamma = 1 (b = 1); cells at t = 0.25, 1, 2.5",
        predicate="Pr[|M - a| > t b] against e^(-t) (a Laplace scale off by 30% gives e^(-t/1.3), e^(-t/0.7))",
        trials={"quick": 100_000, "full": 2_000_000},
        params={"epsilon": 1.0, "gamma": 1.0},
        controls=(DOUBLE,),
    )
    def _thm4_lipschitz_law(ctx: Context) -> dict:
        b = scalar(ctx.env["b"])
        cells = _noise_law_cells(ctx, 0.3, b, lambda t: math.exp(-t))
        return {"cells": cells, "instance": {"extra_loss_bound": scalar(ctx.env["error_bound"]), "b": b}}

    @experiment(
        _spec, "Theorem 4 (Lipschitz)", "extra-absolute-loss", "bound",
        title="E[l(M(S,x), y)] - l(A(S,x), y) <= L_l gamma/epsilon for the absolute loss at a = y, where it is tight "
              "(the extra loss is E|xi| = b): each answer's extra loss |M - y|, rounded against a cap of 10 bounds, "
              "fails with probability E[min(|M - y|, 10 b)]/(10 b) <= 1/10 whenever the theorem holds",
        instance="A(S, x) = y = 0.3, L_l = 1, epsilon = 1, gamma = 1 (bound b = 1); one answer per trial (where the "
                 "spec has a query count q: half the answers from calls of q = 2 queries, both at 0.3)",
        predicate="failure: a uniform draw times 10 b falls below min(|M - y|, 10 b) (rate 0.099995 for Lap(b), "
                  "0.199 for Lap(2 b); reference alternative 0.2: an extra loss twice the bound)",
        trials={"quick": 100_000, "full": 2_000_000},
        params={"epsilon": 1.0, "gamma": 1.0, "L_l": 1.0},
        slack_definition="mean extra loss / bound",
        controls=(DOUBLE,),
    )
    def _thm4_lipschitz(ctx: Context) -> dict:
        L = scalar(ctx.env["L_l"])
        return _extra_loss_bound(ctx, lambda xi: L * np.abs(xi))


@experiment(
    "stable_laplace_prediction_corrected", "Theorem 4 (smooth)", "extra-squared-loss", "bound",
    title="E[l(M(S,x), y)] - l(A(S,x), y) <= sigma gamma^2/epsilon^2 for the sigma-smooth loss l = sigma (a - y)^2/2 "
          "at a = y, where it is tight (the extra loss is sigma E[xi^2]/2 = sigma b^2): each answer's extra loss, "
          "rounded against a cap of 10 bounds, fails with probability <= 1/10 whenever the theorem holds",
    instance="A(S, x) = y = 0.3, sigma = 1/4, epsilon = 1, gamma = 1 (bound sigma b^2 = 0.25); one answer per trial, "
             "half of them from calls of q = 2 queries",
    predicate="failure: a uniform draw times 10 sigma b^2 falls below min(sigma (M - y)^2/2, 10 sigma b^2) (rate "
              "0.094 for Lap(b), 0.26 for Lap(2 b); reference alternative 0.2)",
    trials={"quick": 200_000, "full": 4_000_000},
    params={"epsilon": 1.0, "gamma": 1.0, "sigma": 0.25},
    slack_definition="mean extra loss / bound",
    controls=(DOUBLE,),
)
def _thm4_smooth(ctx: Context) -> dict:
    sigma = scalar(ctx.env["sigma"])
    return _extra_loss_bound(ctx, lambda xi: sigma * xi ** 2 / 2)


# =========================================================================== Lemma 4


@experiment(
    "stable_laplace_prediction_corrected", "Lemma 4", "two-queries-law", "calibration",
    title="the law behind Lemma 4: two answers carry independent Laplace noise (the lemma's independent coins), so "
          "both corners {z_1, z_2 >= gamma} and {z_1 >= gamma, z_2 <= -gamma} have probability e^(-2 eps)/4. The "
          "lemma's claim, 2 epsilon for the pair, is the privacy audit's at q = 2 (stress case W6_two_queries_apart)",
    instance="both queries at A(S, x) = 0, epsilon = 1, gamma = 1; 200000 pairs",
    predicate="each corner's rate against e^(-2 eps)/4 (alternatives: the Laplace scale off by 30%); noise shared by "
              "the two answers gives e^(-eps)/2 and 0",
    trials={"quick": 200_000, "full": 2_000_000},
    params={"epsilon": 1.0, "gamma": 1.0, "q": 2},
    controls=(REUSED,),
)
def _lemma4(ctx: Context) -> dict:
    """Both corners of every two of the q answers (q = ctx.params["q"]) against e^(-2 eps)/4."""
    eps, gamma, q = scalar(ctx.env["epsilon"]), scalar(ctx.env["gamma"]), int(ctx.params["q"])
    z = ctx.sample(np.zeros(q), ctx.trials).reshape(ctx.trials, q)

    def corner(f):
        return math.exp(-2 * eps / f) / 4

    cells = [Cell(label, ctx.trials, int(np.sum(event)), corner(1.0), (corner(1 + NOISE_FUDGE), corner(1 - NOISE_FUDGE)))
             for i, j in itertools.combinations(range(q), 2)
             for label, event in ((f"z_{i + 1} >= gamma, z_{j + 1} >= gamma", (z[:, i] >= gamma) & (z[:, j] >= gamma)),
                                  (f"z_{i + 1} >= gamma, z_{j + 1} <= -gamma", (z[:, i] >= gamma) & (z[:, j] <= -gamma)))]
    return {"cells": cells}


experiment(
    "stable_laplace_prediction_corrected", "Lemma 4", "three-queries-law", "calibration",
    title="the law behind Lemma 4 for three answers: every two of them carry independent Laplace noise, so both corners "
          "of each two have probability e^(-2 eps)/4 (answers two apart sharing a draw pass the two-queries law)",
    instance="three queries at A(S, x) = 0, epsilon = 1, gamma = 1; 200000 calls, 6 cells",
    predicate="each corner's rate against e^(-2 eps)/4 (alternatives: the Laplace scale off by 30%)",
    trials={"quick": 200_000, "full": 2_000_000},
    params={"epsilon": 1.0, "gamma": 1.0, "q": 3},
    controls=(REUSED,),
)(_lemma4)


# =========================================================================== Gaussian


@experiment(
    "stable_gaussian_prediction", "Fact G1 (extra loss of Gaussian noise)", "noise-law", "calibration",
    title="the noise law behind Fact G1: |M - A(S,x)| ~ |N(0, sigma_G^2)|, which makes the extra losses "
          "L_l sigma_G sqrt(2/pi) (absolute loss at a = y) and sigma sigma_G^2/2 (squared)",
    instance="A(S, x) = 0, epsilon = 0.5, delta = 1e-5, gamma = 1 (sigma_G = 9.70); cells at t = 0.25, 1, 2.5",
    predicate="Pr[|M - a| > t sigma_G] against 2 Phi(-t) (+-30% scale alternatives)",
    trials={"quick": 100_000, "full": 2_000_000},
    params={"epsilon": 0.5, "delta": 1e-5, "gamma": 1.0},
    controls=(GAUSS_PRINTED,),
)
def _fact_g1(ctx: Context) -> dict:
    return {"cells": _noise_law_cells(ctx, 0.0, scalar(ctx.env["sigma_G"]), lambda t: 2 * stats.norm.sf(t))}


@experiment(
    "stable_gaussian_prediction", "Lemma 1", "group-delta", "property",
    title="group privacy with delta for the spec's Gaussian mechanism: for k = 1, 2, 3, the exact Balle-Wang delta of a "
          "shift k gamma at k epsilon with sigma_G is <= k e^((k-1) eps) delta (a setup validation: the implementation's "
          "own privacy, k = 1, is the privacy audit's)",
    instance="epsilon = 0.5, delta = 1e-5, gamma = 1, sigma_G = gamma sqrt(2 ln(1.25/delta))/epsilon",
    predicate="failure (per k): delta_{k gamma}(k epsilon; sigma_G) > k e^((k-1) epsilon) delta",
    trials={"quick": 3, "full": 3},
    params={"epsilon": 0.5, "delta": 1e-5, "gamma": 1.0},
    setup=True,
)
def _gauss_lemma1(ctx: Context) -> dict:
    eps, delta, gamma, sigma = (scalar(ctx.env[k]) for k in ("epsilon", "delta", "gamma", "sigma_G"))
    rows = []
    for k in (1, 2, 3):
        rows.append({"k": k, "delta_exact": float(gaussian_delta(k * eps, k * gamma, sigma)),
                     "allowed": k * math.exp((k - 1) * eps) * delta})
    failures = sum(r["delta_exact"] > r["allowed"] for r in rows)
    return {"cases": 3, "failures": int(failures), "counterexample": rows if failures else None, "instance": {"rows": rows}}


# =========================================================================== Lemma 2


BLOCK_COUNTS = (4, 3, 5, 7)  # r of the stability cases in turn: a mean computed by halves is exact at 4 only
# n (records a block) of the cases in turn, on both sides of every r: a mean over n instead of r is more stable
# than the lemma's gamma/r wherever n > r (the default n = 10), and breaks it only where n < r
BLOCK_SIZES = (10, 1, 2, 50)


def _block_count(t: int) -> int:
    return BLOCK_COUNTS[(t // 4) % len(BLOCK_COUNTS)]


def _block_size(t: int) -> int:
    return BLOCK_SIZES[(t // 16) % len(BLOCK_SIZES)]


def _block_vector(rng, r: int, t: int) -> np.ndarray:
    """Case ``t``'s block predictions in [-3, 3]^r: every fourth all equal, every eighth whole numbers (repeated
    entries: block learners agree), every eighth labels 0 and 1 (PAC block learners' predictions, ties at even r: an
    implementation that takes a majority vote of labels instead of their mean), the rest continuous."""
    if t % 4 == 1:
        return np.full(r, rng.uniform(-3, 3))
    if t % 8 == 3:
        return rng.integers(-3, 4, r).astype(float)
    if t % 8 == 7:
        return rng.integers(0, 2, r).astype(float)
    return rng.uniform(-3, 3, r)


for _spec in ("averaged_learner", "averaged_learner_corrected"):
    @experiment(
        _spec, "Lemma 2 (stability)", "one-block-moves", "property",
        title="moving one block's prediction by at most gamma moves A' by at most gamma/r (note W4)",
        instance="r = 4, 3, 5, 7 and n = 10, 1, 2, 50 in turn, gamma = 1: 2000 block-prediction vectors in [-3, 3]^r (a quarter all "
                 "equal, an eighth whole numbers with repeats, an eighth labels 0/1, half continuous); one random "
                 "block moves by a random amount in [-gamma, gamma], or by exactly +-gamma",
        predicate="failure: |A'(S') - A'(S'')| > gamma/r (1e-12 tolerance)",
        trials={"quick": 2000, "full": 20_000},
        params={"r": 4, "gamma": 1.0},
        controls=(SUM,),
    )
    def _lemma2_stability(ctx: Context) -> dict:
        gamma = scalar(ctx.env["gamma"])
        failures, worst = 0, None
        for t in range(ctx.trials):
            r = _block_count(t)
            g = scalar(ctx.bind(r=r)["stability"])
            a = _block_vector(ctx.rng, r, t)
            b = a.copy()
            b[ctx.rng.integers(r)] += gamma * (ctx.rng.choice([-1.0, 1.0]) if t % 2 == 0 else ctx.rng.uniform(-1, 1))
            n = _block_size(t)
            diff = abs(float(ctx.sample(a, 1, r=r, n=n)[0]) - float(ctx.sample(b, 1, r=r, n=n)[0]))
            if diff > g + 1e-12:
                failures += 1
                worst = {"blocks": a.tolist(), "moved": b.tolist(), "n": n, "difference": diff, "gamma_prime": g}
        return {"cases": ctx.trials, "failures": failures, "counterexample": worst}

    @experiment(
        _spec, "Lemma 2 (stability)", "block-average", "property",
        title="A'(S', x) is the average (1/r) sum_j A(S'_j, x) of the block predictions (ALG-3), which makes a move "
              "of gamma in one block a move of exactly gamma/r",
        instance="r = 4, 3, 5, 7 and n = 10, 1, 2, 50 in turn: 500 block-prediction vectors in [-3, 3]^r (a quarter all equal, an eighth "
                 "whole numbers with repeats, an eighth labels 0/1, half continuous)",
        predicate="failure: A'(blocks) differs from the mean of the blocks by more than 1e-12",
        trials={"quick": 500, "full": 5000},
        params={"r": 4, "gamma": 1.0},
        controls=(SUM,),
        tests="conformance",
    )
    def _lemma2_average(ctx: Context) -> dict:
        failures, worst = 0, None
        for t in range(ctx.trials):
            r = _block_count(t)
            a = _block_vector(ctx.rng, r, t)
            got = float(ctx.sample(a, 1, r=r, n=_block_size(t))[0])
            if abs(got - float(a.mean())) > 1e-12:
                failures += 1
                worst = {"blocks": a.tolist(), "n": _block_size(t), "output": got, "mean": float(a.mean())}
        return {"cases": ctx.trials, "failures": failures, "counterexample": worst}


NU_LEVEL, LABEL_P, BLOCK_N = 0.5, 0.3, 10


def _block_means(rng, trials: int, r: int) -> np.ndarray:
    """Base learner A = mean label of a block of BLOCK_N records, labels ~ Bern(LABEL_P): (trials, r)."""
    return rng.binomial(BLOCK_N, LABEL_P, size=(trials, r)) / BLOCK_N


def _population_abs_loss(a):
    """E_{y ~ Bern(LABEL_P)} |y - a|."""
    return LABEL_P * np.abs(1 - a) + (1 - LABEL_P) * np.abs(a)


@experiment(
    "averaged_learner_corrected", "Lemma 2 (expectation)", "jensen-pathwise", "property",
    title="Jensen pathwise (corrected direction): E_P l(A'(S')) <= (1/r) sum_j E_P l(A(S'_j)) for the absolute "
          "loss on every drawn dataset (hence <= nu whenever the base learner's expectation is <= nu)",
    instance="base learner: the mean label of a block of 10 records, labels ~ Bern(0.3); r = 4; absolute loss",
    predicate="failure: a dataset on which the averaged learner's population loss exceeds the blocks' average",
    trials={"quick": 2000, "full": 20_000},
    params={"r": 4},
    controls=(SUM,),
)
def _lemma2_expectation(ctx: Context) -> dict:
    r = int(scalar(ctx.env["r"]))
    blocks = _block_means(ctx.rng, ctx.trials, r)
    failures, worst = 0, None
    for row in blocks:
        lhs = float(_population_abs_loss(float(ctx.sample(row, 1)[0])))
        rhs = float(_population_abs_loss(row).mean())
        if lhs > rhs + 1e-12:
            failures += 1
            worst = {"blocks": row.tolist(), "averaged_loss": lhs, "mean_block_loss": rhs}
    return {"cases": ctx.trials, "failures": failures, "counterexample": worst}


for _spec in ("averaged_learner", "averaged_learner_corrected"):
    @experiment(
        _spec, "Lemma 2 (tail)", "union-bound", "bound",
        title="Pr[E_P l(A'(S')) >= nu] <= r beta, beta = Pr[E_P l(A(S)) >= nu] of the base learner (exact binomial)",
        instance="base learner: the mean label of 10 records, labels ~ Bern(0.3), absolute loss (E_P l(a) = "
                 "0.3 + 0.4 a on [0, 1]); nu = 0.5 (beta = Pr[Bin(10, 0.3) >= 5] = 0.150); r = 4 blocks",
        predicate="failure: the averaged learner's population loss is >= nu",
        trials={"quick": 5000, "full": 20_000},
        params={"r": 4, "nu": NU_LEVEL},
        controls=(SUM,),
    )
    def _lemma2_tail(ctx: Context) -> dict:
        r, nu = int(scalar(ctx.env["r"])), scalar(ctx.env["nu"])
        beta = float(stats.binom.sf(math.ceil((nu - LABEL_P) / 0.4 * BLOCK_N) - 1, BLOCK_N, LABEL_P))
        blocks = _block_means(ctx.rng, ctx.trials, r)
        losses = np.array([float(_population_abs_loss(float(ctx.sample(row, 1)[0]))) for row in blocks])
        return {"failures": int(np.sum(losses >= nu - 1e-12)), "trials": ctx.trials, "beta": min(1.0, r * beta),
                "instance": {"base_beta": beta}}


# =========================================================================== Corollary 1


AGN = {"eta": 0.2, "grid": 101, "theta": 0.5}


def agnostic_errors(ctx: Context, samplers, trials: int) -> np.ndarray:
    """err_P(M(S)) per dataset of the Corollary 1 instance, exact given the votes, for each vote-form sampler
    (``ctx.sample``, ``ctx.sample_reference``): Pr[label 1 | c_1 = c] of each from 200000 runs per vote count,
    the same datasets for all; shape (len(samplers), trials)."""
    r, m = int(scalar(ctx.env["r"])), int(scalar(ctx.env["m_agn"]))
    grid = np.linspace(0.0, 1.0, AGN["grid"])
    p1 = np.array([[sample([r - c, c], 200_000).mean() for c in range(r + 1)] for sample in samplers])
    # cell k = [grid[k], grid[k+1]): c_1 is constant there; Pr[y = 1 | x] is 1 - eta or eta
    mids = (grid[:-1] + grid[1:]) / 2
    py1 = np.where(mids >= AGN["theta"], 1 - AGN["eta"], AGN["eta"])
    errs = np.empty((len(samplers), trials))
    for t in range(trials):
        X = ctx.rng.random((r, m))
        y = (X >= AGN["theta"]).astype(np.int8) ^ (ctx.rng.random((r, m)) < AGN["eta"]).astype(np.int8)
        thresholds = grid[teachers.grid_erm(X, y, grid)]
        q = p1[:, (mids[None, :] >= thresholds[:, None]).sum(axis=0)]
        errs[:, t] = np.mean(q * (1 - py1) + (1 - q) * py1, axis=1)     # cells have equal mass 1/100
    return errs


@experiment(
    "agnostic_private_prediction_corrected", "Corollary 1", "grid-thresholds", "bound",
    title="Pr_S[err_P(M(S)) > OPT + alpha] <= beta at n = r m(alpha/2, beta/r) (agnostic thresholds on a grid)",
    instance="X = U[0, 1], y = 1[x >= 1/2] XOR Bern(0.2) (OPT = 0.2; a constant label errs 0.5), C = 101 grid "
             "thresholds, grid ERM teachers; epsilon = 1, alpha = 0.2, beta = 0.2: r = 10, m = 1844, n = 18440; "
             "err_P exact given the votes, with Pr[label 1 | votes] of the implementation from 200000 runs per vote count",
    predicate="failure: err_P(M(S)) > OPT + alpha",
    trials={"quick": 200, "full": 5000},
    params={"epsilon": 1.0, "alpha": 0.2, "beta": 0.2, "N": AGN["grid"]},
    controls=(AGN_CONST,),
)
def _corollary1(ctx: Context) -> dict:
    env = ctx.env
    r, m = int(scalar(env["r"])), int(scalar(env["m_agn"]))
    alpha, beta = scalar(env["error_bound"]), scalar(env["failure_probability"])
    errs = agnostic_errors(ctx, [ctx.sample], ctx.trials)[0]
    opt = AGN["eta"]
    return {"failures": int(np.sum(errs > opt + alpha)), "trials": ctx.trials, "beta": beta, "error_bound": opt + alpha,
            "slack": float((np.quantile(errs, 1 - beta) - opt) / alpha),
            "instance": {"r": r, "m": m, "OPT": opt, "mean_error": float(errs.mean())}}


# =========================================================================== Corollaries 2-4 (ridge, note S8)


RIDGE = {"d": 3, "w_star": np.array([0.6, -0.4, 0.2]), "noise": 0.1, "test": 2000}
RIDGE_LL = 1.0 + float(np.linalg.norm(RIDGE["w_star"])) + RIDGE["noise"]   # |a - y| <= X R + Y on K = B(1)


def _sphere(rng, shape):
    v = rng.normal(size=(*shape, RIDGE["d"]))
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def ridge_population_losses(ctx: Context, n: int, trials: int, reference: bool = False) -> np.ndarray:
    """E_P l(M(S)) per dataset for the squared loss (a - y)^2/2, each estimated without bias from
    RIDGE['test'] fresh (x, y) with one answer of M each. x uniform on the unit sphere of R^3,
    y = <w*, x> + U[-0.1, 0.1]. With ``reference``: shape (2, trials), the implementation's losses and the
    spec's reference's (its own stream) on the same datasets and test points."""
    out = np.empty((2 if reference else 1, trials))
    for t in range(trials):
        X = _sphere(ctx.rng, (n,))
        y = X @ RIDGE["w_star"] + ctx.rng.uniform(-RIDGE["noise"], RIDGE["noise"], n)
        xt = _sphere(ctx.rng, (RIDGE["test"],))
        yt = xt @ RIDGE["w_star"] + ctx.rng.uniform(-RIDGE["noise"], RIDGE["noise"], RIDGE["test"])
        # the experiment's own parameters (lam, n, c_gamma): a spec parameter named n cannot be an override
        data = {"X": X, "y": y, "x": xt}
        for row, sample in enumerate((ctx.sample, ctx.sample_reference)[: out.shape[0]]):
            out[row, t] = float(np.mean((sample(data, 1).reshape(-1) - yt) ** 2) / 2)
    return out if reference else out[0]


def ridge_opt(lam: float = 0.0) -> float:
    """min_{|w| <= 1} E_P[(<w, x> - y)^2/2] + (lam/2)|w|^2 with E[x x^T] = I/d (w* inside the ball)."""
    d, w = RIDGE["d"], RIDGE["w_star"]
    shrink = 1 / (1 + lam * d)
    bias = (1 - shrink) ** 2 * float(w @ w) / (2 * d)
    return bias + RIDGE["noise"] ** 2 / 6 + lam / 2 * shrink ** 2 * float(w @ w)


ERM_CAP = 2.5   # a dataset's population loss is rounded against ERM_CAP (OPT + bound): beta = 1/ERM_CAP


def _erm_check(ctx: Context, bound: float, opt: float) -> dict:
    """E_S[E_P l(M(S))] <= OPT + bound as a bound check: each dataset's population loss (an unbiased
    estimate), rounded against ERM_CAP (OPT + bound), fails with probability <= 1/ERM_CAP."""
    losses = ridge_population_losses(ctx, int(scalar(ctx.env["n"])), ctx.trials)
    m = float(losses.mean())
    return {"failures": rounded(ctx.rng, losses, ERM_CAP * (opt + bound)), "trials": ctx.trials, "beta": 1 / ERM_CAP,
            "error_bound": opt + bound, "slack": m / (opt + bound),
            "instance": {"mean_loss": m, "opt": opt, "bound": bound, "excess_over_bound": (m - opt) / bound,
                         "cap": ERM_CAP * (opt + bound)}}


ERM_SLACK = "mean population loss / (OPT + bound)"
ROUNDING = ("each dataset's population loss, rounded against a cap of 2.5 (OPT + bound), fails with probability "
            "<= 0.4 whenever the corollary holds")
FAILURE = ("failure: a uniform draw times 2.5 (OPT + bound) falls below min(population loss, 2.5 (OPT + bound)); "
           "reference alternative 0.8: a mean loss twice OPT + bound")


ERM_COMMON = {"R": 1.0, "L_f": 1.0, "L_l": RIDGE_LL, "loss": "squared", "sigma": 1.0}


@experiment(
    "convex_erm_prediction", "Corollary 2", "ridge-regularised-benchmark", "bound",
    title="E_S[E_P l(M(S))] <= min_w {E_P l + (lam/2)|w|^2} + 4 L_f^2 L_l^2/(lam n) (1 + 1/eps) (squared loss, "
          "the regulariser in the benchmark): " + ROUNDING,
    instance="x uniform on the unit sphere of R^3, y = <w*, x> + U[-0.1, 0.1], |w*| = 0.75, K = B(1), L_l = 1.85, "
             "n = 10000, lam = 0.5, c_gamma = 4, epsilon = 1; 120 datasets (quick) x 2000 test answers",
    predicate=FAILURE,
    trials={"quick": 120, "full": 2000},
    params={**ERM_COMMON, "n": 10_000, "lam": 0.5, "c_gamma": 4.0, "epsilon": 1.0},
    slack_definition=ERM_SLACK,
    controls=(ERM_NEGATED,),
)
def _cor2(ctx: Context) -> dict:
    return _erm_check(ctx, scalar(ctx.env["error_bound"]), ridge_opt(scalar(ctx.env["lam"])))


@experiment(
    "convex_erm_prediction", "Corollary 3", "ridge-lam-cor3", "bound",
    title="E_S[E_P l(M(S))] <= min_w E_P l + 4 R L_f L_l/sqrt(n eps/(1+eps)) at lam = lam_cor3 (squared loss): "
          + ROUNDING,
    instance="as Corollary 2 with lam = 2 L_f L_l/(R sqrt(n eps/(1 + eps))) = 0.0523 (n = 10000, epsilon = 1)",
    predicate=FAILURE,
    trials={"quick": 120, "full": 2000},
    params={**ERM_COMMON, "n": 10_000, "c_gamma": 4.0, "epsilon": 1.0, "lam": 2 * RIDGE_LL / math.sqrt(5000.0)},
    slack_definition=ERM_SLACK,
    controls=(ERM_NEGATED,),
)
def _cor3(ctx: Context) -> dict:
    return _erm_check(ctx, scalar(ctx.env["error_bound"]), ridge_opt())


@experiment(
    "convex_erm_prediction", "Corollary 4", "ridge-lam-cor4", "bound",
    title="E_S[E_P l(M(S))] <= OPT + 2 R L_f L_l/sqrt(n) + sigma R^2 L_f^2/(n eps^2) at lam = lam_cor4, c_gamma = 2 "
          "(squared loss: the noise term is attained exactly): " + ROUNDING,
    instance="as Corollary 2 with epsilon = 0.1 (the noise term 0.25 dominates), n = 400, lam = 2 L_f L_l/(R sqrt n)",
    predicate=FAILURE,
    trials={"quick": 200, "full": 2000},
    params={**ERM_COMMON, "n": 400, "c_gamma": 2.0, "epsilon": 0.1, "lam": 2 * RIDGE_LL / 20.0},
    slack_definition=ERM_SLACK,
    controls=(ERM_DOUBLE,),   # the negated labels cost only 1.15 x the bound here (lam_cor4 shrinks w): Corollaries 2-3 catch them
)
def _cor4(ctx: Context) -> dict:
    return _erm_check(ctx, scalar(ctx.env["error_bound"]), ridge_opt())


# the release law at fixed data (linear loss, closed-form minimiser w = Pi_K(sum_i y_i x_i/(lam n)), spec input text):
# (rows, labels, query) of each dataset; the {0, 1} labels of a fit move the centre by 0.35 b to 1.0 b on them
_LAW_DATA = (
    (((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)), (1.0, 1.0, -1.0, -1.0), (0.6, 0.8)),
    (((0.6, 0.8),) * 4, (-1.0, -1.0, -1.0, -1.0), (0.6, 0.8)),
    (((0.6, 0.8), (-0.8, 0.6), (0.0, -1.0), (1.0, 0.0)), (1.0, -1.0, 1.0, -1.0), (-0.8, 0.6)),
)
_SHIFT = 0.25  # the centre's alternatives: shifted by this many Laplace scales


@experiment(
    "convex_erm_prediction", "Theorem 3", "release-law", "calibration",
    title="the law of the release at fixed data: <w^_S, x> + Lap(gamma/epsilon) with w^_S the exact regularised "
          "minimiser (linear loss: the closed form Pi_K(sum_i y_i x_i/(lam n))), each query answered with fresh noise: "
          "its median is the exact prediction and P[|M - <w^_S, x>| > b] = e^(-1), b = gamma/epsilon",
    instance="linear loss, d = 2, n = 4, lam = 0.5, R = 10, L_f = L_l = 1, c_gamma = 4, epsilon = 1 (b = 2); three "
             "fixed datasets of unit rows with labels in {-1, +1} (mixed, and all -1), one call each asking its query "
             "point as many times as the trials",
    predicate="per dataset, P[M <= <w^_S, x>] against 1/2 (alternatives: the centre 0.25 b off) and P[|M - <w^_S, x>| "
              "> b] against e^(-1) (the scale off by 30%); a fit on labels mapped to {0, 1} moves the centre by "
              "0.35 b to b",
    trials={"quick": 4000, "full": 40_000},
    params={"loss": "linear", "n": 4, "lam": 0.5, "R": 10.0, "L_f": 1.0, "L_l": 1.0, "c_gamma": 4.0, "epsilon": 1.0,
            "sigma": 0.0},
    controls=(ERM_LABELS01, ERM_NEGATED),
)
def _erm_release_law(ctx: Context) -> dict:
    b = scalar(ctx.env["gamma"]) / scalar(ctx.env["epsilon"])
    lam, n, R = scalar(ctx.env["lam"]), int(scalar(ctx.env["n"])), scalar(ctx.env["R"])
    cells = []
    for k, (rows, labels, query) in enumerate(_LAW_DATA):
        X, y, x = np.array(rows), np.array(labels), np.array(query)
        w = X.T @ y / (lam * n)
        w = w * min(1.0, R / float(np.linalg.norm(w))) if np.linalg.norm(w) > 0 else w
        centre = float(w @ x)
        out = np.asarray(ctx.sample({"X": X, "y": y, "x": np.tile(x, (ctx.trials, 1))}, 1), dtype=float).reshape(-1)
        cells.append(Cell(f"dataset {k}: M <= {centre:g}", out.size, int(np.sum(out <= centre)), 0.5,
                          (1 - 0.5 * math.exp(-_SHIFT), 0.5 * math.exp(-_SHIFT))))
        cells.append(Cell(f"dataset {k}: |M - {centre:g}| > b", out.size, int(np.sum(np.abs(out - centre) > b)),
                          math.exp(-1.0), tuple(math.exp(-1.0 / f) for f in (1 + NOISE_FUDGE, 1 - NOISE_FUDGE))))
    return {"cells": cells}


SCALING_C = 0.1 * 100 ** 0.25   # epsilon_n = c n^(-1/4): epsilon = 0.1 at n = 100 (the noise term dominates)


for _n in (100, 1600):
    _eps = SCALING_C * _n ** -0.25

    @experiment(
        "convex_erm_prediction", "Corollary 4", f"scaling-n{_n}", "bound",
        title=f"Corollary 4 with epsilon_n = c n^(-1/4) at n = {_n} (epsilon = {_eps:.3f}): the noise term "
              "sigma R^2 L_f^2/(n eps^2) = 1/(c^2 sqrt n) keeps a constant ratio (2.7) to the statistical term "
              "2 R L_f L_l/sqrt(n); " + ROUNDING,
        instance=f"as the Corollary 4 check (squared loss, R = 1, |w*| = 0.75) at n = {_n}, lam = lam_cor4, c_gamma = 2",
        predicate=FAILURE,
        trials={"quick": 100, "full": 1000},
        params={**ERM_COMMON, "n": _n, "c_gamma": 2.0, "epsilon": _eps, "lam": 2 * RIDGE_LL / math.sqrt(_n)},
        slack_definition=ERM_SLACK,
        controls=(ERM_DOUBLE,),
    )
    def _cor4_scaling(ctx: Context) -> dict:
        return _erm_check(ctx, scalar(ctx.env["error_bound"]), ridge_opt())


@experiment(
    "agnostic_private_prediction_corrected", "Corollary 1 (privacy)", "rounding-law", "calibration",
    title="the label's law is the exact P1(v) = E[clip(v + Lap(1/(r eps)), 0, 1)], so the rounded bit's loss is "
          "max_v ln(P1(v + 1/r)/P1(v)) (0.862 at the extreme pair) while the pre-rounding v + xi has loss exactly eps",
    instance="epsilon = 1, alpha = 0.1 (r = 20, b = 0.05); votes c_1 in {0, 1, 10, 19, 20}; 100000 runs per cell",
    predicate="each cell's Pr[label 1] against P1(c_1/r) (alternatives: the Laplace scale off by 30%)",
    trials={"quick": 100_000, "full": 2_000_000},
    params={"epsilon": 1.0, "alpha": 0.1},
    controls=(mutant_control("agnostic_no_rounding", "plain teacher majority: no noise, no randomized rounding"),),
)
def _agnostic_rounding(ctx: Context) -> dict:
    from dptestbed.impl.private_prediction.stable import rounding_probability

    r, b = int(scalar(ctx.env["r"])), scalar(ctx.env["b"])
    cases = [(f"c_1 = {c1}", [r - c1, c1], c1 / r) for c1 in (0, 1, r // 2, r - 1, r)]
    return {"cells": label_cells(ctx, cases, lambda v, f: rounding_probability(v, b * f))}
