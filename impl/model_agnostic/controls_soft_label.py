"""Negative controls for the soft-label checks (seed 000 Sec. 5): deliberately broken variants of
the reference implementations in ``impl.soft_label``, each with exactly one thing broken, each
keeping the contract ``mechanism(data, *, rng, **params)`` and a batch sampler. They are never
implementations of a spec; ``dptestbed verify`` must report every one as violated.

- ``soft_label_queries_corrected_shifted_edge``: Alg 6 (corrected w) whose second test releases the
  left edge (v - 1/2) gamma of the shifted bin instead of its midpoint v gamma (an off-by-half-bin
  bug): every G1 query of Theorem 5.6 gets a wrong answer.
- ``soft_label_classifier_right_edge``: H_Priv releasing the right edge of the regular mode bin,
  v gamma, instead of its midpoint (2v - 1) gamma/2 (off by half a bin): errors reach gamma.
- ``soft_label_learner_flipped_labels``: Alg 7 training B on 1 - y (a label-encoding bug): the
  chunk models estimate P[y = 0 | x], far from E h of the specified learner B.
- ``soft_label_learner_chunk_drift``: Alg 7 whose chunk j is trained with an intercept offset
  depending on j (chunks not trained identically, e.g. a warm start / hyper-parameter that drifts
  with the chunk index): the k models are no longer draws of B(D_hat), so their spread is not
  controlled by the replace-one stability (Steele's inequality and Lemma 5.8 fail).
- ``soft_label_learner_unshuffled``: "permutation" SGD that never shuffles (sigma = identity):
  its replace-one difference at position 1 is no longer the on-average one (SGD theorem).
"""

from __future__ import annotations

import numpy as np

from ..contract import batched
from . import soft_label as _sl

__all__ = ["soft_label_queries_corrected_shifted_edge", "soft_label_classifier_right_edge",
           "soft_label_learner_flipped_labels", "soft_label_learner_chunk_drift", "soft_label_learner_unshuffled"]


def _shift_edge(out, gamma):
    out = np.array(out, dtype=float, copy=True)
    flag1 = (out[..., 1] == 1.0) & (out[..., 0] >= 0)
    out[..., 0] = np.where(flag1, out[..., 0] - gamma / 2, out[..., 0])
    return out


def _queries_shifted_edge_batch(data, n, *, rng, epsilon, delta, T, m, gamma):
    return _shift_edge(_sl._batch_corrected(data, n, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m, gamma=gamma),
                       gamma)


@batched(_queries_shifted_edge_batch)
def soft_label_queries_corrected_shifted_edge(data, *, rng, epsilon, delta, T, m, gamma):
    return _queries_shifted_edge_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m, gamma=gamma)[0]


def _classifier_right_edge_batch(data, n, *, rng, gamma, lam, w):
    out = np.array(_sl._classifier_batch(data, n, rng=rng, gamma=gamma, lam=lam, w=w), dtype=float)
    flag0 = out[:, 1] == 0.0
    out[:, 0] = np.where(flag0, out[:, 0] + gamma / 2, out[:, 0])
    return out


@batched(_classifier_right_edge_batch)
def soft_label_classifier_right_edge(data, *, rng, gamma, lam, w):
    return _classifier_right_edge_batch(data, 1, rng=rng, gamma=gamma, lam=lam, w=w)[0]


def _flipped_batch(data, n, *, rng, k, n_prime, learner, eta, reg, radius):
    flipped = {"X": data["X"], "y": 1 - np.asarray(data["y"])}
    return _sl._learner_batch(flipped, n, rng=rng, k=k, n_prime=n_prime, learner=learner, eta=eta, reg=reg,
                              radius=radius)


@batched(_flipped_batch)
def soft_label_learner_flipped_labels(data, *, rng, k, n_prime, learner, eta, reg, radius):
    return _flipped_batch(data, 1, rng=rng, k=k, n_prime=n_prime, learner=learner, eta=eta, reg=reg,
                          radius=radius)[0]


DRIFT = 1.5  # intercept offsets in [-DRIFT, DRIFT], cycling with the chunk index


def _drift_batch(data, n, *, rng, k, n_prime, learner, eta, reg, radius):
    w = np.array(_sl._learner_batch(data, n, rng=rng, k=k, n_prime=n_prime, learner=learner, eta=eta, reg=reg,
                                    radius=radius), dtype=float)
    offsets = DRIFT * (np.arange(int(k)) % 7 - 3) / 3.0
    w[..., 0] += offsets
    return w


@batched(_drift_batch)
def soft_label_learner_chunk_drift(data, *, rng, k, n_prime, learner, eta, reg, radius):
    return _drift_batch(data, 1, rng=rng, k=k, n_prime=n_prime, learner=learner, eta=eta, reg=reg, radius=radius)[0]


def _unshuffled_batch(data, n, *, rng, k, n_prime, learner, eta, reg, radius):
    return _sl._learner_batch(data, n, rng=rng, k=k, n_prime=n_prime, learner="sgd_logistic_one_pass", eta=eta,
                              reg=reg, radius=radius)


@batched(_unshuffled_batch)
def soft_label_learner_unshuffled(data, *, rng, k, n_prime, learner, eta, reg, radius):
    return _unshuffled_batch(data, 1, rng=rng, k=k, n_prime=n_prime, learner=learner, eta=eta, reg=reg,
                             radius=radius)[0]
