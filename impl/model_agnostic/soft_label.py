"""Private soft-label classification (seed 000 Sec. 5): A_SL-Quer (Algorithm 6) as printed and with
the corrected threshold (erratum E2), the private classifier H_Priv (Algorithm 8) with GenHist
(Definitions 5.1-5.3), and the chunk learner A_PrvLearn (Algorithm 7).

Contracts:
- ``soft_label_queries(data, *, rng, epsilon, delta, T, m, gamma)`` and
  ``soft_label_queries_corrected(...)``: ``data`` = soft predictions, float (r, K), r <= m rows in
  query order, row l = S_l = (h_1(x_l), ..., h_K(x_l)) (clipped to [0, 1]). lam = sqrt(64 T
  log(2/delta))/epsilon; w = lam log(4m/delta) as printed (Alg 6 step 1) or 2 lam log(4m/delta)
  corrected (E2); w_hat = w + Lap(lam) drawn ONCE before the first query (missing in print, E3)
  and shared, mutable state of Alg 6 and H_Priv (P14). Per query, while c <= T: H_Priv's first
  test (regular histogram); on failure w_hat is re-drawn (H_Priv step 7) and the shifted histogram
  is tested against the NEW w_hat; a double failure re-draws w_hat again (Alg 6 step 6). Costs:
  Flag 0 -> 0, Flag 1 and released -> c += 1, Flag 1 and bottom -> c += 2 (each sub-bottom costs
  one unit and re-draws; up to T + 2 sub-bottoms, E11/E13). ``m`` is the declared number of
  queries (enters w; more rows are refused, P9); ``T <= m`` is the spec's constraint, not checked.
  Output: float64 (r, 2): [s_hat, Flag] with s_hat a regular midpoint (2v - 1) gamma/2 (Flag 0),
  a shifted midpoint v gamma (Flag 1), or -1.0 for bottom (Flag 1); rows not answered after the
  halt are (-2.0, -1.0). Batch: (n, r, 2).
- ``soft_label_classifier(data, *, rng, gamma, lam, w)``: H_Priv on one multiset S (float (K,)),
  with its own threshold w_hat = w + Lap(lam) drawn at the start of the call (no counter, no
  halt); output float64 (2,) [s_hat, Flag] as above (bottom = (-1.0, 1.0)); batch (n, 2).
- ``soft_label_learner(data, *, rng, k, n_prime, learner, eta, reg, radius)``: Alg 7 on
  {X (n,), y (n,)} with n = k n_prime; chunk j = records j n' .. (j+1) n' - 1 (fixed slots, P1);
  B = one-pass projected SGD on the L2-regularised logistic loss (impl.learners.sgd_logistic),
  in the given order ("sgd_logistic_one_pass") or over an independent uniform permutation per
  chunk ("sgd_logistic_permutation", consistent randomization); output float64 (k, 2) of (w0, w1)
  (soft label 1/(1 + exp(-(w0 + w1 x)))); batch (n, k, 2). Not private by itself: H_Priv is.

GenHist (Def 5.1, P13), N = 1/gamma an integer (gamma rejected unless |1/gamma - round(1/gamma)|
<= 1e-9/gamma): regular bins j = 1..N, [(j-1) gamma, j gamma), the last closed at 1; shifted bins
v = 1..N-1, [(v - 1/2) gamma, (v + 1/2) gamma); values in [0, gamma/2) and [1 - gamma/2, 1] are
in no shifted bin. Bin arithmetic on t = 2 N x, snapped to the nearest integer when within 1e-9
of it (i.e. within 5e-10 gamma of a boundary), so x = j gamma lands in bin j + 1 however j gamma
was rounded, and x = 1 in bin N. Histogram dist as printed: max(0, max - second max - 1) with
ties of the argmax to the smallest bin (second max = 0 when there is a single shifted bin,
gamma = 1/2). Only s_hat and Flag are released (P10).
"""

from __future__ import annotations

import math

import numpy as np

from dptestbed.impl import learners as _learners
from dptestbed.impl.contract import batched

from .online_query_release import check_rows, declared_queries
from .sparse_vector import SparseVectorRuns, _cutoff, new_core
from .subsample_aggregate import mode_and_gap

BOTTOM, NOT_ANSWERED = -1.0, -2.0
NO_FLAG = -1.0
SNAP = 1e-9            # tolerance of the boundary snap, in units of gamma/2


def bins_per_unit(gamma) -> int:
    """N = 1/gamma, which must be an integer >= 2 (gamma in (0, 1/2], Def 5.1)."""
    gamma = float(gamma)
    if not 0 < gamma <= 0.5:
        raise ValueError(f"gamma must lie in (0, 1/2], got {gamma!r}")
    N = int(round(1.0 / gamma))
    if abs(1.0 / gamma - N) > 1e-9 / gamma:
        raise ValueError(f"1/gamma must be an integer (Def 5.1), got gamma = {gamma!r}")
    return N


def _half_bin_coordinate(S, N):
    """t = 2 N x for x clipped to [0, 1], snapped to the nearest integer within SNAP (P13)."""
    t = 2.0 * N * np.clip(np.asarray(S, dtype=float), 0.0, 1.0)
    r = np.rint(t)
    return np.where(np.abs(t - r) <= SNAP, r, t)


def regular_bin(S, gamma) -> np.ndarray:
    """1-based regular bin of each value: floor(x/gamma) + 1, x = j gamma -> j + 1, x = 1 -> N."""
    N = bins_per_unit(gamma)
    t = _half_bin_coordinate(S, N)
    return np.minimum(np.floor(t / 2.0).astype(np.int64) + 1, N)


def shifted_bin(S, gamma) -> np.ndarray:
    """1-based shifted bin v with (v - 1/2) gamma <= x < (v + 1/2) gamma, v = 1..N-1; 0 = none."""
    N = bins_per_unit(gamma)
    v = np.floor((_half_bin_coordinate(S, N) + 1.0) / 2.0).astype(np.int64)
    return np.where((v >= 1) & (v <= N - 1), v, 0)


def gen_hist(S, gamma, flag) -> np.ndarray:
    """Def 5.3 GenHist(S, gamma, Flag): counts over the last axis of S, int64 (..., N) for
    Flag = 0 (regular) or (..., N - 1) for Flag = 1 (shifted)."""
    N = bins_per_unit(gamma)
    S = np.asarray(S, dtype=float)
    if not np.all(np.isfinite(S)):
        raise ValueError("soft predictions must be finite")
    idx = regular_bin(S, gamma) if flag == 0 else shifted_bin(S, gamma)   # 1-based; 0 = excluded
    return bin_counts(idx, N if flag == 0 else N - 1)


def bin_counts(idx, width: int) -> np.ndarray:
    """Counts of the 1-based bin indices ``idx`` (0 = in no bin) over their last axis: int64 (..., width)."""
    idx = np.asarray(idx, dtype=np.int64)
    rows = idx.reshape(-1, idx.shape[-1])
    offsets = np.arange(rows.shape[0], dtype=np.int64)[:, None] * (width + 1)
    counts = np.bincount((rows + offsets).ravel(), minlength=rows.shape[0] * (width + 1))
    return counts.reshape(rows.shape[0], width + 1)[:, 1:].reshape(idx.shape[:-1] + (width,))


def histogram_tests(S, gamma):
    """For each multiset: (regular mode (1-based), regular dist, shifted mode, shifted dist),
    dist = max(0, max - second max - 1) as printed (Alg 8 steps 3, 5, 8, 9)."""
    return tests_of_counts(gen_hist(S, gamma, 0), gen_hist(S, gamma, 1))


def tests_of_counts(regular, shifted):
    """(regular mode (1-based), regular dist, shifted mode, shifted dist) of the two partitions' counts."""
    reg_mode, reg_gap = mode_and_gap(regular)
    sh_mode, sh_gap = mode_and_gap(shifted)
    return reg_mode + 1, np.maximum(0, reg_gap - 1), sh_mode + 1, np.maximum(0, sh_gap - 1)


def h_priv(svt: SparseVectorRuns, running, tests, gamma):
    """Alg 8 for the runs in ``running`` on one multiset, with the SHARED state ``svt`` (P14):
    returns (s_hat, Flag), float (n,) each, meaningful on ``running`` only."""
    reg_mode, reg_dist, sh_mode, sh_dist = tests
    top_regular = svt.compare(reg_dist, running)              # steps 2-4 (a bottom re-draws w_hat: step 7)
    second = running & ~top_regular                           # step 7: Flag <- 1
    top_shifted = svt.compare(sh_dist, second)                # steps 8-9 against the NEW w_hat
    s_hat = np.where(top_regular, (2 * reg_mode - 1) * gamma / 2,          # step 5: regular midpoint
                     np.where(top_shifted, sh_mode * gamma, BOTTOM))       # step 9 / step 10
    return s_hat, np.where(top_regular, 0.0, 1.0)


def soft_label_lambda(epsilon, delta, T):
    """Alg 6 step 1: lam = sqrt(64 T log(2/delta))/epsilon."""
    return math.sqrt(64.0 * T * math.log(2.0 / delta)) / epsilon


def soft_label_threshold(lam, m, delta, corrected):
    """Alg 6 step 1: w = lam log(4m/delta) as printed; 2 lam log(4m/delta) corrected (E2)."""
    return (2.0 if corrected else 1.0) * lam * math.log(4.0 * m / delta)


def _soft_predictions(data, name):
    S = np.asarray(data, dtype=float)
    if S.ndim == 1:
        S = S[None, :]
    if S.ndim != 2 or S.shape[1] < 1:
        raise ValueError(f"{name}: data must be soft predictions of shape (m, K), got {S.shape}")
    if not np.all(np.isfinite(S)):
        raise ValueError(f"{name}: soft predictions must be finite")
    return np.clip(S, 0.0, 1.0)


def _queries_batch(data, n, *, rng, epsilon, delta, T, m, gamma, corrected, tests_of=histogram_tests):
    """Alg 6 on ``n`` runs; ``tests_of(S, gamma)``: the four histogram tests (a mutant's may differ)."""
    name = "soft_label_queries_corrected" if corrected else "soft_label_queries"
    T, m = _cutoff(T), declared_queries(m)
    S = _soft_predictions(data, name)
    check_rows(len(S), m, name)
    tests = tests_of(S, gamma)                                         # Alg 8 steps 1-3, 7-8 per query
    lam = soft_label_lambda(epsilon, delta, T)                         # step 1
    svt = new_core(rng, n, lam=lam, w=soft_label_threshold(lam, m, delta, corrected), T=T)  # c <- 0; E3
    out = np.empty((svt.n, len(S), 2))
    out[:] = (NOT_ANSWERED, NO_FLAG)
    for l in range(len(S)):                                            # step 3: for l in [m] while c <= T
        running = svt.running()
        if not running.any():
            break
        s_hat, flag = h_priv(svt, running, tuple(t[l] for t in tests), gamma)   # step 4 (steps 5-7: costs)
        out[running, l, 0] = s_hat[running]                            # step 8: output s_hat (and Flag)
        out[running, l, 1] = flag[running]
    return out


def _batch_printed(data, n, *, rng, epsilon, delta, T, m, gamma):
    return _queries_batch(data, n, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m, gamma=gamma, corrected=False)


@batched(_batch_printed)
def soft_label_queries(data, *, rng, epsilon, delta, T, m, gamma):
    """000 Alg 6 as printed (w = lam log(4m/delta)): float64 (m, 2) rows [s_hat, Flag]."""
    return _batch_printed(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m, gamma=gamma)[0]


def _batch_corrected(data, n, *, rng, epsilon, delta, T, m, gamma):
    return _queries_batch(data, n, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m, gamma=gamma, corrected=True)


@batched(_batch_corrected)
def soft_label_queries_corrected(data, *, rng, epsilon, delta, T, m, gamma):
    """000 Alg 6 with w = 2 lam log(4m/delta) (erratum E2): float64 (m, 2) rows [s_hat, Flag]."""
    return _batch_corrected(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m, gamma=gamma)[0]


def _classifier_batch(data, n, *, rng, gamma, lam, w):
    return classifier_runs(data, n, rng=rng, gamma=gamma, lam=lam, w=w)


def classifier_runs(data, n, *, rng, gamma, lam, w, tests_of=histogram_tests):
    """H_Priv on ``n`` runs with a fresh threshold each; ``tests_of(S, gamma)``: the four histogram tests."""
    S = np.asarray(data, dtype=float).reshape(-1)
    if S.size < 1 or not np.all(np.isfinite(S)):
        raise ValueError("soft_label_classifier: data must be a non-empty finite multiset S of shape (K,)")
    tests = tuple(t[0] for t in tests_of(np.clip(S, 0.0, 1.0)[None, :], gamma))
    svt = new_core(rng, n, lam=lam, w=w, T=np.inf)     # w_hat <- w + Lap(lam) at the start of the call
    s_hat, flag = h_priv(svt, np.ones(svt.n, dtype=bool), tests, gamma)
    return np.stack([s_hat, flag], axis=1)


@batched(_classifier_batch)
def soft_label_classifier(data, *, rng, gamma, lam, w):
    """000 Alg 8 (H_Priv) on one multiset S with a fresh threshold: float64 [s_hat, Flag]."""
    return _classifier_batch(data, 1, rng=rng, gamma=gamma, lam=lam, w=w)[0]


# --------------------------------------------------------------------------- Alg 7


SOFT_LEARNERS = ("sgd_logistic_one_pass", "sgd_logistic_permutation")


def _labelled_dataset(data, k, n_prime):
    if not isinstance(data, dict) or set(data) != {"X", "y"}:
        raise ValueError("soft_label_learner: data must be {'X': (n,), 'y': (n,)}")
    X = np.asarray(data["X"], dtype=float).reshape(-1)
    y = np.asarray(data["y"]).reshape(-1)
    k, n_prime = int(k), int(n_prime)
    if X.size != k * n_prime or y.size != X.size:
        raise ValueError(f"soft_label_learner: need n = k * n_prime = {k * n_prime} records, got {X.size}")
    if not np.all(np.isfinite(X)) or not np.all((y == 0) | (y == 1)):
        raise ValueError("soft_label_learner: X must be finite and y in {0, 1}")
    return X.reshape(k, n_prime), y.reshape(k, n_prime).astype(float)    # step 1: chunk j = slots j n'..(j+1)n'-1


def _learner_batch(data, n, *, rng, k, n_prime, learner, eta, reg, radius):
    if learner not in SOFT_LEARNERS:
        raise ValueError(f"soft_label_learner: learner must be one of {SOFT_LEARNERS}, got {learner!r}")
    Xc, yc = _labelled_dataset(data, k, n_prime)
    n = int(n)
    if learner == "sgd_logistic_one_pass":                   # deterministic: the same models in every run
        w = _learners.sgd_logistic(Xc, yc, eta=eta, reg=reg, radius=radius)
        return np.broadcast_to(w, (n,) + w.shape).copy()
    X = np.broadcast_to(Xc, (n,) + Xc.shape).reshape(-1, Xc.shape[1])   # steps 2-3: h_j <- B(D_j), own coins
    y = np.broadcast_to(yc, (n,) + yc.shape).reshape(-1, yc.shape[1])
    w = _learners.sgd_logistic(X, y, eta=eta, reg=reg, radius=radius, rng=rng)
    return w.reshape(n, Xc.shape[0], 2)


@batched(_learner_batch)
def soft_label_learner(data, *, rng, k, n_prime, learner, eta, reg, radius):
    """000 Alg 7 (A_PrvLearn) on {X, y}: float64 (k, 2) logistic weights (w0, w1) per chunk."""
    return _learner_batch(data, 1, rng=rng, k=k, n_prime=n_prime, learner=learner, eta=eta, reg=reg,
                          radius=radius)[0]


def soft_label_queries_records(X, y, queries, *, rng, epsilon, delta, T, m, gamma, k, n_prime,
                               learner="sgd_logistic_one_pass", eta=0.1, reg=0.01, radius=10.0, corrected=False):
    """Alg 6 end to end (one run): Alg 7's chunk models, their soft labels on the public queries
    (S_l = (h_1(x_l), ..., h_k(x_l))), then A_SL-Quer. Returns only [s_hat, Flag] rows."""
    w = soft_label_learner({"X": X, "y": y}, rng=rng, k=k, n_prime=n_prime, learner=learner, eta=eta,
                           reg=reg, radius=radius)
    S = _learners.predict_logistic(w, np.asarray(queries, dtype=float)).T      # (m, k)
    mechanism = soft_label_queries_corrected if corrected else soft_label_queries
    return mechanism(S, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m, gamma=gamma)
