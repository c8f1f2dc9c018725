"""Implementation mutants of seed 002: each is a reference with exactly one realistic bug.

Every mutant meets the contract of its spec and is checked as a user's implementation would be
(``dptestbed check SPEC --impl dptestbed.impl.private_prediction.mutants:NAME``).
"""

from __future__ import annotations

import numpy as np

from dptestbed.impl.contract import batched
from dptestbed.impl.mutant import Mutant, post_processed, with_params
from dptestbed.impl.noise import laplace

from . import convex_erm, lower_bound, soft_majority, stable
from .teachers import threshold_min_positive

PKG = "dptestbed.impl.private_prediction.mutants"
SOFT = "subsample_aggregate_prediction_corrected"
THM1 = f"{SOFT}/Theorem 1/thresholds-explicit-n"
THM2_VOTES = f"{SOFT}/Theorem 2 (instance bound)/user-aggregation-lookup-teachers"


# --------------------------------------------------------------------------- soft majority


def _soft_majority_with(votes_of, doc):
    """The soft majority whose dataset form computes nu with ``votes_of(X, y, x, r)`` (BUG
    inside); its vote form is the reference's."""

    def sampler(data, n, *, rng, epsilon, alpha, **_):
        if not isinstance(data, dict):
            return soft_majority.subsample_aggregate_prediction_corrected.batch(data, n, rng=rng, epsilon=epsilon,
                                                                                alpha=alpha)
        X, y, x = (np.asarray(data[k], dtype=float) for k in ("X", "y", "x"))
        nu = votes_of(X, y, np.atleast_1d(x), soft_majority.n_teachers(epsilon, alpha))
        p = soft_majority.vote_probability(nu, epsilon)
        out = (rng.random((int(n), p.size)) < p[None, :]).astype(np.int8)
        return out[:, 0] if np.ndim(data["x"]) == 0 else out

    @batched(sampler)
    def mechanism(data, *, rng, epsilon, alpha, **_):
        out = sampler(data, 1, rng=rng, epsilon=epsilon, alpha=alpha)[0]
        return int(out) if np.ndim(out) == 0 else out

    mechanism.__doc__ = doc
    return mechanism


def _nu(X, y, x, blocks):
    """nu at x of A_min teachers trained on the index blocks (r, m)."""
    t = threshold_min_positive(X[blocks], y[blocks])
    return 2 * (x[None, :] >= t[:, None]).sum(axis=0) - blocks.shape[0]


def _positional(n, r):
    m = n // r
    return np.arange(r * m).reshape(r, m)


soft_majority_quarter_teachers = _soft_majority_with(
    lambda X, y, x, r: _nu(X, y, x, _positional(X.size, max(1, r // 4))),
    "BUG: trains r // 4 teachers (on n // (r // 4) records each) instead of r.")

soft_majority_eighth_data = _soft_majority_with(
    lambda X, y, x, r: _nu(X, y, x, _positional(r * max(1, X.size // r // 8), r)),
    "BUG: the teachers use only the first n/8 records (blocks of m/8).")

soft_majority_third_of_block = _soft_majority_with(
    lambda X, y, x, r: _nu(X, y, x, _positional(X.size, r)[:, : max(1, X.size // r // 3)]),
    "BUG: each teacher trains on the first third of its block (two thirds held out and never used).")

soft_majority_label_sorted_partition = _soft_majority_with(
    lambda X, y, x, r: _nu(X, y, x, np.argsort(y, kind="stable")[_positional(X.size, r)]),
    "BUG: sorts the records by label before cutting the blocks (a data-dependent partition).")

soft_majority_sorted_round_robin = _soft_majority_with(
    lambda X, y, x, r: _nu(X, y, x, np.argsort(X, kind="stable")[: r * (X.size // r)].reshape(X.size // r, r).T),
    "BUG: 'balanced blocks': the records sorted by feature, then dealt round-robin to the teachers (rank i goes to "
    "teacher i mod r), so the partition depends on the data.")

soft_majority_bagged_blocks = _soft_majority_with(
    lambda X, y, x, r: _nu(X, y, x, (np.arange(r)[:, None] * (X.size // r) + np.arange(2 * (X.size // r))) % X.size),
    "BUG: overlapping blocks (teacher j reads records j m .. j m + 2m - 1, cyclically): each record feeds 2 teachers.")

soft_majority_resized_blocks = _soft_majority_with(
    lambda X, y, x, r: _nu(X, y, x, np.resize(np.arange(X.size), (r, -(-X.size // r)))),
    "BUG: blocks of ceil(n/r) records filled by np.resize (no record thrown away): when r does not divide n, the "
    "first records wrap around into the last teachers, so one record feeds two teachers.")


def _fallback_nu(X, y, x, r):
    blocks = _positional(X.size, r)
    t = threshold_min_positive(X[blocks], y[blocks])
    used = blocks.ravel()
    positives = X[used][y[used] == 1]
    if positives.size:  # BUG: a block without a positive reads the other blocks' records
        t = np.where(np.isinf(t), positives.min(), t)
    return 2 * (x[None, :] >= t[:, None]).sum(axis=0) - r


soft_majority_fallback_smallest_positive = _soft_majority_with(
    _fallback_nu,
    "BUG: 'a teacher never abstains': a block without a positive label takes the smallest positive of the whole "
    "sample as its threshold, so one record can move every teacher's vote.")


def _naive_logistic_sampler(data, n, *, rng, epsilon, alpha, **_):
    if isinstance(data, dict):
        return soft_majority.subsample_aggregate_prediction_corrected.batch(data, n, rng=rng, epsilon=epsilon,
                                                                            alpha=alpha)
    c = np.asarray(data, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        w = np.exp(epsilon * (c[1] - c[0]) / 2)   # BUG: inf past nu = 1,420 at epsilon 1; inf / inf is NaN
        p = w / (1 + w)
    return (rng.random(int(n)) < p).astype(np.int8)   # a comparison with NaN is False: the label 0


@batched(_naive_logistic_sampler)
def soft_majority_naive_logistic(data, *, rng, epsilon, alpha, **_):
    """BUG: the soft majority's probability computed as w / (1 + w), w = exp(epsilon nu / 2): exact until w overflows,
    then NaN and the label 0 where it was 1."""
    return int(_naive_logistic_sampler(data, 1, rng=rng, epsilon=epsilon, alpha=alpha)[0])


def _shared_coin_sampler(data, n, *, rng, epsilon, alpha, **_):
    if not isinstance(data, dict):
        return soft_majority.subsample_aggregate_prediction_corrected.batch(data, n, rng=rng, epsilon=epsilon,
                                                                            alpha=alpha)
    nu, single = soft_majority.margins(data, soft_majority.n_teachers(epsilon, alpha))
    p = soft_majority.vote_probability(nu, epsilon)
    out = (rng.random((int(n), 1)) < p[None, :]).astype(np.int8)      # BUG: one coin for all queries of a call
    return out[:, 0] if single else out


@batched(_shared_coin_sampler)
def soft_majority_shared_coin(data, *, rng, epsilon, alpha, **_):
    """BUG: one uniform per call, shared by the queries of a batch (label_j = 1[u < p(nu_j)]): each answer has the
    spec's law, the answers are comonotone instead of independent."""
    out = _shared_coin_sampler(data, 1, rng=rng, epsilon=epsilon, alpha=alpha)[0]
    return int(out) if np.ndim(out) == 0 else out


def _coin_on_grid_sampler(data, n, *, rng, epsilon, alpha, **_):
    nu, single = soft_majority.margins(data, soft_majority.n_teachers(epsilon, alpha) if isinstance(data, dict) else 0)
    p = soft_majority.vote_probability(nu, epsilon)
    out = (rng.integers(0, 1000, size=(int(n), p.size)) / 1000 < p[None, :]).astype(np.int8)  # BUG: a grid of 1/1000
    return out[:, 0] if single else out


@batched(_coin_on_grid_sampler)
def soft_majority_coin_on_grid(data, *, rng, epsilon, alpha, **_):
    """BUG: the coin drawn on a grid of 1/1000 (rng.integers(1000) / 1000 < p): the label 0 never once p > 0.999."""
    out = _coin_on_grid_sampler(data, 1, rng=rng, epsilon=epsilon, alpha=alpha)[0]
    return int(out) if np.ndim(out) == 0 else out


def _memorising_sampler(data, n, *, rng, epsilon, alpha, **_):
    out = soft_majority.subsample_aggregate_prediction_corrected.batch(data, n, rng=rng, epsilon=epsilon, alpha=alpha)
    if not isinstance(data, dict):
        return out
    seen = dict(zip(np.asarray(data["X"], dtype=float).tolist(), np.asarray(data["y"]).tolist()))
    out = out.reshape(int(n), -1)
    for k, xk in enumerate(np.atleast_1d(np.asarray(data["x"], dtype=float)).tolist()):
        if xk in seen:
            out[:, k] = seen[xk]                                      # BUG: a cache of S
    return out[:, 0] if np.ndim(data["x"]) == 0 else out


@batched(_memorising_sampler)
def soft_majority_memorises_training_points(data, *, rng, epsilon, alpha, **_):
    """BUG: a query equal to a training point is answered with that record's label (a cache of S)."""
    out = _memorising_sampler(data, 1, rng=rng, epsilon=epsilon, alpha=alpha)[0]
    return int(out) if np.ndim(out) == 0 else out


def _hard_majority_sampler(data, n, *, rng, epsilon, alpha, **_):
    nu, single = soft_majority.margins(data, soft_majority.n_teachers(epsilon, alpha) if isinstance(data, dict) else 0)
    out = np.tile((nu > 0).astype(np.int8), (int(n), 1))                # BUG: no coin
    return out[:, 0] if single else out


@batched(_hard_majority_sampler)
def soft_majority_hard_majority(data, *, rng, epsilon, alpha, **_):
    """BUG: the hard majority, label 1 iff nu > 0, without the coin (a deterministic function of the votes)."""
    out = _hard_majority_sampler(data, 1, rng=rng, epsilon=epsilon, alpha=alpha)[0]
    return int(out) if np.ndim(out) == 0 else out


def _four_eps_sampler(data, n, *, rng, epsilon, alpha, **_):
    return soft_majority.subsample_aggregate_prediction_broken.batch(data, n, rng=rng, epsilon=2 * epsilon, alpha=alpha)


@batched(_four_eps_sampler)
def soft_majority_exponent_four_eps(data, *, rng, epsilon, alpha, **_):
    """BUG: p = logistic(2 eps nu) (the prose's exp(eps c_b) weights with epsilon doubled): 4 eps-DP."""
    out = _four_eps_sampler(data, 1, rng=rng, epsilon=epsilon, alpha=alpha)[0]
    return int(out) if np.ndim(out) == 0 else out


soft_majority_constant_label = post_processed(
    soft_majority.subsample_aggregate_prediction_corrected, lambda out, data, rng, params: np.zeros_like(out),
    "BUG: answers 0 at every query (a constant-label predictor).")

soft_majority_leaks_margin = post_processed(
    soft_majority.subsample_aggregate_prediction_corrected,
    lambda out, data, rng, params: out + 2 * (np.asarray(data)[1] if not isinstance(data, dict) else 0),
    "BUG: returns 2 c_1 + label (the vote count leaks with the label, pitfall P6).")


# --------------------------------------------------------------------------- stable learners


laplace_half_scale = with_params(
    stable.stable_laplace_prediction, lambda p: {**p, "gamma": p["gamma"] / 2},
    "BUG: Lap(gamma/(2 epsilon)) (the sensitivity halved).")

laplace_double_scale = with_params(
    stable.stable_laplace_prediction, lambda p: {**p, "epsilon": p["epsilon"] / 2},
    "BUG: Lap(2 gamma/epsilon) (too much noise: private, but the extra loss doubles).")


def _split_budget_batch(data, n, *, rng, epsilon, gamma, **_):
    q = np.size(data)                                                 # BUG: epsilon split over the q answers
    return stable.stable_laplace_prediction.batch(data, n, rng=rng, epsilon=epsilon / q, gamma=gamma)


@batched(_split_budget_batch)
def laplace_scale_times_queries(data, *, rng, epsilon, gamma, **_):
    """BUG: Lap(q gamma/epsilon) for each answer of a q-query call (the budget split over the answers: private, but
    each answer's extra loss is q times Theorem 4's)."""
    out = _split_budget_batch(data, 1, rng=rng, epsilon=epsilon, gamma=gamma)[0]
    return float(out) if np.ndim(out) == 0 else out


def _reused_sampler(data, n, *, rng, epsilon, gamma, **_):
    a = np.atleast_1d(np.asarray(data, dtype=float))
    xi = rng.laplace(0.0, gamma / epsilon, (int(n), 1))              # BUG: one draw for every query
    out = a[None, :] + xi
    return out[:, 0] if np.ndim(data) == 0 else out


@batched(_reused_sampler)
def laplace_noise_reused_across_queries(data, *, rng, epsilon, gamma, **_):
    """BUG: one Laplace draw added to the answers of all queries (pitfall P11)."""
    out = _reused_sampler(data, 1, rng=rng, epsilon=epsilon, gamma=gamma)[0]
    return float(out) if np.ndim(out) == 0 else out


def _noise_differences(data, n, scale_draws):
    """q answers' noises as the differences of q + 1 draws of one sequence: each marginal exact, neighbours
    correlated -1/2 (the bug); a scalar prediction gets one difference."""
    a = np.asarray(data, dtype=float)
    draws = scale_draws((int(n), a.size + 1))
    return a + np.diff(draws, axis=1).reshape((int(n),) + a.shape)


def _laplace_differences_batch(data, n, *, rng, epsilon, gamma, **_):
    b = gamma / epsilon
    return _noise_differences(data, n, lambda size: rng.exponential(b, size))  # BUG: Exp - Exp shared by answers


@batched(_laplace_differences_batch)
def laplace_noise_differences(data, *, rng, epsilon, gamma, **_):
    """BUG: the q answers' noises are differences of q + 1 exponential draws: each exactly Lap(gamma/epsilon), but
    neighbouring answers share a draw (two answers moving together: exact loss 3 epsilon against 2 epsilon)."""
    out = _laplace_differences_batch(data, 1, rng=rng, epsilon=epsilon, gamma=gamma)[0]
    return float(out) if np.ndim(out) == 0 else out


def _laplace_lag_two_batch(data, n, *, rng, epsilon, gamma, **_):
    a = np.asarray(data, dtype=float)
    e = rng.exponential(gamma / epsilon, (int(n), a.size + 2))
    return a + (e[:, 2:] - e[:, :-2]).reshape((int(n),) + a.shape)           # BUG: answers j and j + 2 share a draw


@batched(_laplace_lag_two_batch)
def laplace_noise_lag_two(data, *, rng, epsilon, gamma, **_):
    """BUG: answer j's noise is e[j + 2] - e[j] (exponential draws): each exactly Lap(gamma/epsilon), answers two apart
    correlated -1/2; exact for q <= 2, three answers moving together: loss 4 epsilon against 3 epsilon."""
    out = _laplace_lag_two_batch(data, 1, rng=rng, epsilon=epsilon, gamma=gamma)[0]
    return float(out) if np.ndim(out) == 0 else out


def _gauss_differences_batch(data, n, *, rng, epsilon, delta, gamma, **_):
    half = stable.sigma_gaussian(epsilon, delta, gamma) / np.sqrt(2.0)                 # BUG: N - N shared by answers
    return _noise_differences(data, n, lambda size: half * rng.standard_normal(size))


@batched(_gauss_differences_batch)
def gaussian_noise_differences(data, *, rng, epsilon, delta, gamma, **_):
    """BUG: the q answers' noises are differences of q + 1 draws of N(0, sigma_G^2/2): each exactly N(0, sigma_G^2),
    neighbours correlated -1/2 (two answers moving together: mu = 2 gamma/sigma_G against sqrt(2) gamma/sigma_G)."""
    out = _gauss_differences_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, gamma=gamma)[0]
    return float(out) if np.ndim(out) == 0 else out


def _gauss_shared_batch(data, n, *, rng, epsilon, delta, gamma, **_):
    a = np.asarray(data, dtype=float)
    xi = stable.sigma_gaussian(epsilon, delta, gamma) * rng.standard_normal((int(n),) + (1,) * a.ndim)  # BUG: one draw
    return a + xi


@batched(_gauss_shared_batch)
def gaussian_noise_reused_across_queries(data, *, rng, epsilon, delta, gamma, **_):
    """BUG: one Gaussian draw added to the answers of all queries (two answers moving apart: z_1 - z_2 exact)."""
    out = _gauss_shared_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, gamma=gamma)[0]
    return float(out) if np.ndim(out) == 0 else out


def _gauss_two_thirds_batch(data, n, *, rng, epsilon, delta, gamma, **_):
    sigma = stable.sigma_gaussian(epsilon, delta, gamma) / 1.5                  # BUG: 1.5x too little noise
    a = np.asarray(data, dtype=float)
    return a + sigma * rng.standard_normal((int(n),) + a.shape)


@batched(_gauss_two_thirds_batch)
def gaussian_two_thirds_noise(data, *, rng, epsilon, delta, gamma, **_):
    """BUG: N(0, (sigma_G/1.5)^2): the standard deviation 1.5 times too small (a constant rounded the wrong way)."""
    out = _gauss_two_thirds_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, gamma=gamma)[0]
    return float(out) if np.ndim(out) == 0 else out


_RUNS_FROM_RNG = 50
_runs_drawn = [0]


def _rng_first_runs_batch(data, n, *, rng, epsilon, gamma, **_):
    a = np.atleast_1d(np.asarray(data, dtype=float))
    _runs_drawn[0] += int(n)
    source = rng if _runs_drawn[0] <= _RUNS_FROM_RNG else np.random      # BUG: global entropy after 50 runs
    out = a[None, :] + source.laplace(0.0, gamma / epsilon, (int(n), a.size))
    return out[:, 0] if np.ndim(data) == 0 else out


@batched(_rng_first_runs_batch)
def laplace_rng_first_50_runs(data, *, rng, epsilon, gamma, **_):
    """BUG: the noise comes from ``rng`` for the first 50 runs of the process only, then from numpy's global
    generator (a leftover np.random call, or a 'cache' of the generator): the law is unchanged, the runs are no
    longer a function of ``rng``."""
    out = _rng_first_runs_batch(data, 1, rng=rng, epsilon=epsilon, gamma=gamma)[0]
    return float(out) if np.ndim(out) == 0 else out


agnostic_no_rounding = post_processed(
    stable.agnostic_private_prediction_corrected,
    lambda out, data, rng, params: (np.full(out.shape, np.asarray(data)[1] * 2 >= np.asarray(data).sum())).astype(np.int8),
    "BUG: answers the plain majority of the teachers (no noise, no randomized rounding).")


def _agnostic_triple_noise_batch(data, n, *, rng, epsilon, alpha, **_):
    r = stable.agnostic_teachers(epsilon, alpha)
    v = stable.agnostic_average(data, r)
    p = np.clip(v + rng.laplace(0.0, 3.0 / (r * epsilon), int(n)), 0.0, 1.0)     # BUG: 3 times the noise
    return (rng.random(int(n)) < p).astype(np.int8)


@batched(_agnostic_triple_noise_batch)
def agnostic_triple_noise(data, *, rng, epsilon, alpha, **_):
    """BUG: the rounding noise Lap(3/(r eps)) instead of Lap(1/(r eps)) (eps/3-DP, less accurate)."""
    return int(_agnostic_triple_noise_batch(data, 1, rng=rng, epsilon=epsilon, alpha=alpha)[0])


agnostic_constant_label = post_processed(
    stable.agnostic_private_prediction_corrected, lambda out, data, rng, params: np.zeros_like(out),
    "BUG: answers 0 at every query (a constant-label predictor).")


def averaged_learner_sum(data, *, r, **_):
    """BUG: sums the r block predictions instead of averaging them."""
    return float(np.sum(np.asarray(data, dtype=float)))


averaged_learner_sum.batch = lambda data, n, *, r, **_: np.full(int(n), averaged_learner_sum(data, r=r))


def _never_refuses_batch(data, n, *, rng, epsilon_total, epsilon, gamma, **_):
    a = np.atleast_1d(np.asarray(data, dtype=float))
    return a[None, :] + rng.laplace(0.0, gamma / epsilon, (int(n), a.size))     # BUG: no budget check


@batched(_never_refuses_batch)
def session_never_refuses(data, *, rng, epsilon_total, epsilon, gamma, **_):
    """BUG: the session answers every query (the budget is never checked)."""
    return _never_refuses_batch(data, 1, rng=rng, epsilon_total=epsilon_total, epsilon=epsilon, gamma=gamma)[0]


def _signed_refusals_batch(data, n, *, rng, epsilon_total, epsilon, gamma, **_):
    a = np.atleast_1d(np.asarray(data, dtype=float))
    answered = min(a.size, int(np.floor(epsilon_total / epsilon + 1e-12)))
    noisy = a[None, :] + laplace(rng, gamma / epsilon, (int(n), a.size))  # every query noised, refused ones too
    noisy[:, answered:] = np.copysign(np.inf, noisy[:, answered:])      # BUG: the refusal marker keeps the sign
    return noisy


@batched(_signed_refusals_batch)
def session_signed_refusals(data, *, rng, epsilon_total, epsilon, gamma, **_):
    """BUG: a refused query's slot is its noisy answer times infinity: the marker's sign is the answer's."""
    return _signed_refusals_batch(data, 1, rng=rng, epsilon_total=epsilon_total, epsilon=epsilon, gamma=gamma)[0]


# --------------------------------------------------------------------------- convex ERM


def _double_noise_batch(data, N, *, rng, epsilon, **params):
    # written out: with_params' sampler names its count n, which shadows this spec's parameter n
    return convex_erm.convex_erm_prediction.batch(data, N, rng=rng, epsilon=epsilon / 2, **params)   # BUG


@batched(_double_noise_batch)
def erm_double_noise(data, *, rng, epsilon, **params):
    """BUG: Lap(2 gamma/epsilon) on the prediction (the noise scale doubled)."""
    out = _double_noise_batch(data, 1, rng=rng, epsilon=epsilon, **params)[0]
    return float(out) if np.ndim(out) == 0 else out



def _triple_lam_batch(data, N, *, rng, lam, **params):
    return convex_erm.convex_erm_prediction.batch(data, N, rng=rng, lam=3 * lam, **params)   # BUG: 3 lam


@batched(_triple_lam_batch)
def erm_triple_regularisation(data, *, rng, lam, **params):
    """BUG: the ERM regularised with 3 lam (its certified gamma computed with the same 3 lam)."""
    out = _triple_lam_batch(data, 1, rng=rng, lam=lam, **params)[0]
    return float(out) if np.ndim(out) == 0 else out


def _local_gamma_batch(data, N, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss, **_):
    X = np.atleast_2d(np.asarray(data["X"], dtype=float))
    x = np.asarray(data["x"], dtype=float)
    # BUG: sensitivity measured on S: the largest influence of a record present in S at x
    local = c_gamma * L_l * max(float(np.max(np.abs(X @ x.T))), 1e-3 * L_f ** 2) / (lam * n)
    return convex_erm.answers(data, N, rng=rng, epsilon=epsilon, lam=lam, R=R, L_f=L_f, n=n, loss=loss, gamma=local)


@batched(_local_gamma_batch)
def erm_local_sensitivity(data, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss, **_):
    """BUG: Laplace scale from a local sensitivity c max_i |<x_i, x>| L_l/(lam n) at S, not the global gamma."""
    out = _local_gamma_batch(data, 1, rng=rng, epsilon=epsilon, lam=lam, R=R, L_f=L_f, L_l=L_l, n=n,
                             c_gamma=c_gamma, loss=loss)[0]
    return float(out) if np.ndim(out) == 0 else out


def _negated_batch(data, N, *, rng, **params):
    flipped = {**data, "y": -np.asarray(data["y"], dtype=float)}          # BUG: label sign convention
    return convex_erm.convex_erm_prediction.batch(flipped, N, rng=rng, **params)


@batched(_negated_batch)
def erm_negated_labels(data, *, rng, **params):
    """BUG: fits on -y (a label sign-convention slip)."""
    out = _negated_batch(data, 1, rng=rng, **params)[0]
    return float(out) if np.ndim(out) == 0 else out


def _labels01_batch(data, N, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss, **_):
    X, y, x = convex_erm._dataset(data, n, L_f)
    y = (y + 1) / 2                   # BUG: the labels mapped to {0, 1} before the fit
    gamma = convex_erm.certified_gamma(L_f=L_f, L_l=L_l, lam=lam, n=n, c_gamma=c_gamma)
    return convex_erm.released(X, y, x, N, rng=rng, epsilon=epsilon, lam=lam, R=R, L_f=L_f, loss=loss, gamma=gamma)


@batched(_labels01_batch)
def erm_labels_01(data, *, rng, **params):
    """BUG: the labels mapped to {0, 1} ((y + 1)/2) before the fit: private (a fit of bounded labels, sensitivity
    at most the spec's), but the minimiser and so the release's centre are not the spec's."""
    out = _labels01_batch(data, 1, rng=rng, **params)[0]
    return float(out) if np.ndim(out) == 0 else out


def _reencoded_batch(data, N, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss, **_):
    X, y, x = convex_erm._dataset(data, n, L_f)
    y = 2 * y - 1                     # BUG: the {0, 1} -> {-1, 1} map applied to labels already in {-1, 1}
    gamma = convex_erm.certified_gamma(L_f=L_f, L_l=L_l, lam=lam, n=n, c_gamma=c_gamma)
    return convex_erm.released(X, y, x, N, rng=rng, epsilon=epsilon, lam=lam, R=R, L_f=L_f, loss=loss, gamma=gamma)


@batched(_reencoded_batch)
def erm_labels_reencoded(data, *, rng, **params):
    """BUG: labels mapped by y -> 2y - 1 although they are in {-1, 1}: -1 becomes -3 and weighs three times."""
    out = _reencoded_batch(data, 1, rng=rng, **params)[0]
    return float(out) if np.ndim(out) == 0 else out


def _empty_rows_dropped_batch(data, N, *, rng, epsilon, lam, R, L_f, L_l, n, c_gamma, loss, **_):
    X, y, x = convex_erm._dataset(data, n, L_f)
    kept = np.any(X != 0, axis=1)      # BUG: rows of zero features dropped, n counted after (fewer rows, less noise)
    X, y = X[kept], y[kept]
    gamma = convex_erm.certified_gamma(L_f=L_f, L_l=L_l, lam=lam, n=max(int(kept.sum()), 1), c_gamma=c_gamma)
    return convex_erm.released(X, y, x, N, rng=rng, epsilon=epsilon, lam=lam, R=R, L_f=L_f, loss=loss, gamma=gamma)


@batched(_empty_rows_dropped_batch)
def erm_empty_rows_dropped(data, *, rng, **params):
    """BUG: records of zero features are dropped before the fit and n is counted after: the noise follows how many
    records are not empty."""
    out = _empty_rows_dropped_batch(data, 1, rng=rng, **params)[0]
    return float(out) if np.ndim(out) == 0 else out


# --------------------------------------------------------------------------- Theorem 2 harness


def _fixed_target_batch(data, N, *, rng, d, n, **_):
    out = lower_bound.private_prediction_lower_bound.batch(data, N, rng=rng, d=d, n=n)
    out[:, int(n):] = 0                                               # BUG: target bits never drawn
    return out


def lower_bound_fixed_target(data, *, rng, d, n, **_):
    """BUG: the hard-instance harness keeps b = 0 (the target is never randomised)."""
    return _fixed_target_batch(data, 1, rng=rng, d=d, n=n)[0]


lower_bound_fixed_target.batch = _fixed_target_batch


def _byte_points_batch(data, N, *, rng, d, n, **_):
    out = lower_bound.private_prediction_lower_bound.batch(data, N, rng=rng, d=d, n=n)
    out[:, :int(n)] %= 256                                            # BUG: the points kept in a byte buffer
    return out


def lower_bound_byte_points(data, *, rng, d, n, **_):
    """BUG: the hard-instance harness stores the points in bytes: past d = 256 they wrap, points 0..d-257 are drawn
    twice as often and the points from 256 on never (the instance bound is stated for the uniform law)."""
    return _byte_points_batch(data, 1, rng=rng, d=d, n=n)[0]


lower_bound_byte_points.batch = _byte_points_batch


def _balanced_target_batch(data, N, *, rng, d, n, **_):
    out = lower_bound.private_prediction_lower_bound.batch(data, N, rng=rng, d=d, n=n)
    half = np.arange(int(d)) % 2                                      # BUG: b a shuffle of a balanced vector
    out[:, int(n):] = rng.permuted(np.broadcast_to(half, (int(N), int(d))), axis=1)
    return out


def lower_bound_balanced_target(data, *, rng, d, n, **_):
    """BUG: the hard-instance harness draws b as a shuffle of d/2 ones: each bit is a fair coin but sum(b) is fixed
    (a learner that knows the balance beats the instance bound at points it never saw)."""
    return _balanced_target_batch(data, 1, rng=rng, d=d, n=n)[0]


lower_bound_balanced_target.batch = _balanced_target_batch


def _mean_by_halves(v: np.ndarray) -> float:
    return float(v[0]) if v.size == 1 else (_mean_by_halves(v[:v.size // 2]) + _mean_by_halves(v[v.size // 2:])) / 2


def averaged_learner_mean_by_halves(data, *, r, **_):
    """BUG: the mean computed as the mean of the two halves' means: exact when r is a power of 2, at r = 3 one block
    weighs 1/2."""
    return _mean_by_halves(np.asarray(data, dtype=float).ravel())


averaged_learner_mean_by_halves.batch = lambda data, n, *, r, **_: np.full(int(n), averaged_learner_mean_by_halves(
    data, r=r))


def _distinct_blocks(data):
    return float(np.mean(np.unique(np.asarray(data, dtype=float))))


def averaged_learner_distinct(data, *, r, **_):
    """BUG: averages the distinct block predictions (np.unique: agreeing blocks taken for copies), so one block
    moved off r equal ones moves the output by gamma/2, not gamma/r."""
    return _distinct_blocks(data)


averaged_learner_distinct.batch = lambda data, n, *, r, **_: np.full(int(n), _distinct_blocks(data))


def averaged_learner_over_n(data, *, r, n, **_):
    """BUG: the block predictions summed and divided by n (the records a block) instead of r: more stable than
    gamma/r where n > r (the default n = 10, r = 4), a move of gamma/n > gamma/r where n < r."""
    return float(np.sum(np.asarray(data, dtype=float)) / int(n))


averaged_learner_over_n.batch = lambda data, N, *, r, n, **_: np.full(int(N), averaged_learner_over_n(data, r=r, n=n))


def _without_replacement_batch(data, N, *, rng, d, n, **_):
    out = lower_bound.private_prediction_lower_bound.batch(data, N, rng=rng, d=d, n=n)
    if int(n) <= int(d):                                              # BUG: distinct points when they fit
        out[:, :int(n)] = np.stack([rng.choice(int(d), size=int(n), replace=False) for _ in range(int(N))])
    return out


def lower_bound_without_replacement(data, *, rng, d, n, **_):
    """BUG: the hard-instance harness draws its points without replacement when n <= d (exact at the spec's n > d)."""
    return _without_replacement_batch(data, 1, rng=rng, d=d, n=n)[0]


lower_bound_without_replacement.batch = _without_replacement_batch


def _vote_if_labels(data) -> float:
    v = np.asarray(data, dtype=float).ravel()
    if np.all((v == 0) | (v == 1)):                                  # BUG: labels taken for a classifier ensemble
        return float(2 * v.sum() >= v.size)
    return float(v.mean())


def averaged_learner_vote_on_labels(data, *, r, **_):
    """BUG: block predictions that are all 0 or 1 get their majority vote (ties to 1), not their mean."""
    return _vote_if_labels(data)


averaged_learner_vote_on_labels.batch = lambda data, n, *, r, **_: np.full(int(n), _vote_if_labels(data))


# --------------------------------------------------------------------------- declarations


_RELEASED: dict = {}  # the process-wide cache of laplace_cached_per_input


def laplace_cached_per_input(data, *, rng, epsilon, gamma, **params):
    """Stable Laplace prediction that releases, for an input it has answered before in this process, that first
    answer again (a process-wide cache): two calls on one input give one answer, whatever the rng."""
    key = (np.asarray(data, dtype=float).tobytes(), float(epsilon), float(gamma))
    if key not in _RELEASED:
        _RELEASED[key] = stable.stable_laplace_prediction(data, rng=rng, epsilon=epsilon, gamma=gamma, **params)
    return _RELEASED[key]


def _m(spec, name, breaks, bug, killed_by=(), equivalent=""):
    return Mutant(spec=spec, name=name, implementation=f"{PKG}:{name}", breaks=breaks, bug=bug,
                  killed_by=tuple(killed_by), equivalent=equivalent)


MUTANTS = (
    _m(SOFT, "soft_majority_constant_label", "utility", "answers 0 at every query", (THM1,)),
    _m(SOFT, "soft_majority_quarter_teachers", "utility", "r // 4 teachers instead of r", (THM1,)),
    _m(SOFT, "soft_majority_third_of_block", "utility",
       "teachers trained on the first third of their blocks (disjoint blocks still: the claim holds), about 2.5 times "
       "the reference's error on Theorem 1's instance", (f"{SOFT}/Theorem 1/vs-reference",)),
    _m(SOFT, "soft_majority_eighth_data", "utility",
       "teachers trained on n/8 records (blocks of m/8): Theorem 1's n has more than 8x slack (the sweep shows "
       "n_beta < n/8), so no stated claim breaks; its error is 8 times the reference's (0.0033 against 0.0004 on Theorem "
       "1's instance), which the comparison with the reference sees", (f"{SOFT}/Theorem 1/vs-reference",)),
    _m(SOFT, "soft_majority_label_sorted_partition", "both",
       "blocks cut after sorting the records by label (stress case label_flip_last_record at epsilon = 4: every block "
       "re-cut, nu 4 against 0, exact loss 7.3; audit eps_lb 7.13 against 4)", ("privacy audit", THM1)),
    _m(SOFT, "soft_majority_sorted_round_robin", "privacy",
       "records sorted by feature, then dealt round-robin to the teachers: a data-dependent partition with accuracy "
       "intact (found by the input-space search, search/magnitude/up: audit eps_lb 7.07 against 4)", ("privacy audit",)),
    _m(SOFT, "soft_majority_shared_coin", "privacy",
       "one uniform coin shared by the answers to all queries of a call (stress case two_queries_canary_between, "
       "q = 2: audit eps_lb 10.6 against 4)", ("privacy audit",)),
    _m(SOFT, "soft_majority_coin_on_grid", "privacy",
       "the coin drawn on a grid of 1/1000: never 0 once p > 0.999 (votes 4 against 2 at epsilon 4, r = 4: 0.017 against "
       "0; audit eps_lb 7.64 against 4 at seeds 0-2; the same bug per call, tests/independent, needs the pair "
       "search's one-sided forecast)", ("privacy audit",)),
    _m(SOFT, "soft_majority_bagged_blocks", "privacy", "overlapping blocks: each record feeds two teachers",
       ("privacy audit",)),
    _m(SOFT, "soft_majority_fallback_smallest_positive", "privacy",
       "a block without a positive label falls back to the whole sample's smallest positive: one record moves every "
       "vote where it is the only positive (found on search/labels/lone_1)", ("privacy audit",)),
    _m(SOFT, "soft_majority_naive_logistic", "privacy",
       "the probability computed as w / (1 + w), w = exp(epsilon nu / 2): NaN, so the label 0, from nu = 1,420 on at "
       "epsilon 1 where the label was 1 (found on the unanimous many-vote line)", ("privacy audit",)),
    _m(SOFT, "soft_majority_resized_blocks", "privacy",
       "blocks of ceil(n/r) filled by np.resize: the first records feed two teachers when r does not divide n (found on "
       "the lengthened datasets, search/length/: audit eps_lb 7.1 against 4)", ("privacy audit",)),
    _m(SOFT, "soft_majority_memorises_training_points", "both", "a query equal to a training point gets its label",
       ("privacy audit", f"{SOFT}/Lemma 6/moment-k1", f"{SOFT}/Lemma 7/integer-k-markov",
        f"{SOFT}/Theorem 2 (instance bound)/user-algorithm-on-hard-instance")),
    _m(SOFT, "soft_majority_leaks_margin", "privacy", "returns 2 c_1 + label (the votes leak)", ("privacy audit",)),
    _m(SOFT, "soft_majority_hard_majority", "privacy",
       "the hard majority, no coin: nu = -1 -> +1 under one record turns the label from 0 to 1 with certainty (infinite "
       "loss); on the lookup-teacher hard instance it errs 0.266 against the epsilon-DP bound 0.469",
       ("privacy audit", THM2_VOTES)),
    _m(SOFT, "soft_majority_exponent_four_eps", "privacy",
       "p = logistic(2 eps nu): 4 eps-DP (exact loss on output 1 at nu = -1 -> +1 is 2 eps ln-ratio, 4 eps in the "
       "limit); on the lookup-teacher hard instance it errs 0.441 against the epsilon-DP bound 0.469",
       ("privacy audit", THM2_VOTES)),
    _m("stable_laplace_prediction_corrected", "laplace_half_scale", "privacy", "Lap(gamma/(2 epsilon))",
       ("privacy audit",)),
    _m("stable_laplace_prediction_corrected", "laplace_scale_times_queries", "utility",
       "Lap(q gamma/epsilon) for each of q answers",
       ("stable_laplace_prediction_corrected/Theorem 4 (Lipschitz)/extra-absolute-loss",
        "stable_laplace_prediction_corrected/Theorem 4 (smooth)/extra-squared-loss")),
    _m("stable_laplace_prediction_corrected", "laplace_double_scale", "utility", "Lap(2 gamma/epsilon)",
       ("stable_laplace_prediction_corrected/Theorem 4 (Lipschitz)/extra-absolute-loss",
        "stable_laplace_prediction_corrected/Theorem 4 (smooth)/extra-squared-loss",
        "stable_laplace_prediction_corrected/Theorem 4 (Lipschitz)/noise-law")),
    _m("stable_laplace_prediction_corrected", "laplace_noise_reused_across_queries", "privacy",
       "one noise draw shared by all queries (stress case W6_two_queries_apart, q = 2: z_1 - z_2 released exactly, "
       "infinite loss; audit eps_lb 11.8 against 2)",
       ("privacy audit", "stable_laplace_prediction_corrected/Lemma 4/two-queries-law")),
    _m("stable_laplace_prediction_corrected", "laplace_rng_first_50_runs", "contract",
       "noise from rng for the first 50 runs of the process, then from numpy's global generator (the replay of an "
       "estimation batch differs: implementation error)", ("privacy audit",)),
    _m("agnostic_private_prediction_corrected", "agnostic_no_rounding", "privacy",
       "plain teacher majority, no noise or rounding", ("privacy audit",)),
    _m("agnostic_private_prediction_corrected", "agnostic_constant_label", "utility", "answers 0 at every query",
       ("agnostic_private_prediction_corrected/Corollary 1/grid-thresholds",
        "agnostic_private_prediction_corrected/Corollary 1/vs-reference")),
    _m("agnostic_private_prediction_corrected", "agnostic_triple_noise", "utility",
       "rounding noise Lap(3/(r eps)) (eps/3-DP: the claim holds), about 3 times the reference's excess error",
       ("agnostic_private_prediction_corrected/Corollary 1/vs-reference",
        "agnostic_private_prediction_corrected/Corollary 1 (privacy)/rounding-law")),
    _m("averaged_learner_corrected", "averaged_learner_sum", "utility", "sums the block predictions",
       ("averaged_learner_corrected/Lemma 2 (stability)/one-block-moves",
        "averaged_learner_corrected/Lemma 2 (stability)/block-average",
        "averaged_learner_corrected/Lemma 2 (expectation)/jensen-pathwise",
        "averaged_learner_corrected/Lemma 2 (tail)/union-bound")),
    Mutant(spec="stable_gaussian_prediction", name="gaussian_printed_variance",
           implementation="dptestbed.impl.private_prediction.stable:stable_gaussian_prediction_broken",
           breaks="privacy", bug="variance gamma ln(1/delta)/epsilon as printed (E2)",
           killed_by=("privacy audit", "stable_gaussian_prediction/Fact G1 (extra loss of Gaussian noise)/noise-law")),
    _m("stable_gaussian_prediction", "gaussian_two_thirds_noise", "privacy",
       "standard deviation sigma_G / 1.5 (exact loss 1.16 against 0.99 at delta = 1e-5 on shift_by_gamma_eps_near_one; "
       "audit eps_lb 1.10 with the confirmation round)",
       ("privacy audit", "stable_gaussian_prediction/Fact G1 (extra loss of Gaussian noise)/noise-law")),
    _m("convex_erm_prediction", "erm_double_noise", "utility", "Lap(2 gamma/epsilon)",
       ("convex_erm_prediction/Corollary 4/ridge-lam-cor4",)),
    _m("convex_erm_prediction", "erm_triple_regularisation", "utility",
       "regularised with 3 lam, gamma certified with it (the claim holds), about 5 times the reference's excess loss "
       "at Corollary 3's point", ("convex_erm_prediction/Corollary 3/vs-reference",)),
    _m("convex_erm_prediction", "erm_negated_labels", "utility", "fits on -y",
       ("convex_erm_prediction/Corollary 2/ridge-regularised-benchmark", "convex_erm_prediction/Corollary 3/ridge-lam-cor3")),
    _m("convex_erm_prediction", "erm_local_sensitivity", "privacy",
       "Laplace scale from a local sensitivity at S instead of the global gamma", ("privacy audit",)),
    _m("convex_erm_prediction", "erm_empty_rows_dropped", "privacy",
       "records of zero features dropped, n counted after them (found on records zeroed but one: search/zero)",
       ("privacy audit",)),
    _m("convex_erm_prediction", "erm_labels_01", "utility",
       "labels mapped to {0, 1} before the fit (private; the release's centre moves by 0.35 b to b at fixed data)",
       ("convex_erm_prediction/Theorem 3/release-law",)),
    _m("convex_erm_prediction", "erm_labels_reencoded", "privacy",
       "labels mapped by y -> 2y - 1 although in {-1, 1}: a record of label -1 weighs 3 (at c_gamma = 4 only a label "
       "-1 record's features moved shows it: search/labels/all_-1)", ("privacy audit",)),
    _m("budgeted_prediction_session", "session_never_refuses", "privacy",
       "answers past the budget (stress case all_predictions_move: three answers, exact loss 3 against a budget of 2; "
       "audit eps_lb 2.90)", ("privacy audit",)),
    _m("budgeted_prediction_session", "session_signed_refusals", "privacy",
       "a refused query's slot is +-infinity with the sign of its noisy answer (three signs on all_predictions_move: "
       "exact loss 3 against a budget of 2)", ("privacy audit",)),
    _m("private_prediction_lower_bound_corrected", "lower_bound_byte_points", "utility",
       "the hard-instance harness keeps the points in bytes (they wrap past 256)",
       ("private_prediction_lower_bound_corrected/Theorem 2 (instance bound)/instance-law",)),
    _m("private_prediction_lower_bound_corrected", "lower_bound_balanced_target", "utility",
       "the hard-instance harness draws b as a shuffle of d/2 ones",
       ("private_prediction_lower_bound_corrected/Theorem 2 (instance bound)/instance-law",)),
    _m("averaged_learner_corrected", "averaged_learner_mean_by_halves", "utility",
       "the mean computed by halves (exact at r = 4 only)",
       ("averaged_learner_corrected/Lemma 2 (stability)/one-block-moves",
        "averaged_learner_corrected/Lemma 2 (stability)/block-average")),
    _m("averaged_learner_corrected", "averaged_learner_distinct", "utility",
       "averages the distinct block predictions (np.unique)",
       ("averaged_learner_corrected/Lemma 2 (stability)/one-block-moves",
        "averaged_learner_corrected/Lemma 2 (stability)/block-average")),
    _m("private_prediction_lower_bound_corrected", "lower_bound_without_replacement", "utility",
       "the hard-instance harness draws distinct points when n <= d",
       ("private_prediction_lower_bound_corrected/Theorem 2 (instance bound)/instance-law-fewer-points",)),
    _m("averaged_learner_corrected", "averaged_learner_over_n", "utility",
       "divides the sum by n (records a block) instead of r: gamma/n, above gamma/r where n < r",
       ("averaged_learner_corrected/Lemma 2 (stability)/one-block-moves",
        "averaged_learner_corrected/Lemma 2 (stability)/block-average")),
    _m("averaged_learner_corrected", "averaged_learner_vote_on_labels", "utility",
       "block predictions all 0 or 1 get their majority vote",
       ("averaged_learner_corrected/Lemma 2 (stability)/one-block-moves",
        "averaged_learner_corrected/Lemma 2 (stability)/block-average")),
    _m("private_prediction_lower_bound_corrected", "lower_bound_fixed_target", "utility",
       "the hard-instance harness never draws the target bits",
       ("private_prediction_lower_bound_corrected/Theorem 2 (instance bound)/soft-majority-on-hard-instance",)),
    Mutant(spec="stable_laplace_prediction_corrected", name="laplace_noise_lag_two",
           implementation=f"{PKG}:laplace_noise_lag_two", breaks="privacy",
           bug="answer j's noise is e[j + 2] - e[j] (exact for q <= 2; the audit's events do not reach its loss at q = 3: "
               "its law differs)", killed_by=("stable_laplace_prediction_corrected/Lemma 4/three-queries-law",),
           exact_loss="4 against 3 at q = 3 (epsilon = gamma = 1), three answers moving together: (n_1, n_3) has density "
                      "e^(n_1 - n_3 - 3 max(0, n_1, -n_3))/3, so its log ratio is 3 where n_1 <= 0, n_3 <= -1, and n_2's "
                      "Laplace adds 1 where n_2 <= 0"),
    _m("stable_laplace_prediction", "laplace_noise_differences", "privacy",
       "the q answers' noises are differences of q + 1 exponential draws (each marginal exact; stress case "
       "W6_two_queries_together, q = 2: exact loss 3 against 2)", ("privacy audit",)),
    _m("stable_gaussian_prediction", "gaussian_noise_differences", "privacy",
       "the q answers' noises are differences of q + 1 normal draws (each marginal exact; stress case "
       "two_queries_together, q = 2: mu = 2 gamma/sigma_G against sqrt(2) gamma/sigma_G)", ("privacy audit",)),
    _m("stable_gaussian_prediction", "gaussian_noise_reused_across_queries", "privacy",
       "one noise draw shared by all queries (stress case two_queries_apart, q = 2: z_1 - z_2 released exactly)",
       ("privacy audit",)),
    _m("stable_laplace_prediction", "laplace_cached_per_input", "privacy",
       "a process-wide cache re-releases the first answer on an input (no batch sampler: one call each)",
       ("privacy audit",)),
)
