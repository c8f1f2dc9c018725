"""What ``dptestbed verify`` and ``dptestbed check`` run, and how.

A run is planned first (:func:`plan`): one *item* per privacy audit of a spec and one per
(theorem experiment, implementation) pair, the negative controls included, so the family
size of the multiple-testing correction is known before anything runs. Then
:func:`execute` runs the items:

* each item in its own process (``fork``; its own process group, so a hung implementation
  and any workers it started are killed together), each with a time limit; a crash, a hang or
  an exception makes that item an ``error`` and the rest of the run goes on (``isolate=False``
  runs items in this process, for tests and the pytest plugin). Where those processes run is
  the *executor*'s business: :class:`LocalExecutor` (default) forks at most ``jobs`` of them
  here; :class:`.dask_executor.DaskExecutor` forks each on a worker of a Dask cluster;
* one seed per run: item ``i`` draws from ``SeedSequence(seed, spawn_key=(crc32(item id),))``,
  a spawned child keyed by the item's id, so a result does not depend on which other items
  run, in which order, or on how many workers;
* ``results.json`` is rewritten atomically (temp file + ``os.replace``) after every completed
  item, so an interrupted run leaves a valid file with everything computed so far
  (``run.complete`` is false until the end).

Suites: ``quick`` (default; small trial counts; the specs that have an implementation) and
``full`` (larger trial counts and audit samples, every spec; specs without an implementation
are listed as not checked).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import platform
import signal
import subprocess
import sys
import time
import traceback
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from dptestbed.spec import Catalogue, Spec

from . import theorems as thm
from .experiments import Control, Experiment, check_id, expected_audit, experiments_for, run_check, unchecked_theorems
from .runner import missing_reference
from .serialize import jsonable

RESULTS_FORMAT = "dptestbed-results/1"
LOCK_NAME = ".dptestbed.lock"
# Privacy-audit budgets, samples per side per pair. quick: one round of 10^6 for a batched
# implementation; full (and any single-run implementation): the auditor's own adaptive rounds
# (batched: 10^6, then 10^7 when predicted useful; looped: 10^5).
AUDIT_SAMPLES = {"quick": 1_000_000, "full": None}
AUDIT_TIMEOUT = {"quick": 240.0, "full": 1800.0}  # whole-item limits, seconds
TIGHT_TIME_FACTOR = 4  # an audit with its tight round gets this many times the limit
CALL_TIMEOUT = 60.0  # one call of a user implementation


@dataclass
class Item:
    id: str
    kind: str  # "audit" | "theorem"
    spec: str
    expected: str | None = None
    implementation: str | None = None  # None: the spec's reference implementation
    target: str = "reference"  # reference | user | control
    experiment: Experiment | None = None
    control: Control | None = None
    timeout: float = 120.0
    cost: float = 1.0
    params: dict | None = None  # an audit's parameter point (None: the spec's defaults)

    @property
    def label(self) -> str:
        if self.kind == "audit":
            where = f" at {point_text(self.params)}" if self.params else ""
            who = f" [mutant {self.control.name}]" if self.target == "mutant" else ""
            return f"privacy audit {self.spec}{where}{who}" + (f" (expected: {self.expected})" if self.expected else "")
        who = f"{'mutant' if self.target == 'mutant' else 'control'} {self.control.name}" if self.control else self.target
        return f"{self.spec} {self.experiment.ref} {self.experiment.name} [{who}]"


@dataclass
class Plan:
    suite: str
    items: list[Item]
    specs: list[Spec]
    not_checked: list[dict]
    implementation: str | None = None
    family_alpha: float = thm.FAMILY_ALPHA
    call_timeout: float = CALL_TIMEOUT  # seconds per call of an implementation
    mutants: tuple = ()  # a mutants run (audits/mutation.py): the mutants it checks
    family_override: int | None = None  # the multiple-testing family size, when not the plan's own
    tight: bool = False  # every privacy audit also runs its tight round (audit --tight)

    @property
    def n_audits(self) -> int:
        return sum(1 for i in self.items if i.kind == "audit" and i.expected is None)

    @property
    def n_tests(self) -> int:
        return sum(1 for i in self.items if i.kind == "theorem" and not i.control
                   and i.experiment.kind in thm.STATISTICAL_KINDS)

    @property
    def family(self) -> int:
        return self.family_override or thm.family_size(self.n_tests, self.n_audits)


# --------------------------------------------------------------------------- planning


def select_specs(catalogue: Catalogue, suite: str, spec_ids: list[str] | None = None,
                 papers: list[str] | None = None) -> list[Spec]:
    """The specs a run covers: the given ids (and their deliberately broken variants, which are
    the controls of their privacy audit), else every spec with an implementation (quick) or
    every spec (full); ``papers`` keeps only the specs of those paper folders."""
    if papers:
        unknown = [p for p in papers if p not in catalogue.papers]
        if unknown:
            raise KeyError(f"unknown paper {unknown[0]!r}; papers: {', '.join(catalogue.papers)}")
        catalogue = type(catalogue)((k, s) for k, s in catalogue.items() if s.paper in papers)
    if spec_ids:
        chosen = []
        for spec_id in spec_ids:
            spec = catalogue.get_spec(spec_id)  # KeyError with a hint for unknown ids
            if spec not in chosen:
                chosen.append(spec)
            for other in catalogue.values():
                if other.variant_of == spec.id and other.broken and other not in chosen:
                    chosen.append(other)
        return chosen
    if suite == "quick":
        return [s for s in catalogue.values() if s.implementation]
    return list(catalogue.values())


def audit_points(spec: Spec, suite: str, override: dict | None = None) -> list[dict]:
    """The parameter points a spec's privacy audit visits: the defaults and the spec's
    ``audit_points`` (quick: the first of them; full: all), or only ``override`` (``--param``)."""
    if override:
        return [dict(override)]
    return [{}] + [dict(p) for p in spec.audit_points[: 1 if suite == "quick" else None]]


def point_text(point: dict | None) -> str:
    """A parameter point as ``k=v, ...`` (empty at the defaults)."""
    return ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in (point or {}).items())


def audit_id(spec_id: str, point: dict | None) -> str:
    """An audit item's id: ``privacy | SPEC`` at the defaults, ``privacy | SPEC | k=v, ...`` elsewhere."""
    where = point_text(point)
    return f"privacy | {spec_id}" + (f" | {where}" if where else "")


def plan(catalogue: Catalogue, suite: str = "quick", spec_ids: list[str] | None = None,
         implementation: str | None = None, controls: bool = True, audits: bool = True,
         theorems: bool = True, family_alpha: float = thm.FAMILY_ALPHA, call_timeout: float = CALL_TIMEOUT,
         papers: list[str] | None = None, audit_params: dict | None = None) -> Plan:
    """Every item of a run. With ``implementation`` (``dptestbed check``) the experiments and the
    privacy audit run against that implementation instead of the reference one, and the
    broken-spec audits (controls of the auditor, not of the user's code) are left out, as they are
    with ``controls=False`` (a false-alarm measurement runs only the reference items). The
    audits visit :func:`audit_points`; ``audit_params`` (``--param``) replaces them by one point."""
    if suite not in ("quick", "full"):
        raise ValueError(f"unknown suite {suite!r}; choose quick or full")
    specs = select_specs(catalogue, suite, spec_ids, papers)
    if implementation is not None or not controls:
        specs = [s for s in specs if not s.broken]
    items: list[Item] = []
    not_checked: list[dict] = []
    for spec in specs:
        impl = implementation or spec.implementation
        missing = None if implementation else missing_reference(spec.implementation)
        if missing:
            # nothing of this spec runs: every theorem is listed once, with the reason
            not_checked.extend({"spec": spec.id, "ref": t.ref, "kind": t.kind, "status": missing}
                               for t in spec.theorems)
            continue
        if audits and spec.privacy is not None:
            for point in audit_points(spec, suite, audit_params):
                items.append(Item(audit_id(spec.id, point), "audit", spec.id, expected_audit(spec), implementation,
                                  "user" if implementation else "reference", timeout=AUDIT_TIMEOUT[suite], cost=50.0,
                                  params=point or None))
        if not theorems or spec.broken:
            continue
        for exp in experiments_for(spec):
            target = "user" if implementation else "reference"
            items.append(Item(check_id(spec.id, exp.ref, exp.name, target), "theorem", spec.id, None,
                              impl, target, exp, timeout=exp.seconds[suite],
                              cost=exp.trials[suite] / 10_000))
            if controls:
                for control in exp.controls:
                    items.append(Item(check_id(spec.id, exp.ref, exp.name, control=control), "theorem",
                                      spec.id, "violated", control.implementation, "control", exp, control,
                                      timeout=exp.seconds[suite], cost=exp.trials[suite] / 10_000))
        not_checked.extend(unchecked_theorems(spec))
    return Plan(suite, items, specs, not_checked, implementation, family_alpha, call_timeout)


def item_seed(seed: int, item_id: str) -> np.random.SeedSequence:
    """The item's own stream: a child of the run's SeedSequence keyed by the item id."""
    return np.random.SeedSequence(int(seed), spawn_key=(zlib.crc32(item_id.encode("utf-8")),))


# --------------------------------------------------------------------------- one item


def run_item(item: Item, catalogue: Catalogue, plan_: Plan, seed: int, *, isolate_calls=None, batches=None) -> dict:
    """Run one item; never raises (errors become results with verdict "error"). ``batches``: where
    an audit's estimation batches may run besides here (:class:`.dask_executor.DaskBatches`)."""
    seq = item_seed(seed, item.id)
    spec = catalogue[item.spec]
    if item.kind == "theorem":
        return run_check(spec, item.experiment, item.implementation, suite=plan_.suite,
                             rng=np.random.default_rng(seq), timeout=plan_.call_timeout, control=item.control,
                             target=item.target, isolate=isolate_calls)
    return run_audit(spec, item, plan_, int(seq.generate_state(1)[0]), batches)


def limit(plan_: Plan, item: Item) -> float:
    """The item's time limit in seconds (an audit with a tight round gets TIGHT_TIME_FACTOR times its own)."""
    return item.timeout * (TIGHT_TIME_FACTOR if plan_.tight and item.kind == "audit" else 1)


def run_audit(spec: Spec, item: Item, plan_: Plan, seed: int, batches=None) -> dict:
    t0 = time.perf_counter()
    confidence = 1 - plan_.family_alpha / plan_.family
    base = {"id": item.id, "spec": spec.id, "implementation": item.implementation or spec.implementation,
            "target": item.target, "expected": item.expected, "confidence": confidence, "seed": seed,
            "broken": spec.broken, "variant_of": spec.variant_of, "control": _control_json(item.control),
            "audit_point": item.params}
    try:
        from .privacy import audit

        # quick: one round for a batched implementation; a looped one gets the auditor's default budget
        result = audit(spec, implementation=item.implementation, params=item.params,
                       batched_samples=AUDIT_SAMPLES[plan_.suite], confidence=confidence, seed=seed,
                       timeout=plan_.call_timeout, progress=False, tight=plan_.tight, batches=batches)
        data = result.to_json() if hasattr(result, "to_json") else dict(result)
        data = {**base, **{k: v for k, v in data.items() if v is not None or k not in base}}
        data["id"], data["target"] = item.id, item.target
        data["expected"] = item.expected  # the plan's expectation (see experiments.expected_audit)
    except Exception as exc:  # noqa: BLE001
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" ({tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno})" if tb else ""
        data = {**base, "verdict": "error", "error": f"{type(exc).__name__}: {exc}{where}"}
    data.setdefault("seconds", time.perf_counter() - t0)
    return jsonable(data)


def _control_json(control: Control | None) -> dict | None:
    return None if control is None else {"name": control.name, "description": control.description,
                                         "pipeline": control.pipeline}


def error_result(item: Item, reason: str, seconds: float | None = None) -> dict:
    """The result of an item that did not finish (crash, timeout, interrupted)."""
    if item.kind == "audit":
        return {"id": item.id, "spec": item.spec, "implementation": item.implementation, "target": item.target,
                "expected": item.expected, "control": _control_json(item.control), "audit_point": item.params,
                "verdict": "error",
                "error": reason, "seconds": seconds}
    exp = item.experiment
    return {"id": item.id, "spec": item.spec, "ref": exp.ref, "check": exp.name, "kind": exp.kind,
            "title": exp.title, "instance": exp.instance, "predicate": exp.predicate,
            "target": item.target, "implementation": item.implementation,
            "control": _control_json(item.control),
            "expected": item.expected, "trials": None, "failures": None, "beta": None,
            "failure_rate_upper": None, "p_value": None, "slack": None,
            "verdict": "error", "error": reason, "seconds": seconds}


# --------------------------------------------------------------------------- execution


def _child(item, catalogue, plan_, seed, conn, scheduler):
    from .proctree import die_with_parent

    try:
        os.setpgrp()  # own process group: a timeout kills the item and its workers together
    except OSError:
        pass
    die_with_parent()  # and a killed run (even SIGKILL) takes its items with it
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the command line's handler: a terminated item just ends
    except (ValueError, OSError):
        pass
    try:
        batches = None
        if scheduler is not None and item.kind == "audit":
            from .dask_executor import DaskBatches

            batches = DaskBatches(address=scheduler)
        result = run_item(item, catalogue, plan_, seed, batches=batches)
    except BaseException as exc:  # noqa: BLE001
        result = error_result(item, f"{type(exc).__name__}: {exc}")
    result["peak_rss_mb"] = _peak_rss_mb()
    try:
        conn.send(result)
    finally:
        conn.close()


def _peak_rss_mb() -> float:
    """The peak resident memory of this process or of any child it waited for (its sandbox
    workers), in MiB (pages shared with the forking parent included)."""
    import resource

    unit = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return round(peak * unit / 2**20, 1)


def _kill_group(proc) -> None:
    from .proctree import kill_tree

    if proc.is_alive():
        kill_tree(proc.pid)  # the item, its workers and whatever they started, however they fork
    proc.join(2.0)


class ItemProcess:
    """One item running in a forked child process (its own process group) with a time limit of
    ``limit`` CPU seconds (:class:`.cpulimit.ItemClock`): :meth:`poll` returns its result once it has
    one, an error result once the child died without one or the limit has passed (the child and
    everything it started are then killed), else None.
    ``scheduler``: a Dask scheduler's address, where an audit's estimation batches may also run."""

    def __init__(self, item: Item, catalogue: Catalogue, plan_: Plan, seed: int, limit: float,
                 scheduler: str | None = None):
        import multiprocessing as mp

        self.item, self.limit = item, limit
        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=_child, args=(item, catalogue, plan_, seed, child, scheduler),
                                daemon=False)
        self.proc.start()
        child.close()
        self.started = time.monotonic()
        from .cpulimit import ItemClock

        self.clock = ItemClock(self.proc.pid, limit)  # CPU seconds of the item's processes, not wall time

    @property
    def waitables(self) -> list:
        return [self.conn, self.proc.sentinel]

    def poll(self) -> dict | None:
        proc, item, elapsed = self.proc, self.item, time.monotonic() - self.started
        if self.conn.poll(0):
            try:
                result = self.conn.recv()
            except (EOFError, OSError):
                result = error_result(item, f"the item's process died (exit code {proc.exitcode})", elapsed)
            proc.join(5.0)
            if proc.is_alive():
                _kill_group(proc)
        elif not proc.is_alive():
            proc.join()
            result = error_result(item, f"the item's process died (exit code {proc.exitcode}) without a result",
                                  elapsed)
        elif (reason := self.clock.expired()) is not None:
            _kill_group(proc)
            result = error_result(item, reason, elapsed)
        else:
            return None
        self.conn.close()
        return result

    def kill(self) -> None:
        _kill_group(self.proc)


def run_in_child(item: Item, catalogue: Catalogue, plan_: Plan, seed: int, limit: float,
                 scheduler: str | None = None) -> dict:
    """Run one item in a forked child with a time limit and wait for it (what a remote worker
    of :mod:`.dask_executor` runs per item); never raises for the item's own failures."""
    from multiprocessing.connection import wait

    child = ItemProcess(item, catalogue, plan_, seed, limit, scheduler)
    try:
        while (result := child.poll()) is None:
            wait(child.waitables, timeout=0.5)
    except BaseException:
        child.kill()
        raise
    return result


class ExecutorUnavailable(RuntimeError):
    """An executor cannot run items at all (a missing package, an unreachable cluster)."""


class LocalExecutor:
    """The default executor: at most ``jobs`` forked item processes on this machine.

    An executor has one method, ``run(items, catalogue, plan_, seed, limit, on_result)``: run every
    item (most expensive first, in the order given) as :func:`run_in_child` would, each within
    ``limit(item)`` seconds, and call ``on_result(item, result)`` in this process as each finishes.
    A crashed, killed or hung item yields an error result; the others go on."""

    name = "local"

    def __init__(self, jobs: int = 1):
        self.jobs = max(1, int(jobs))

    def run(self, items: list[Item], catalogue: Catalogue, plan_: Plan, seed: int,
            limit: Callable[[Item], float], on_result: Callable[[Item, dict], None]) -> None:
        from multiprocessing.connection import wait

        pending = list(items)
        running: list[ItemProcess] = []
        try:
            while pending or running:
                while pending and len(running) < self.jobs:
                    item = pending.pop(0)
                    running.append(ItemProcess(item, catalogue, plan_, seed, limit(item)))
                wait([w for child in running for w in child.waitables], timeout=0.5)
                for child in list(running):
                    result = child.poll()
                    if result is not None:
                        running.remove(child)
                        on_result(child.item, result)
        except BaseException:
            for child in running:
                child.kill()
            raise


def execute(plan_: Plan, catalogue: Catalogue, *, seed: int = 0, jobs: int = 1, isolate: bool = True,
            on_result: Callable[[Item, dict], None] | None = None, time_scale: float = 1.0,
            skip: set[str] = frozenset(), executor=None) -> list[tuple[Item, dict]]:
    """Run every item of the plan but those whose id is in ``skip`` on ``executor`` (default:
    :class:`LocalExecutor` with ``jobs``; ``isolate=False``: in this process, one after the other);
    returns ``(item, result)`` pairs in plan order."""
    order = sorted((item for item in plan_.items if item.id not in skip), key=lambda item: -item.cost)
    results: dict[str, dict] = {}

    def finished(item: Item, result: dict) -> None:
        results[item.id] = result
        if on_result:
            on_result(item, result)

    if not isolate:
        for item in order:
            finished(item, run_item(item, catalogue, plan_, seed, isolate_calls=None))
    else:
        executor = executor or LocalExecutor(jobs)
        executor.run(order, catalogue, plan_, seed, lambda item: limit(plan_, item) * time_scale, finished)
    return [(item, results[item.id]) for item in plan_.items if item.id in results]


# --------------------------------------------------------------------------- results document


def versions() -> dict:
    import importlib.metadata as md

    out = {"python": platform.python_version()}
    for name in ("dptestbed", "numpy", "scipy", "statsmodels", "matplotlib"):
        try:
            out[name] = md.version(name)
        except md.PackageNotFoundError:
            out[name] = None
    return out


def git_commit() -> str | None:
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    commit = out.stdout.strip()
    try:
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        dirty = ""
    return commit + ("-dirty" if dirty else "") if commit else None


def spec_record(spec: Spec, plan_: Plan) -> dict:
    """What the report needs to show a spec: identity, claims and theorems with formulas."""
    from .experiments import load_registry, theorem_values

    env = spec.bind()

    def formula(f, scope):
        value = f.evaluate(scope) if f.names <= scope.keys() else None
        return {"formula": f.source, "latex": f.latex(), "value": jsonable(value)}

    theorems = []
    for t in spec.theorems:
        scope = theorem_values(spec, t.ref, env)
        exps = load_registry().get((spec.id, t.ref), [])
        if exps:
            status = "checked"
        elif t.kind == "privacy" and spec.privacy is not None:
            status = "covered by the privacy audit" if any(
                i.kind == "audit" and i.spec == spec.id for i in plan_.items) else "not checked (no implementation)"
        else:
            status = "not yet checked"
        theorems.append({
            "ref": t.ref, "kind": t.kind, "statement": t.statement, "constant": t.constant,
            "quantities": {n: formula(f, scope) for n, f in t.quantities.items()},
            "preconditions": [formula(f, scope) for f in t.preconditions],
            "assumptions": list(t.assumptions), "check": t.check, "status": status,
            "experiments": [e.name for e in exps],
        })
    privacy = None
    if spec.privacy is not None:
        privacy = {"epsilon": formula(spec.privacy.epsilon, env), "delta": formula(spec.privacy.delta, env),
                   "theorem": spec.privacy.theorem, "neighbours": spec.neighbours.get("relation"),
                   "neighbours_description": spec.neighbours.get("description")}
    return jsonable({
        "id": spec.id, "title": spec.title, "paper": spec.paper, "summary": spec.summary, "source": spec.source,
        "implementation": spec.implementation, "variant_of": spec.variant_of, "broken": spec.broken,
        "erratum": spec.erratum,
        "parameters": {n: env.get(n) for n in spec.parameters},
        "derived": {n: {"formula": d.formula.source, "latex": d.formula.latex(), "value": env.get(n),
                        "description": d.description} for n, d in spec.derived.items()},
        "privacy": privacy, "theorems": theorems,
    })


def assemble(plan_: Plan, done: list[tuple[Item, dict]], *, seed: int, started: float, complete: bool,
             command: str = "verify", jobs: int = 1, spec_records: list[dict] | None = None,
             errata: list[dict] | None = None, executor: str = "local") -> dict:
    """The results document (``results.json``), with the multiple-testing correction applied
    to the results so far. ``errata`` (audits.errata.errata_measurements) are written as the
    ``errata`` array; a printed-erratum spec's audit violation is "as expected" when its erratum
    is confirmed (see audits/errata.py)."""
    theorem_results = [dict(r) for item, r in done if item.kind == "theorem"]
    privacy_results = [dict(r) for item, r in done if item.kind == "audit"]
    family = thm.apply_multiple_testing(theorem_results, n_audits=plan_.n_audits,
                                        family_alpha=plan_.family_alpha, n_planned_tests=plan_.n_tests,
                                        family_override=plan_.family_override)
    for r in privacy_results:
        r["outcome"] = thm.outcome(r.get("verdict"), r.get("expected"))
    if errata:
        from .errata import reclassify
        reclassify(privacy_results, errata)
    order = {item.id: k for k, item in enumerate(plan_.items)}
    theorem_results.sort(key=lambda r: order.get(r["id"], 0))
    privacy_results.sort(key=lambda r: order.get(r["id"], 0))
    outcomes = [r["outcome"] for r in theorem_results + privacy_results]
    controls = [r for r in theorem_results + privacy_results if thm.is_control(r.get("expected"))]
    code = thm.exit_code(outcomes + ([] if complete else ["error"]))
    extra = {}
    if plan_.mutants:
        from . import mutation

        matrix = mutation.kill_matrix(plan_.mutants, theorem_results + privacy_results)
        code = mutation.exit_code(matrix, complete)
        extra["mutants"] = matrix
    return {
        "format": RESULTS_FORMAT,
        "run": {
            "command": command, "suite": plan_.suite, "seed": seed, "commit": git_commit(),
            "versions": versions(), "seconds": time.time() - started,
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
            "jobs": jobs, "executor": executor, "implementation": plan_.implementation, "tight": plan_.tight,
            "isolation": _isolation_level(),
            "complete": complete, "items_planned": len(plan_.items), "items_done": len(done),
            "pending": [i.id for i in plan_.items if i.id not in {it.id for it, _ in done}],
        },
        "family": family,
        "summary": {
            "items": len(outcomes), "as_expected": outcomes.count("as expected"),
            "unexpected": outcomes.count("unexpected"), "errors": outcomes.count("error"),
            "controls": len(controls),
            "controls_flagged": sum(1 for r in controls if r["outcome"] == "as expected"),
            "inconclusive": [r["id"] for r in theorem_results if r.get("verdict") == "inconclusive"],
            "exit_code": code,
        },
        "specs": spec_records if spec_records is not None else [spec_record(s, plan_) for s in plan_.specs],
        "privacy": privacy_results,
        "theorems": theorem_results,
        "not_checked": plan_.not_checked,
        **({"errata": errata} if errata is not None else {}),
        **extra,
    }


def _isolation_level() -> str | None:
    """The isolation level of the sandboxed workers of this run (None: no untrusted implementation)."""
    from . import isolation

    return isolation.reported


# Fields of an item's result that depend on the machine's speed and load, not on the run's seed:
# timings (and the audit's selection/sampling/statistics split), and per audit pair the exact loss of pairs without a candidate (computed while a
# wall-clock budget lasts, privacy.EXACT_BUDGET).
TIMED_FIELDS = frozenset({"seconds", "samples_per_second", "timing", "peak_rss_mb"})
TIMED_PAIR_FIELDS = frozenset({"exact_epsilon", "exact_error"})


def comparable(document: dict) -> dict:
    """Every item's result of a results document, by id, without its time-dependent fields: equal
    for two runs of the same plan and seed whatever the executor and the number of workers."""
    def fields(result):
        out = {k: v for k, v in result.items() if k not in TIMED_FIELDS}
        if isinstance(out.get("pairs"), list):
            out["pairs"] = [{k: v for k, v in p.items() if k not in TIMED_PAIR_FIELDS} for p in out["pairs"]]
        return out

    return {r["id"]: fields(r) for part in ("privacy", "theorems") for r in document.get(part) or []}


def write_json_atomic(path: Path, document: dict) -> None:
    """Write ``document`` to ``path`` via a temp file in the same folder and ``os.replace``, every
    item signed (:func:`.integrity.seal`: ``--resume`` re-uses only what this command line wrote)."""
    from .integrity import seal
    from .outfiles import write

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write(path, json.dumps(seal(document), indent=1, allow_nan=False).encode("utf-8"), sync=True)


@dataclass
class Progress:
    total: int
    enabled: bool = True
    stream: object = field(default_factory=lambda: sys.stderr)
    done: int = 0
    t0: float = field(default_factory=time.monotonic)

    def start(self, item: Item) -> None:
        pass

    def finish(self, item: Item, result: dict) -> None:
        self.done += 1
        if not self.enabled:
            return
        verdict = result.get("verdict")
        if verdict is None and result.get("kind") in thm.STATISTICAL_KINDS:
            text = f"{result.get('failures')}/{result.get('trials')}, p = {result.get('p_value', float('nan')):.3g}"
        else:
            text = str(verdict)
        mark = ""
        if item.target == "mutant" and verdict is not None:  # a trial of a mutant: no expected outcome
            from .mutation import cell_status

            mark = cell_status(result)
        elif verdict is not None:
            mark = {"as expected": "ok", "unexpected": "UNEXPECTED", "error": "ERROR"}[
                thm.outcome(verdict, result.get("expected"))]
        if result.get("expected"):
            text += f" (expected {result['expected']})"
        seconds = result.get("seconds") or 0.0
        width = len(str(self.total))
        line = (f"[{self.done:>{width}}/{self.total}] {time.monotonic() - self.t0:6.1f}s  "
                f"{item.label}: {text} [{seconds:.1f}s] {mark}")
        reason = result.get("error") or (result.get("reason") if verdict in ("error", "implementation error") else None)
        if reason:
            line += f"\n        {reason}"
        print(line, file=self.stream, flush=True)


def run_errata(plan_: Plan, catalogue: Catalogue, done: list[tuple[Item, dict]], seed: int,
               progress: bool = False) -> list[dict] | None:
    """The errata measurements (audits/errata.py) when the run selects an involved spec or is
    the full suite (``verify`` only, not ``check``); the run's own audits are reused. None when
    not wanted; never raises."""
    from . import errata as errata_mod

    if plan_.implementation is not None or not errata_mod.wanted([s.id for s in plan_.specs], plan_.suite):
        return None
    audits = {r["spec"]: r for item, r in done if item.kind == "audit" and item.target == "reference"}
    t0 = time.perf_counter()
    try:
        out = errata_mod.errata_measurements(seed, plan_.suite, audits=audits, catalogue=catalogue,
                                             spec_ids=[s.id for s in plan_.specs])
    except Exception as exc:  # noqa: BLE001
        out = [{"id": "errata", "verdict": "inconclusive", "measurement": f"errata failed: {type(exc).__name__}: {exc}",
                "printed": None, "corrected": None}]
    if progress:
        print("errata: " + ", ".join(f"{e['id']} {e['verdict']}" for e in out)
              + f" [{time.perf_counter() - t0:.1f}s]", file=sys.stderr, flush=True)
    return jsonable(out)


class OutputBusy(RuntimeError):
    """Another run holds the output folder."""


@contextlib.contextmanager
def output_lock(out_dir: Path):
    """Hold ``out_dir`` for one run (an exclusive ``flock`` on ``.dptestbed.lock``, released when the
    process ends however it ends); leftover temporary files of an interrupted run are removed."""
    from .isolation import hide

    out_dir.mkdir(parents=True, exist_ok=True)
    hide(out_dir)  # no sandboxed worker started from now on can reach it
    fd = os.open(out_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputBusy(f"{out_dir}: another dptestbed run is writing to this folder; wait for it or "
                             "choose another --out") from None
        for leftover in out_dir.glob(".*.tmp"):
            with contextlib.suppress(OSError):
                leftover.unlink()
        yield
    finally:
        os.close(fd)


class ResumeError(ValueError):
    """The results file in the output folder is not a run this plan can continue."""


def resumable(plan_: Plan, document: dict, *, seed: int, command: str) -> list[tuple[Item, dict]]:
    """The finished items of an earlier run's ``document`` that this run may re-use: the earlier
    run must be the same command, suite, seed, implementation, tight setting and plan (the same item ids), and
    the same commit when both runs know theirs (a git checkout; an installed package has none);
    items whose verdict was ``error`` (a crash, a time limit, an interruption) are run again.
    Raises :class:`ResumeError` saying what differs."""
    run_ = document.get("run") if isinstance(document, dict) else None
    if not isinstance(run_, dict) or not str(document.get("format", "")).startswith("dptestbed-results/"):
        raise ResumeError("not a dptestbed results file")
    mine = {"command": command, "suite": plan_.suite, "seed": seed, "implementation": plan_.implementation,
            "tight": plan_.tight}
    for key, value in mine.items():
        if run_.get(key, False if key == "tight" else None) != value:
            raise ResumeError(f"it was run with {key} {run_.get(key)!r}, this run has {value!r}")
    commit = git_commit()
    if run_.get("commit") and commit and run_["commit"] != commit:
        raise ResumeError(f"it was computed by commit {run_['commit']}, this is {commit}")
    earlier = [r for key in ("privacy", "theorems") for r in document.get(key) or []]
    ids = {r.get("id") for r in earlier} | set(run_.get("pending") or [])
    by_id = {item.id: item for item in plan_.items}
    if ids != by_id.keys():
        raise ResumeError(f"its plan differs from this one ({len(ids ^ by_id.keys())} items are in one plan only)")
    from .integrity import unverified

    forged = unverified(document)
    if forged:
        raise ResumeError(f"{len(forged)} of its items (e.g. {forged[0]!r}) do not carry the signature dptestbed gave "
                          "them here: the file was changed after it was written, or written on another machine; run "
                          "without --resume")
    return [(by_id[r["id"]], r) for r in earlier if r.get("verdict") != "error"]


def run(plan_: Plan, catalogue: Catalogue, out_dir: Path, *, seed: int = 0, jobs: int = 1,
        progress: bool = False, isolate: bool = True, command: str = "verify", time_scale: float = 1.0,
        resume: bool = False, executor=None) -> dict:
    """Execute the plan on ``executor`` (default: :class:`LocalExecutor` with ``jobs``), writing
    ``out_dir/results.json`` after every item; returns the document.
    With ``resume``, the finished items of the results.json already in ``out_dir`` are kept
    (:func:`resumable`) and only the others run. (The command line holds :func:`output_lock`
    around the run and the report.)"""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    started = time.time()
    path = out_dir / "results.json"
    done: list[tuple[Item, dict]] = []
    if resume:
        try:
            earlier = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ResumeError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
        done = resumable(plan_, earlier, seed=seed, command=command)
    reused = {item.id for item, _ in done}
    executor = executor or LocalExecutor(jobs)
    from . import sanitize

    records = sanitize.tree([spec_record(s, plan_) for s in plan_.specs])  # a spec's text is not ours
    bar = Progress(len(plan_.items), enabled=progress, done=len(done))
    fixed = {"seed": seed, "started": started, "command": command, "jobs": jobs, "spec_records": records,
             "executor": executor.name if isolate else "in-process"}
    write_json_atomic(path, assemble(plan_, done, complete=False, **fixed))

    def on_result(item, result):
        result = sanitize.tree(result)  # an item's messages may quote an implementation
        done.append((item, result))
        bar.finish(item, result)
        write_json_atomic(path, assemble(plan_, done, complete=False, **fixed))

    if resume:
        print(f"dptestbed: resuming {path}: {len(reused)} of {len(plan_.items)} items re-used", file=sys.stderr)
    execute(plan_, catalogue, seed=seed, isolate=isolate, on_result=on_result, time_scale=time_scale,
            skip=reused, executor=executor)
    errata = run_errata(plan_, catalogue, done, seed, progress)
    document = assemble(plan_, done, complete=True, errata=errata, **fixed)
    write_json_atomic(path, document)
    return document
