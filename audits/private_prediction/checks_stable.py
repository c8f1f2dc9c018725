"""Theorem checks for seed 002 Sections 3.2-3.4: Theorem 4 (Lipschitz, smooth), Lemma 4 (two
queries), the Gaussian variant (Fact G1, Lemma 1 with delta), Lemma 2 (averaging), Corollary 1
(agnostic) and Corollaries 2-4 (convex ERM).

Every implementation is sampled through ``ctx.sample`` only. Monte-Carlo means use CLT intervals
at z = 5; a property check fails only when such an interval excludes the bound.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from dptestbed.audits.exact import gaussian_delta
from dptestbed.audits.experiments import Context, Control, experiment, scalar
from dptestbed.audits.theorems import NOISE_FUDGE, Cell
from dptestbed.impl.private_prediction import teachers

from .common import Z, label_cells, mean_ci, mutant_control

DOUBLE = mutant_control("laplace_double_scale", "Lap(2 gamma/epsilon): twice the noise")
REUSED = mutant_control("laplace_noise_reused_across_queries", "one noise draw shared by all queries")
GAUSS_PRINTED = Control("gaussian_printed_variance", "dptestbed.impl.private_prediction.stable:stable_gaussian_prediction_broken",
                        "the report's variance gamma ln(1/delta)/epsilon (erratum E2)")
SUM = mutant_control("averaged_learner_sum", "sums the block predictions instead of averaging them")
AGN_CONST = mutant_control("agnostic_constant_label", "answers 0 at every query")
ERM_DOUBLE = mutant_control("erm_double_noise", "Lap(2 gamma/epsilon) on the ERM prediction")
ERM_NEGATED = mutant_control("erm_negated_labels", "fits the ERM on -y (label sign slip)")


# =========================================================================== Theorem 4


def _noise_law_cells(ctx: Context, a: float, scale: float, sf) -> list[Cell]:
    """Cells Pr[|M(a) - a| > t scale] against sf(t) (and sf at the scale off by +-30%)."""
    out = ctx.sample(a, ctx.trials)
    cells = []
    for t in (0.25, 1.0, 2.5):
        events = int(np.sum(np.abs(out - a) > t * scale))
        alts = tuple(float(sf(t / f)) for f in (1 + NOISE_FUDGE, 1 - NOISE_FUDGE))
        cells.append(Cell(f"|M(a) - a| > {t:g} scale", ctx.trials, events, float(sf(t)), alts))
    return cells


for _spec in ("stable_laplace_prediction", "stable_laplace_prediction_corrected"):
    @experiment(
        _spec, "Theorem 4 (Lipschitz)", "noise-law", "calibration",
        title="the noise behind Theorem 4(1): |M(S,x) - A(S,x)| ~ Exp(b), b = gamma/epsilon, so the absolute loss "
              "at a = y has extra loss exactly b = L_l gamma/epsilon (the bound, tight)",
        instance="A(S, x) = 0.3, epsilon = 1, gamma = 1 (b = 1); cells at t = 0.25, 1, 2.5",
        predicate="Pr[|M - a| > t b] against e^(-t) (a Laplace scale off by 30% gives e^(-t/1.3), e^(-t/0.7))",
        trials={"quick": 100_000, "full": 2_000_000},
        params={"epsilon": 1.0, "gamma": 1.0},
        controls=(DOUBLE,),
    )
    def _thm4_lipschitz(ctx: Context) -> dict:
        b = scalar(ctx.env["b"])
        cells = _noise_law_cells(ctx, 0.3, b, lambda t: math.exp(-t))
        return {"cells": cells, "instance": {"extra_loss_bound": scalar(ctx.env["error_bound"]), "b": b}}


@experiment(
    "stable_laplace_prediction_corrected", "Theorem 4 (smooth)", "second-moment", "property",
    title="E[l(M(S,x), y)] - l(A(S,x), y) <= sigma gamma^2/epsilon^2 for the sigma-smooth loss "
          "l = sigma (a - y)^2/2 (tight: equality), on a grid of (a, y); z = 5 intervals",
    instance="sigma = 1/4, epsilon = 1, gamma = 1; (a, y) in {(0, 0), (0.3, -1), (-2, 1)}; 200000 answers each",
    predicate="failure: the lower bound of the measured extra loss exceeds sigma gamma^2/epsilon^2",
    trials={"quick": 200_000, "full": 4_000_000},
    params={"epsilon": 1.0, "gamma": 1.0, "sigma": 0.25},
    controls=(DOUBLE,),
)
def _thm4_smooth(ctx: Context) -> dict:
    sigma, bound = scalar(ctx.env["sigma"]), scalar(ctx.env["error_bound"])
    failures, worst = 0, None
    for a, y in ((0.0, 0.0), (0.3, -1.0), (-2.0, 1.0)):
        out = ctx.sample(a, ctx.trials)
        extra = sigma * ((out - y) ** 2 - (a - y) ** 2) / 2
        m, lo, _ = mean_ci(extra)
        if lo > bound:
            failures += 1
            worst = {"a": a, "y": y, "extra_mean": m, "extra_lower": lo, "bound": bound}
    return {"cases": 3, "failures": failures, "counterexample": worst}


# =========================================================================== Lemma 4


@experiment(
    "stable_laplace_prediction_corrected", "Lemma 4", "two-queries", "property",
    title="two answers carry independent noise (so the pair costs exactly 2 epsilon): |corr| <= 5/sqrt(N), "
          "z_1 - z_2 not constant, and the corner event {z_1, z_2 >= gamma} has probability e^(-2 eps)/4",
    instance="both queries at A(S, x) = 0 (the W3 pair moves both by gamma: exact joint loss 2 epsilon on the "
             "corner event); epsilon = 1, gamma = 1; 200000 pairs",
    predicate="failure: a correlation beyond 5/sqrt(N), a constant difference, or the corner probability "
              "outside its z = 5 interval",
    trials={"quick": 200_000, "full": 2_000_000},
    params={"epsilon": 1.0, "gamma": 1.0},
    controls=(REUSED,),
)
def _lemma4(ctx: Context) -> dict:
    eps, gamma = scalar(ctx.env["epsilon"]), scalar(ctx.env["gamma"])
    z = ctx.sample(np.zeros(2), ctx.trials).reshape(ctx.trials, 2)
    rho = float(np.corrcoef(z.T)[0, 1])
    corner = float(np.mean(np.all(z >= gamma, axis=1)))
    exact = math.exp(-2 * eps) / 4
    sd = math.sqrt(exact * (1 - exact) / ctx.trials)
    checks = {"independent": abs(rho) <= Z / math.sqrt(ctx.trials),
              "not_constant_difference": float(np.std(z[:, 0] - z[:, 1])) > 0,
              "corner_probability": abs(corner - exact) <= Z * sd}
    failed = [k for k, ok in checks.items() if not ok]
    return {"cases": len(checks), "failures": len(failed),
            "counterexample": {"failed": failed, "correlation": rho, "corner": corner, "corner_exact": exact}
            if failed else None}


# =========================================================================== Gaussian


@experiment(
    "stable_gaussian_prediction", "Fact G1 (extra loss of Gaussian noise)", "noise-law", "calibration",
    title="the noise behind Fact G1: |M - A(S,x)| ~ |N(0, sigma_G^2)|, so the extra losses are "
          "L_l sigma_G sqrt(2/pi) (absolute loss at a = y) and sigma sigma_G^2/2 (squared), both tight",
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
    title="group privacy with delta: for k = 1, 2, 3, the Balle-Wang delta of a shift k gamma at k epsilon, "
          "at the implementation's measured noise level (99.99994% lower bound of its sd), is <= k e^((k-1) eps) delta",
    instance="A(S, x) = 0, epsilon = 0.5, delta = 1e-5, gamma = 1; 200000 answers give the noise sd",
    predicate="failure (per k): delta_{k gamma}(k epsilon; sd_lower) > k e^((k-1) epsilon) delta",
    trials={"quick": 200_000, "full": 2_000_000},
    params={"epsilon": 0.5, "delta": 1e-5, "gamma": 1.0},
    controls=(GAUSS_PRINTED,),
)
def _gauss_lemma1(ctx: Context) -> dict:
    eps, delta, gamma = (scalar(ctx.env[k]) for k in ("epsilon", "delta", "gamma"))
    out = ctx.sample(0.0, ctx.trials)
    dof = ctx.trials - 1
    sd_lower = math.sqrt(dof * float(np.var(out, ddof=1)) / stats.chi2.ppf(1 - 3e-7, dof))
    failures, rows = 0, []
    for k in (1, 2, 3):
        d_k = float(gaussian_delta(k * eps, k * gamma, sd_lower))
        allowed = k * math.exp((k - 1) * eps) * delta
        rows.append({"k": k, "delta_exact": d_k, "allowed": allowed})
        failures += d_k > allowed
    return {"cases": 3, "failures": int(failures), "counterexample": rows if failures else None}


# =========================================================================== Lemma 2


for _spec in ("averaged_learner", "averaged_learner_corrected"):
    @experiment(
        _spec, "Lemma 2 (stability)", "one-block-moves", "property",
        title="moving one block's prediction by at most gamma moves A' by at most gamma/r, and by exactly gamma/r "
              "when the block moves by gamma (note W4)",
        instance="r = 4, gamma = 1: 2000 random block-prediction vectors in [-3, 3]^r; one random block moves by a "
                 "random amount in [-gamma, gamma], or by exactly +-gamma",
        predicate="failure: |A'(S') - A'(S'')| > gamma/r (1e-12 tolerance), or not equal to gamma/r on the exact moves",
        trials={"quick": 2000, "full": 20_000},
        params={"r": 4, "gamma": 1.0},
        controls=(SUM,),
    )
    def _lemma2_stability(ctx: Context) -> dict:
        r, gamma = int(scalar(ctx.env["r"])), scalar(ctx.env["gamma"])
        g = scalar(ctx.env["stability"])
        failures, worst = 0, None
        for t in range(ctx.trials):
            a = ctx.rng.uniform(-3, 3, r)
            b = a.copy()
            exact = t % 2 == 0
            b[ctx.rng.integers(r)] += gamma * (ctx.rng.choice([-1.0, 1.0]) if exact else ctx.rng.uniform(-1, 1))
            diff = abs(float(ctx.sample(a, 1)[0]) - float(ctx.sample(b, 1)[0]))
            if diff > g + 1e-12 or (exact and abs(diff - g) > 1e-9):
                failures += 1
                worst = {"blocks": a.tolist(), "moved": b.tolist(), "difference": diff, "gamma_prime": g}
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
    grid = np.linspace(0.0, 1.0, AGN["grid"])
    p1 = np.array([ctx.sample([r - c, c], 200_000).mean() for c in range(r + 1)])   # Pr[1 | c_1 = c]
    # cell k = [grid[k], grid[k+1]): c_1 is constant there; Pr[y = 1 | x] is 1 - eta or eta
    mids = (grid[:-1] + grid[1:]) / 2
    py1 = np.where(mids >= AGN["theta"], 1 - AGN["eta"], AGN["eta"])
    errs = np.empty(ctx.trials)
    for t in range(ctx.trials):
        X = ctx.rng.random((r, m))
        y = (X >= AGN["theta"]).astype(np.int8) ^ (ctx.rng.random((r, m)) < AGN["eta"]).astype(np.int8)
        thresholds = grid[teachers.grid_erm(X, y, grid)]
        c1 = (mids[None, :] >= thresholds[:, None]).sum(axis=0)
        q = p1[c1]
        errs[t] = float(np.mean(q * (1 - py1) + (1 - q) * py1))     # cells have equal mass 1/100
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


def _ridge_population_losses(ctx: Context, n: int, trials: int) -> np.ndarray:
    """E_P l(M(S)) per dataset for the squared loss (a - y)^2/2, each estimated without bias from
    RIDGE['test'] fresh (x, y) with one answer of M each. x uniform on the unit sphere of R^3,
    y = <w*, x> + U[-0.1, 0.1]."""
    out = np.empty(trials)
    for t in range(trials):
        X = _sphere(ctx.rng, (n,))
        y = X @ RIDGE["w_star"] + ctx.rng.uniform(-RIDGE["noise"], RIDGE["noise"], n)
        xt = _sphere(ctx.rng, (RIDGE["test"],))
        yt = xt @ RIDGE["w_star"] + ctx.rng.uniform(-RIDGE["noise"], RIDGE["noise"], RIDGE["test"])
        # the experiment's own parameters (lam, n, c_gamma): a spec parameter named n cannot be an override
        answers = ctx.sample({"X": X, "y": y, "x": xt}, 1).reshape(-1)
        out[t] = float(np.mean((answers - yt) ** 2) / 2)
    return out


def _ridge_opt(lam: float = 0.0) -> float:
    """min_{|w| <= 1} E_P[(<w, x> - y)^2/2] + (lam/2)|w|^2 with E[x x^T] = I/d (w* inside the ball)."""
    d, w = RIDGE["d"], RIDGE["w_star"]
    shrink = 1 / (1 + lam * d)
    bias = (1 - shrink) ** 2 * float(w @ w) / (2 * d)
    return bias + RIDGE["noise"] ** 2 / 6 + lam / 2 * shrink ** 2 * float(w @ w)


def _erm_check(ctx: Context, bound: float, opt: float) -> dict:
    losses = _ridge_population_losses(ctx, int(scalar(ctx.env["n"])), ctx.trials)
    m, lo, _ = mean_ci(losses)
    failed = lo > opt + bound
    return {"cases": 1, "failures": int(failed),
            "counterexample": {"mean_loss": m, "lower": lo, "opt": opt, "bound": bound} if failed else None,
            "instance": {"mean_loss": m, "opt": opt, "bound": bound, "excess_over_bound": (m - opt) / bound}}


ERM_COMMON = {"R": 1.0, "L_f": 1.0, "L_l": RIDGE_LL, "loss": "squared", "sigma": 1.0}


@experiment(
    "convex_erm_prediction", "Corollary 2", "ridge-regularised-benchmark", "property",
    title="E_S[E_P l(M(S))] <= min_w {E_P l + (lam/2)|w|^2} + 4 L_f^2 L_l^2/(lam n) (1 + 1/eps) (squared loss, "
          "the regulariser in the benchmark; z = 5 interval over datasets)",
    instance="x uniform on the unit sphere of R^3, y = <w*, x> + U[-0.1, 0.1], |w*| = 0.75, K = B(1), L_l = 1.85, "
             "n = 10000, lam = 0.5, c_gamma = 4, epsilon = 1; 120 datasets (quick) x 2000 test answers",
    predicate="failure: the lower bound of the mean population loss exceeds the benchmark plus the bound",
    trials={"quick": 120, "full": 2000},
    params={**ERM_COMMON, "n": 10_000, "lam": 0.5, "c_gamma": 4.0, "epsilon": 1.0},
    controls=(ERM_NEGATED,),
)
def _cor2(ctx: Context) -> dict:
    return _erm_check(ctx, scalar(ctx.env["error_bound"]), _ridge_opt(scalar(ctx.env["lam"])))


@experiment(
    "convex_erm_prediction", "Corollary 3", "ridge-lam-cor3", "property",
    title="E_S[E_P l(M(S))] <= min_w E_P l + 4 R L_f L_l/sqrt(n eps/(1+eps)) at lam = lam_cor3 (squared loss)",
    instance="as Corollary 2 with lam = 2 L_f L_l/(R sqrt(n eps/(1 + eps))) = 0.0523 (n = 10000, epsilon = 1)",
    predicate="failure: the lower bound of the mean population loss exceeds OPT plus the bound",
    trials={"quick": 120, "full": 2000},
    params={**ERM_COMMON, "n": 10_000, "c_gamma": 4.0, "epsilon": 1.0, "lam": 2 * RIDGE_LL / math.sqrt(5000.0)},
    controls=(ERM_NEGATED,),
)
def _cor3(ctx: Context) -> dict:
    return _erm_check(ctx, scalar(ctx.env["error_bound"]), _ridge_opt())


@experiment(
    "convex_erm_prediction", "Corollary 4", "ridge-lam-cor4", "property",
    title="E_S[E_P l(M(S))] <= OPT + 2 R L_f L_l/sqrt(n) + sigma R^2 L_f^2/(n eps^2) at lam = lam_cor4, c_gamma = 2 "
          "(squared loss: the noise term is attained exactly)",
    instance="as Corollary 2 with epsilon = 0.1 (the noise term 0.25 dominates), n = 400, lam = 2 L_f L_l/(R sqrt n)",
    predicate="failure: the lower bound of the mean population loss exceeds OPT plus the bound",
    trials={"quick": 200, "full": 2000},
    params={**ERM_COMMON, "n": 400, "c_gamma": 2.0, "epsilon": 0.1, "lam": 2 * RIDGE_LL / 20.0},
    controls=(ERM_DOUBLE, ERM_NEGATED),
)
def _cor4(ctx: Context) -> dict:
    return _erm_check(ctx, scalar(ctx.env["error_bound"]), _ridge_opt())


SCALING_C = 0.1 * 100 ** 0.25   # epsilon_n = c n^(-1/4): epsilon = 0.1 at n = 100 (the noise term dominates)


for _n in (100, 1600):
    _eps = SCALING_C * _n ** -0.25

    @experiment(
        "convex_erm_prediction", "Corollary 4", f"scaling-n{_n}", "property",
        title=f"Corollary 4 with epsilon_n = c n^(-1/4) at n = {_n} (epsilon = {_eps:.3f}): the noise term "
              "sigma R^2 L_f^2/(n eps^2) = 1/(c^2 sqrt n) keeps a constant ratio (2.7) to the statistical term 2 R L_f L_l/sqrt(n)",
        instance=f"as the Corollary 4 check (squared loss, R = 1, |w*| = 0.75) at n = {_n}, lam = lam_cor4, c_gamma = 2",
        predicate="failure: the lower bound of the mean population loss exceeds OPT plus the bound",
        trials={"quick": 100, "full": 1000},
        params={**ERM_COMMON, "n": _n, "c_gamma": 2.0, "epsilon": _eps, "lam": 2 * RIDGE_LL / math.sqrt(_n)},
        controls=(ERM_DOUBLE,),
    )
    def _cor4_scaling(ctx: Context) -> dict:
        return _erm_check(ctx, scalar(ctx.env["error_bound"]), _ridge_opt())


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
