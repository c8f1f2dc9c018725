"""Checks of Algorithm 2 (ppm_halfspace_learner): Lemma 4.6, Claim 4.7, Lemma 4.8 and
Theorems 4.9-4.10, on the note's setups (S1 d = 1 thresholds, S2 zero-margin uniform square,
S4 degenerate public support, S5 label noise) and on a wedge, where Lemma 4.5's g* needs an
intersection of d = 2 halfspaces. The learner is sampled only through ``ctx.sample``; m(g^),
err^ and err(g^; D~) are computed from its output (the spec's encoding: the public points that
support each halfspace and its side) with the reference family (the spec's Step-5 rule), Aff and
closed membership (offline, outside the privacy boundary)."""

from __future__ import annotations

import math

import numpy as np

from dptestbed.audits.experiments import Context, Control, experiment, reference_comparison
from dptestbed.audits.theorems import Cell
from dptestbed.impl.halfspace_mixtures.geometry import (
    Setup,
    erm_mistakes,
    population_error,
)
from dptestbed.impl.halfspace_mixtures.learner import predict

from .common import IMPL, Law, data_rng, decode, public_part, wedge

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
C_T30 = _ctrl("learner_epsilon_thirtieth", "weights exp(-epsilon m/60): a selection 30 times too flat")
C_TRUNC = _ctrl("learner_first_1000_rows", "reads only its first 1,000 rows (the accuracy of n = 1,000 at n = 30,000)")
C_SINGLE = _ctrl("learner_single_halfspaces", "G without the intersections of 2..d halfspaces (Step 8 with j = 1 only)")


def _outputs(ctx: Context, data: dict, count: int, epsilon: float) -> np.ndarray:
    """``count`` outputs of the implementation under test, in the encoding (count, d, d + 1)."""
    d = np.asarray(data["X"]).shape[1]
    return np.asarray(ctx.sample(data, count, epsilon=epsilon), np.int64).reshape(count, d, d + 1)


def mistakes(data: dict, out: np.ndarray) -> np.ndarray:
    """m(g^) of outputs on all n rows, without enumerating G (n + 1 for an output that encodes no
    member of G: counted as wrong everywhere)."""
    J, valid = decode(data, out)
    m = np.sum(predict(J, public_part(data), data["X"]) != data["y"][None, :], axis=1)
    return np.where(valid, m, np.asarray(data["y"]).size + 1)


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
    yield "d2-wedge", wedge(rng, apex=2, copies=3)
    X = np.r_[rng.uniform(-1, -0.2, (2, 2)), rng.uniform(0, 1, (8, 2))]
    y = (X @ [1.0, 1.0] >= 0).astype(np.int64)
    yield "d2-npub2", {"X": X, "y": y, "p": y.copy()}


# =========================================================================== Lemma 4.6


@experiment(SPEC, "Lemma 4.6", "exact-law", "calibration",
            title="law of g^ given S': P[m(g^) <= m_min + t] = sum c_m exp(-eps m/2)/Z and P[g^ = J*] (J* the first "
                  "minimiser) against the exact values",
            instance="epsilon = 0.9; five fixed S': d = 1 label noise 0.2 (n = 40), d = 2 badly scaled realizable "
                     "(n = 22), d = 2 collinear public points with private points off the line (n = 20), a d = 2 wedge "
                     "(2 public points at the apex and 2 on its edges, private pairs beyond it: g* is an intersection "
                     "of 2 halfspaces, n = 10), d = 2 with n_pub = 2 <= d (Aff a line, n = 10); t where the exact "
                     "probability is nearest 1/2; alternatives: the laws at epsilon x 1.3 and epsilon / 1.3",
            predicate="event: m(g^) <= m_min + t (resp. g^ = J*), m computed with the reference family and membership",
            trials={"quick": 20_000, "full": 400_000}, params={"epsilon": EPS},
            controls=(C_STRICT, C_AFF, C_OPP, C_FIRST, C_SINGLE))
def _lemma46_law(ctx: Context) -> dict:
    cells = []
    alternatives = (EPS * 1.3, EPS / 1.3)
    for name, data in calibration_instances(data_rng(ctx)):
        law = Law(data)
        m_min = int(law.m.min())
        cum = [law.at_most(m_min + t, EPS) for t in range(law.m.max() - m_min + 1)]
        t = int(np.argmin(np.abs(np.array(cum) - 0.5)))
        where = law.lookup(_outputs(ctx, data, ctx.trials, EPS))
        m_out = law.mistakes(where)
        cells.append(Cell(f"{name}: P[m(g^) <= m_min + {t}]", ctx.trials, int(np.sum(m_out <= m_min + t)), cum[t],
                          tuple(law.at_most(m_min + t, e) for e in alternatives)))
        first = int(np.flatnonzero(law.m == m_min)[0])
        cells.append(Cell(f"{name}: P[g^ = J*]", ctx.trials, int(np.sum(where == first)),
                          float(np.exp(law.logp(EPS)[first])),
                          tuple(float(np.exp(law.logp(e)[first])) for e in alternatives)))
    return {"cells": cells}


def _gap_check(ctx: Context, data: dict, reference: int, label: str) -> dict:
    """failures: m(g^) - reference > n tau_EM (tau_EM at the realised |G|)."""
    env = _bind(ctx, data, epsilon=EPS)
    n = np.asarray(data["y"]).size
    allowed = n * float(env["error_bound"])
    law = Law(data)
    exact = 1.0 - law.at_most(reference + allowed, EPS)
    m_out = law.mistakes(law.lookup(_outputs(ctx, data, ctx.trials, EPS)))
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
    return _gap_check(ctx, data, int(Law(data).m.min()), "min_G m")


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


WEDGE = {"apex": 48, "copies": 60}   # n_pub = 50: n tau_EM = 40.0 < 48 = what any j = 1 member of G pays


@experiment(SPEC, "Claim 4.7", "helly-wedge", "bound",
            title="Lemma 4.5 on the learner's output: on a wedge, where g* is an intersection of d = 2 halfspaces, "
                  "P[err^(g^; S') - err^(h_ERM; S') > tau_EM] <= beta",
            instance="epsilon = 0.9, beta = 0.05; fresh realizable d = 2 wedges (randomly turned and moved), 600 "
                     "draws each: 48 public rows at the apex and 2 on its edges (n_pub = 50, |G| = 3.26 10^6, n tau_EM = "
                     "40.0 mistakes), 60 private rows in each of two clusters beyond it (n = 170); h_ERM and the wedge of "
                     "the two public edges make no mistake, every single supported halfspace and constant 1 make >= 48 "
                     "(unless the turn puts the Step-5 direction within 0.19 degrees of the wedge's axis: probability "
                     "0.2%), so a learner whose G lacks the intersections (Step 8 with j = 1 only) fails on every draw",
            predicate="failure: m(g^) > m(h_ERM) + n tau_EM (an output outside G counts as wrong everywhere)",
            trials={"quick": 600, "full": 6000}, params={"epsilon": EPS, "beta": 0.05},
            controls=(C_SINGLE,),
            slack_definition="(1 - beta) quantile of err^(g^) - err^(h_ERM) over tau_EM")
def _claim47_wedge(ctx: Context) -> dict:
    rng = data_rng(ctx)
    rounds = max(1, ctx.trials // 600)
    parts = []
    for draws in np.diff(np.linspace(0, ctx.trials, rounds + 1).astype(int)):
        data = wedge(rng, **WEDGE)                                      # realizable: m(h_ERM) = 0
        env = _bind(ctx, data, epsilon=EPS)
        allowed = np.asarray(data["y"]).size * float(env["error_bound"])
        parts.append(mistakes(data, _outputs(ctx, data, int(draws), EPS)))
    excess = np.concatenate(parts)
    beta = float(ctx.env["failure_probability"])
    q = float(np.quantile(excess, 1 - beta))
    n = 2 * WEDGE["copies"] + WEDGE["apex"] + 2
    return {"failures": int(np.sum(excess > allowed)), "trials": ctx.trials, "beta": beta,
            "error_quantile": q / n, "error_bound": allowed / n, "slack": q / allowed}


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


L48_SETUPS = {1: (Setup(d=1), 400), 2: (Setup(d=2, b=B_SMALL_MASS), 400)}
L48_BETA = 0.2   # Lemma 4.8 holds for every beta; at 0.2, 110 fresh samples give the test power >= 0.75 at level 3e-5


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
            J, valid = decode(data, _outputs(ctx, data, 1, EPS))
            if not valid[0]:                                            # not a member of G: a failure
                failures += 1
                gaps.append(1.0)
                continue
        else:
            J = Law(data).J
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


_L48_INSTANCE = ("beta = 0.2; fresh S ~ D^n per trial; d = 1: setup S1 (public mass 1/2, n = 400, |G| about 400); d = 2: "
                 "setup S2 zero-margin (uniform square, P[y = 0] = 0.02, n = 400, |G| about 3 10^3); err(g; D~) exact "
                 "(interval lengths, polygon areas); the bound holds uniformly over G, so any output in G satisfies it: "
                 "the check measures the compression property of G and that the output is a member of G, not accuracy")
_L48_SETUP = ("; the class is the reference's G on the sample (no output of the implementation is used): a setup "
              "validation of the lemma as applied, reported apart from the implementation's checks")
_L48_UNIFORM = {1: _L48_SETUP, 2: _L48_SETUP + ". Inconclusive in the quick suite on purpose (4 samples): the exact error "
                                              "of every member of G (polygon areas of 3 10^3 - 2 10^4 members) costs "
                                              "0.1-0.3 s per sample, 110 samples (power at the quick suite's level) "
                                              "would take 10-30 s; the full suite has the power"}
_L48_UNIFORM_TRIALS = {1: {"quick": 110, "full": 1100}, 2: {"quick": 4, "full": 1100}}

for _d in (1, 2):
    experiment(SPEC, "Lemma 4.8", f"ghat-d{_d}", "bound",
               title=f"d = {_d}: P[err(g^) - err^(g^) > sqrt(err^ 4k L/n) + 8k L/n + 2k/n] <= beta, k = d^2, "
                     "L = ln(n/beta)",
               instance=_L48_INSTANCE, predicate="failure: the realised g^ exceeds the bound at its own err^, or is "
                                                 "not a member of G",
               trials={"quick": 110, "full": 1100}, params={"epsilon": EPS, "beta": L48_BETA, "d": _d},
               slack_definition="(1 - beta) quantile of err - err^ - bound (negative: the bound holds with room)",
               )(lambda ctx, _d=_d: _lemma48(ctx, _d, "ghat"))
    experiment(SPEC, "Lemma 4.8", f"uniform-G-d{_d}", "bound",
               title=f"d = {_d}: uniformly over G, P[sup_g err(g) - err^(g) - bound(err^(g)) > 0] <= beta, k = d^2 "
                     "as stated",
               instance=_L48_INSTANCE + _L48_UNIFORM[_d], predicate="failure: some g in G exceeds the bound at its own err^",
               trials=_L48_UNIFORM_TRIALS[_d], params={"epsilon": EPS, "beta": L48_BETA, "d": _d},
               slack_definition="(1 - beta) quantile of the sup over G of err - err^ - bound", setup=True,
               )(lambda ctx, _d=_d: _lemma48(ctx, _d, "uniform"))
    experiment(SPEC, "Lemma 4.8", f"uniform-G-side-info-d{_d}", "bound",
               title=f"d = {_d}: uniformly over G with k = d^2 + d (Aff's points) and side information "
                     "((d + 1) 2^d choices), derived variant of note 3.8",
               instance=_L48_INSTANCE + _L48_UNIFORM[_d],
               predicate="failure: some g in G exceeds the derived bound at its own err^",
               trials=_L48_UNIFORM_TRIALS[_d], params={"epsilon": EPS, "beta": L48_BETA, "d": _d},
               slack_definition="(1 - beta) quantile of the sup over G of err - err^ - bound", setup=True,
               )(lambda ctx, _d=_d: _lemma48(ctx, _d, "side-info"))


# =========================================================================== Theorem 4.9


def _theorem_run(ctx: Context, setup: Setup, n: int, rng: np.random.Generator) -> float:
    """err(g^; D~) - OPT for one fresh S ~ D^n (from ``rng``) and one draw of g^ at the experiment's epsilon."""
    data = setup.sample(n, rng)
    J, valid = decode(data, _outputs(ctx, data, 1, float(ctx.env["epsilon"])))
    if not valid[0]:                                                    # not a member of G: wrong everywhere
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
            title="realizable, d = 1 at the paper's explicit chain: P[err(g^) > B_real] <= beta at epsilon = 0.3, "
                  "beta = 0.1, n = 800 (B_real = 0.250, worst case n_pub = n)",
            instance="epsilon = 0.3, beta = 0.1, n = 800 (B_real(800) = 0.2505); setup S1: public U(-1, 0), private "
                     "U(0, 1), mass 1/2 each, y = 1[x >= 0]; err exact; constant 1 errs 0.5. At this small epsilon "
                     "the exponential-mechanism term of the chain dominates the compression term, so B_real is about "
                     "12 times the reference's 0.9 quantile (0.02; 19-60 times at epsilon = 0.9): a learner 30 times "
                     "worse fails about a third of the runs; sweep n = 100 .. 800",
            predicate="failure: err(g^; D~) > B_real(n)",
            trials={"quick": 240, "full": 2400}, params={"epsilon": 0.3, "beta": 0.1, "alpha": 0.25, "d": 1},
            controls=(C_T30,),
            slack_definition="(1 - beta) quantile of err(g^) over B_real")
def _thm49_d1(ctx: Context) -> dict:
    setup = Setup(d=1)
    out = _bound_check(ctx, setup, 800, "error_bound", 1)
    runs = 10 if ctx.trials < 1000 else 200
    out["sweep"] = _sweep(ctx, setup, [100, 200, 400, 800], runs, {"B_real (Theorem 4.9 chain)": "error_bound"},
                          "Theorem 4.9, d = 1: err(g^) against n beside the explicit bound", 1)
    return out


@experiment(SPEC, "Theorem 4.9", "realizable-d2-small-public-mass", "bound",
            title="realizable, d = 2, small public mass: P[err(g^) > B_real] <= beta at n with B_real = 0.2",
            instance="epsilon = 0.9, beta = 0.05, n = 2895 (B_real = 0.19995, worst case n_pub = n); setup S2 zero-margin: "
                     "uniform square, target u.x >= b with P[y = 0] = 0.02 (n_pub about 58, |G| about 6 10^6); err "
                     "exact by polygon areas. Left without power on purpose (1 run in the quick suite, 60 in the full one: inconclusive): in d = 2 the chain "
                     "is below 1/2 only from n of about 1,000 on, and a public mass above it (what a trivial learner "
                     "must miss for the check to catch it) needs n_pub of about 600, |G| about 10^10, out of reach; "
                     "at this instance even constant 1 (error 0.02) passes",
            predicate="failure: err(g^; D~) > B_real(n)",
            trials={"quick": 1, "full": 60}, params={"epsilon": EPS, "beta": 0.05, "alpha": 0.2, "d": 2},
            seconds={"quick": 60.0, "full": 1800.0},
            slack_definition="(1 - beta) quantile of err(g^) over B_real")
def _thm49_d2(ctx: Context) -> dict:
    return _bound_check(ctx, Setup(d=2, b=B_SMALL_MASS), 2895, "error_bound", 2)


VS_REFERENCE = {"n": 30_000, "pi_pub": 0.02, "factor": 5.0, "beta": 0.05}


@experiment(SPEC, "Theorem 4.9", "vs-reference-large-n", "bound",
            title="(conformance: accuracy against the spec's algorithm, not a bound of the paper) the learner's "
                  "population error on the same S' as the reference's: P[err(g^) > 5 q] <= beta, q an upper 0.999 "
                  "confidence bound on the reference's (1 - beta) error quantile",
            instance="epsilon = 0.9, beta = 0.05; one S' of setup S1 (d = 1, public mass 0.02, realizable) with n = 30,000 "
                     "(n_pub about 600, |G| about 1,200); err(g^; D~) exact; as many draws of the reference (its own "
                     "stream) as of the implementation. The paper bounds sit 12-80 times above the reference's error, so "
                     "a learner 10-30 times worse passes all of them; this check states the factor (5) it tolerates",
            predicate="failure: err(g^; D~) > 5 q (an output outside G counts as wrong everywhere)",
            trials={"quick": 1000, "full": 10_000}, params={"epsilon": EPS, "beta": VS_REFERENCE["beta"], "d": 1},
            controls=(C_TRUNC,), tests="conformance",
            slack_definition="(1 - beta) quantile of the implementation's err(g^) over 5 q")
def _thm49_vs_reference(ctx: Context) -> dict:
    setup = Setup(d=1, pi_pub=VS_REFERENCE["pi_pub"])
    data = setup.sample(int(VS_REFERENCE["n"]), data_rng(ctx))
    X_pub = public_part(data)

    def errors(out):
        J, valid = decode(data, np.asarray(out, np.int64).reshape(ctx.trials, 1, 2))
        return np.where(valid, population_error(setup, X_pub, J), 1.0)

    impl = errors(ctx.sample(data, ctx.trials, epsilon=EPS))
    ref = errors(ctx.sample_reference(data, ctx.trials, epsilon=EPS))
    out = reference_comparison(impl, ref, factor=VS_REFERENCE["factor"], beta=VS_REFERENCE["beta"])
    out["error_quantile"] = float(np.quantile(impl, 1 - VS_REFERENCE["beta"]))
    out["instance"].update(reference_median=float(np.median(ref)), implementation_median=float(np.median(impl)))
    return out


# =========================================================================== Theorem 4.10


@experiment(SPEC, "Theorem 4.10", "agnostic-d1-label-noise", "bound",
            title="agnostic, d = 1, label noise 0.1: P[err(g^) - OPT > B_agn_hoeffding] <= beta (derived chain); "
                  "sweep beside the paper chain B_agn and eq. (2) printed / corrected",
            instance="epsilon = 0.3, beta = 0.3, n = 1500; setup S5 in d = 1 (public mass 1/2, flip rate 0.1, status "
                     "bit follows the noisy label, OPT = 0.1); B_agn_hoeffding(1500) = 0.286 (below the excess 0.4 of "
                     "constant 1), B_agn(1500) = 0.78; the chain is about 50 times the reference's 0.7 quantile (its "
                     "compression term alone, with err^ <= 1 inside the square root, is 0.21), so only learners far "
                     "worse than that fail; sweep n = 150 .. 1500",
            predicate="failure: err(g^; D~) - OPT > B_agn_hoeffding(n)",
            trials={"quick": 60, "full": 600}, params={"epsilon": 0.3, "beta": 0.3, "alpha": 0.3, "d": 1},
            controls=(C_CONST,),
            slack_definition="(1 - beta) quantile of err(g^) - OPT over B_agn_hoeffding")
def _thm410_d1(ctx: Context) -> dict:
    setup = Setup(d=1, eta=0.1)
    out = _bound_check(ctx, setup, 1500, "error_bound_hoeffding", 1)
    runs = 6 if ctx.trials < 200 else 100
    out["sweep"] = _sweep(ctx, setup, [150, 500, 1500], runs,
                          {"B_agn_hoeffding (derived)": "error_bound_hoeffding", "B_agn (paper chain)": "error_bound",
                           "eq. (2) printed (no sqrt term)": "compression_printed",
                           "eq. (2) corrected (sqrt term)": "compression_corrected"},
                          "Theorem 4.10, d = 1, label noise 0.1: excess error against n beside the bounds", 1)
    return out
