"""Consecutive calls of the function users call are independent: a user's code calls ``fn`` again and again with one
generator, and every call must be a fresh release; an implementation that pairs a call with the one before it
(antithetic noise, ``-z`` after ``z``; a draw reused on the next call; a counter that shifts the next output) may
give each call exactly the spec's law, so that no audit of single calls sees anything, while two releases together
leak (their sum is the sum of the exact answers).

Method (:func:`check_serial`). SERIAL_RUNS consecutive calls of ``fn`` on the first pair's data side (the runs of a
per-call sample come one after another from one generator a block, :mod:`..sandbox.runner`), reduced to scalars
(the first output value and the sum of a run's values); the statistic is the largest absolute correlation of their
ranks at lags 1 to SERIAL_LAGS (a call paired with the next one, or with the one two or four calls on). Under
independent calls the runs are exchangeable, so the statistic is compared with its values on B random orderings of
the same runs (B about 10 / level, within SERIAL_PERMUTATIONS): a permutation test, exact at any law of the outputs
(discrete, atoms, ties), with p-value (1 + #{permuted >= observed}) / (1 + B), stopped early once SERIAL_STOP
orderings reach the observed value (:func:`serial_p_value`).

Level. The check's share of the audit's alpha (SERIAL_ALPHA_SHARE) is set aside for every implementation but the
spec's reference (a user's, a mutant, a library's) and split (Bonferroni) over its statistics. It runs before the
first round (every round's confidence rests on independent runs); dependence found is an implementation error
naming the statistic and the correlation. A constant output is independent and passes here (the rounds flag it)."""

from __future__ import annotations

import numpy as np

from ..sandbox.runner import ImplementationError
from .rounds import Auditor

SERIAL_ALPHA_SHARE = 0.05  # of the audit's alpha, set aside before the first round
SERIAL_RUNS = 2_000  # consecutive calls on the first pair's data side
SERIAL_MIN_RUNS = 400  # ... under a time budget: as many as fit in SERIAL_MAX_SECONDS at the measured pace, at least
SERIAL_MAX_SECONDS = 5.0
SERIAL_PERMUTATIONS = (4_999, 49_999)  # random orderings the statistic is compared with: 10 / level, within these
SERIAL_LAGS = 8  # the statistic is the largest lag correlation over lags 1..8 (a call paired with the one two after it)
SERIAL_STOP = 10  # orderings at or above the observed statistic after which the test stops (serial_p_value)
SERIAL_KEY = 0x5E41  # the check's stream: SeedSequence(seed, spawn_key=(SERIAL_KEY,)); its permutations (SERIAL_KEY, 1)


def _ranks(x: np.ndarray) -> np.ndarray:
    """Mid-ranks of ``x`` (ties share their mean rank), centred and scaled to unit norm (zeros when x is constant)."""
    order = np.argsort(x, kind="stable")
    xs = x[order]
    starts = np.flatnonzero(np.concatenate([[True], xs[1:] != xs[:-1]]))
    ends = np.append(starts[1:], xs.size)
    mid = (starts + ends - 1) / 2.0
    r = np.empty(x.size)
    r[order] = np.repeat(mid, ends - starts)
    r -= r.mean()
    norm = np.linalg.norm(r)
    return r / norm if norm > 0 else r


def lag(r: np.ndarray, k: int) -> np.ndarray:
    """The lag-``k`` correlation of each row of ``r`` (rows centred, unit norm): sum of r_t r_(t+k)."""
    return np.einsum("...i,...i->...", r[..., :-k], r[..., k:])


def largest_lag(r: np.ndarray) -> np.ndarray:
    """The lag correlation of largest size of each row of ``r`` over the lags 1..SERIAL_LAGS (its sign kept)."""
    lags = np.stack([lag(r, k) for k in range(1, SERIAL_LAGS + 1)], axis=-1)
    return np.take_along_axis(lags, np.abs(lags).argmax(axis=-1)[..., None], axis=-1)[..., 0]


def its_lag(x: np.ndarray) -> int:
    """The lag (1..SERIAL_LAGS) at which the sequence ``x``'s rank correlation is largest in size."""
    r = _ranks(np.asarray(x, dtype=float))
    return 1 + int(np.argmax([abs(float(lag(r, k))) for k in range(1, SERIAL_LAGS + 1)]))


def serial_p_value(x: np.ndarray, rng: np.random.Generator, permutations: int,
                   level: float = 0.0) -> tuple[float, float]:
    """``(largest lag rank correlation, permutation p-value of its absolute value on up to ``permutations`` orderings)`` of
    the sequence ``x`` (module doc); ``(0, 1)`` for a constant sequence.

    Sequential (Besag and Clifford 1991): the orderings stop once ``h`` of them reach the observed value, with
    p-value h / l after l orderings (valid at every level); ``h`` is the least count at which h / permutations is
    above ``level``, at least 10, so stopping early never rejects where the full test would not, and a
    correlation far from significance (every correct implementation's) costs a few hundred orderings, not
    ``permutations``. Otherwise ``(1 + exceedances) / (1 + permutations)``."""
    r = _ranks(np.asarray(x, dtype=float))
    if not r.any():
        return 0.0, 1.0
    observed = float(largest_lag(r))
    h = max(SERIAL_STOP, int(np.floor(level * permutations)) + 1)
    exceed = 0
    for start in range(0, permutations, 500):
        k = min(500, permutations - start)
        shuffled = rng.permuted(np.broadcast_to(r, (k, r.size)), axis=1)
        hits = np.abs(largest_lag(shuffled)) >= abs(observed) - 1e-12
        if exceed + int(hits.sum()) >= h:
            seen = start + 1 + int(np.flatnonzero(np.cumsum(hits) + exceed >= h)[0])
            return observed, h / seen
        exceed += int(hits.sum())
    return observed, (1 + exceed) / (1 + permutations)


def check_serial(aud: Auditor, alpha: float, pace: float | None = None) -> dict:
    """Test that consecutive calls of ``fn`` are independent (module doc) at level ``alpha``; raise
    :class:`ImplementationError` when they are shown dependent. Returns the check's record. ``pace`` (an audit under
    a time budget: seconds a call): as many calls as fit in SERIAL_MAX_SECONDS, at least SERIAL_MIN_RUNS."""
    pair = aud.pairs[0]
    seed = np.random.SeedSequence(aud.seed, spawn_key=(SERIAL_KEY,))
    n = SERIAL_RUNS if pace is None else int(min(SERIAL_RUNS, max(SERIAL_MIN_RUNS, SERIAL_MAX_SECONDS / max(pace, 1e-9))))
    runs = aud.runner.sample(pair.data, n, rng=np.random.default_rng(seed), params=pair.params, per_call=True)
    flat = runs.reshape(runs.shape[0], -1).astype(float)
    stats = {"the first output value": flat[:, 0]}
    if flat.shape[1] > 1:
        with np.errstate(invalid="ignore", over="ignore"):
            stats["the sum of a run's output values"] = flat.sum(axis=1)
    level = alpha / len(stats)
    permutations = int(np.clip(np.ceil(10 / level) - 1, *SERIAL_PERMUTATIONS))
    perm_rng = np.random.default_rng(np.random.SeedSequence(aud.seed, spawn_key=(SERIAL_KEY, 1)))
    record = {"alpha": alpha, "runs": int(runs.shape[0]), "statistics": len(stats), "permutations": permutations,
              "worst_p": 1.0, "correlation": 0.0}
    for name, x in stats.items():
        corr, p = serial_p_value(np.nan_to_num(x, nan=np.inf), perm_rng, permutations, level)
        if p < record["worst_p"]:
            record["worst_p"], record["correlation"] = p, corr
        if p <= level:
            raise ImplementationError(
                f"consecutive calls depend on each other: on pair {pair.name} (the data side), {runs.shape[0]:,} "
                f"calls in a row with one generator give {name} a rank correlation of {corr:.3g} between calls "
                f"{its_lag(np.nan_to_num(x, nan=np.inf))} apart (permutation "
                f"p = {p:.2g} <= level {level:.2g}; independent calls give about 0 +- {2 / np.sqrt(runs.shape[0]):.2g}):"
                f" the function keeps state from one call to the next (every call must be a fresh release, its "
                f"randomness drawn from the rng it is given)")
    return record
