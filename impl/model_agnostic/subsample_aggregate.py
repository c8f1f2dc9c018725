"""Online query release via sub-sample and aggregate, A_subSamp (seed 000, Algorithm 4), as printed
and with the corrected distance (erratum 000-E1); and the record-level pipeline (chunking,
chunk training, votes) shared with the classification instantiation.

Vote-level contract (specs ``subsample_aggregate``, ``subsample_aggregate_corrected``):
``subsample_aggregate(data, *, rng, epsilon, delta, T, m)`` and
``subsample_aggregate_corrected(data, *, rng, epsilon, delta, T, m)``.
- ``data``: vote counts, array of shape (r, L), r <= m rows in query order, L >= 2 labels;
  row i = (ct_i(0), ..., ct_i(L-1)), ct_i(l) = number of chunks whose answer to query i is l.
  Counts are non-negative integers (integer-valued floats accepted) and every row has the same
  sum K (the number of chunks; one record moves at most one vote per row and never changes K).
- mode f_hat_i = argmax_l ct_i(l), ties to the SMALLEST label index (fixed, data-independent,
  P11); gap_i = ct_i(f_hat_i) - max_{l != f_hat_i} ct_i(l) >= 0;
  printed dist = max(0, gap - 1) (Alg 4 step 5; sensitivity 2, E1);
  corrected dist* = max(0, ceil(gap/2) - 1) (the true distance to instability of the vote mode
  under one-vote moves with adversarial ties: sensitivity 1, and 0 whenever one move can change
  the mode).
- then A_OQR (Alg 3) on (f_hat_i, dist_i) with its constants (lam = sqrt(32 T log(2/delta))/
  epsilon, w = 2 lam log(2m/delta)); ``m`` is the declared maximum (more rows are refused, P9).
- output: int64 array of length r: the released mode (label index >= 0), -1 = bottom, -2 = not
  answered (halted after the (T+1)-th bottom); batch: (n, r). Counts, dist, noisy values and
  thresholds are never released (P10).
The number of chunks k does not enter the vote-level mechanism (privacy holds for any fixed K);
it enters the record-level pipeline: :func:`k_printed` (Alg 4 step 1) and :func:`k_corrected`
(004's value 2 x printed, plus 6: the corrected spec's k), rounded up (P21).

Record-level pipeline (P1-P3, P21):
- :func:`chunk_index` assigns records to k chunks by a data-independent rule that places each
  record in exactly one chunk under the neighbouring relation:
  ``replace_one``: fixed slots, chunk j = records j n' .. (j+1) n' - 1 with n' = n // k (n is
  public under replace-one; the last n mod k slots are unused, by slot, never by value);
  ``add_remove``: chunk = keyed hash of the record's id mod k, records ordered inside a chunk by
  the same hash, and a PUBLIC capacity n_prime per chunk (a capacity derived from n would move
  every chunk when n crosses a multiple of k); extra records of a full chunk are dropped (only
  that chunk can change), short chunks are padded with the learner's neutral record.
  Never sorted or split by feature or label values.
- :func:`train_chunks` trains the k chunk learners in one vectorised call (impl.learners);
- :func:`vote_counts` returns the (m, L) vote counts on public queries; :func:`votes_from_answers`
  turns any (k, m) matrix of chunk answers f_i(D_j) into counts (generic discrete queries).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from dptestbed.impl import learners as _learners
from dptestbed.impl.contract import batched

from .online_query_release import check_rows, declared_queries, oqr_lambda, oqr_threshold, release_stream
from .sparse_vector import _cutoff

# --------------------------------------------------------------------------- vote-level


def as_vote_counts(data, name: str = "subsample_aggregate", labels: int | None = None) -> np.ndarray:
    """``data`` as an int64 (r, L) vote matrix, validated (L >= 2, counts >= 0, equal row sums)."""
    x = np.asarray(data, dtype=float)
    if x.ndim == 1:
        x = x[None, :]
    if x.ndim != 2 or x.shape[1] < 2:
        raise ValueError(f"{name}: data must be vote counts of shape (m, L), L >= 2, got {x.shape}")
    if labels is not None and x.shape[1] != labels:
        raise ValueError(f"{name}: expected {labels} labels per row, got {x.shape[1]}")
    if not np.all(np.isfinite(x)) or np.any(x != np.round(x)) or np.any(x < 0):
        raise ValueError(f"{name}: vote counts must be non-negative integers")
    ct = x.astype(np.int64)
    sums = ct.sum(axis=1)
    if sums.size and np.any(sums != sums[0]):
        raise ValueError(f"{name}: every row must sum to the number of chunks K, got sums {np.unique(sums)}")
    return ct


def mode_and_gap(counts: np.ndarray):
    """Alg 4 step 5: mode = argmax ct (ties to the smallest label, P11) and
    gap = ct(mode) - max_{l != mode} ct(l), both int64 of shape counts.shape[:-1]."""
    counts = np.asarray(counts)
    mode = np.argmax(counts, axis=-1)
    top = np.take_along_axis(counts, mode[..., None], axis=-1)[..., 0]
    others = counts.copy()
    np.put_along_axis(others, mode[..., None], np.iinfo(np.int64).min, axis=-1)
    second = others.max(axis=-1) if counts.shape[-1] > 1 else np.zeros_like(top)
    return mode.astype(np.int64), (top - second).astype(np.int64)


def dist_printed(counts) -> np.ndarray:
    """Alg 4 step 5 as printed: max{0, (top - runner-up) - 1} (sensitivity 2; erratum E1)."""
    return np.maximum(0, mode_and_gap(np.asarray(counts, dtype=np.int64))[1] - 1)


def dist_corrected(counts) -> np.ndarray:
    """Erratum E1: dist* = max{0, ceil(gap/2) - 1}; gap 1-2 -> 0, 3-4 -> 1, 5 -> 2."""
    gap = mode_and_gap(np.asarray(counts, dtype=np.int64))[1]
    return np.maximum(0, (gap + 1) // 2 - 1)


def k_printed(epsilon, delta, T, m, beta):
    """Alg 4 step 1: k = 136 log(4mT/min(delta, beta/2)) sqrt(T log(2/delta))/epsilon (real)."""
    return 136.0 * math.log(4.0 * m * T / min(delta, beta / 2.0)) * math.sqrt(T * math.log(2.0 / delta)) / epsilon


def k_corrected(epsilon, delta, T, m, beta):
    """Corrected spec: 004's k (2 x printed = 272 log(...) sqrt(T log(2/delta))/epsilon) + 6."""
    return 2.0 * k_printed(epsilon, delta, T, m, beta) + 6.0


def k_chunks(k) -> int:
    """P21: the number of chunks actually used, k rounded up."""
    return int(math.ceil(k - 1e-9))


def vote_release(counts, n, *, rng, epsilon, delta, T, m, dist, name):
    """Alg 4 steps 3-6 for n runs: modes and distances of the vote rows, then A_OQR."""
    T, m = _cutoff(T), declared_queries(m)
    check_rows(len(counts), m, name)
    mode, _ = mode_and_gap(counts)                                    # step 5: f_hat_i
    lam = oqr_lambda(epsilon, delta, T)                               # step 6: A_OQR(..., T, epsilon, delta)
    return release_stream(mode, dist(counts), n, rng=rng, lam=lam, w=oqr_threshold(lam, m, delta), T=T)


def _batch(data, n, *, rng, epsilon, delta, T, m):
    counts = as_vote_counts(data)
    return vote_release(counts, n, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m, dist=dist_printed,
                        name="subsample_aggregate")


@batched(_batch)
def subsample_aggregate(data, *, rng, epsilon, delta, T, m):
    """Seed 000 Alg 4 as printed (dist = max(0, gap - 1)) on vote counts: int64, mode / -1 / -2."""
    return _batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0]


def _batch_corrected(data, n, *, rng, epsilon, delta, T, m):
    counts = as_vote_counts(data, "subsample_aggregate_corrected")
    return vote_release(counts, n, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m, dist=dist_corrected,
                        name="subsample_aggregate_corrected")


@batched(_batch_corrected)
def subsample_aggregate_corrected(data, *, rng, epsilon, delta, T, m):
    """Seed 000 Alg 4 with dist* = max(0, ceil(gap/2) - 1) (erratum E1): int64, mode / -1 / -2."""
    return _batch_corrected(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)[0]


# --------------------------------------------------------------------------- record-level pipeline


@dataclass(frozen=True)
class ChunkLearner:
    """A non-private learner Theta run once per chunk, vectorised over chunks.

    ``fit(X (k, n'), y (k, n')) -> models``; ``predict(models, x (m,)) -> (k, m)`` labels in
    0..n_labels-1; ``pad``: a record (x, y) whose presence leaves ``fit`` unchanged, used to fill
    short chunks under add/remove (None: the learner has none, short chunks are refused)."""

    fit: Callable[[np.ndarray, np.ndarray], Any]
    predict: Callable[[Any, np.ndarray], np.ndarray]
    n_labels: int = 2
    pad: tuple | None = None


LEARNERS = {
    # (+inf, 1) sorts after every record and is predicted 1 by every finite cut: no effect on ERM
    "threshold_erm": ChunkLearner(_learners.threshold_erm, _learners.predict_threshold, 2, (np.inf, 1)),
    # (+inf, 0) can only lower an interval's score, and no interval needs it: no effect on ERM
    "interval_erm": ChunkLearner(_learners.interval_erm, _learners.predict_interval, 2, (np.inf, 0)),
}

RELATIONS = ("replace_one", "add_remove")
_U = np.uint64


def _mix64(z: np.ndarray) -> np.ndarray:
    """SplitMix64 finaliser on uint64 (wrap-around arithmetic), vectorised."""
    z = z + _U(0x9E3779B97F4A7C15)
    z = (z ^ (z >> _U(30))) * _U(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> _U(27))) * _U(0x94D049BB133111EB)
    return z ^ (z >> _U(31))


def record_hash(ids, key) -> np.ndarray:
    """Keyed hash of record ids (uint64): a function of the id and the key only (P1, P3)."""
    ids = np.asarray(ids)
    if ids.dtype.kind not in "iu":
        raise ValueError("record ids must be integers")
    with np.errstate(over="ignore"):
        return _mix64(_mix64(ids.astype(np.int64).view(np.uint64) ^ _U(int(key) & (2**64 - 1))))


def chunk_index(n, k, *, relation="replace_one", ids=None, key=None, n_prime=None) -> np.ndarray:
    """Record positions of each chunk: int64 (k, n'), -1 for a padding slot.

    ``replace_one``: chunk j holds slots j n' .. (j+1) n' - 1, n' = n // k (or ``n_prime`` if
    given, at most n // k). ``add_remove``: needs unique integer ``ids``, a ``key`` (public,
    data-independent; callers draw it from their rng) and the public capacity ``n_prime``."""
    n, k = int(n), int(k)
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    if relation == "replace_one":
        width = n // k if n_prime is None else int(n_prime)
        if width < 1 or width * k > n:
            raise ValueError(f"replace_one: need 1 <= n' <= n // k = {n // k}, got n' = {width}")
        return np.arange(k * width, dtype=np.int64).reshape(k, width)
    if relation != "add_remove":
        raise ValueError(f"relation must be one of {RELATIONS}, got {relation!r}")
    if ids is None or key is None or n_prime is None:
        raise ValueError("add_remove: chunks need record ids, a hash key and a public capacity n_prime "
                         "(a capacity derived from n would move every chunk; P1)")
    ids = np.asarray(ids)
    if ids.shape != (n,):
        raise ValueError(f"add_remove: need one id per record, got shape {ids.shape}")
    width = int(n_prime)
    h = record_hash(ids, key)
    chunk = (h % _U(k)).astype(np.int64)                               # chunk of a record: its hash mod k
    order = np.lexsort((h, chunk))                                     # by chunk, then by hash (never by value)
    same = np.flatnonzero(h[order][1:] == h[order][:-1])               # equal ids have equal hashes
    if same.size and np.any(ids[order][same] == ids[order][same + 1]):
        raise ValueError("add_remove: record ids must be unique")
    sorted_chunk = chunk[order]
    position = np.arange(n) - np.searchsorted(sorted_chunk, sorted_chunk, side="left")
    keep = position < width                                            # a full chunk drops its last records
    index = np.full((k, width), -1, dtype=np.int64)
    index[sorted_chunk[keep], position[keep]] = order[keep]
    return index


def chunk_data(X, y, index, pad=None):
    """Gather the chunks' records: X (k, n'[, d]) and y (k, n'), padding slots filled with ``pad``."""
    X, y = np.asarray(X), np.asarray(y)
    empty = index < 0
    if empty.any() and pad is None:
        raise ValueError("some chunks are short and the learner has no neutral padding record")
    safe = np.where(empty, 0, index)
    Xc = X[safe].astype(float)
    yc = y[safe].copy()
    if empty.any():
        Xc[empty] = pad[0]
        yc[empty] = pad[1]
    return Xc, yc


def _learner(learner) -> ChunkLearner:
    if isinstance(learner, ChunkLearner):
        return learner
    try:
        return LEARNERS[learner]
    except KeyError:
        raise ValueError(f"unknown learner {learner!r}; known: {sorted(LEARNERS)} or a ChunkLearner") from None


def train_chunks(X, y, k, learner="threshold_erm", *, relation="replace_one", ids=None, key=None, n_prime=None):
    """Alg 4 steps 1-2 (004 Alg 2 steps 6-7): split by :func:`chunk_index`, train the k learners
    in one vectorised call; returns the learner's models (one per chunk)."""
    Theta = _learner(learner)
    X = np.asarray(X)
    index = chunk_index(len(X), k, relation=relation, ids=ids, key=key, n_prime=n_prime)
    Xc, yc = chunk_data(X, y, index, Theta.pad)
    return Theta.fit(Xc, yc)


def votes_from_answers(answers, n_labels: int) -> np.ndarray:
    """Chunk answers f_i(D_j), int (k, m) in 0..L-1 -> vote counts int64 (m, L) (Alg 4 step 4)."""
    a = np.asarray(answers, dtype=np.int64)
    k, m = a.shape
    if a.size and (a.min() < 0 or a.max() >= n_labels):
        raise ValueError(f"chunk answers must lie in 0..{n_labels - 1}")
    flat = (np.arange(m, dtype=np.int64)[None, :] * n_labels + a).ravel()
    return np.bincount(flat, minlength=m * n_labels).reshape(m, n_labels)


def vote_counts(X, y, queries, k, learner="threshold_erm", *, relation="replace_one", ids=None, key=None,
                n_prime=None) -> np.ndarray:
    """Record-level votes: train the k chunk learners and count their labels on each public query;
    int64 (m, L). Not private by itself: feed it to a vote-level mechanism, never release it."""
    Theta = _learner(learner)
    models = train_chunks(X, y, k, Theta, relation=relation, ids=ids, key=key, n_prime=n_prime)
    return votes_from_answers(Theta.predict(models, np.asarray(queries, dtype=float)), Theta.n_labels)


def draw_hash_key(rng: np.random.Generator) -> int:
    """The hash key of the add/remove split, drawn from the mechanism's rng (data-independent)."""
    return int(rng.integers(0, 2**63 - 1))


def subsample_aggregate_records(X, y, queries, *, rng, epsilon, delta, T, m, beta, corrected=False,
                                learner="threshold_erm", relation="replace_one", ids=None, n_prime=None):
    """Alg 4 end to end on records (one run): k = ceil(k_printed) (or ceil(k_corrected)) chunks,
    votes of the chunk learners on the public queries, then the vote-level mechanism."""
    k = k_chunks((k_corrected if corrected else k_printed)(epsilon, delta, T, m, beta))
    key = draw_hash_key(rng) if relation == "add_remove" else None
    counts = vote_counts(X, y, queries, k, learner, relation=relation, ids=ids, key=key, n_prime=n_prime)
    mechanism = subsample_aggregate_corrected if corrected else subsample_aggregate
    return mechanism(counts, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)
