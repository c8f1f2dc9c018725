"""The contract probe: before any statistics, an implementation's first outputs show where its
randomness comes from and whether they have the spec's encoding.

``probe_contract(runner, data, params)`` runs on the runner's own workers. With ``randomness="rng"`` (the
default) two runs from generators of one seed must agree, the second in a worker process started for it
(every random number comes from ``rng``, not from what a process remembers); with
``"own"`` (:data:`.runner.RANDOMNESS`) :func:`probe_independence` checks the opposite, that draws from
different workers and tasks never repeat. Against a reference implementation, the outputs must have its
shape and, where its outputs are integers, integer values.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from .contract_checks import ImplementationError, type_code
from .runner import RANDOMNESS, Runner, call_batch

__all__ = ["probe_contract", "probe_history", "probe_independence", "probe_types", "PROBE_SEED", "PROBE_RUNS",
           "REPEAT_LEVEL"]

PROBE_SEED = 0x5EED  # the contract probe's own stream (never the audit's, so verdicts do not move)
PROBE_RUNS = 16
REPEAT_LEVEL = 1e-9  # the independence probe's false-alarm rate per comparison (a repeat of independent draws)
REPEAT_MAX_RUNS = 2000  # the most runs per draw the independence probe takes to tell low-entropy outputs apart


def probe_contract(runner: Runner, data: Any, params: dict, *, reference: Callable | str | None = None,
                   randomness: str = "rng") -> np.ndarray:
    """Raise :class:`ImplementationError` ("contract violation: ...") when the implementation that
    ``runner`` runs (on its own workers) breaks the contract on ``data``: with ``randomness="rng"``, two
    runs from generators with the same seed differ (its randomness does not come from ``rng``); with
    ``"own"``, its draws repeat one another (:func:`probe_independence` on the runner's
    :meth:`Runner.draw_each`, where the runner runs); and in both modes, its
    outputs do not have the encoding of the spec's ``reference`` outputs (shape; integer values where
    the reference's are). Returns the probe's outputs."""
    if randomness not in RANDOMNESS:
        raise ValueError(f"randomness {randomness!r}: choose one of {', '.join(RANDOMNESS)}")
    if randomness == "own":
        runs = [probe_independence(lambda n, rng: runner.draw_each(data, n, rng=rng, params=params),
                                   where=runner.where)]
    else:
        runs = [draw(data, PROBE_RUNS, rng=np.random.default_rng(PROBE_SEED), params=params)
                for draw in (runner.sample, runner.sample_fresh)]
        if runs[0].shape != runs[1].shape or not np.array_equal(runs[0], runs[1], equal_nan=True):
            raise ImplementationError(
                "contract violation: randomness not from rng: two runs with generators of the same seed, in two "
                "processes, gave different outputs (draw every random number from the rng argument, not from "
                "np.random, random or "
                "the OS; or audit it as it is with --randomness own, randomness=\"own\" in the pytest plugin)")
    if reference is None:
        return runs[0]
    expected = call_batch(reference, data, PROBE_RUNS, rng=np.random.default_rng(PROBE_SEED), params=params,
                          timeout=runner.timeout, isolate=None)
    got = runs[0]
    if got.shape[1:] != expected.shape[1:]:
        raise ImplementationError(
            f"output does not match the spec's encoding: each output should have shape {expected.shape[1:]} "
            f"(dtype {expected.dtype}) like the reference implementation's, got shape {got.shape[1:]} (dtype {got.dtype})")
    if expected.dtype.kind in "biu" and not np.array_equal(got, np.round(got)):
        raise ImplementationError(
            f"output does not match the spec's encoding: the spec's outputs are integers ({expected.dtype}), "
            f"got non-integer values such as {got[got != np.round(got)].ravel()[0]!r}")
    return got


TYPE_RUNS = 200  # calls a side of the type probe, at most
TYPE_FIRST = 5  # ... the first of them, timed: the rest only as many as fit in TYPE_SECONDS
TYPE_SECONDS = 3.0
TYPE_LEVEL = 1e-9  # ... its false-alarm level per (value, type) (a type drawn at random alike on both inputs)


def probe_types(runner: Runner, data: Any, neighbour: Any, params: dict, runs: int = TYPE_RUNS) -> None:
    """Raise :class:`ImplementationError` when the type of the single-run function's output tells two neighbouring
    inputs apart where its value does not: over ``runs`` calls on each (TYPE_FIRST, then as many more as fit in
    TYPE_SECONDS at their pace), one value returned with a type on one
    input and never with it on the other, where a type that has nothing to do with the input would have fallen
    that way with probability below TYPE_LEVEL (hypergeometric, given how often each input gave the value). A
    flipped bit returned as ``1.0 - bit`` is the int 1 from [1] and the float 1.0 from [0] (infinite loss); a
    type that follows the value (an int 0 from ``max(0, x)``) or is drawn at random whatever the input passes.
    Inputs of two types of their own (an int array beside a float one) are not compared; sandboxed code only."""
    if type_code(data) != type_code(neighbour):
        return
    rng = np.random.default_rng(PROBE_SEED)
    t0 = time.perf_counter()
    first = min(runs, TYPE_FIRST)
    a, b = (runner.typed(x, first, rng=rng, params=params) for x in (data, neighbour))
    if a is None or b is None or a.shape[1:] != b.shape[1:]:
        return
    per_call = (time.perf_counter() - t0) / (2 * first)
    more = min(runs - first, int(TYPE_SECONDS / max(2 * per_call, 1e-9)))
    if more > 0:
        a2, b2 = (runner.typed(x, more, rng=rng, params=params) for x in (data, neighbour))
        if a2 is None or b2 is None or a2.shape[1:] != a.shape[1:] or b2.shape[1:] != b.shape[1:]:
            return
        a, b = np.concatenate([a, a2]), np.concatenate([b, b2])
    runs = a.shape[0]
    rows: np.ndarray = np.concatenate([a, b])
    side = np.repeat([0, 1], [a.shape[0], b.shape[0]])
    values, value = np.unique(rows[:, :-1], axis=0, return_inverse=True)
    kinds, kind = np.unique(rows[:, -1], return_inverse=True)
    if kinds.size < 2:
        return
    counts = np.zeros((values.shape[0], kinds.size, 2), dtype=np.int64)
    np.add.at(counts, (value.ravel(), kind.ravel(), side), 1)
    per_value = counts.sum(axis=1)
    for v, t, one in np.argwhere(counts > 0):
        if counts[v, t, 1 - one]:
            continue
        k, n_one, n_other = int(counts[v, t, one]), int(per_value[v, one]), int(per_value[v, 1 - one])
        if n_other and _log_choose(n_one, k) - _log_choose(n_one + n_other, k) < math.log(TYPE_LEVEL):
            shown = ", ".join(f"{x:g}" for x in values[v][:4])
            raise ImplementationError(
                f"contract violation: the type of an output carries information its value does not: over {runs} "
                f"calls on each input of a neighbouring pair, the output [{shown}] came back {k} times with a type "
                f"on one input and {n_other} times, never with that type, on the other (an int on one, a float or a "
                "bool on the other); return one type")


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def probe_independence(draw_each: Callable[[int, np.random.Generator], list], *, where: str = "sandboxed") -> np.ndarray:
    """The contract probe of an implementation with its own randomness: ``draw_each(n, rng)`` (a
    :meth:`Runner.draw_each`) twice, and no two of the draws may repeat one another (each task has
    its own rng seed, so an implementation that uses ``rng`` passes). Identical draws are an
    :class:`ImplementationError` only when independent draws would repeat with probability at most
    :data:`REPEAT_LEVEL`: a sequence of ``m`` runs whose empirical law has collision probability
    ``q`` has probability at most ``q^m`` (the Renyi entropy bounds the Shannon one), so its repeat
    at most that. Draws too short to tell are drawn again, longer, from fresh streams (up to
    :data:`REPEAT_MAX_RUNS` runs); outputs constant over that many runs tell nothing (a deterministic
    mechanism is the audit's business). ``where`` the draws run: "sandboxed", "forked" (workers), "in-process" (the
    reason names it). Returns the first draw."""
    rng = np.random.default_rng(PROBE_SEED)
    n, draws = PROBE_RUNS, draw_each(PROBE_RUNS, rng) + draw_each(PROBE_RUNS, rng)
    first = draws[0]
    for attempt in range(4):
        if attempt:
            draws = draw_each(n, rng) + draw_each(n, rng)
        k = len(draws) // 2  # draws[i] and draws[i + k]: one worker, successive tasks; draws[i], draws[j < k]: two workers
        repeat = next(((i, j) for i in range(len(draws)) for j in range(i + 1, len(draws))
                       if draws[i].shape == draws[j].shape and np.array_equal(draws[i], draws[j], equal_nan=True)), None)
        if repeat is None:
            return first
        x = draws[repeat[0]]
        _, counts = np.unique(x.reshape(len(x), -1), axis=0, return_counts=True)
        q = float(np.sum((counts / len(x)) ** 2))
        if q < 1.0 and len(x) * math.log(q) <= math.log(REPEAT_LEVEL):
            i, j = repeat
            across = where != "in-process" and j != i + k
            place = ("two successive draws in this process" if where == "in-process"
                     else "two worker processes" if across else "two successive tasks of one worker")
            hint = (" The workers are forks of this process, which copy a generator a library created at import: give "
                    "the implementation as a reference string 'path/to/file.py:function' (fresh interpreters)."
                    if where == "forked" and across else "")
            raise ImplementationError(
                f"contract violation: randomness repeats: {place} drew the same {len(x):,} outputs from different rng "
                "seeds: the implementation's own randomness starts from the same state (a constant seed, a seed from "
                "the clock) or is re-seeded with a constant; --randomness own needs fresh randomness in every process "
                "(OS entropy, or the global numpy and random generators, which every worker seeds from OS entropy)."
                + hint)
        if n >= REPEAT_MAX_RUNS:
            return first  # (nearly) constant outputs: nothing to tell
        # fresh, longer draws: as many runs as the repeat of this law needs (a constant short draw: the most)
        n = min(REPEAT_MAX_RUNS, int(math.ceil(math.log(REPEAT_LEVEL) / math.log(q) * 1.2)) if q < 1.0 else REPEAT_MAX_RUNS)
    return first


HISTORY_RUNS = 8  # runs drawn on each input at its point after the calls at other points, and in a fresh process
HISTORY_POINTS = 8  # other points, at most (one a parameter)
HISTORY_GROUPS = 3  # audited points compared, at most (each in two worker processes of its own)
HISTORY_INPUTS = 6  # inputs drawn at one point (outputs that change only near a threshold: some input sits near it)
HISTORY_SECONDS = 10.0  # ... or as many groups as fit in this many seconds


def probe_history(runner: Runner, cases: list[tuple[Any, dict, list[tuple[str, dict]]]]) -> None:
    """Raise :class:`ImplementationError` when what the implementation releases at a point depends on the
    parameters of the calls it served before in its process (a calibration cached under some of the parameters,
    whichever call came first; a value kept from the first call). ``cases``: ``(data, params, others)``, ``others``
    the point ``params`` with one parameter moved, ``(name, point)``; cases at one point are drawn together. For
    each point, a worker process serves one run at each other point and then HISTORY_RUNS on each input at the
    point itself; a worker process of its own draws those alone; they must agree. A point the implementation
    refuses (raises at) is left out; sandboxed code only (a fresh process is what makes the comparison)."""
    if not runner.isolate or not cases:
        return
    groups: dict[str, list] = {}
    for data, params, others in cases:
        groups.setdefault(repr(sorted(params.items())), []).append((data, params, others))
    t0 = time.perf_counter()
    for g, group in enumerate(list(groups.values())[:HISTORY_GROUPS]):
        if g and time.perf_counter() - t0 > HISTORY_SECONDS:
            return
        group = group[:HISTORY_INPUTS]
        data0, params, others = group[0]
        streams = [np.random.default_rng([PROBE_SEED, g, k]) for k in range(len(group))]
        with Runner(runner.impl, timeout=runner.timeout, workers=1, isolate=True) as warm:
            moved = []
            for j, (name, point) in enumerate(others[:HISTORY_POINTS]):
                try:
                    warm.sample(data0, 1, rng=np.random.default_rng([PROBE_SEED, g, 1000 + j]), params=point)
                    moved.append(name)
                except ImplementationError:
                    continue  # a point it refuses: nothing served there
            warm_runs = [_runs_or_none(warm, data, rng, params) for (data, _, _), rng in zip(group, streams)]
            runner.charge(warm.cpu_seconds)
        if not moved:
            continue
        streams = [np.random.default_rng([PROBE_SEED, g, k]) for k in range(len(group))]
        with Runner(runner.impl, timeout=runner.timeout, workers=1, isolate=True) as fresh:
            for (data, _, _), rng, x in zip(group, streams, warm_runs):
                y = _runs_or_none(fresh, data, rng, params)
                if x is None or y is None:
                    continue  # an input it refuses at the point (the audit leaves out pairs it refuses)
                if x.shape != y.shape or not np.array_equal(x, y, equal_nan=True):
                    raise ImplementationError(
                        f"randomness not from rng, or state kept across calls: {HISTORY_RUNS} runs at an audited "
                        f"point, drawn after one call at each of the points with one parameter moved ({', '.join(moved)}),"
                        " differ from the same runs drawn in a fresh process (what a call releases must not depend on "
                        "the calls before it: a calibration cached under some of the parameters, a value kept from the "
                        "first call, a counter)")
            runner.charge(fresh.cpu_seconds)


def _runs_or_none(runner: Runner, data: Any, rng: np.random.Generator, params: dict) -> np.ndarray | None:
    try:
        return runner.sample(data, HISTORY_RUNS, rng=rng, params=params)
    except ImplementationError:
        return None
