"""Private classification queries (seed 000 Sec. 4.1, the classification instantiation of
Algorithm 4; seed 004 Algorithm 2, A_binClas) and the private learner via knowledge transfer
A_Priv (seed 000 Algorithm 5 = 004 Algorithm 3).

Vote-level contracts:
- ``private_classification_queries(data, *, rng, epsilon, delta, T, m)``: ``data`` = vote counts
  (r, L), r <= m, L = 2 (binary) or L > 2 (multi-class, 000 Remark 1); row i = (ct_i(0), ...),
  ct_i(y) = #{j : h_j(x_i) = y} for chunk classifiers h_j = Theta(D_j) (one per chunk, trained
  once). Mode with ties to the smallest label, printed dist = max(0, gap - 1) (Alg 4, erratum E1
  applies), A_OQR with lam = sqrt(32 T log(2/delta))/epsilon, w = 2 lam log(2m/delta). It IS
  ``subsample_aggregate`` (Sec. 4.1 only chooses f_i(D_j) = h_j(x_i)); the number of chunks
  (000's k, :func:`k_000`) enters only the record-level pipeline.
- ``private_classification_queries_conference(...)``: 004 Alg 2, binary only (L = 2 enforced):
  q_hat = argmax_{y in {0,1}} ct(y) (ties to 0), dist = max(0, ct(q_hat) - ct(1 - q_hat) - 1),
  the same A_OQR loop; 004's k = 34 sqrt(2) lam log(4mT/min(delta, beta/2)) = 2 x 000's
  (:func:`k_conference`, record level only). The cutoff T is a parameter the caller chooses
  (the mechanism never computes it): :func:`cutoff_000` is 000 Cor 4.1's, :func:`cutoff_conference`
  004 Thm 3.2's as printed (erratum E4); round them up.
- output of both: int64 array of length r: released label (>= 0), -1 = bottom, -2 = not
  answered; batch (n, r).
- ``label_private_learner(data, *, rng, epsilon, delta, T, m)``: ``data`` = {"x": public points
  (r,), "votes": (r, 2) chunk votes on them}; h_priv labels the points in order with ONE run of
  the Sec. 4.1 mechanism; every bottom AND every not-answered point (after the halt) gets an
  independent fair coin (Alg 5 step 2; P16: never a chunk's vote); then ERM over 1-D thresholds
  on D_tilde = {(x_t, y_hat_t)} (impl.learners.threshold_erm: ties to the smallest t, +inf when
  labelling everything 0 is optimal). Output: float t_hat of h_hat(x) = 1[x >= t_hat]; batch (n,).
  Theta sees only D_tilde (post-processing, Lemma 2.4).

Record-level: :func:`classify_records` (train chunks with impl.learners, votes, one private run)
and :func:`private_learner_records` (A_Priv from records), on the chunking of
:mod:`dptestbed.impl.model_agnostic.subsample_aggregate` (data-independent, one record -> one chunk, P1-P3).
"""

from __future__ import annotations

import math

import numpy as np

from dptestbed.impl import learners as _learners
from dptestbed.impl.contract import batched

from .subsample_aggregate import (
    as_vote_counts,
    dist_printed,
    draw_hash_key,
    k_chunks,
    k_printed,
    vote_counts,
    vote_release,
)

BOTTOM, NOT_ANSWERED = -1, -2


def k_000(epsilon, delta, T, m, beta):
    """000 Alg 4 step 1 (Cor 4.1: 'k as in Algorithm 4'):
    136 log(4mT/min(delta, beta/2)) sqrt(T log(2/delta))/epsilon."""
    return k_printed(epsilon, delta, T, m, beta)


def k_conference(epsilon, delta, T, m, beta):
    """004 Alg 2 step 1 (reconstructed): 34 sqrt(2) lam log(4mT/min(delta, beta/2)) = 2 x k_000."""
    return 2.0 * k_printed(epsilon, delta, T, m, beta)


def cutoff_000(gamma, alpha, m, beta):
    """000 Cor 4.1 (Hoeffding): T = 3((gamma + alpha) m + sqrt(m log(m/beta)/2)) (real; use ceil)."""
    return 3.0 * ((gamma + alpha) * m + math.sqrt(m * math.log(m / beta) / 2.0))


def cutoff_conference(gamma, alpha, m, beta):
    """004 Thm 3.2 as printed (reconstructed; erratum E4, not a valid Chernoff bound):
    T = 3((gamma + alpha) m + sqrt((gamma + alpha) m log(m/beta)/2)) (real; use ceil)."""
    return 3.0 * ((gamma + alpha) * m + math.sqrt((gamma + alpha) * m * math.log(m / beta) / 2.0))


# --------------------------------------------------------------------------- vote level


def _batch(data, n, *, rng, epsilon, delta, T, m):
    counts = as_vote_counts(data, "private_classification_queries")
    return vote_release(counts, n, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m, dist=dist_printed,
                        name="private_classification_queries")


@batched(_batch)
def private_classification_queries(data, *, rng, epsilon, delta, T, m):
    """000 Sec. 4.1 (Alg 4 with f_i(D_j) = h_j(x_i)) on chunk votes: int64, label / -1 / -2."""
    return _batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0]


def _batch_conference(data, n, *, rng, epsilon, delta, T, m):
    counts = as_vote_counts(data, "private_classification_queries_conference", labels=2)  # binary only
    return vote_release(counts, n, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m, dist=dist_printed,
                        name="private_classification_queries_conference")  # steps 8.1-8.6


@batched(_batch_conference)
def private_classification_queries_conference(data, *, rng, epsilon, delta, T, m):
    """004 Alg 2 (A_binClas) on binary chunk votes (r, 2): int64, label 0/1, -1 bottom, -2 not answered."""
    return _batch_conference(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0]


# --------------------------------------------------------------------------- A_Priv (Alg 5)


def _public_points_and_votes(data):
    if not isinstance(data, dict) or set(data) != {"x", "votes"}:
        raise ValueError("label_private_learner: data must be {'x': public points (m,), 'votes': (m, 2)}")
    x = np.asarray(data["x"], dtype=float).reshape(-1)
    votes = as_vote_counts(data["votes"], "label_private_learner", labels=2)
    if len(votes) != x.size or not np.all(np.isfinite(x)):
        raise ValueError("label_private_learner: x must be finite with one point per vote row")
    return x, votes


def _batch_label_private(data, n, *, rng, epsilon, delta, T, m):
    x, votes = _public_points_and_votes(data)
    y_hat = _batch(votes, n, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)  # step 2: h_priv, one run each
    coin = rng.integers(0, 2, size=y_hat.shape)                    # bottom -> independent uniform label
    y_hat = np.where(y_hat >= 0, y_hat, coin)                      # (also the points left after the halt)
    D_tilde = np.broadcast_to(x, y_hat.shape)                      # step 3: D_tilde = {(x_t, y_hat_t)}
    return _learners.threshold_erm(D_tilde, y_hat)                 # step 4: h_hat <- Theta(D_tilde)


@batched(_batch_label_private)
def label_private_learner(data, *, rng, epsilon, delta, T, m):
    """000 Alg 5 (A_Priv) on {x, votes}: the threshold t_hat of h_hat(x) = 1[x >= t_hat] (float)."""
    return float(_batch_label_private(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0])


# --------------------------------------------------------------------------- record level


def classify_records(X, y, queries, *, rng, epsilon, delta, T, m, beta, conference=False,
                     learner="threshold_erm", relation="replace_one", ids=None, n_prime=None):
    """Sec. 4.1 / 004 Alg 2 end to end (one run): k = ceil(k_000) (or ceil(k_conference)) chunks,
    chunk classifiers trained in one vectorised call, their votes on the public queries, then the
    vote-level mechanism. Returns the released labels only."""
    k = k_chunks((k_conference if conference else k_000)(epsilon, delta, T, m, beta))
    key = draw_hash_key(rng) if relation == "add_remove" else None
    counts = vote_counts(X, y, queries, k, learner, relation=relation, ids=ids, key=key, n_prime=n_prime)
    mechanism = private_classification_queries_conference if conference else private_classification_queries
    return mechanism(counts, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)


def private_learner_records(X, y, public_x, *, rng, epsilon, delta, T, beta, learner="threshold_erm",
                            relation="replace_one", ids=None, n_prime=None):
    """000 Alg 5 end to end (one run): chunk votes on the public points (m = |S|), then
    :func:`label_private_learner`."""
    public_x = np.asarray(public_x, dtype=float).reshape(-1)
    m = public_x.size
    k = k_chunks(k_000(epsilon, delta, T, m, beta))
    key = draw_hash_key(rng) if relation == "add_remove" else None
    votes = vote_counts(X, y, public_x, k, learner, relation=relation, ids=ids, key=key, n_prime=n_prime)
    return label_private_learner({"x": public_x, "votes": votes}, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)


__all__ = ["private_classification_queries", "private_classification_queries_conference", "label_private_learner",
           "classify_records", "private_learner_records", "k_000", "k_conference", "cutoff_000", "cutoff_conference"]
