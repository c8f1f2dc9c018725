"""One round of an audit: the pair search (a pilot sample per pair), selection of candidate
events on the training split, and the choice of at most K_MAX candidates to estimate
(:class:`Auditor`)."""

from __future__ import annotations

import itertools
import math
import operator
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor, wait
from functools import partial

import numpy as np

from dptestbed.spec import Spec

from ..base.serialize import jsonable
from ..base.stats import best_predicted, bonferroni, cp_lower, cp_upper
from ..sandbox.runner import Runner
from .claims import Claim
from .estimation import estimate_candidates
from .events import Candidate, view_events, view_groups
from .pairs import Pair
from .pairs import claim as pair_claim
from .progress import ProgressBar
from .tradeoff import curve_thresholds
from .views import Featurizer, small_int_counts, weighted_counts

K_MAX = 3
KEEP_PAIRS = 2
SHORT_PAIR_LIST = 4  # up to this many pairs every pair is audited (a pilot can drop the only leaking one)
ONE_SIDED_LEVEL = 0.05  # the pair search keeps a pair whose pilot has an output seen on one side only at this level
ONE_SIDED_RUNS = 10  # ... or, when none has, those with an output seen this often on one side only (its forecast)
FORECAST_PAIRS = 3  # ... the strongest this many, drawn again CONFIRM_GROWTH times larger (Auditor._confirm_zero)
CONFIRM_GROWTH = 8
RARE_RUNS = 40  # a pair built around a rare output (Auditor.rare_runs) draws a pilot that shows it this often
PILOT_PAIRS = 16  # the pair search's first level costs what 16 pairs' pilots did, however many pairs there are
PILOT_GROWTH = 3  # each level of the pair search keeps a third of the pairs and triples their runs
CONTENDERS = 9  # a batch sampler's later round searches again among this many of the last pair search's best
MAX_TRAIN_ELEMENTS = 15_000_000   # rows x output size per side on the training split
PREFETCH_ELEMENTS = 20_000_000  # output values drawn ahead (on a thread) while the selection runs
RANK_SHRINK = 0.16   # one-sided level of the shrunk rank-half estimates (about one sigma)
# a single-run function's pairs whose runs cost much more than the typical pair's (a domain read from the data:
# an item id moved to 10^6 made a histogram's run take 30 ms against 50 us, and its first round alone 80 minutes)
# draw, in each phase of a round, only what fits in PAIR_PHASE_SECONDS (the pilot's levels PILOT_PHASE_SECONDS),
# never fewer than MIN_PAIR_RUNS a side: a leak that makes a pair slow is often large (a far id released with
# probability 0.26) and shows on a few hundred runs; the cost is measured on COST_RUNS runs a side, COST_REPEATS
# times; a pair is slow from SLOW_RUN_SECONDS a run on (below it every phase of a first round fits in a minute)
SLOW_PAIR = 20.0
SLOW_RUN_SECONDS = 1e-3
PAIR_PHASE_SECONDS = 15.0
PILOT_PHASE_SECONDS = 5.0
MIN_PAIR_RUNS = 200
COST_RUNS = 4
COST_REPEATS = 3
COST_STREAM = 0xC057


def _counts(x1: np.ndarray, x2: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """How often each distinct integer output row occurs on either side, or None when an output is not integer."""
    if x1.dtype.kind not in "iub" or x2.dtype.kind not in "iub" or not len(x1) or not len(x2):
        return None
    codes = _row_codes(np.concatenate([x1.reshape(len(x1), -1), x2.reshape(len(x2), -1)]))
    size = int(codes.max()) + 1
    return np.bincount(codes[:len(x1)], minlength=size), np.bincount(codes[len(x1):], minlength=size)


def one_sided_evidence(x1: np.ndarray, x2: np.ndarray, claim: Claim, at: int | None = None) -> float:
    """How strongly a pair's pilot runs show an output on one side only, for integer outputs under an (epsilon,
    delta) claim: for each output row seen k times on one side and never on the other, the other side's expected
    count were the claim true, (k / n - delta) e^-epsilon n; the largest, kept when a count of 0 at it has
    probability below ONE_SIDED_LEVEL over the distinct rows seen (Bonferroni), else 0. Continuous outputs and
    other claims: 0 (their tails are one-sided by chance). ``at``: the same forecast for ``at`` runs a side, of rows
    seen at least ONE_SIDED_RUNS times (were the zero structural, a round of that size would show it): under a large
    epsilon no pilot can tell a zero from e^-epsilon (0.017 against 0 at epsilon 4: 0.6 expected at 2,000 runs)."""
    counts = _counts(x1, x2) if claim.kind == "dp" else None
    if counts is None:
        return 0.0
    k1, k2 = counts
    distinct = int(np.count_nonzero(k1 + k2))
    best = 0.0
    for mine, other, n_mine, n_other in ((k1, k2, len(x1), len(x2)), (k2, k1, len(x2), len(x1))):
        only = mine[other == 0]
        if at is not None:
            only, n_other = only[only >= ONE_SIDED_RUNS], at
        if only.size:
            best = max(best, max(int(only.max()) / n_mine - claim.delta, 0.0) * math.exp(-claim.value) * n_other)
    return best if best > math.log(distinct / ONE_SIDED_LEVEL) else 0.0


def one_sided_count(x1: np.ndarray, x2: np.ndarray) -> int:
    """The most runs of one integer output row seen on one side and never on the other (0 for other outputs)."""
    counts = _counts(x1, x2)
    if counts is None:
        return 0
    k1, k2 = counts
    return int(max(k1[k2 == 0].max(initial=0), k2[k1 == 0].max(initial=0)))


def _row_codes(rows: np.ndarray) -> np.ndarray:
    """A code per row of the 2-D integer array ``rows``, the same for equal rows only, from 0 to at most a few times
    the number of rows: ``np.unique(axis=0)`` sorts rows as records (300 of 370 s of an audit of vote rows, the pair
    search's pilots at a million runs). Rows whose columns' ranges multiply to little are their own code (mixed
    radix, exact); to less than 2^62, that code's index among the distinct ones (``np.unique`` sorts integers: 15
    times faster); others the index of their row, sorted with the columns as keys (4 times faster)."""
    rows = rows.astype(np.uint8) if rows.dtype.kind == "b" else rows
    lo = rows.min(axis=0)
    spans = [int(h) - int(low) + 1 for h, low in zip(rows.max(axis=0), lo)]
    total = math.prod(spans)
    if total < 2 ** 62:  # (rows - lo lies in [0, span) per column: exact in int64)
        radix = np.array([1, *itertools.accumulate(spans[:-1], operator.mul)], dtype=np.int64)
        packed = (rows - lo).astype(np.int64) @ radix
        if total <= 4 * len(rows) + 1024:
            return packed
        return np.unique(packed, return_inverse=True)[1].reshape(-1)
    order = np.lexsort(rows.T[::-1])
    ranked = rows[order]
    new = np.ones(len(rows), dtype=bool)
    new[1:] = np.any(ranked[1:] != ranked[:-1], axis=1)
    codes = np.empty(len(rows), dtype=np.int64)
    codes[order] = np.cumsum(new) - 1
    return codes


def _same_event(a: Candidate, b: Candidate) -> bool:
    """The two candidates count the same event (of the same view's featurizer) on the same pair, in the same
    orientation."""
    e, f = a.event, b.event
    if a.featurizer is not b.featurizer or (e.values is None) != (f.values is None):
        return False
    return ((a.pair_index, a.orient, e.view, e.kind, e.threshold) == (b.pair_index, b.orient, f.view, f.kind, f.threshold)
            and (e.values is None or np.array_equal(e.values, f.values)))


class Auditor:
    def __init__(self, spec: Spec, pairs: list[Pair], runner: Runner, seed: int, progress: ProgressBar, batches=None,
                 replay: bool = True):
        self.spec, self.pairs, self.runner, self.seed = spec, pairs, runner, seed
        self.replay = replay  # the replay check of randomness (estimation.py); off for an implementation's own
        self.progress, self.batches = progress, batches
        self.remote = {"batches": 0, "runs": 0, "sampling": 0.0}  # estimation batches run on a Dask worker
        self.events_tried = 0
        self.cpu = {"selection": 0.0, "counting": 0.0}  # CPU seconds, all threads
        self._main = threading.get_ident()
        self.main_cpu = 0.0  # of those, spent on the auditing thread
        self._lock = threading.Lock()
        self.width = 0          # output size per run (known after the first draw)
        self.claims = [pair_claim(spec, p.env) for p in pairs]
        self._threads: ThreadPoolExecutor | None = None
        self.contenders: list[int] = []  # the last pair search's kept pairs and next best (CONTENDERS in all)
        self.cost: dict[int, float] = {}  # wall seconds a run of each pair (a side's mean), when measured
        self.one_sided_far: set[int] = set()  # the pair search's pair at the largest claim for a one-sided output
        self.one_sided_zero: set[int] = set()  # ... and its pair whose pilot shows an output on one side only
        self.typical_cost = 0.0           # ... their median

    def rng(self, r: int, i: int, side: int, split: int) -> np.random.Generator:
        return np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(r, i, side, split)))

    def draw(self, r, i, side, split, n):
        pair = self.pairs[i]
        data = pair.data if side == 0 else pair.neighbour
        return self.runner.sample(data, n, rng=self.rng(r, i, side, split), params=pair.params,
                                  progress=self.progress.add)

    def ahead(self, jobs: list, elements: int):
        """The results of ``jobs`` (callables without arguments), in order. With a thread-safe
        runner, the next ones run on the auditor's threads (one per runner worker) while the caller
        waits for the current one: as many as hold PREFETCH_ELEMENTS output values (``elements``
        per job), and at least one per thread when one job holds no more than that; the results
        are the same either way (every draw has its own stream)."""
        depth = PREFETCH_ELEMENTS // max(elements, 1) if self.runner.threadsafe else 0
        pool = self._pool() if depth and len(jobs) > 1 else None
        pending: deque = deque()
        try:
            for k in range(len(jobs)):
                while pool is not None and len(pending) < max(depth, self.runner.n_workers) and k + len(pending) < len(jobs):
                    pending.append(pool.submit(jobs[k + len(pending)]))
                yield pending.popleft().result() if pending else jobs[k]()
        finally:  # left early (an error): the jobs not started are dropped, the running ones finish
            for f in pending:
                f.cancel()
            wait(pending)

    def _pool(self) -> ThreadPoolExecutor:
        """The auditor's job threads, one per runner worker (started once per audit: a thread
        start costs milliseconds)."""
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.runner.n_workers, thread_name_prefix="dptestbed-ahead")
        return self._threads

    def close(self) -> None:
        if self._threads is not None:
            self._threads.shutdown(cancel_futures=True)
            self._threads = None

    def charge(self, phase: str, seconds: float) -> None:
        """Adds CPU seconds to a phase of :attr:`cpu` (from any thread)."""
        with self._lock:
            self.cpu[phase] = self.cpu.get(phase, 0.0) + seconds
            if threading.get_ident() == self._main:
                self.main_cpu += seconds

    def sampling_cpu_here(self) -> float:
        """The runner's sampling CPU seconds so far on the calling thread."""
        return self.runner.cpu_by_thread.get(threading.get_ident(), 0.0)

    def draw_pair(self, r: int, i: int, split: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        return self.draw(r, i, 0, split, n), self.draw(r, i, 1, split, n)

    def measure_costs(self) -> None:
        """Each pair's cost a run, for :meth:`runs`: COST_RUNS runs a side, COST_REPEATS times (streams of their
        own, not used by the audit), each side's least time a run (a busy machine's pause in one task does not
        make a pair slow), the two sides' mean."""
        seconds: list[float] = []
        self.runner.sample_many([(p.neighbour if side else p.data, COST_RUNS,
                                  np.random.default_rng([self.seed, COST_STREAM, i, side, k]), p.params)
                                 for i, p in enumerate(self.pairs) for side in (0, 1) for k in range(COST_REPEATS)],
                                seconds=seconds)
        least = np.asarray(seconds).reshape(len(self.pairs), 2, COST_REPEATS).min(axis=2) / COST_RUNS
        self.cost = {i: float(least[i].mean()) for i in range(len(self.pairs))}
        self.typical_cost = float(np.median(least.mean(axis=1)))

    def slow(self, i: int) -> bool:
        """Pair i's runs cost more than SLOW_PAIR times the typical pair's and SLOW_RUN_SECONDS (measured)."""
        return i in self.cost and self.cost[i] > max(SLOW_PAIR * self.typical_cost, SLOW_RUN_SECONDS)

    def runs(self, i: int, n: int, seconds: float = PAIR_PHASE_SECONDS) -> int:
        """The runs a side pair i draws in a phase that draws ``n`` for the others: all of them, unless the pair
        is slow (:meth:`slow`), then what fits in ``seconds`` on the runner's workers (at least MIN_PAIR_RUNS)."""
        if not self.slow(i):
            return n
        fits = int(seconds * self.runner.n_workers / (2 * self.cost[i]))
        return int(min(n, max(MIN_PAIR_RUNS, fits)))

    def rare_runs(self, i: int, n_train: int) -> int:
        """The pilot runs a side pair i needs to show an output of the rarity it was built for (``extra["rare"]``: the
        spec's probability of an output that a shortcut would remove on one side, records.margins) RARE_RUNS times,
        at most ``n_train``; 0 for a pair without one."""
        rare = self.pairs[i].extra.get("rare")
        return int(min(n_train, math.ceil(RARE_RUNS / rare))) if rare else 0

    def add_pairs(self, pairs: list[Pair]) -> None:
        """Pairs found during the audit (the line search's, linesearch.py) join the pairs and their claims."""
        self.pairs.extend(pairs)
        self.claims.extend(pair_claim(self.spec, p.env) for p in pairs)

    def pair_search(self, r: int, alive: list[int], n_pilot: int, n_train: int, score_n: int, alpha_pred: float,
                    keep_pairs: int, fixed_score_n: int | None = None):
        """Successive halving over the pairs: every pair's pilot sample of ``n_pilot`` runs a side ranks it;
        the best third (at least ``keep_pairs``) gets PILOT_GROWTH times the runs (fresh ones added) and is
        ranked again, until ``keep_pairs`` remain or the next level would pass ``n_train``. Events are scored
        for twice a level's runs (at most ``score_n``; the last level for ``score_n``, the size they will be
        estimated on): a level's estimates cannot tell losses beyond what its size resolves, the next level's can;
        the best stress case is kept beside the ``keep_pairs`` best (``fixed_score_n``: scored for that size at every level, a tight
        round's: its rare events must win the pair search too). Returns ``(kept, their pilot samples, each
        pair's last score)``."""
        samples: dict[int, tuple] = {}
        scores: dict[int, float] = {}
        one_sided: dict[int, float] = {}  # each pair's one_sided_evidence on its latest pilot runs
        forecast: dict[int, float] = {}  # ... and its forecast for the round's estimation size
        only: dict[int, int] = {}  # ... and its one_sided_count
        n, level = n_pilot, 0
        while True:
            self.progress.stage(f"round {r + 1}: pair search", 2 * n * len(alive))
            want = {i: self.runs(i, max(n, self.rare_runs(i, n_train) if not level else 0), PILOT_PHASE_SECONDS)
                    for i in alive}
            todo = [i for i in alive if samples.get(i, (np.empty(0),))[0].shape[0] < want[i]]
            drawn = self.runner.sample_many([
                (self.pairs[i].neighbour if side else self.pairs[i].data,
                 want[i] - (samples[i][0].shape[0] if i in samples else 0), self.rng(r, i, side, 0 if not level else 10 + level),
                 self.pairs[i].params) for i in todo for side in (0, 1)], progress=self.progress.add)
            for j, i in enumerate(todo):
                x1, x2 = drawn[2 * j], drawn[2 * j + 1]
                samples[i] = (x1, x2) if i not in samples else tuple(np.concatenate([a, b]) for a, b in
                                                                      zip(samples[i], (x1, x2)))
                self.width = max(self.width, int(np.prod(x1.shape[1:])))
            last = len(alive) <= keep_pairs or PILOT_GROWTH * n > n_train
            for i in alive:  # the last level scores for the estimation's own size: a rare event's pair wins there
                cands = self.select(i, *samples[i], fixed_score_n or (score_n if last else min(score_n, 2 * n)),
                                    alpha_pred, pilot=True)
                scores[i] = max((self.margin(c, c.rank_score) for c in cands), default=-np.inf)
                one_sided[i] = one_sided_evidence(*samples[i], self.claims[i])
                forecast[i] = one_sided_evidence(*samples[i], self.claims[i], at=score_n)
                only[i] = one_sided_count(*samples[i])
            order = self.rank(alive, scores)
            if last:  # the best pairs, and the spec's best stress case beside them (where the spec's algorithm
                kept = order[:keep_pairs]  # leaks: a rare event, a delta-event of probability 1e-3, has no
                # candidate in a small pilot and ranks low; by its last score, with the runs it had)
                kept += [i for i in self.rank(list(scores), scores)
                         if self.pairs[i].source == "stress" and i not in kept][:1]
                # and the pair whose pilot shows an output on one side only most strongly (a structural zero: a
                # support the neighbour lacks, which a small pilot's shrunk estimate cannot score: a threshold
                # capped at 20 in distance to instability, 3.4e-3 against 0 at epsilon 0.25)
                zero = max((i for i in one_sided if i not in kept and one_sided[i] > 0), key=lambda i: one_sided[i],
                           default=None)
                if zero is None:  # none shown at the pilot's size: the strongest forecasts, drawn again larger
                    zero = self._confirm_zero(r, [i for i in sorted(forecast, key=lambda i: -forecast[i])
                                                  if i not in kept and forecast[i] > 0][:FORECAST_PAIRS],
                                              samples, n_train, level)
                kept += [] if zero is None else [zero]
                self.one_sided_zero = set() if zero is None else {zero}
                # and the best pair at the parameter point of the largest claim, when it is larger than the audit
                # point's: a small pilot cannot resolve a loss near a large epsilon (a regime the implementation
                # switches on there, Gaussian noise from epsilon 6 on, needs the full round's runs to show)
                kept += self._largest_claim_pairs(scores, only, kept, math.log(score_n / 3))
                self.contenders = kept + [i for i in self.rank(list(scores), scores) if i not in kept][
                    :max(CONTENDERS - len(kept), 0)]
                return kept, {i: samples[i] for i in kept}, scores
            alive = order[:max(keep_pairs, -(-len(alive) // PILOT_GROWTH))]
            n, level = PILOT_GROWTH * n, level + 1

    def _confirm_zero(self, r: int, forecast: list[int], samples: dict, n_train: int, level: int) -> int | None:
        """Of the pairs whose pilot forecasts a structural zero (an output on one side only, seen ONE_SIDED_RUNS
        times or more, that a round of the estimation's size would show above the claim), the one whose
        one-sided output stands at CONFIRM_GROWTH times the pilot's runs (at most ``n_train``), or None: under a large
        epsilon no pilot tells a zero from a rate the claim allows (a soft majority whose coin is drawn on a grid of
        1/1000 never answers 0 past a probability of 0.999: 0.017 against 0 at epsilon 4, 0.6 expected on 2,000
        runs; another pair's 0.018 against 0.001 looks the same there). The added runs stay pilot runs (the pair's
        training may use them; its estimation never does)."""
        if not forecast:
            return None
        want = {i: self.runs(i, min(n_train, CONFIRM_GROWTH * samples[i][0].shape[0]), PILOT_PHASE_SECONDS)
                for i in forecast}
        todo = [i for i in forecast if want[i] > samples[i][0].shape[0]]
        drawn = self.runner.sample_many([
            (self.pairs[i].neighbour if side else self.pairs[i].data, want[i] - samples[i][0].shape[0],
             self.rng(r, i, side, 30 + level), self.pairs[i].params) for i in todo for side in (0, 1)],
            progress=self.progress.add)
        for j, i in enumerate(todo):
            samples[i] = tuple(np.concatenate([a, b]) for a, b in zip(samples[i], (drawn[2 * j], drawn[2 * j + 1])))
        evidence = {i: one_sided_evidence(*samples[i], self.claims[i]) for i in forecast}
        return max((i for i in forecast if evidence[i] > 0), key=lambda i: evidence[i], default=None)

    def _largest_claim_pairs(self, scores: dict[int, float], only: dict[int, int], kept: list[int],
                             showable: float) -> list[int]:
        """The best-scored pair at the parameter point whose (epsilon, delta) claim is the largest below ``showable``
        (about the largest epsilon the round's estimation size can show, ln(n / 3)), if that claim is above every claim at the
        audit's own point and no kept pair has it, and the pair there with the most runs of an output its neighbour never
        showed (``only``; kept or not, the best-scored or not: its event is estimated, :attr:`one_sided_far`): under a large epsilon a pilot cannot tell a structural zero from
        e^-epsilon (a distance to instability answering without noise from Gamma + 10/epsilon on: at epsilon 8,
        bottom w.p. 0.058 on [0, 2] and never on [0, 3], where the spec's law is e^8 times rarer; the best-scored
        pair there is another). ``[]``, ``[index]`` or ``[index, index]``."""
        own = [self.claims[i].value for i in scores if self.pairs[i].source != "parameter"]
        far = [i for i in scores if self.pairs[i].source == "parameter" and self.claims[i].kind == "dp"
               and self.claims[i].value < showable]
        if not own or not far:
            return []
        top = max(self.claims[i].value for i in far)
        if top <= max(own):
            return []
        there = [i for i in far if self.claims[i].value == top]
        # (a pair kept at that point on its score does not replace the one-sided pair: that one goes beside it, and its
        # event is estimated, kept already, the best-scored one or neither)
        out = [] if any(self.claims[i].value == top for i in kept) else [max(there, key=lambda i: scores[i])]
        zero = max((i for i in there if only.get(i, 0) > 0), key=lambda i: only[i], default=None)
        if zero is not None:
            self.one_sided_far = {zero}
            out += [] if zero in kept or zero in out else [zero]
        return out

    def train_pair(self, r: int, i: int, n: int, pilot: tuple | None, score_n: int, alpha_pred: float):
        """Pair i's training runs (its pilot runs and fresh ones) and their candidates: ``(width, candidates)``."""
        n, score_n = self.runs(i, n), self.runs(i, score_n)
        have = pilot[0].shape[0] if pilot else 0
        fresh = self.draw_pair(r, i, 1, n - have) if n > have else (None, None)
        t0 = time.thread_time()
        parts = [x if x0 is None else (x0 if x is None else np.concatenate([x0, x]))
                 for x0, x in zip(pilot or (None, None), fresh)]
        self.runner.charge(time.thread_time() - t0)  # assembling runs: sampling
        return int(np.prod(parts[0].shape[1:])), self.select(i, parts[0], parts[1], score_n, alpha_pred)

    # selection on training data ------------------------------------------------------
    def select(self, i, x1, x2, n_test, alpha_pred, pilot=False, claim: Claim | None = None):
        """Candidates for pair i from training outputs (select half / rank half). ``pilot``: only
        ranks the pair, without the per-coordinate views of continuous columns, the naive-Bayes
        score, and, when the integer parts of the rows repeat, the integer-only views other than
        the row (unions of rows ordered by likelihood ratio are the most powerful events on any
        function of the row); the training selection of a kept pair has all views. ``claim``: the
        claim events are scored against (default: pair i's)."""
        t0 = time.thread_time()
        try:
            return self._select(i, x1, x2, n_test, alpha_pred, pilot, self.claims[i] if claim is None else claim)
        finally:
            self.charge("selection", time.thread_time() - t0)

    def _select(self, i, x1, x2, n_test, alpha_pred, pilot, claim):
        h1, h2 = x1.shape[0] // 2, x2.shape[0] // 2
        s1, r1, s2, r2 = x1[:h1], x1[h1:], x2[:h2], x2[h2:]
        pair = self.pairs[i]
        feat = Featurizer(s1, s2, learned=not pilot, inputs=(pair.data, pair.neighbour))
        grouped = feat.grouped
        searches = []
        for view in feat.views:
            if pilot and view != "row" and (view.startswith("coord[") or (grouped is not None and feat.int_only(view))):
                continue  # the pilot's views: the row's likelihood-ratio unions hold every integer-only view's events
            discrete = True if view in ("row", "rowbin") else None
            if grouped is not None and feat.int_only(view):  # once per distinct row, counted with weights
                counted = weighted_counts(feat.stat(view, grouped[0]), grouped[1], grouped[2])
                searches.append(view_groups(None, None, view, discrete, counted))
            else:
                searches.append(view_groups(feat.stat(view, s1), feat.stat(view, s2), view, discrete, None))
        # every view's groups scored in one call
        scored = best_predicted([g for search in searches for g in search.groups], n_test, claim, alpha_pred,
                                n_est=min(h1, h2))
        best: dict = {}
        start = 0
        for search in searches:
            found, tried = view_events(search, scored[start:start + len(search.groups)], n_test, claim, alpha_pred)
            start += len(search.groups)
            with self._lock:
                self.events_tried += tried
            for orient, family, event, pred in found:
                key = (search.view, orient, family)
                if key not in best or pred > best[key].select_score:
                    best[key] = Candidate(i, orient, family, event, feat, pred)
        cands = list(best.values())
        # the rank half: each candidate's event counted on runs its selection never saw
        cache: dict = {}
        ranked = feat.group(r1, r2) if grouped is not None else None
        counts = []
        for c in cands:
            view = c.event.view
            if view not in cache:
                a = b = None
                if ranked is not None and feat.int_only(view):
                    counted = weighted_counts(feat.stat(view, ranked[0]), ranked[1], ranked[2])
                else:
                    a, b = feat.stat(view, r1), feat.stat(view, r2)
                    counted = small_int_counts(a, b)  # an integer view: counts per value, once
                cache[view] = (a, b) + ((counted[0], counted[1]), (counted[0], counted[2])) if counted else (a, b, None, None)
            a, b, ca, cb = cache[view]
            k1, k2 = c.event.count(a, ca), c.event.count(b, cb)
            counts.append(((k1, r1.shape[0]), (k2, r2.shape[0]))[:: c.orient])
        if not pilot:  # scalar views: thresholds at the rank half's quantiles, for the trade-off curve (tradeoff.py)
            thresholds: dict = {}  # once a view (its candidates of either orientation share them)
            for c in cands:
                a, b = cache[c.event.view][:2]
                if a is not None and a.dtype.kind in "iuf" and c.event.kind in ("ge", "le"):
                    if c.event.view not in thresholds:
                        thresholds[c.event.view] = curve_thresholds(np.concatenate([a, b]))
                    c.curve_thresholds = thresholds[c.event.view]
        if cands:
            (k_num, n_num), (k_den, n_den) = (np.array(x, dtype=float).T for x in zip(*counts))
            # honest but shrunk estimates: one-sigma Clopper-Pearson bounds on the rank half, so a
            # winner among many noisy small-count events does not look better than it is
            scores = claim.predicted(cp_lower(k_num, n_num, RANK_SHRINK), cp_upper(k_den, n_den, RANK_SHRINK),
                                     n_test, alpha_pred)
            for c, score, kn, nn, kd, nd in zip(cands, np.atleast_1d(scores), k_num, n_num, k_den, n_den):
                c.rank_score = float(score)
                c.rank_p = (float(kn / nn), float(kd / nd))
        return cands

    def margin(self, c: Candidate, score: float) -> float:
        return score - self.claims[c.pair_index].value

    def rank(self, pairs: list[int], margins: dict) -> list[int]:
        """The pair search's order of ``pairs``: the best by fraction of its claim, then the best by margin
        over its claim, then the rest by fraction (then margin). Pairs at different claims (parameter points,
        audit points): by margin alone, a pair with nothing to show at a small claim (bound 0, margin -0.5 at
        epsilon 0.5) would outrank a leaking pair at a larger one whose pilot bound, capped by the pilot's
        size on a structural zero, stays under its claim (6.8 against 8: one query noise per run in A_OQR,
        measured above the claim at full size)."""
        fraction = {i: self.fraction(i, margins[i]) for i in pairs}
        order = sorted(pairs, key=lambda i: (-fraction[i], -margins[i], i))
        ranked = order[:1]
        home = [i for i in order if self.pairs[i].source != "parameter"]
        if home and home[0] not in ranked:  # the audit point's own best pair: its power is the verdict's
            ranked.append(home[0])
        # (a pair whose pilot shows nothing, bound 0, is no competitor by margin: at epsilon 0.5 its margin -0.5
        # would take the slot from the second-best leaking pair at epsilon 8)
        by_margin = sorted((i for i in order if i not in ranked and fraction[i] > 0), key=lambda i: (-margins[i], i))
        if by_margin and np.isfinite(margins[by_margin[0]]):
            ranked.append(by_margin[0])
        return ranked + [i for i in order if i not in ranked]

    def at_point(self, cands: list[Candidate]) -> list[Candidate]:
        """The candidates on pairs at the audit's own parameter point (all of them when none is): the verdict's
        power and, without a violation, its reported bound are theirs; the pairs moved to other parameter
        points (moves.parameter_points) only ever add a violation."""
        home = [c for c in cands if self.pairs[c.pair_index].source != "parameter"]
        return home or cands

    def fraction(self, i: int, margin: float) -> float:
        """A score ``margin`` over pair i's claim as a fraction of the claim (the margin itself at a zero claim)."""
        claim = self.claims[i].value
        return (margin + claim) / claim if claim > 0 else margin

    def relative(self, c: Candidate, score: float) -> float:
        """Candidate c's ``score`` (a bound) as a fraction of its pair's claim: how candidates at different
        claims are compared."""
        return self.fraction(c.pair_index, self.margin(c, score))

    def choose(self, cands: list[Candidate]) -> list[Candidate]:
        """The best candidate (by fraction of its pair's claim), the best at the audit's own parameter point
        when the best is not (:meth:`at_point`), and close competitors of other (pair, orientation)s: at most
        K_MAX; and the best of the spec's stress cases when none of those is one, and the best of the pair kept at
        the largest claim for a one-sided output, and the best of the pair kept for its structural zero (at most
        K_MAX + 3)."""
        cands = [c for c in cands if np.isfinite(c.rank_score)]
        if not cands:
            return []

        def fraction(c):
            return self.relative(c, c.rank_score)

        cands.sort(key=fraction, reverse=True)
        best = cands[0]
        chosen = [best] + [c for c in self.at_point(cands)[:1] if c is not best]
        seen = {(c.pair_index, c.orient) for c in chosen}
        floor = fraction(best) - 0.1 * max(abs(fraction(best)), 0.1)  # close competitors: within a tenth
        for c in cands[1:]:
            if len(chosen) >= K_MAX:
                break
            if (c.pair_index, c.orient) in seen:
                continue
            if fraction(c) >= floor:
                chosen.append(c)
                seen.add((c.pair_index, c.orient))
        # and the best event of the spec's stress cases (where the spec's algorithm leaks): a rare event's
        # shrunk rank estimate (its zero count taken at its one-sigma bound) understates it against common ones
        stress = [c for c in cands if self.pairs[c.pair_index].source == "stress"]
        if stress and not any(self.pairs[c.pair_index].source == "stress" for c in chosen):
            chosen.append(stress[0])
        # and the best event of the pair kept at the largest claim for an output its neighbour never showed
        # (:meth:`_largest_claim_pairs`): its zero count bounds little on this round, against a claim of 8, and
        # may show the claim broken on the next (which runs when any chosen event predicts so)
        far = [c for c in cands if c.pair_index in self.one_sided_far]
        if far and not any(c.pair_index in self.one_sided_far for c in chosen):
            chosen.append(far[0])
        # and the best event of the pair kept for its structural zero: a rare one-sided output (a rival's 2e-4
        # against never) ranks below common events on the shrunk estimate, and its pair was kept to be estimated
        zero = [c for c in cands if c.pair_index in self.one_sided_zero]
        if zero and not any(c.pair_index in self.one_sided_zero for c in chosen):
            chosen.append(zero[0])
        return chosen

    # estimation on fresh samples ----------------------------------------------------
    # one round -------------------------------------------------------------------------
    def run_round(self, r: int, N: int, alpha_round: float, kept: list[int] | None, *,
                  score_n: int | None = None, keep_pairs: int = KEEP_PAIRS, estimate: bool = True,
                  at_point: bool = False, carried: list[Candidate] | None = None, contenders: list[int] | None = None):
        """Selection on N // 3 samples per side, estimation of the chosen candidates on the rest.
        ``score_n``: the estimation size events are scored for (default: the round's own);
        ``estimate=False``: stop after choosing (the candidates carry rank-half estimates only);
        ``at_point``: the pair search among the pairs at the audit's own parameter point only;
        ``carried``: events fixed by an earlier round (the one this round was sized to give power), estimated
        beside the chosen ones on the same fresh samples (in the Bonferroni count): a selection on more samples
        can prefer a weaker event; ``contenders`` (with ``kept`` None): the pairs the pair search runs among (a
        later round's, on its larger pilot: the last one's best pairs, whose order a small pilot could not settle)."""
        n_train = max(N // 3, 200)
        n_test = max(N - n_train, 200)
        pilot_score_n = score_n  # a tight round's size: its rare events must win the pair search too
        score_n = score_n or n_test
        alpha_pred = alpha_round / K_MAX
        info = {"round": r + 1, "samples_per_side": n_train + n_test, "train": n_train, "test": n_test,
                "alpha": alpha_round}
        pilot: dict[int, tuple] = {}
        if not self.width:  # a two-run probe: learns the output size, surfaces broken code early
            probe = self.runner.sample(self.pairs[0].data, 2, rng=self.rng(r, 0, 0, 9), params=self.pairs[0].params)
            self.width = max(1, int(np.prod(probe.shape[1:])))
        if kept is None:
            kept = contenders or [i for i, p in enumerate(self.pairs) if not at_point or p.source != "parameter"]
            if len(kept) > SHORT_PAIR_LIST:
                # the pilot's first level costs what PILOT_PAIRS pairs' did, however many pairs there are
                n_pilot = int(min(n_train, max(N // 20 * PILOT_PAIRS // max(len(contenders or self.pairs),
                                                                             PILOT_PAIRS), 2000)))
                kept, pilot, scores = self.pair_search(r, kept, n_pilot, n_train, score_n, alpha_pred, keep_pairs,
                                                       fixed_score_n=pilot_score_n)
                info["pair_scores"] = {self.pairs[i].name: jsonable(v) for i, v in scores.items()}
        width = 1
        # training (rows capped so that a wide output does not exhaust memory)
        if self.width:
            n_train = int(min(n_train, max(2000, MAX_TRAIN_ELEMENTS // self.width)))
            info["train"] = n_train
        self.progress.stage(f"round {r + 1}: training", 2 * n_train * len(kept))
        cands = []
        jobs = [partial(self.train_pair, r, i, n_train, pilot.pop(i, None), score_n, alpha_pred) for i in kept]
        for pair_width, found in self.ahead(jobs, 2 * n_train * self.width):
            width = max(width, pair_width)
            self.width = max(self.width, width)
            cands += found
        chosen = self.choose(cands)
        if estimate:
            again = [c.anew() for c in carried or [] if not any(_same_event(c, d) for d in chosen)]
            if again:
                info["carried"] = [f"{self.pairs[c.pair_index].name}: {c.event.describe(c.featurizer)}" for c in again]
                chosen += again
        info["kept_pairs"] = [self.pairs[i].name for i in kept]
        if not chosen or not estimate:
            info.update(K=0, eps_lb=None)
            return info, chosen, kept
        K = len(chosen)
        estimate_candidates(self, r, chosen, n_test, bonferroni(alpha_round, K), width, replay=self.replay)
        info["K"] = K
        info["eps_lb"] = max(c.eps_lb for c in chosen)
        return info, chosen, kept
