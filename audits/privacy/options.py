"""The settings of one audit (:class:`AuditOptions`): what :func:`.procedure.audit` takes besides the spec,
the implementation and the parameter point, each with its default and its meaning in one place."""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass
from typing import Any

from .pairs import MAX_PARAMETER_PAIRS

MAX_PAIRS = 16  # stress cases and generated pairs
MAX_SEARCHED = 24  # pairs of the input-space search (audits/privacy/pairs.py), on top


@dataclass(frozen=True)
class AuditOptions:
    """How an audit samples and decides (every field has the default the command line uses).

    ``samples``: samples per side per pair for a single round (default: automatic rounds);
    ``batched_samples``: the same, only when the implementation has a batch sampler (capped at
    BATCHED_ELEMENTS output values per side, at least MIN_BATCHED_SAMPLES runs). ``confidence``: of the
    verdict (its alpha, 1 - confidence, is split before any sample: :class:`.budget.AlphaBudget`).
    ``timeout``: seconds per call of a user implementation. ``isolate``: see :class:`..sandbox.runner.Runner`.
    ``max_pairs``, ``max_searched``, ``max_parameter``: how many stress and generated pairs, input-space
    search pairs and pairs at other parameter points. ``line_search``: the implementation-guided line search
    (linesearch.py). ``rounds``: explicit per-round budgets (advanced). ``exact``: the exact profiles beside
    the measurement. ``tight``: after the verdict's rounds, one more estimation of the winning event on fresh
    samples, sized from its estimated probabilities (:func:`.tight.tight_round`), for a bound close to the
    exact loss. ``batches``: a :class:`..run.dask_executor.DaskBatches`, which spreads the estimation batches
    over a Dask cluster (the result is the same as without it, but for ``timing``). ``time_budget``: wall
    seconds for the whole audit; a second round then draws as many samples as fit in what is left at the
    first round's pace (up to BUDGET_MAX_SAMPLES per side), and is skipped when fewer fit than the first round
    drew: the sample size, and so the result, depend on the machine's speed (the result records the budget).
    ``jobs``: the implementation's worker processes (default two; ``--jobs`` of the command line, ``jobs`` of
    the pytest plugin). ``randomness``: "rng" (default: the implementation draws every random number from its
    ``rng``; the contract probe and the replay check hold it to that, and the result is a function of the
    seed) or "own" (it draws from a source of its own, e.g. a library's OS entropy: no determinism probe and
    no replay check, the independence probe instead (:func:`..sandbox.probes.probe_independence`); the samples
    are as independent and the statistics, so the verdict's confidence, the same, but the result is not
    reproducible; estimation batches are not spread over Dask, whose choice of which execution counts would
    then depend on time). ``progress``: a progress bar on the terminal.
    """
    samples: int | None = None
    confidence: float = 0.95
    seed: int = 0
    timeout: float = 60.0
    progress: bool = False
    isolate: bool | None = None
    max_pairs: int = MAX_PAIRS
    max_searched: int = MAX_SEARCHED
    max_parameter: int = MAX_PARAMETER_PAIRS
    line_search: bool = True
    jobs: int | None = None
    time_budget: float | None = None
    rounds: tuple[int, ...] | None = None
    exact: bool = True
    batched_samples: int | None = None
    tight: bool = False
    batches: Any = None
    randomness: str = "rng"

    @classmethod
    def of(cls, options: AuditOptions | None, settings: dict[str, Any]) -> AuditOptions:
        """``options`` (default: the defaults) with ``settings`` (keyword arguments of :func:`.procedure.audit`)
        replacing fields; an unknown name is a TypeError naming it, ``workers`` (the former name of ``jobs``)
        a DeprecationWarning."""
        settings = dict(settings)
        if "workers" in settings:
            workers = settings.pop("workers")
            if workers is not None:
                warnings.warn("audit(workers=N) is deprecated: use audit(jobs=N), the command line's --jobs",
                              DeprecationWarning, stacklevel=3)
                settings.setdefault("jobs", workers)
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(settings) - names)
        if unknown:
            raise TypeError(f"audit() got unexpected keyword argument(s): {', '.join(unknown)} "
                            f"(the settings are {', '.join(sorted(names))})")
        if settings.get("rounds") is not None:
            settings["rounds"] = tuple(int(n) for n in settings["rounds"])
        return dataclasses.replace(options or cls(), **settings)
