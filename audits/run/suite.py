"""What ``dptestbed verify`` and ``dptestbed check`` run, and how.


A run is planned first (:mod:`.planning`), then its items run on an executor (:mod:`.execution`),
and ``results.json`` (:mod:`.results`) is rewritten atomically (temp file + ``os.replace``) as items
finish (:class:`Writer`: a large document less often, so that writing it takes at most a tenth of the
run) and at once when the run ends or is interrupted, so an interrupted run leaves a valid file with
everything computed so far (``run.complete`` is false until the end); ``--resume`` continues it. The errata measurements run
last (:func:`run_errata`).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from dptestbed.spec import Catalogue

from ..base import sanitize
from ..base import verdict as oc
from ..base.serialize import jsonable
from ..checks import theorems as thm
from .execution import LocalExecutor, execute
from .planning import Item, Plan
from .results import ResumeError, assemble, resumable, run_constants, spec_record, write_json_atomic


@dataclass
class Progress:
    total: int
    enabled: bool = True
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    done: int = 0
    t0: float = field(default_factory=time.monotonic)

    def start(self, item: Item) -> None:
        pass

    def finish(self, item: Item, result: dict) -> None:
        self.done += 1
        if not self.enabled:
            return
        verdict = result.get("verdict")
        if verdict is None and result.get("kind") in thm.STATISTICAL_KINDS:  # its class waits for the family
            text = f"{result.get('failures')}/{result.get('trials')}, p = {result.get('p_value', float('nan')):.3g}"
        else:
            text = oc.item_class(result)
        mark = ""
        if item.target == "mutant" and verdict is not None:  # a trial of a mutant: no expected outcome
            from .mutation import cell_status

            mark = cell_status(result)
        elif verdict is not None:
            mark = oc.OUTCOME_MARK[oc.outcome(oc.item_class(result), result.get("expected"))]
        if result.get("expected"):
            text += f" (expected {result['expected']})"
        seconds = result.get("seconds") or 0.0
        width = len(str(self.total))
        line = (f"[{self.done:>{width}}/{self.total}] {time.monotonic() - self.t0:6.1f}s  "
                f"{item.label}: {text} [{seconds:.1f}s] {mark}")
        reason = result.get("error") or (result.get("reason") if verdict in ("error", oc.IMPLEMENTATION_ERROR) else None)
        if reason:
            line += f"\n        {sanitize.line(reason)}"
        print(line, file=self.stream, flush=True)


class Writer:
    """``results.json`` kept current as items finish, without its writing taking the run's time: it is
    rewritten after an item once the last write is at most :data:`WRITE_SHARE` of the time since it
    began (a large document is written less often; never more than :data:`WRITE_LAG` seconds of
    CPU-bound writing behind), and at once by :meth:`flush` (an interruption); compact, on one line
    (the run's last write, :func:`run`'s, is indented)."""

    def __init__(self, path: Path, build, clock=time.monotonic):
        self.path, self.build, self.clock = path, build, clock
        self.dirty, self.ready, self.seconds, self.writes = False, 0.0, 0.0, 0

    def changed(self) -> None:
        self.dirty = True
        self.due()

    def due(self) -> None:
        """Write if there is something new and the last write is long enough ago."""
        if self.dirty and self.clock() >= self.ready:
            self.flush()

    def flush(self) -> None:
        if not self.dirty:
            return
        t0 = self.clock()
        write_json_atomic(self.path, self.build(), compact=True)
        now = self.clock()
        self.dirty, self.writes, self.seconds = False, self.writes + 1, self.seconds + now - t0
        self.ready = now + min(WRITE_LAG, (now - t0) * (1 / WRITE_SHARE - 1))


WRITE_SHARE = 0.1  # at most this share of a run's wall time goes to rewriting results.json
WRITE_LAG = 30.0  # ... and a finished item waits at most this many seconds (plus one write) to be in it


def run_errata(plan_: Plan, catalogue: Catalogue, done: list[tuple[Item, dict]], seed: int,
               progress: bool = False) -> list[dict] | None:
    """The errata measurements (audits/checks/errata.py) when the run selects an involved spec or is
    the full suite (``verify`` only, not ``check``); the run's own audits are reused. None when
    not wanted; never raises."""
    from ..checks import errata as errata_mod

    if plan_.implementation is not None or not errata_mod.wanted([s.id for s in plan_.specs], plan_.suite):
        return None
    audits = {r["spec"]: r for item, r in done if item.kind == "audit" and item.target == "reference"}
    t0 = time.perf_counter()
    try:
        out = errata_mod.errata_measurements(seed, plan_.suite, audits=audits, catalogue=catalogue,
                                             spec_ids=[s.id for s in plan_.specs], apart=True)
    except Exception as exc:  # noqa: BLE001
        out = [{"id": "errata", "verdict": "inconclusive", "measurement": f"errata failed: {type(exc).__name__}: {exc}",
                "printed": None, "corrected": None}]
    if progress:
        print("errata: " + ", ".join(f"{e['id']} {e['verdict']}" for e in out)
              + f" [{time.perf_counter() - t0:.1f}s]", file=sys.stderr, flush=True)
    return jsonable(out)



def run(plan_: Plan, catalogue: Catalogue, out_dir: Path, *, seed: int = 0, jobs: int = 1,
        progress: bool = False, isolate: bool = True, command: str = "verify", time_scale: float = 1.0,
        resume: bool = False, executor=None) -> dict:
    """Execute the plan on ``executor`` (default: :class:`LocalExecutor` with ``jobs``), writing
    ``out_dir/results.json`` as items finish (:class:`Writer`); returns the document.
    With ``resume``, the finished items of the results.json already in ``out_dir`` are kept
    (:func:`resumable`) and only the others run. (The command line holds :func:`.output_folder.output_lock`
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
    records = sanitize.tree([spec_record(s, plan_) for s in plan_.specs])  # a spec's text is not ours
    bar = Progress(len(plan_.items), enabled=progress, done=len(done))
    fixed = {"seed": seed, "started": started, "command": command, "jobs": jobs, "spec_records": records,
             "executor": executor.name if isolate else "in-process", "identity": run_constants(plan_)}
    writer = Writer(path, lambda: assemble(plan_, done, complete=False, **fixed))
    writer.changed()  # the run's first results.json: nothing done yet
    profile = {"prepare": time.time() - started}

    def on_result(item, result):
        result = sanitize.tree(result)  # an item's messages may quote an implementation
        done.append((item, result))
        bar.finish(item, result)
        writer.changed()

    if resume:
        print(f"dptestbed: resuming {path}: {len(reused)} of {len(plan_.items)} items re-used", file=sys.stderr)
    t0 = time.perf_counter()
    try:
        execute(plan_, catalogue, seed=seed, isolate=isolate, on_result=on_result, time_scale=time_scale,
                skip=reused, executor=executor, on_idle=writer.due)
    finally:  # interrupted too: everything finished is in the file
        writer.flush()
    profile["items"], profile["writing"], profile["writes"] = time.perf_counter() - t0, writer.seconds, writer.writes
    t0 = time.perf_counter()
    errata = run_errata(plan_, catalogue, done, seed, progress)
    profile["errata"] = time.perf_counter() - t0
    document = assemble(plan_, done, complete=True, errata=errata, **fixed)
    document["run"]["profile"] = {k: round(v, 3) for k, v in profile.items()}
    write_json_atomic(path, document)
    return document

