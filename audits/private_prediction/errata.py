"""Errata of seed 002 (notes section 0): E1, E2, E4, E5, E6, E7 settled by measurement; E3, E8,
E9, E10, E11 and E12 analytic (each record says why no measurement can decide it).

Each measurement samples the reference implementations (the printed and the corrected variant)
through :class:`Reference`, a stand-in for the experiments' context, so the same helpers as the
theorem checks are reused.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from dptestbed.audits.api import ErratumContext, audit_summary, erratum, gaussian_delta
from dptestbed.impl.private_prediction import lower_bound, soft_majority, stable, teachers

from .checks_pac import generalisation_sample, soft_majority_point_errors
from .common import mean_ci

SAMPLES = {"quick": 1, "full": 10}   # multiplier of the Monte-Carlo sizes


class Reference:
    """``sample(data, n, **overrides)`` and ``rng`` of a reference implementation at ``params``."""

    def __init__(self, impl, params: dict, seed: int):
        self.impl, self.params = impl, dict(params)
        self.rng = np.random.default_rng(seed)

    def sample(self, data, n, **overrides):
        return np.asarray(self.impl.batch(data, int(n), rng=self.rng, **{**self.params, **overrides}))


def _audit_line(a: dict | None) -> str:
    if not a:
        return ""
    eps = a.get("epsilon_lower_bound")
    eps_text = "n/a" if eps is None else f"{eps:.3g}"
    exact = a.get("exact_epsilon")
    exact_text = "" if exact is None else f", exact {exact:.3g} on that pair"
    return (f"Audit {a['spec']}: {a['verdict']}, {a.get('claim_name') or 'epsilon'} lower bound {eps_text}{exact_text} "
            f"vs claim {a.get('claim') or a['claim_epsilon']} "
            f"({a['samples_per_side']:,} samples/side). ")


# --------------------------------------------------------------------------- E1


@erratum("002-E1", kind="privacy", printed="subsample_aggregate_prediction_broken",
         corrected="subsample_aggregate_prediction_corrected")
def measure_e1(ctx: ErratumContext) -> dict:
    eps, r = 1.0, soft_majority.n_teachers(1.0, 0.1)
    exact = {}
    for name, factor in (("printed", 1.0), ("corrected", 0.5)):
        p = [float(soft_majority.vote_probability(nu, eps, factor)) for nu in (-5, -3, -r, -r + 2)]
        exact[name] = {"near_centre": math.log(p[1] / p[0]), "extreme": math.log(p[3] / p[2])}
    a_p = audit_summary(ctx.audit("subsample_aggregate_prediction_broken"))
    a_c = audit_summary(ctx.audit("subsample_aggregate_prediction_corrected"))
    confirmed = exact["printed"]["near_centre"] > eps and bool(a_p) and a_p["verdict"] == "violation"
    text = (f"Exact loss of one changed teacher at epsilon = 1, r = {r}: nu = -5 -> -3: printed exp(eps c_b) "
            f"{exact['printed']['near_centre']:.3f}, corrected exp(eps c_b/2) {exact['corrected']['near_centre']:.3f}; "
            f"nu = -r -> -r + 2: printed {exact['printed']['extreme']:.3f} (-> 2 eps), corrected "
            f"{exact['corrected']['extreme']:.5f}. " + _audit_line(a_p) + _audit_line(a_c))
    return {"verdict": "confirmed" if confirmed else "inconclusive", "measurement": text.strip(),
            "deciding": "black-box audit of the printed variant on the near-centre pair (Clopper-Pearson eps_lb > "
                        "claim), with the exact loss 1.958 beside it",
            "details": {"exact": exact, "audit_printed": a_p, "audit_corrected": a_c}}


# --------------------------------------------------------------------------- E2


@erratum("002-E2", kind="privacy", printed="stable_gaussian_prediction_broken", corrected="stable_gaussian_prediction")
def measure_e2(ctx: ErratumContext) -> dict:
    eps, delta = 0.5, 1e-5
    rows = []
    for gamma in (1.0, 10.0):
        s_p, s_c = stable.sigma_gaussian_printed(eps, delta, gamma), stable.sigma_gaussian(eps, delta, gamma)
        rows.append({"gamma": gamma, "sigma_printed": s_p, "sigma_corrected": s_c,
                     "delta_printed": float(gaussian_delta(eps, gamma, s_p)),
                     "delta_corrected": float(gaussian_delta(eps, gamma, s_c))})
    a_p = audit_summary(ctx.audit("stable_gaussian_prediction_broken"))
    a_c = audit_summary(ctx.audit("stable_gaussian_prediction"))
    big = rows[1]
    confirmed = big["delta_printed"] > delta and big["delta_corrected"] <= delta and bool(a_p) and a_p["verdict"] == "violation"
    text = ("Exact Balle-Wang delta at epsilon = 0.5 (claim delta = 1e-5): " + "; ".join(
        f"gamma = {r['gamma']:g}: printed sd {r['sigma_printed']:.2f} -> delta {r['delta_printed']:.3g}, corrected sd "
        f"{r['sigma_corrected']:.2f} -> delta {r['delta_corrected']:.2g}" for r in rows) + ". "
        + _audit_line(a_p) + _audit_line(a_c))
    return {"verdict": "confirmed" if confirmed else "inconclusive", "measurement": text.strip(),
            "deciding": "exact Balle-Wang profile (delta 0.105 at gamma = 10 against 1e-5), confirmed by the black-box audit",
            "details": {"exact": rows, "audit_printed": a_p, "audit_corrected": a_c}}


# --------------------------------------------------------------------------- E3, E9, E10, E11 (no measurement)


def _analytic(reason: str) -> dict:
    return {"verdict": "analytic", "measurement": reason, "deciding": "reading of the report", "details": {}}


@erratum("002-E3", kind="utility", printed="subsample_aggregate_prediction", corrected="subsample_aggregate_prediction_corrected")
def measure_e3(ctx: ErratumContext) -> dict:
    return _analytic("Theorem 1 is a pure epsilon-DP statement and defines no delta, so the printed n = r m(delta/4, "
                     "beta/r) has no value at which to measure it; the proof trains the teachers at alpha/4, beta/r "
                     "(line 61), and read as delta = alpha the printed statement is the corrected one, which the "
                     "Theorem 1 check measures on both specs.")


@erratum("002-E9", kind="proof", involves=("stable_laplace_prediction_corrected",),
         printed_text="Theorem 3 proof (line 139): p_S(z)/p_S'(z) = exp(-eps |A(S, z) - z|/Delta A)/exp(-eps |A(S', z) - z|/Delta A)",
         corrected_text="p_S(z)/p_S'(z) = exp(-eps |A(S, x) - z|/Delta A)/exp(-eps |A(S', x) - z|/Delta A)")
def measure_e9(ctx: ErratumContext) -> dict:
    return _analytic("A typo in the argument of the Laplace densities; the mechanism and the statement of Theorem 3 "
                     "do not change (the privacy audit of the Laplace specs measures the statement), so nothing is "
                     "measured.")


@erratum("002-E10", kind="proof", involves=("stable_gaussian_prediction",),
         printed_text="Section 2 (line 35): 'beta-approximate max-divergence' D_inf^delta(U || V)",
         corrected_text="'delta-approximate max-divergence' D_inf^delta(U || V)")
def measure_e10(ctx: ErratumContext) -> dict:
    return _analytic("A name: the defined quantity is the delta-approximate max-divergence, as its formula says; no "
                     "statement changes, so nothing is measured.")


@erratum("002-E11", kind="proof", involves=("subsample_aggregate_prediction_corrected",),
         printed_text="Theorem 1 proof (line 65): for all i, Pr_D[f_i(x) != c(x)] <= alpha/4 with probability at least "
                      "1 - beta",
         corrected_text="each teacher has error <= alpha/4 with probability at least 1 - beta/r; by a union bound all r "
                        "teachers together with probability at least 1 - beta")
def measure_e11(ctx: ErratumContext) -> dict:
    return _analytic("The step's conclusion (all r teachers good with probability >= 1 - beta) holds once each "
                     "teacher fails with probability <= beta/r, which is how the teachers are trained; the statement "
                     "does not change (the Theorem 1 check records the per-teacher failure (1 - alpha/4)^m against "
                     "beta/r), so nothing is measured.")


# --------------------------------------------------------------------------- E4


@erratum("002-E4", kind="utility", printed="stable_laplace_prediction", corrected="stable_laplace_prediction_corrected")
def measure_e4(ctx: ErratumContext) -> dict:
    eps, gamma, sigma = 1.0, 1.0, 0.25
    ref = Reference(stable.stable_laplace_prediction, {"epsilon": eps, "gamma": gamma}, ctx.seed)
    n = 1_000_000 * SAMPLES[ctx.suite]
    out = ref.sample(0.0, n)
    extra = sigma * out ** 2 / 2                      # l = sigma (a - y)^2/2 at a = y = 0
    m, lo, hi = mean_ci(extra)
    printed, corrected = sigma ** 2 * gamma ** 2 / eps ** 2, sigma * gamma ** 2 / eps ** 2
    confirmed = lo > printed and lo <= corrected <= hi
    text = (f"Quadratic loss sigma (a - y)^2/2 with sigma = 1/4, gamma = epsilon = 1, {n:,} answers at a = y: measured "
            f"extra loss {m:.4f} (z = 5 interval [{lo:.4f}, {hi:.4f}]); exact sigma gamma^2/eps^2 = {corrected:g} "
            f"(corrected bound, attained); printed sigma^2 gamma^2/eps^2 = {printed:g} is below the measured value.")
    return {"verdict": "confirmed" if confirmed else "inconclusive", "measurement": text,
            "deciding": "Monte Carlo of the extra loss with a z = 5 interval against the exact sigma b^2",
            "details": {"measured": m, "interval": [lo, hi], "printed_bound": printed, "corrected_bound": corrected}}


# --------------------------------------------------------------------------- E5, E6


@erratum("002-E5", kind="utility", printed="averaged_learner", corrected="averaged_learner_corrected")
def measure_e5(ctx: ErratumContext) -> dict:
    r, m, p = 4, 10, 0.3
    ref = Reference(stable.averaged_learner, {"r": r}, ctx.seed)
    trials = 20_000 * SAMPLES[ctx.suite]
    blocks = ref.rng.binomial(m, p, size=(trials, r)) / m        # base learner: mean label of m records

    def sq_loss(a):                                              # E_{y ~ Bern(p)} (a - y)^2
        return (a - p) ** 2 + p * (1 - p)

    base = sq_loss(blocks[:, 0])
    averaged = np.array([sq_loss(float(ref.sample(row, 1)[0])) for row in blocks])
    nu = p * (1 - p) * (1 + 1 / m)                               # = E[base loss] exactly
    mb, lob, hib = mean_ci(base)
    ma, loa, hia = mean_ci(averaged)
    refuted_printed = hia < nu <= hib + 1e-12
    text = (f"Squared loss, base learner = mean label of {m} Bern({p}) records, r = {r}: E[base loss] = {mb:.5f} "
            f"(interval [{lob:.5f}, {hib:.5f}], exact nu = {nu:.5f}); E[averaged loss] = {ma:.5f} (upper {hia:.5f}, "
            f"exact {p * (1 - p) * (1 + 1 / (r * m)):.5f}) < nu: the printed implication 'E[base] >= nu => E[averaged] "
            f">= nu' fails, the corrected '<=' holds.")
    return {"verdict": "confirmed" if refuted_printed else "inconclusive", "measurement": text,
            "deciding": "Monte Carlo means over datasets (z = 5 intervals) with the exact expectations beside them",
            "details": {"base_mean": mb, "averaged_mean": ma, "nu": nu}}


@erratum("002-E6", kind="utility", involves=("subsample_aggregate_prediction_corrected",),
         printed_text="Lemma 6: E_{S,S'}[(E_S'[M(S)])^k] >= e^(k^2 eps) E_S[(E_S[M(S)] + k delta B)^k] (the proof writes "
                      "'=' for the product bound)",
         corrected_text="E_{S,S'}[(E_S'[M(S)])^k] <= e^(k^2 eps) E_S[(E_S[M(S)] + k delta B)^k] (and '<=' in the proof)")
def measure_e6(ctx: ErratumContext) -> dict:
    ref = Reference(soft_majority.subsample_aggregate_prediction_corrected, {"epsilon": 0.1, "alpha": 0.5}, ctx.seed)
    e_s, e_fresh = generalisation_sample(ref, 200 * SAMPLES[ctx.suite])
    rows, printed_fails = [], 0
    for k in (1, 2, 3):
        lhs, _, lhs_hi = mean_ci(e_fresh ** k)
        rhs_mean, rhs_lo, _ = mean_ci(e_s ** k)
        factor = math.exp(k * k * 0.1)
        rows.append({"k": k, "lhs": lhs, "lhs_upper": lhs_hi, "rhs": factor * rhs_mean, "rhs_lower": factor * rhs_lo})
        printed_fails += lhs_hi < factor * rhs_lo                # printed '>=' contradicted
    text = ("0-1 loss of the soft majority (epsilon = 0.1, r = 125, n = 500, noisy thresholds): " + "; ".join(
        f"k = {r['k']}: E[(E_S')^k] = {r['lhs']:.4f} (upper {r['lhs_upper']:.4f}) vs e^(k^2 eps) E[(E_S)^k] = "
        f"{r['rhs']:.4f} (lower {r['rhs_lower']:.4f})" for r in rows)
        + f". The printed '>=' fails for {printed_fails} of 3 k; the corrected '<=' holds (Lemma 6 check).")
    return {"verdict": "confirmed" if printed_fails else "inconclusive", "measurement": text,
            "deciding": "Monte Carlo means over datasets with z = 5 intervals (k = 2, 3 decide)", "details": {"rows": rows}}


# --------------------------------------------------------------------------- E7


@erratum("002-E7", kind="proof", printed="private_prediction_lower_bound", corrected="private_prediction_lower_bound_corrected")
def measure_e7(ctx: ErratumContext) -> dict:
    d = 400
    rows = [{"epsilon": e, "tail": lower_bound.proof_tail(e, d), "instance_bound": lower_bound.best_instance_bound(
        e, e / 3, math.floor(d / (8 * e)), d)[0]} for e in (0.25, 0.1, 0.05, 0.04)]
    rng = np.random.default_rng(ctx.seed)
    n = math.floor(d / 8 / 0.1)
    inst = lower_bound.decode(lower_bound.private_prediction_lower_bound.batch(None, 200, rng=rng, d=d, n=n), n)
    measured = float(soft_majority_point_errors(inst, 0.1, 0.25, d).mean())
    fails = [r["epsilon"] for r in rows if r["tail"] > 1 / 24]
    text = ("Exact binomial Pr[Bin(floor(d/(8 eps)), 1/d) > 1/(4 eps)] at d = 400: " + "; ".join(
        f"eps = {r['epsilon']:g}: {r['tail']:.3f}" for r in rows) + f" against the proof's 1/24 = {1 / 24:.4f}: false at "
        f"eps = {', '.join(f'{e:g}' for e in fails)}. The measurable replacement, the instance bound at n = d/(8 eps) "
        f"with delta = eps/3: " + ", ".join(f"{r['instance_bound']:.3f}" for r in rows) + " (all > 1/3); the "
        f"soft majority measured {measured:.3f} at eps = 0.1.")
    return {"verdict": "confirmed" if fails else "refuted", "measurement": text,
            "deciding": "exact binomial tail against 1/24", "details": {"rows": rows, "soft_majority_error": measured}}


# --------------------------------------------------------------------------- E8


def _agnostic_excess(rng, *, r, m, epsilon, eta, trials, grid_size=101) -> np.ndarray:
    """err_P(M(S)) - OPT on near-optimal grid thresholds: y = 1[x >= 1/2] XOR Bern(eta), exact
    given the votes (P1 from the exact rounding law)."""
    grid = np.linspace(0.0, 1.0, grid_size)
    mids = (grid[:-1] + grid[1:]) / 2
    py1 = np.where(mids >= 0.5, 1 - eta, eta)
    b = 1.0 / (r * epsilon)
    out = np.empty(trials)
    for t in range(trials):
        X = rng.random((r, m))
        y = (X >= 0.5).astype(np.int8) ^ (rng.random((r, m)) < eta).astype(np.int8)
        c1 = (mids[None, :] >= grid[teachers.grid_erm(X, y, grid)][:, None]).sum(axis=0)
        q = stable.rounding_probability(c1 / r, b)
        out[t] = float(np.mean(q * (1 - py1) + (1 - q) * py1)) - eta
    return out


@erratum("002-E8", kind="utility", printed="agnostic_private_prediction", corrected="agnostic_private_prediction_corrected")
def measure_e8(ctx: ErratumContext) -> dict:
    eps, alpha, beta, N, eta = 1.0, 0.2, 0.2, 101, 0.45
    rng = np.random.default_rng(ctx.seed)
    trials = 200 * SAMPLES[ctx.suite]
    r_p = stable.agnostic_teachers(eps, alpha, printed=True)
    m_p = teachers.m_agnostic(alpha, 2 * beta * alpha * eps, N)          # block = floor(n_printed/r)
    m_p = math.floor(math.ceil(2 * m_p / (alpha * eps)) / r_p)
    r_c = stable.agnostic_teachers(eps, alpha)
    m_c = teachers.m_agnostic(alpha / 2, beta / r_c, N)
    ex_p = _agnostic_excess(rng, r=r_p, m=m_p, epsilon=eps, eta=eta, trials=trials)
    ex_c = _agnostic_excess(rng, r=r_c, m=m_c, epsilon=eps, eta=eta, trials=trials)
    fail_p, fail_c = int(np.sum(ex_p > alpha)), int(np.sum(ex_c > alpha))
    p_value = float(stats.binom.sf(fail_p - 1, trials, beta)) if fail_p else 1.0
    text = (f"Near-optimal grid (y = 1[x >= 1/2] XOR Bern({eta}), OPT = {eta}, {N} thresholds), epsilon = 1, alpha = "
            f"{alpha}, beta = {beta}: printed r = {r_p}, blocks of {m_p}: excess error mean {ex_p.mean():.4f}, "
            f"max {ex_p.max():.4f}, {fail_p}/{trials} datasets above alpha; corrected r = {r_c}, blocks of {m_c}: mean "
            f"{ex_c.mean():.4f}, max {ex_c.max():.4f}, {fail_c}/{trials} above alpha. The printed chain only supports "
            f"2 alpha (teachers at alpha plus the noise term 1/(r eps) = {1 / (r_p * eps):.3f}), but the measurement cannot "
            f"bite: randomized rounding costs at most P1(0) = (b/2)(1 - e^(-1/b)) = "
            f"{float(stable.rounding_probability(0.0, 1 / (r_p * eps))):.3f} < b where the teachers agree, and grid ERM "
            f"at the Hoeffding block size stays far below its excess alpha. The erratum is a gap in the proof's constants "
            f"(the chain gives 2 alpha, r is not an integer), not a failure of the printed statement that a measurement "
            f"could show: analytic.")
    verdict = "confirmed" if p_value < 1e-3 else "analytic"
    return {"verdict": verdict, "measurement": text,
            "deciding": "Monte Carlo of the excess error against alpha (binomial test against beta); the constants "
                        "themselves are decided analytically (the printed chain gives 2 alpha)",
            "details": {"printed_failures": fail_p, "corrected_failures": fail_c, "trials": trials, "p_value": p_value}}


# --------------------------------------------------------------------------- E12


E12_POINTS = ((25, 0.1), (100, 0.1), (400, 0.1), (100, 1.0))   # (n, epsilon): the sigma-condition fails at each


@erratum("002-E12", kind="utility", involves=("convex_erm_prediction",),
         printed_text="Corollary 4: if l(f(., x), y) is lambda-strongly convex and sigma-smooth and sigma <= 2 L_f L_l "
                      "sqrt(n)/R, then E_S[E_P l(M(S))] <= min_w E_P l + 2 R L_f L_l/sqrt(n) + sigma R^2 L_f^2/(n eps^2)",
         corrected_text="the same bound for every convex sigma-smooth l, with no condition on sigma: exact L2-regularised "
                        "ERM with lambda = 2 L_f L_l/(R sqrt n) gives bias lambda R^2/2 plus stability L_l gamma = "
                        "2 R L_f L_l/sqrt(n) and noise sigma gamma^2/eps^2 with gamma = R L_f/sqrt(n)")
def measure_e12(ctx: ErratumContext) -> dict:
    from dptestbed.impl.private_prediction import convex_erm

    X_norm, R, c, d = 0.1, 1.0, 0.02, 3                      # squared loss (sigma = 1) on features of norm 0.1
    w_star = np.array([0.6, -0.4, 0.2])
    L_l = X_norm * R + X_norm * float(np.linalg.norm(w_star)) + c   # |a - y| <= X R + Y on K = B(R)
    rng = np.random.default_rng(ctx.seed)
    rows = []
    for n, eps in E12_POINTS:
        lam = 2 * X_norm * L_l / (R * math.sqrt(n))                 # lam_cor4
        b = convex_erm.certified_gamma(L_f=X_norm, L_l=L_l, lam=lam, n=n, c_gamma=2.0) / eps
        stat, noise = 2 * R * X_norm * L_l / math.sqrt(n), R ** 2 * X_norm ** 2 / (n * eps ** 2)
        excess = np.empty(100 * SAMPLES[ctx.suite])
        for t in range(excess.size):
            x = rng.normal(size=(n, d))
            x *= X_norm / np.linalg.norm(x, axis=1, keepdims=True)
            y = x @ w_star + rng.uniform(-c, c, n)
            w = convex_erm.fit(x, y, loss="squared", lam=lam, R=R, L_f=X_norm)
            # E_P E_M l(M(S)) - OPT exactly: E[x x^T] = X^2 I/d, E[xi^2]/2 = b^2, OPT = c^2/6 at w*
            excess[t] = X_norm ** 2 / (2 * d) * float((w - w_star) @ (w - w_star)) + b ** 2
        m, _, hi = mean_ci(excess)
        rows.append({"n": n, "epsilon": eps, "sigma_max": 2 * X_norm * L_l * math.sqrt(n) / R, "bound": stat + noise,
                     "noise_term": noise, "mean_excess": m, "upper": hi, "slack": m / (stat + noise)})
    held = all(r["upper"] <= r["bound"] for r in rows)
    text = (f"The printed Corollary 4 claims nothing where its condition sigma <= 2 L_f L_l sqrt(n)/R fails, so no "
            f"measurement can show it wrong: the erratum (the condition is not needed) stands on the exact-ERM "
            f"derivation. Supporting measurement with the reference at lam_cor4, c_gamma = 2: squared loss (sigma = 1), "
            f"x uniform on the sphere of radius L_f = {X_norm:g} in R^3, y = <w*, x> + U[-{c:g}, {c:g}], |w*| = 0.75, "
            f"K = B({R:g}), L_l = {L_l:.3f}; excess E_P E_M l - OPT exact per dataset, mean over "
            f"{100 * SAMPLES[ctx.suite]} datasets (z = 5 upper bound): " + "; ".join(
                f"n = {r['n']}, eps = {r['epsilon']:g} (sigma_max = {r['sigma_max']:.3f} < 1): {r['mean_excess']:.3g} "
                f"(upper {r['upper']:.3g}) against the bound {r['bound']:.3g}, slack {r['slack']:.2f}" for r in rows)
            + (". The bound held at every point above the condition." if held else
               ". The bound FAILED at some point above the condition: the erratum's claim is in doubt."))
    return {"verdict": "analytic" if held else "inconclusive", "measurement": text,
            "deciding": "the derivation (exact regularised ERM reproduces both terms without the sigma-condition); the "
                        "measurement above the condition supports it",
            "details": {"rows": rows}}
