"""Negative controls for the seed-000 Sec. 3-4 theorem checks (online query release,
sub-sample and aggregate, private classification queries, A_Priv).

Each control keeps the contract ``mechanism(data, *, rng, **params)`` with a batch sampler and
breaks exactly one thing. Two kinds:

* mechanism-level: the vote-level / distance-level mechanism itself is broken (halts one
  bottom early, releases the runner-up, trains the final learner on inverted labels);
* pipeline-level: the mechanism is the reference one, but the record-level implementation it
  stands for builds its votes wrongly. Such a control declares its pipeline through attributes
  that the record-level experiments read (``audits.experiments_queries._pipeline``):
  ``chunk_fraction`` (it trains ``ceil(k * chunk_fraction)`` chunks instead of ``ceil(k)``: "too
  little k") and ``chunk_size_fraction`` (each chunk learner sees ``ceil(n' * fraction)`` records,
  so it is not the (alpha, beta/k)-PAC learner the theorem assumes). A reference or user
  implementation without these attributes gets the paper's pipeline.

Never used as implementations of a spec.
"""

from __future__ import annotations

import numpy as np

from ..contract import batched

__all__ = [
    "online_query_release_halts_early",
    "subsample_aggregate_k_over_8", "subsample_aggregate_corrected_k_over_8",
    "private_classification_queries_k_over_64", "private_classification_queries_underfit_learner",
    "private_classification_queries_runner_up",
    "label_private_learner_inverted_labels", "label_private_learner_tiny_chunks",
]

BOTTOM, NOT_ANSWERED = -1, -2


def _oqr():
    from .online_query_release import online_query_release
    return online_query_release


def _sa():
    from .subsample_aggregate import subsample_aggregate
    return subsample_aggregate


def _sa_corrected():
    from .subsample_aggregate import subsample_aggregate_corrected
    return subsample_aggregate_corrected


def _pcq():
    from .classification import private_classification_queries
    return private_classification_queries


def pipeline_control(reference, name, doc, **attributes):
    """The reference mechanism, unchanged, declaring a broken record-level pipeline."""

    def batch(data, n, *, rng, epsilon, delta, T, m):
        return reference().batch(data, n, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)

    @batched(batch)
    def mechanism(data, *, rng, epsilon, delta, T, m):
        return batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0]

    mechanism.__name__ = mechanism.__qualname__ = name
    mechanism.__doc__ = doc
    mechanism.__module__ = __name__
    for key, value in attributes.items():
        setattr(mechanism, key, value)
    return mechanism


# --------------------------------------------------------------------------- A_OQR


def _halts_early_batch(data, n, *, rng, epsilon, delta, T, m):
    out = np.array(_oqr().batch(data, n, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m))
    bottoms = np.cumsum(out == BOTTOM, axis=1)
    after = np.concatenate([np.zeros((out.shape[0], 1), bool), bottoms[:, :-1] >= int(T)], axis=1)
    out[after] = NOT_ANSWERED  # loop 'while c < T': nothing after the T-th bottom
    return out


@batched(_halts_early_batch)
def online_query_release_halts_early(data, *, rng, epsilon, delta, T, m):
    """A_OQR that halts after T bottoms instead of T + 1 (loop ``while c < T``)."""
    return _halts_early_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0]


# --------------------------------------------------------------------------- A_subSamp

subsample_aggregate_k_over_8 = pipeline_control(
    _sa, "subsample_aggregate_k_over_8",
    "Alg 4 whose record-level pipeline trains ceil(k/8) chunks (too little k).", chunk_fraction=1 / 8)
subsample_aggregate_corrected_k_over_8 = pipeline_control(
    _sa_corrected, "subsample_aggregate_corrected_k_over_8",
    "corrected Alg 4 whose record-level pipeline trains ceil(k/8) chunks (too little k).", chunk_fraction=1 / 8)

# --------------------------------------------------------------------------- Sec. 4.1

private_classification_queries_k_over_64 = pipeline_control(
    _pcq, "private_classification_queries_k_over_64",
    "Sec. 4.1 mechanism whose record-level pipeline trains ceil(k/64) chunks (too little k).",
    chunk_fraction=1 / 64)
private_classification_queries_underfit_learner = pipeline_control(
    _pcq, "private_classification_queries_underfit_learner",
    "Sec. 4.1 mechanism whose chunk learners see n'/8 records each: not (alpha, beta/k)-PAC.",
    chunk_size_fraction=1 / 8)


def _runner_up_batch(data, n, *, rng, epsilon, delta, T, m):
    out = np.array(_pcq().batch(data, n, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m))
    counts = np.asarray(data)
    if counts.shape[-1] == 2:
        out = np.where(out >= 0, 1 - out, out)  # releases the minority label
    return out


@batched(_runner_up_batch)
def private_classification_queries_runner_up(data, *, rng, epsilon, delta, T, m):
    """Sec. 4.1 mechanism that releases the runner-up label instead of the mode (binary)."""
    return _runner_up_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0]


# --------------------------------------------------------------------------- A_Priv (Alg 5)


def _inverted_batch(data, n, *, rng, epsilon, delta, T, m):
    from .. import learners
    from .classification import _batch as release
    from .classification import _public_points_and_votes

    x, votes = _public_points_and_votes(data)
    y_hat = release(votes, n, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)
    coin = rng.integers(0, 2, size=y_hat.shape)
    y_hat = np.where(y_hat >= 0, y_hat, coin)
    return learners.threshold_erm(np.broadcast_to(x, y_hat.shape), 1 - y_hat)  # BUG: inverted labels


@batched(_inverted_batch)
def label_private_learner_inverted_labels(data, *, rng, epsilon, delta, T, m):
    """A_Priv whose final ERM is trained on 1 - y_hat (a label-convention bug)."""
    return float(_inverted_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0])


def _lpl():
    from .classification import label_private_learner
    return label_private_learner


label_private_learner_tiny_chunks = pipeline_control(
    _lpl, "label_private_learner_tiny_chunks",
    "A_Priv whose chunk learners see n'/128 records each: not (alpha, beta/k)-PAC.", chunk_size_fraction=1 / 128)
