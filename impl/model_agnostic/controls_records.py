"""Negative controls for the record-level privacy audits of the seed-000 Sec. 4 pipelines
(audits/experiments_records.py): private classification queries (Cor 3.10) and A_Priv (Lemma 2.4
post-processing of Cor 3.10).

Two kinds, as in impl/controls_queries.py:

* pipeline-level: the vote-level mechanism is the reference one, but the record-level pipeline
  it stands for is broken; the control declares it through attributes that the record audits
  read (``audits.experiments_records._record_pipeline``):
  ``chunking = "sorted"`` (trap P1: records are sorted by value before the split, so one added
  record that sorts first shifts every chunk) and ``preprocess = "global_minmax"`` (trap P2:
  features are min-max scaled on the full D before the split, so one outlier moves every chunk's
  classifier). A reference or user implementation without these attributes gets the correct
  pipeline (keyed-hash / positional chunks, no global preprocessing).
* mechanism-level: ``*_noiseless_after_halt`` (trap P8): after the (T+1)-th bottom the mechanism
  releases the noiseless majority vote of every remaining query instead of "not answered".

Never used as implementations of a spec.
"""

from __future__ import annotations

import numpy as np

from ..contract import batched
from .controls_queries import pipeline_control

__all__ = [
    "private_classification_queries_sorted_chunks", "private_classification_queries_global_preprocessing",
    "private_classification_queries_noiseless_after_halt",
    "label_private_learner_sorted_chunks", "label_private_learner_global_preprocessing",
    "label_private_learner_noiseless_after_halt",
]

NOT_ANSWERED = -2


def _pcq():
    from .classification import private_classification_queries
    return private_classification_queries


def _lpl():
    from .classification import label_private_learner
    return label_private_learner


private_classification_queries_sorted_chunks = pipeline_control(
    _pcq, "private_classification_queries_sorted_chunks",
    "Sec. 4.1 mechanism whose pipeline sorts the records by value before splitting (P1).", chunking="sorted")
private_classification_queries_global_preprocessing = pipeline_control(
    _pcq, "private_classification_queries_global_preprocessing",
    "Sec. 4.1 mechanism whose pipeline min-max scales features on the full D before splitting (P2).",
    preprocess="global_minmax")
label_private_learner_sorted_chunks = pipeline_control(
    _lpl, "label_private_learner_sorted_chunks",
    "A_Priv whose pipeline sorts the records by value before splitting (P1).", chunking="sorted")
label_private_learner_global_preprocessing = pipeline_control(
    _lpl, "label_private_learner_global_preprocessing",
    "A_Priv whose pipeline min-max scales features on the full D before splitting (P2).",
    preprocess="global_minmax")


# --------------------------------------------------------------------------- P8


def _noiseless_mode(votes) -> np.ndarray:
    v = np.asarray(votes)
    return np.argmax(v, axis=-1).astype(np.int64)  # ties to the smallest label


def _pcq_noiseless_batch(data, n, *, rng, epsilon, delta, T, m):
    out = np.array(_pcq().batch(data, n, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m))
    mode = _noiseless_mode(data)
    return np.where(out == NOT_ANSWERED, mode[None, :], out)  # BUG: the halted queries get the exact mode


@batched(_pcq_noiseless_batch)
def private_classification_queries_noiseless_after_halt(data, *, rng, epsilon, delta, T, m):
    """Sec. 4.1 mechanism that, once halted, releases the noiseless majority vote (P8)."""
    return _pcq_noiseless_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0]


def _lpl_noiseless_batch(data, n, *, rng, epsilon, delta, T, m):
    from .. import learners
    from .classification import _batch as release
    from .classification import _public_points_and_votes

    x, votes = _public_points_and_votes(data)
    y_hat = np.array(release(votes, n, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m))
    mode = _noiseless_mode(votes)
    y_hat = np.where(y_hat == NOT_ANSWERED, mode[None, :], y_hat)  # BUG: exact mode after the halt
    coin = rng.integers(0, 2, size=y_hat.shape)
    y_hat = np.where(y_hat >= 0, y_hat, coin)
    return learners.threshold_erm(np.broadcast_to(x, y_hat.shape), y_hat)


@batched(_lpl_noiseless_batch)
def label_private_learner_noiseless_after_halt(data, *, rng, epsilon, delta, T, m):
    """A_Priv whose labelling run, once halted, labels the remaining points with the noiseless majority (P8)."""
    return float(_lpl_noiseless_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0])
