"""Estimation on fresh samples: each carried candidate's event counted on the test split, in
batches with streams of their own (so that a Dask cluster may count some of them), and its
Clopper-Pearson bounds.

Randomness checked throughout: every batch keeps a digest of its first sampling call's outputs, and
after the counts one batch of the second half (chosen from the audit's seed) has that call drawn
again from the same stream, in a worker process started for it, and the values compared (by dtype,
never by padding bytes: :func:`_digest`); different outputs mean the implementation draws from somewhere other
than ``rng`` after the contract probe (say, global entropy from its 50th call on): an implementation
error, reported before any verdict. An audit of an implementation with its own randomness
(``randomness="own"``) skips it: its draws are not meant to repeat."""

from __future__ import annotations

import hashlib
import time
from functools import partial

import numpy as np

from ..base.stats import cp_lower, cp_upper
from ..sandbox.runner import ImplementationError, call_batch, split_sizes
from .events import Candidate, Event
from .pairs import Pair

REPLAY_STREAM = 0x8E9A7  # the stream choosing the batch drawn again
REPLAY_CALLS = 200  # runs of a single-run function drawn again by the replay (:func:`_replayed`)
TEST_CHUNK_ELEMENTS = 2_000_000  # output values per sampling call of an estimation (16 MB: glibc keeps it in the heap)
ESTIMATE_BATCH = 1 << 20  # runs per side in one estimation batch, the unit an estimation is split into


def estimate_candidates(aud, r: int, chosen: list[Candidate], n: int, alpha_c: float, width: int,
                        replay: bool = True) -> None:
    """Count each candidate's event on ``n`` fresh samples per side of its pair (split 2 of
    round ``r``, never seen by any selection) and set its bounds at level ``alpha_c``.

    The samples are drawn in batches of ESTIMATE_BATCH runs, batch ``b`` from its own stream
    (:func:`estimation_key`), and the counts added; with ``batches`` (a Dask cluster) the
    batches run there and here at once, and the counts are the same wherever a batch ran."""
    test_pairs = sorted({c.pair_index for c in chosen})
    sizes = {i: aud.runs(i, n) for i in test_pairs}  # a slow pair's fewer (rounds.Auditor.runs)
    aud.progress.stage(f"round {r + 1}: estimation", 2 * sum(sizes.values()))
    events = {i: [(c.featurizer, c.event) for c in chosen if c.pair_index == i] for i in test_pairs}
    # the trade-off curve's thresholds on each candidate's scalar view, counted beside (tradeoff.py; no verdict)
    for c in chosen:
        if c.curve_thresholds is not None:
            events[c.pair_index] += [(c.featurizer, Event(c.event.view, "le", threshold=float(t)))
                                     for t in c.curve_thresholds]
    jobs = [(i, side, estimation_key(r, i, side, b), m) for i in test_pairs for side in (0, 1)
            for b, m in enumerate(split_sizes(sizes[i], ESTIMATE_BATCH))]

    def here(k):
        i, side, key, m = jobs[k]
        t0, sampled = time.thread_time(), aud.sampling_cpu_here()
        counts, digest = count_batch(partial(aud.runner.sample, progress=aud.progress.add), aud.pairs[i], side,
                                     aud.seed, key, m, width, events[i], _replayed(aud, width, m))
        # the sampling charged on this thread may be time spent waiting for a sandboxed worker (not this
        # thread's CPU): what is left of this thread's CPU is the counting, never less than nothing
        aud.charge("counting", max(0.0, time.thread_time() - t0 - (aud.sampling_cpu_here() - sampled)))
        return counts, digest, None

    if aud.batches is None or n <= ESTIMATE_BATCH:
        chunk = min(n, max(10_000, TEST_CHUNK_ELEMENTS // max(width, 1))) * max(width, 1)
        done = list(aud.ahead([partial(here, k) for k in range(len(jobs))], chunk))
    else:
        shared = (aud.runner.impl, aud.runner.timeout, aud.runner.isolate, aud.seed, width, aud.pairs, events,
                  _replayed(aud, width, ESTIMATE_BATCH))
        done = aud.batches.map(_count_elsewhere, shared, jobs, here)
    if replay:
        _replay(aud, r, jobs, [digest for _, digest, _ in done], width)
    counts = {i: np.zeros((len(events[i]), 2), dtype=np.int64) for i in test_pairs}
    for (i, side, _, m), (k, _, elsewhere) in zip(jobs, done):
        counts[i][:, side] += k
        if elsewhere is not None:  # sampling seconds on a Dask worker
            aud.remote["batches"] += 1
            aud.remote["runs"] += m
            aud.remote["sampling"] += elsewhere
            aud.progress.add(m)
    for i in test_pairs:
        claim = aud.claims[i]
        mine = [c for c in chosen if c.pair_index == i]
        extra = len(mine)
        for c in mine:
            if c.curve_thresholds is not None:
                c.curve_counts = counts[i][extra:extra + c.curve_thresholds.size].copy()
                extra += c.curve_thresholds.size
        for j, c in enumerate(mine):
            k_num, k_den = (counts[i][j, 0], counts[i][j, 1]) if c.orient == 1 else (counts[i][j, 1], counts[i][j, 0])
            c.k1, c.k2, c.n, c.alpha = int(counts[i][j, 0]), int(counts[i][j, 1]), sizes[i], alpha_c
            c.p_lo = float(cp_lower(k_num, sizes[i], alpha_c / 2))
            c.p_hi = float(cp_upper(k_den, sizes[i], alpha_c / 2))
            c.eps_lb = float(claim.bound(c.p_lo, c.p_hi))


def _replay(aud, r: int, jobs: list, digests: list, width: int) -> None:
    """Draw the first sampling call of one late batch again from its stream, in a worker process of its
    own, and compare (module doc)."""
    late = list(range(len(jobs) // 2, len(jobs)))
    k = late[int(np.random.default_rng([aud.seed, r, REPLAY_STREAM]).integers(len(late)))]
    i, side, key, m = jobs[k]
    pair = aud.pairs[i]
    rng = np.random.default_rng(np.random.SeedSequence(aud.seed, spawn_key=key))
    x = aud.runner.sample_fresh(pair.data if side == 0 else pair.neighbour, _replayed(aud, width, m), rng=rng,
                                params=pair.params)
    if _digest(x) != digests[k]:
        raise ImplementationError(
            f"randomness not from rng, or state kept across calls: estimation batch {k + 1} of {len(jobs)} "
            f"(round {r + 1}), "
            "drawn again from the same rng in a fresh process, gave different outputs: the implementation keeps "
            "state across calls (a cache, a counter: what one call releases then depends on the calls before it) "
            "or draws from another source after the contract probe (run it with --randomness own if it must)")


def _replayed(aud, width: int, m: int) -> int:
    """How many runs of a batch's first sampling call the replay draws again: the whole call for a batch sampler
    (its outputs need not be a prefix of a longer call's); REPLAY_CALLS of a single-run function, whose runs
    are drawn one after another from each block's stream (so the first runs of a call are those of any longer
    one): 10,000 calls at 3.5 ms each on one worker took 35 s of a power round."""
    return min(_chunk(width), m) if aud.runner.batched else min(REPLAY_CALLS, _chunk(width), m)


def _chunk(width: int) -> int:
    return max(10_000, TEST_CHUNK_ELEMENTS // max(width, 1))


def _digest(x: np.ndarray) -> str:
    """A digest of the values of ``x``, its dtype and shape: a floating-point type wider than 8 bytes (np.longdouble)
    by each value's exponent and significand (exact, in parts of 52 bits), never by the bytes that hold
    it, whose padding no computation writes."""
    x = np.ascontiguousarray(x)
    h = hashlib.blake2b(digest_size=16)
    if x.dtype.kind == "f" and x.dtype.itemsize > 8:
        significand, exponent = np.frexp(x)
        h.update(exponent.astype(np.int64).tobytes())
        for _ in range(-(-(np.finfo(x.dtype).nmant + 1) // 52)):
            significand = significand * 2**52
            part = np.floor(significand)
            significand = significand - part
            h.update(part.astype(np.float64).tobytes())
    else:
        h.update(x.data.cast("B"))
    return h.hexdigest() + str(x.dtype) + str(x.shape)


def estimation_key(r: int, i: int, side: int, b: int) -> tuple:
    """The spawn key of estimation batch ``b`` of pair ``i``'s side in round ``r``: batch 0 keeps the
    round's estimation stream (r, i, side, 2), so an estimation of at most ESTIMATE_BATCH runs per
    side draws exactly what it drew before estimations were batched."""
    return (r, i, side, 2) if b == 0 else (r, i, side, 2, b)


def count_batch(sample, pair: Pair, side: int, seed: int, key: tuple, n: int, width: int,
                events: list, digested: int | None = None) -> tuple[np.ndarray, str]:
    """How many of ``n`` runs on the pair's side (0: data, 1: neighbour) fall in each
    ``(featurizer, event)`` of ``events``, and the digest of the first call's first ``digested`` outputs (all
    of them by default; what the replay draws again). ``sample(data,
    m, rng=, params=)`` draws the runs (a :meth:`..sandbox.runner.Runner.sample`), from ``SeedSequence(seed,
    spawn_key=key)``, in chunks of at most TEST_CHUNK_ELEMENTS output values (``width`` per run): the
    same counts wherever it runs."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))
    data = pair.data if side == 0 else pair.neighbour
    chunk = _chunk(width)
    counts = np.zeros(len(events), dtype=np.int64)
    digest = ""
    for start in range(0, n, chunk):
        x = sample(data, min(chunk, n - start), rng=rng, params=pair.params)
        if start == 0:
            digest = _digest(x if digested is None else x[:digested])
        stats: dict = {}  # each view's statistic once a chunk (a trade-off curve counts many thresholds on one)
        for j, (featurizer, event) in enumerate(events):
            key = (id(featurizer), event.view)
            if key not in stats:
                stats[key] = featurizer.stat(event.view, x)
            counts[j] += event.count(stats[key])
    return counts, digest


def _count_elsewhere(shared: tuple, job: tuple):
    """:func:`count_batch` on a Dask worker (runs drawn through :func:`..sandbox.runner.call_batch`, which
    keeps the implementation's workers between batches): ``(counts, sampling seconds)``, or None
    when the implementation fails there (the batch is then computed where the audit runs, which
    reports the failure exactly as a local audit does)."""
    impl, timeout, isolate, seed, width, pairs, events, digested = shared
    i, side, key, n = job
    t0 = time.perf_counter()
    try:
        counts, digest = count_batch(partial(call_batch, impl, timeout=timeout, isolate=isolate), pairs[i], side,
                                     seed, key, n, width, events[i], min(digested, n))
    except ImplementationError:
        return None
    return counts, digest, time.perf_counter() - t0
