"""Pipeline controls of the record-level privacy audits of the seed-000 Sec. 4 pipelines
(audits/model_agnostic/records.py): private classification queries (Cor 3.10) and A_Priv (Lemma 2.4
post-processing of Cor 3.10). Not implementation mutants (see controls_queries.py).

The vote-level mechanism is the reference one, but the record-level pipeline it stands for is
broken; the control declares it through attributes that the record audits read
(``audits.model_agnostic.records._record_pipeline``):
``chunking = "sorted"`` (trap P1: records are sorted by value before the split, so one added
record that sorts first shifts every chunk) and ``preprocess = "global_minmax"`` (trap P2:
features are min-max scaled on the full D before the split, so one outlier moves every chunk's
classifier). A reference or user implementation without these attributes gets the correct
pipeline (keyed-hash / positional chunks, no global preprocessing).
The implementation-level bug of trap P8 (the noiseless majority released after the halt) is a
mutant (``mutants.py``), not a control here.

Never used as implementations of a spec.
"""

from __future__ import annotations

from .controls_queries import pipeline_control

__all__ = [
    "private_classification_queries_sorted_chunks", "private_classification_queries_global_preprocessing",
    "label_private_learner_sorted_chunks", "label_private_learner_global_preprocessing",
]


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
