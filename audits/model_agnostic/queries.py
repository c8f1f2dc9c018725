"""Theorem experiments for seed 000 Sec. 3: online query release (Cor 3.9) and sub-sample and
aggregate (Thm 3.11, printed and corrected); and the pipeline helpers the Sec. 4 experiments share
(:func:`pipeline_chunks`, :func:`pipeline_chunk_size`: a negative control may declare a broken
pipeline, ``chunk_fraction``, ``chunk_size_fraction``, see impl/model_agnostic/controls_queries.py).
Registered on import by audits/checks/experiments.py.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from dptestbed.audits.api import Context, Control, experiment, first_crossing, implied_failure, scalar

_MOD = "dptestbed.impl.model_agnostic.controls_queries"  # pipeline controls
_MUT = "dptestbed.impl.model_agnostic.mutants"  # implementation mutants


def pipeline(ctx: Context) -> tuple[float, float]:
    return (float(getattr(ctx.impl, "chunk_fraction", 1.0)), float(getattr(ctx.impl, "chunk_size_fraction", 1.0)))


def pipeline_chunks(ctx: Context, k: float) -> int:
    return max(1, int(math.ceil(math.ceil(k - 1e-9) * pipeline(ctx)[0] - 1e-9)))


def pipeline_chunk_size(ctx: Context, n_prime: float) -> int:
    return max(1, int(math.ceil(n_prime * pipeline(ctx)[1] - 1e-9)))


def _ci(counts, n):
    from dptestbed.audits.api import clopper_pearson
    return [clopper_pearson(int(c), int(n)) for c in counts]


# =========================================================================== Corollary 3.9

_CTRL_OQR_HALT = Control("online_query_release_halts_early", f"{_MUT}:online_query_release_halts_early",
                         "A_OQR halting after T bottoms instead of T + 1 (loop while c < T)")


# the planted labels: small ones, and non-negative integers at every width code may store a label in (past int8,
# uint8, int16, uint16, int32 and uint32, up to 2^53 - 1, the largest a float64 holds exactly; 0 too)
PLANTED_LABELS = (1, 2, 3, 300, 70_000, 5_000_000_007, 2**53 - 1, 0)


def _oqr_planted(ctx: Context, dist: float) -> np.ndarray:
    m, T = int(ctx.params["m"]), int(ctx.params["T"])
    data = np.zeros((m, 2))
    data[:, 0] = np.resize(np.array(PLANTED_LABELS, dtype=float), m)
    data[T:, 1] = dist
    return data


@experiment(
    "online_query_release", "Corollary 3.9", "planted", "bound",
    title="|L(alpha)| <= T  =>  P[some query with dist >= alpha is not released as f_i(D)] <= beta",
    instance="m = 8, T = 2 (paper constants, epsilon = 8, delta = 1e-3, beta = 0.1): the first T rows "
             "have dist 0 (in L(alpha), bottom w.h.p.), the other m - T rows dist = ceil(alpha); labels 1, 2, 3, "
             "300, 70,000, 5,000,000,007, 2^53 - 1, 0 (every integer width a label may be stored in); "
             "sweep dist = w .. alpha",
    predicate="failure: some row i >= T is not released as its label (bottom or not answered)",
    trials={"quick": 20_000, "full": 500_000},
    params={"m": 8, "T": 2, "epsilon": 8.0, "delta": 1e-3, "beta": 0.1},
    controls=(_CTRL_OQR_HALT,),
    slack_definition="d_beta / alpha: d_beta the smallest planted distance at which the measured failure rate "
                     "is <= beta (interpolated on the sweep grid)",
)
def _oqr_cor39(ctx: Context) -> dict:
    env = ctx.env
    alpha, beta, w = scalar(env["error_bound"]), scalar(env["failure_probability"]), scalar(env["w"])
    T = int(ctx.params["T"])

    def failures_at(dist, n):
        data = _oqr_planted(ctx, dist)
        out = ctx.sample(data, n).reshape(n, -1)
        return int(np.sum(np.any(out[:, T:] != data[T:, 0].astype(np.int64), axis=1)))

    failures = failures_at(math.ceil(alpha), ctx.trials)
    grid = np.linspace(w, alpha, 12)
    n_sweep = max(2000, ctx.trials // 10)
    counts = np.array([failures_at(d, n_sweep) for d in grid])
    rates = counts / n_sweep
    d_beta = first_crossing(grid, rates, beta)
    implied = implied_failure(ctx, "error_bound", grid)
    ci = _ci(counts, n_sweep)
    return {
        "failures": failures, "trials": ctx.trials, "beta": beta, "error_bound": alpha,
        "error_quantile": d_beta, "slack": None if d_beta is None else d_beta / alpha,
        "sweep": {
            "title": "Online query release (Cor 3.9): failure rate against the planted distance",
            "x": grid.tolist(), "x_label": "planted dist of the m - T stable queries",
            "measured": rates.tolist(), "lower": [c[0] for c in ci], "upper": [c[1] for c in ci],
            "measured_label": "measured failure rate", "bound": implied.tolist(),
            "bound_label": "theorem: beta at which alpha(beta) = dist", "y_label": "P[failure]", "log_y": True,
            "target": beta, "target_label": "beta", "empirical": d_beta, "theorem": alpha,
            "empirical_label": "empirical d_beta", "theorem_label": "Cor 3.9's alpha", "trials_per_point": n_sweep,
        },
    }


# =========================================================================== Theorem 3.11

N_PRIME_BERNOULLI = 25


def bernoulli_p_three_quarters(n_prime: int = N_PRIME_BERNOULLI) -> float:
    """p with P[mean of n' Bernoulli(p) > 1/2] = 3/4 exactly (n' odd)."""
    from scipy.optimize import brentq
    return float(brentq(lambda p: stats.binom.sf(n_prime // 2, n_prime, p) - 0.75, 0.5, 1.0, xtol=1e-15))


def _stable_rows(m: int, T: int, n: int) -> np.ndarray:
    """Which of the m queries are stable in each of n data sets (n, m): the T unstable ones last in even data
    sets and first in odd ones (the T bottoms they may cost then come before every stable query, where an
    algorithm that halts one bottom early, after T instead of T + 1, leaves every stable query unanswered)."""
    stable = np.ones((n, m), dtype=bool)
    stable[0::2, m - T:] = False
    stable[1::2, :T] = False
    return stable


def _planted_votes(ctx: Context, k: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n data sets of Alg 4 votes: chunk answers f(D_j) = 1[mean(D_j) > 1/2] with D_j of n' = 25
    Bernoulli(p_{3/4}) records for the m - T stable queries (P[f = 1] = 3/4 exactly) and
    Bernoulli(1/2) records for the T others (no stable answer), placed by :func:`_stable_rows`; f(D_j) is
    Bernoulli(P[f = 1]) per chunk, so the vote for 1 is Binomial(k, P[f = 1]), sampled directly. The votes
    (n, m, 2) and the stable rows (n, m)."""
    m, T = int(ctx.params["m"]), int(ctx.params["T"])
    stable = _stable_rows(m, T, n)
    ones = ctx.rng.binomial(k, np.where(stable, 0.75, 0.5))
    return np.stack([k - ones, ones], axis=-1), stable


def _thm311(ctx: Context, corrected: bool, k_override: float | None = None) -> dict:
    env = ctx.env
    beta = scalar(env["failure_probability"])
    k = pipeline_chunks(ctx, scalar(env["k"]) if k_override is None else k_override)
    votes, stable = _planted_votes(ctx, k, ctx.trials)
    failures = 0
    for v, s in zip(votes, stable):  # fresh data per trial: independent trials for the binomial test
        out = ctx.sample(v, 1).reshape(-1)
        failures += int(np.any(out[s] != 1))
    # intermediate Chernoff-Hoeffding step (proof of Thm 3.11): >= 2k/3 agreeing chunks on every
    # stable query w.p. >= 1 - beta/2
    hoeffding = int(np.sum(np.any(np.where(stable, votes[:, :, 1], k) < 2 * k / 3, axis=1)))
    return {"failures": failures, "trials": ctx.trials, "beta": beta,
            "instance": {"chunks": k, "p_three_quarters": bernoulli_p_three_quarters(), "n_prime": N_PRIME_BERNOULLI,
                         "hoeffding_step_failures": hoeffding, "hoeffding_step_bound": beta / 2,
                         "corrected": corrected}}


_CTRL_SA8 = Control("pipeline_subsample_aggregate_k_over_8", f"{_MOD}:subsample_aggregate_k_over_8",
                    "pipeline control: Alg 4 with a record-level pipeline of ceil(k/8) chunks (too little k)", pipeline=True)
_CTRL_SAC8 = Control("pipeline_subsample_aggregate_corrected_k_over_8", f"{_MOD}:subsample_aggregate_corrected_k_over_8",
                     "pipeline control: corrected Alg 4 with a record-level pipeline of ceil(k/8) chunks (too little k)", pipeline=True)
_THM311_INSTANCE = ("m = 4, T = 1 (paper constants at the spec defaults epsilon = 8, delta = 1e-3, beta = 0.1): "
                    "worst-case stability 3/4, chunk answers f(D_j) = 1[mean(D_j) > 1/2] on n' = 25 Bernoulli(p) "
                    "records, p solved so that P[f = 1] = 3/4 exactly, for m - T queries; Bernoulli(1/2) for the "
                    "other T, the last T in half the trials and the first T in the other half (their bottoms before "
                    "every stable query); k = ceil(k) chunks, fresh data per trial")
_THM311_PRED = "failure: some stable query is not released as 1"


@experiment("subsample_aggregate", "Theorem 3.11", "bernoulli-3/4", "bound",
            title="|L_bar| >= m - T with stability exactly 3/4  =>  P[some stable query not released as x_f] <= beta",
            instance=_THM311_INSTANCE + " (k = 454)", predicate=_THM311_PRED,
            trials={"quick": 3_000, "full": 100_000}, controls=(_CTRL_SA8,))
def _sa_thm311(ctx: Context) -> dict:
    return _thm311(ctx, corrected=False)


@experiment("subsample_aggregate_corrected", "Theorem 3.11", "bernoulli-3/4", "bound",
            title="corrected Alg 4: |L_bar| >= m - T with stability exactly 3/4  =>  P[some stable query not released] <= beta",
            instance=_THM311_INSTANCE + " (k = 914)", predicate=_THM311_PRED,
            trials={"quick": 3_000, "full": 100_000}, controls=(_CTRL_SAC8,))
def _sac_thm311(ctx: Context) -> dict:
    return _thm311(ctx, corrected=True)


def _hoeffding(ctx: Context) -> dict:
    env = ctx.env
    beta = scalar(env["failure_probability"])
    m, T = int(ctx.params["m"]), int(ctx.params["T"])
    k_h = scalar(env["k_hoeffding"])
    k = pipeline_chunks(ctx, k_h)
    ones = ctx.rng.binomial(k, 0.75, size=(ctx.trials, m - T))
    failures = int(np.sum(np.any(ones < 2 * k / 3, axis=1)))
    exact = 1 - stats.binom.sf(math.ceil(2 * k / 3) - 1, k, 0.75) ** (m - T)
    return {"failures": failures, "trials": ctx.trials, "beta": beta / 2,
            "slack": exact / (beta / 2),
            "instance": {"k_hoeffding": k_h, "chunks": k, "exact_failure": exact}}


for _spec, _ctrl in (("subsample_aggregate", _CTRL_SA8), ("subsample_aggregate_corrected", _CTRL_SAC8)):
    experiment(_spec, "Theorem 3.11", "hoeffding-minimal-k", "bound",
               title="setup validation (the implementation is not involved): at the minimal k = "
                     "ceil(72 log(2m/beta)), P[some stable query has < 2k/3 agreeing chunks] <= beta/2 "
                     "(Chernoff-Hoeffding + union over queries)",
               instance="m = 4, T = 1, beta = 0.1: k = ceil(72 log(80)) = 316 chunk answers per stable query, "
                        "each agreeing with x_f with probability exactly 3/4 (worst case); the theorem's own k is "
                        "larger (this step is checked where it is tightest)",
               predicate="failure: some of the m - T stable queries has fewer than 2k/3 agreeing chunks",
               trials={"quick": 20_000, "full": 1_000_000}, controls=(_ctrl,), setup=True,
               slack_definition="exact failure probability of this step (binomial) divided by beta/2")(_hoeffding)

