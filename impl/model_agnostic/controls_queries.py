"""Pipeline controls of the seed-000 Sec. 3-4 record-level checks (sub-sample and aggregate,
private classification queries, A_Priv). They are NOT implementation mutants (those are in
``mutants.py``): the mechanism is the unchanged reference, and only the record-level pipeline
the testbed builds around it is declared broken, so they show the power of a check against a
mis-built pipeline, never against a wrong implementation.

A pipeline control keeps the contract ``mechanism(data, *, rng, **params)`` with a batch sampler
and declares what the record-level implementation it stands for builds wrongly. Such a control declares its pipeline through attributes
  that the record-level experiments read (``audits.experiments_queries._pipeline``):
  ``chunk_fraction`` (it trains ``ceil(k * chunk_fraction)`` chunks instead of ``ceil(k)``: "too
  little k") and ``chunk_size_fraction`` (each chunk learner sees ``ceil(n' * fraction)`` records,
  so it is not the (alpha, beta/k)-PAC learner the theorem assumes). A reference or user
  implementation without these attributes gets the paper's pipeline.

Never used as implementations of a spec.
"""

from __future__ import annotations

from dptestbed.impl.contract import batched

__all__ = [
    "subsample_aggregate_k_over_8", "subsample_aggregate_corrected_k_over_8",
    "private_classification_queries_k_over_64", "private_classification_queries_underfit_learner",
    "label_private_learner_tiny_chunks",
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


def _lpl():
    from .classification import label_private_learner
    return label_private_learner


label_private_learner_tiny_chunks = pipeline_control(
    _lpl, "label_private_learner_tiny_chunks",
    "A_Priv whose chunk learners see n'/128 records each: not (alpha, beta/k)-PAC.", chunk_size_fraction=1 / 128)
