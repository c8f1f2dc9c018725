"""Checks of Algorithm 2 (ppm_halfspace_learner): Lemma 4.6, Claim 4.7, Lemma 4.8 and
Theorems 4.9-4.10, on the note's setups (S1 d = 1 thresholds, S2 zero-margin uniform square,
S4 degenerate public support, S5 label noise). The learner is sampled only through
``ctx.sample``; m(g^), err^ and err(g^; D~) are computed from its output J with the
reference family, Aff and closed membership (offline, outside the privacy boundary)."""

from __future__ import annotations

import math

import numpy as np

from dptestbed.audits.experiments import Context, Control, experiment
from dptestbed.audits.theorems import Cell
from dptestbed.impl.halfspace_mixtures.geometry import (
    Setup,
    erm_mistakes,
    population_error,
)
from dptestbed.impl.halfspace_mixtures.learner import predict

from .common import IMPL, Law, data_rng, public_part, valid_outputs

SPEC = "ppm_halfspace_learner"
EPS = 0.9                      # inside the theorems' range (0, 1)
B_SMALL_MASS = -1.0383210567   # phi = 0.3: P[u.x < b] = 0.02 on [-1, 1]^2
B_MASS_15 = -0.6688038768      # phi = 0.3: P[u.x < b] = 0.15


def _ctrl(name: str, description: str) -> Control:
    return Control(name, f"{IMPL}.mutants:{name}", description)


C_EXPONENT = _ctrl("learner_exponent_full", "weights exp(-epsilon m) (factor 1/2 dropped)")
C_COLD = _ctrl("learner_temperature_eighth", "weights exp(-epsilon m/16) (epsilon/8 used in the exponent)")
C_CONST = _ctrl("learner_constant_one", "always outputs the constant-1 hypothesis")
C_STRICT = _ctrl("learner_strict_membership", "strict membership w.x > w_0 in the score (trap U2)")
C_OPP = _ctrl("learner_opposite_missing", "G built from one side of each hyperplane only (h_- missing)")
C_AFF = _ctrl("learner_aff_omitted", "Aff omitted: g labels 0 the whole polytope, also off the public points' span")
C_PRIV = _ctrl("learner_score_private_only", "m(g) counted on the private rows only (trap U5)")
C_F32 = _ctrl("learner_float32_weights", "linear-space float32 weights; uniform over G when they all underflow")
C_FIRST = _ctrl("learner_first_in_level", "J is the first set of the drawn level, not uniform within it")


def _outputs(ctx: Context, data: dict, count: int, epsilon: float) -> np.ndarray:
    d = np.asarray(data["X"]).shape[1]
    return np.asarray(ctx.sample(data, count, epsilon=epsilon), np.int64).reshape(count, d)


def _bind(ctx: Context, data: dict, **extra) -> dict:
    X = np.asarray(data["X"])
    return ctx.bind(d=X.shape[1], n=X.shape[0], n_pub=int(np.sum(np.asarray(data["p"]) == 0)), **extra)


def _collinear_off_line(rng: np.random.Generator, n_pub: int = 6, n_priv: int = 14) -> dict:
    """S4(b): public points on the segment x_2 = 0, x_1 in [-1, -0.1]; private points off the line
    (0.05 <= |x_2| <= 0.3, x_1 in [-1.2, 1]), so only Aff separates them from the public segment."""
    off = rng.uniform(0.05, 0.3, n_priv) * rng.choice([-1.0, 1.0], n_priv)
    X = np.r_[np.c_[-rng.uniform(0.1, 1, n_pub), np.zeros(n_pub)], np.c_[rng.uniform(-1.2, 1, n_priv), off]]
    y = np.r_[np.zeros(n_pub, np.int64), np.ones(n_priv, np.int64)]
    return {"X": X, "y": y, "p": y.copy()}


def _badly_scaled(rng: np.random.Generator, n: int = 22) -> dict:
    """Trap U2's instance: realizable d = 2 data scaled by (10^3, 10^-3) and offset by 5 10^3."""
    X = rng.uniform(-1, 1, (n, 2))
    y = (X @ [1.0, 0.7] >= 0.1).astype(np.int64)
    return {"X": X * [1e3, 1e-3] + 5e3, "y": y, "p": y.copy()}


def calibration_instances(rng: np.random.Generator):
    yield "d1-noisy-n40", Setup(d=1, eta=0.2).sample(40, rng)
    yield "d2-badly-scaled", _badly_scaled(rng)
    yield "d2-collinear-public", _collinear_off_line(rng)


# =========================================================================== Lemma 4.6


@experiment(SPEC, "Lemma 4.6", "exact-law", "calibration",
            title="law of g^ given S': P[m(g^) <= m_min + t] = sum c_m exp(-eps m/2)/Z and P[g^ = J*] (J* the first "
                  "minimiser) against the exact values",
            instance="epsilon = 0.9; three fixed S': d = 1 label noise 0.2 (n = 40), d = 2 badly scaled realizable "
                     "(n = 22), d = 2 collinear public points with private points off the line (n = 20); t where the "
                     "exact probability is nearest 1/2; alternatives: the laws at epsilon x 1.3 and epsilon / 1.3",
            predicate="event: m(g^) <= m_min + t (resp. g^ = J*), m computed with the reference family and membership",
            trials={"quick": 20_000, "full": 400_000}, params={"epsilon": EPS},
            controls=(C_STRICT, C_AFF, C_OPP, C_FIRST))
def _lemma46_law(ctx: Context) -> dict:
    cells = []
    for name, data in calibration_instances(data_rng(ctx)):
        laws = [Law(data, e) for e in (EPS, EPS * 1.3, EPS / 1.3)]
        law = laws[0]
        m_min = int(law.m.min())
        cum = [law.at_most(m_min + t) for t in range(law.m.max() - m_min + 1)]
        t = int(np.argmin(np.abs(np.array(cum) - 0.5)))
        out = _outputs(ctx, data, ctx.trials, EPS)
        m_out = law.mistakes(out)
        cells.append(Cell(f"{name}: P[m(g^) <= m_min + {t}]", ctx.trials, int(np.sum(m_out <= m_min + t)), cum[t],
                          tuple(a.at_most(m_min + t) for a in laws[1:])))
        first = int(np.flatnonzero(law.m == m_min)[0])
        cells.append(Cell(f"{name}: P[g^ = J*]", ctx.trials, int(np.sum(law.lookup(out) == first)),
                          float(np.exp(law.logp[first])), tuple(float(np.exp(a.logp[first])) for a in laws[1:])))
    return {"cells": cells}


def _gap_check(ctx: Context, data: dict, reference: int, label: str) -> dict:
    """failures: m(g^) - reference > n tau_EM (tau_EM at the realised |G|)."""
    env = _bind(ctx, data, epsilon=EPS)
    n = np.asarray(data["y"]).size
    allowed = n * float(env["error_bound"])
    law = Law(data, EPS)
    exact = 1.0 - law.at_most(reference + allowed)
    m_out = law.mistakes(_outputs(ctx, data, ctx.trials, EPS))
    failures = int(np.sum(m_out - reference > allowed))
    q = float(np.quantile(m_out - reference, 1 - float(env["failure_probability"])))
    return {"failures": failures, "trials": ctx.trials, "beta": float(env["failure_probability"]),
            "error_quantile": q / n, "error_bound": allowed / n, "slack": q / allowed,
            "exact_failure_probability": exact, "reference": label}


@experiment(SPEC, "Lemma 4.6", "em-gap", "bound",
            title="P[err^(g^; S') - min_G err^ > tau_EM] <= beta, tau_EM = 2(ln|G| + ln(1/beta))/(epsilon n) "
                  "(realised |G|; explicit constant of [MT07])",
            instance="epsilon = 0.9, beta = 0.05; one S' of setup S1 (d = 1, n = 200, public mass 1/2, realizable): "
                     "|G| = 2 n_pub + 3; the constant-1 hypothesis errs on every public row",
            predicate="failure: m(g^) - min_G m > n tau_EM",
            trials={"quick": 20_000, "full": 400_000}, params={"epsilon": EPS, "beta": 0.05},
            controls=(C_COLD, C_CONST),
            slack_definition="(1 - beta) quantile of err^(g^) - min_G err^ over tau_EM")
def _lemma46_gap(ctx: Context) -> dict:
    data = Setup(d=1).sample(200, data_rng(ctx))
    return _gap_check(ctx, data, int(Law(data, EPS).m.min()), "min_G m")


# =========================================================================== Claim 4.7


@experiment(SPEC, "Claim 4.7", "vs-erm-large-noise", "bound",
            title="P[err^(g^; S') - err^(h_ERM; S') > tau_EM] <= beta with the exact ERM halfspace",
            instance="epsilon = 0.9, beta = 0.05; one S' of setup S5 (d = 1, n = 1000, label noise 0.3, public mass "
                     "1/2): min_G m is about 300, so linear-space float32 weights all underflow",
            predicate="failure: m(g^) > m(h_ERM) + n tau_EM",
            trials={"quick": 5_000, "full": 100_000}, params={"epsilon": EPS, "beta": 0.05},
            controls=(C_F32, C_PRIV, C_CONST),
            slack_definition="(1 - beta) quantile of err^(g^) - err^(h_ERM) over tau_EM")
def _claim47_noise(ctx: Context) -> dict:
    data = Setup(d=1, eta=0.3).sample(1000, data_rng(ctx))
    return _gap_check(ctx, data, erm_mistakes(data["X"], data["y"]), "m(h_ERM)")


@experiment(SPEC, "Claim 4.7", "vs-erm-d2", "bound",
            title="P[err^(g^; S') - err^(h_ERM; S') > tau_EM] <= beta, d = 2 with label noise",
            instance="epsilon = 0.9, beta = 0.05; one S' of setup S5 in d = 2 (uniform square, target through "
                     "P[y = 0] = 0.15, label noise 0.1, n = 60); exact ERM over lines through two points; at this n "
                     "n tau_EM (about 26 mistakes) exceeds the constant-1 hypothesis's excess, so this instance tests "
                     "G's shape in d = 2, the d = 1 instance tests triviality",
            predicate="failure: m(g^) > m(h_ERM) + n tau_EM",
            trials={"quick": 5_000, "full": 100_000}, params={"epsilon": EPS, "beta": 0.05},
            controls=(C_OPP,),
            slack_definition="(1 - beta) quantile of err^(g^) - err^(h_ERM) over tau_EM")
def _claim47_d2(ctx: Context) -> dict:
    data = Setup(d=2, b=B_MASS_15, eta=0.1).sample(60, data_rng(ctx))
    return _gap_check(ctx, data, erm_mistakes(data["X"], data["y"]), "m(h_ERM)")


# =========================================================================== Lemma 4.8


def compression_bound(err_hat, n: int, k: float, log_term: float):
    """Lemma 4.8's bound sqrt(err^ 4k L/n) + 8k L/n + 2k/n with L = ``log_term``."""
    return np.sqrt(np.maximum(err_hat, 0) * 4 * k * log_term / n) + 8 * k * log_term / n + 2 * k / n


def side_info_bound(err_hat, n: int, d: int, beta: float):
    """Note 3.8's conservative variant (derived, SSBD14 Lemma 30.1 + union bound): k = d^2 + d,
    Lambda = k ln n + ln((d + 1) 2^d / beta); L_V <= err^ n/(n - k)."""
    k = d * d + d
    lam = k * math.log(n) + math.log((d + 1) * 2 ** d / beta)
    lv = np.asarray(err_hat) * n / (n - k)
    return lv - np.asarray(err_hat) + np.sqrt(2 * lv * lam / (n - k)) + 4 * lam / (n - k)


L48_SETUPS = {1: (Setup(d=1), 400), 2: (Setup(d=2, b=B_SMALL_MASS), 700)}


def _lemma48(ctx: Context, d: int, uniform: str) -> dict:
    setup, n = L48_SETUPS[d]
    beta = float(ctx.env["failure_probability"])
    log_term = math.log(n / beta)
    failures, gaps = 0, []
    rng = data_rng(ctx)
    for _ in range(ctx.trials):
        data = setup.sample(n, rng)
        X_pub = public_part(data)
        if uniform == "ghat":
            J = _outputs(ctx, data, 1, EPS)
            if not valid_outputs(J, X_pub)[0]:                          # not a member of G: a failure
                failures += 1
                gaps.append(1.0)
                continue
        else:
            J = Law(data, EPS).J
        err = population_error(setup, X_pub, J)
        err_hat = (predict(J, X_pub, data["X"]) != data["y"][None, :]).mean(axis=1)
        if uniform == "side-info":
            bound = side_info_bound(err_hat, n, d, beta)
        else:
            bound = compression_bound(err_hat, n, d * d, log_term)
        gap = float(np.max(err - err_hat - bound))
        gaps.append(gap)
        failures += gap > 0
    q = float(np.quantile(gaps, 1 - beta))
    return {"failures": int(failures), "trials": ctx.trials, "beta": beta, "error_quantile": q, "error_bound": 0.0}


_L48_INSTANCE = ("fresh S ~ D^n per trial; d = 1: setup S1 (public mass 1/2, n = 400, |G| about 400); d = 2: setup S2 "
                 "zero-margin (uniform square, P[y = 0] = 0.02, n = 700, |G| about 2 10^4); err(g; D~) exact (interval "
                 "lengths, polygon areas); any data-independent output also satisfies this bound (Hoeffding): the check "
                 "measures the compression property of G, not a trivial-output failure")

for _d in (1, 2):
    experiment(SPEC, "Lemma 4.8", f"ghat-d{_d}", "bound",
               title=f"d = {_d}: P[err(g^) - err^(g^) > sqrt(err^ 4k L/n) + 8k L/n + 2k/n] <= beta, k = d^2, "
                     "L = ln(n/beta)",
               instance=_L48_INSTANCE, predicate="failure: the realised g^ exceeds the bound at its own err^",
               trials={"quick": 20 if _d == 1 else 6, "full": 400 if _d == 1 else 100},
               params={"epsilon": EPS, "beta": 0.05, "d": _d},
               slack_definition="(1 - beta) quantile of err - err^ - bound (negative: the bound holds with room)",
               )(lambda ctx, _d=_d: _lemma48(ctx, _d, "ghat"))
    experiment(SPEC, "Lemma 4.8", f"uniform-G-d{_d}", "bound",
               title=f"d = {_d}: uniformly over G, P[sup_g err(g) - err^(g) - bound(err^(g)) > 0] <= beta, k = d^2 "
                     "as stated",
               instance=_L48_INSTANCE, predicate="failure: some g in G exceeds the bound at its own err^",
               trials={"quick": 10 if _d == 1 else 2, "full": 300 if _d == 1 else 60},
               params={"epsilon": EPS, "beta": 0.05, "d": _d},
               slack_definition="(1 - beta) quantile of the sup over G of err - err^ - bound",
               )(lambda ctx, _d=_d: _lemma48(ctx, _d, "uniform"))
    experiment(SPEC, "Lemma 4.8", f"uniform-G-side-info-d{_d}", "bound",
               title=f"d = {_d}: uniformly over G with k = d^2 + d (Aff's points) and side information "
                     "((d + 1) 2^d choices), derived variant of note 3.8",
               instance=_L48_INSTANCE, predicate="failure: some g in G exceeds the derived bound at its own err^",
               trials={"quick": 10 if _d == 1 else 2, "full": 300 if _d == 1 else 60},
               params={"epsilon": EPS, "beta": 0.05, "d": _d},
               slack_definition="(1 - beta) quantile of the sup over G of err - err^ - bound",
               )(lambda ctx, _d=_d: _lemma48(ctx, _d, "side-info"))


# =========================================================================== Theorem 4.9


def _theorem_run(ctx: Context, setup: Setup, n: int, rng: np.random.Generator) -> float:
    """err(g^; D~) - OPT for one fresh S ~ D^n (from ``rng``) and one draw of g^."""
    data = setup.sample(n, rng)
    J = _outputs(ctx, data, 1, EPS)
    if not valid_outputs(J, public_part(data))[0]:                      # not a member of G: wrong everywhere
        return 1.0 - setup.opt()
    return float(population_error(setup, public_part(data), J)[0]) - setup.opt()


def _sweep(ctx: Context, setup: Setup, ns, runs: int, bounds: dict, title: str, d: int) -> dict:
    beta = float(ctx.env["failure_probability"])
    measured, lows, highs = [], [], []
    rng = data_rng(ctx)
    for n in ns:
        e = np.array([_theorem_run(ctx, setup, n, rng) for _ in range(runs)])
        measured.append(float(np.quantile(e, 1 - beta)))
        s = np.sort(e)
        lows.append(float(s[max(0, int(runs * (1 - beta)) - 3)]))
        highs.append(float(s[min(runs - 1, int(runs * (1 - beta)) + 2)]))
    names = list(bounds)
    sweep = {"title": title, "x": list(ns), "x_label": "n", "log_x": True, "measured": measured, "lower": lows,
             "upper": highs, "measured_label": "measured (1 - beta) quantile of err - OPT",
             "bound": [float(ctx.bind(n=n, d=d)[bounds[names[0]]]) for n in ns], "bound_label": names[0],
             "y_label": "excess error", "trials_per_point": runs}
    if len(names) > 1:
        sweep["series"] = [{"label": name, "y": [float(ctx.bind(n=n, d=d)[bounds[name]]) for n in ns]}
                           for name in names[1:]]
    return sweep


def _bound_check(ctx: Context, setup: Setup, n: int, quantity: str, d: int) -> dict:
    env = ctx.bind(n=n, d=d)
    bound, beta = float(env[quantity]), float(env["failure_probability"])
    rng = data_rng(ctx)
    e = np.array([_theorem_run(ctx, setup, n, rng) for _ in range(ctx.trials)])
    q = float(np.quantile(e, 1 - beta))
    return {"failures": int(np.sum(e > bound)), "trials": ctx.trials, "beta": beta, "error_quantile": q,
            "error_bound": bound, "slack": q / bound}


@experiment(SPEC, "Theorem 4.9", "realizable-d1", "bound",
            title="realizable, d = 1 at the paper's explicit chain: P[err(g^) > B_real] <= beta with n such that "
                  "B_real = alpha = 0.1 (worst case n_pub = n)",
            instance="epsilon = 0.9, beta = 0.05, n = 1499 (B_real(1499) = 0.09995); setup S1: public U(-1, 0), private "
                     "U(0, 1), mass 1/2 each, y = 1[x >= 0]; err exact; constant 1 errs 0.5; sweep n = 50 .. 1499",
            predicate="failure: err(g^; D~) > B_real(n)",
            trials={"quick": 30, "full": 1000}, params={"epsilon": EPS, "beta": 0.05, "alpha": 0.1, "d": 1},
            controls=(C_PRIV, C_CONST),
            slack_definition="(1 - beta) quantile of err(g^) over B_real")
def _thm49_d1(ctx: Context) -> dict:
    setup = Setup(d=1)
    out = _bound_check(ctx, setup, 1499, "error_bound", 1)
    runs = 10 if ctx.trials < 200 else 200
    out["sweep"] = _sweep(ctx, setup, [50, 150, 500, 1499], runs, {"B_real (Theorem 4.9 chain)": "error_bound"},
                          "Theorem 4.9, d = 1: err(g^) against n beside the explicit bound", 1)
    return out


@experiment(SPEC, "Theorem 4.9", "realizable-d2-small-public-mass", "bound",
            title="realizable, d = 2, small public mass: P[err(g^) > B_real] <= beta at n with B_real = 0.2",
            instance="epsilon = 0.9, beta = 0.05, n = 2895 (B_real = 0.19995, worst case n_pub = n); setup S2 zero-margin: "
                     "uniform square, target u.x >= b with P[y = 0] = 0.02 (n_pub about 58, |G| about 6 10^6); err "
                     "exact by polygon areas; constant 1 errs 0.02 (the theorem's alpha is not reachable by it only "
                     "because the public mass is small: this instance tests the realised error, not triviality)",
            predicate="failure: err(g^; D~) > B_real(n)",
            trials={"quick": 2, "full": 60}, params={"epsilon": EPS, "beta": 0.05, "alpha": 0.2, "d": 2},
            seconds={"quick": 60.0, "full": 1800.0},
            slack_definition="(1 - beta) quantile of err(g^) over B_real")
def _thm49_d2(ctx: Context) -> dict:
    out = _bound_check(ctx, Setup(d=2, b=B_SMALL_MASS), 2895, "error_bound", 2)
    return out


# =========================================================================== Theorem 4.10


@experiment(SPEC, "Theorem 4.10", "agnostic-d1-label-noise", "bound",
            title="agnostic, d = 1, label noise 0.1: P[err(g^) - OPT > B_agn_hoeffding] <= beta (derived chain); "
                  "sweep beside the paper chain B_agn and eq. (2) printed / corrected",
            instance="epsilon = 0.9, beta = 0.05, n = 3000; setup S5 in d = 1 (public mass 1/2, flip rate 0.1, status "
                     "bit follows the noisy label, OPT = 0.1); B_agn_hoeffding(3000) = 0.196, B_agn(3000) = 0.569 "
                     "(vacuous against constant 1, whose excess is 0.4); sweep n = 100 .. 3000",
            predicate="failure: err(g^; D~) - OPT > B_agn_hoeffding(n)",
            trials={"quick": 8, "full": 300}, params={"epsilon": EPS, "beta": 0.05, "alpha": 0.2, "d": 1},
            seconds={"quick": 60.0, "full": 1800.0},
            slack_definition="(1 - beta) quantile of err(g^) - OPT over B_agn_hoeffding")
def _thm410_d1(ctx: Context) -> dict:
    setup = Setup(d=1, eta=0.1)
    out = _bound_check(ctx, setup, 3000, "error_bound_hoeffding", 1)
    runs = 6 if ctx.trials < 100 else 100
    out["sweep"] = _sweep(ctx, setup, [100, 300, 1000, 3000], runs,
                          {"B_agn_hoeffding (derived)": "error_bound_hoeffding", "B_agn (paper chain)": "error_bound",
                           "eq. (2) printed (no sqrt term)": "compression_printed",
                           "eq. (2) corrected (sqrt term)": "compression_corrected"},
                          "Theorem 4.10, d = 1, label noise 0.1: excess error against n beside the bounds", 1)
    return out
