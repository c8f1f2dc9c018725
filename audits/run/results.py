"""The results document (``results.json``, format RESULTS_FORMAT, schema
``schemas/results.schema.json``): every item's result with the
multiple-testing correction applied (:func:`assemble`), the run's provenance (versions, commit),
the spec records the report shows, atomic writes, the run-to-run comparison of results
(:func:`comparable`), and what an interrupted run may re-use (:func:`resumable`)."""

from __future__ import annotations

import json
import platform
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING

from dptestbed.spec import Spec

from ..base import verdict as oc
from ..base.serialize import jsonable
from ..checks import theorems as thm
from ..schemas import FORMATS

if TYPE_CHECKING:  # in annotations only: the report and `audit` read results without the suite's planning
    from .planning import Item, Plan

RESULTS_FORMAT = FORMATS["results"]


def versions() -> dict:
    import importlib.metadata as md

    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in ("dptestbed", "numpy", "scipy", "matplotlib"):
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
    from ..checks.experiments import load_registry, theorem_status

    env = spec.bind()

    def formula(f, scope):
        value = f.evaluate(scope) if f.names <= scope.keys() else None
        return {"formula": f.source, "latex": f.latex(), "value": jsonable(value)}

    audited = any(i.kind == "audit" and i.spec == spec.id for i in plan_.items)
    theorems = []
    for t in spec.theorems:
        scope = spec.theorem_values(t.ref, env)
        exps = load_registry().get((spec.id, t.ref), [])
        status = theorem_status(spec, t, audited=audited)
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


def _isolation_level() -> str | None:
    """The isolation level of the sandboxed workers of this run (None: no untrusted implementation)."""
    from ..sandbox import isolation

    return isolation.reported


def run_identity(plan_: Plan) -> dict:
    """What a run's results are bound to beyond its options (``run`` fields; :mod:`..base.integrity`): the
    SHA-256 of the implementation's file, of every spec file, and the digest of dptestbed's code."""
    from ..base.integrity import code_digest, file_digest, implementation_file

    impl_file = implementation_file(plan_.implementation)
    return {"implementation_sha256": file_digest(impl_file) if impl_file else None,
            "specs_sha256": {s.id: file_digest(s.file) for s in plan_.specs},
            "code": code_digest()}


def run_constants(plan_: Plan) -> dict:
    """The ``run`` fields that stay the same while a run lasts: :func:`run_identity`, the commit and the
    versions (computed once a run: the commit asks git)."""
    return {**run_identity(plan_), "commit": git_commit(), "versions": versions()}


def assemble(plan_: Plan, done: list[tuple[Item, dict]], *, seed: int, started: float, complete: bool,
             command: str = "verify", jobs: int = 1, spec_records: list[dict] | None = None,
             errata: list[dict] | None = None, executor: str = "local", identity: dict | None = None) -> dict:
    """The results document (``results.json``), with the multiple-testing correction applied
    to the results so far. ``errata`` (audits.errata.errata_measurements) are written as the
    ``errata`` array; a printed-erratum spec's audit violation is "as expected" when its erratum
    is confirmed (see audits/checks/errata.py). ``identity``: :func:`run_constants` (computed once a run)."""
    theorem_results = [dict(r) for item, r in done if item.kind == "theorem"]
    privacy_results = [dict(r) for item, r in done if item.kind == "audit"]
    finished = {item.id for item, _ in done}
    family = thm.apply_multiple_testing(theorem_results, n_audits=plan_.n_audits,
                                        family_alpha=plan_.family_alpha, n_planned_tests=plan_.n_tests,
                                        family_override=plan_.family_override)
    for r in privacy_results:
        r["class"] = oc.audit_class(r)
        r["outcome"] = oc.outcome(r["class"], r.get("expected"))
    if errata:
        from ..checks.errata import reclassify
        reclassify(privacy_results, errata)
    order = {item.id: k for k, item in enumerate(plan_.items)}
    theorem_results.sort(key=lambda r: order.get(r["id"], 0))
    privacy_results.sort(key=lambda r: order.get(r["id"], 0))
    results = theorem_results + privacy_results
    outcomes = [r["outcome"] for r in results]
    controls = [r for r in results if r.get("expected")]
    judged = [r for r in results if not r.get("control")]  # the implementation's own items (not controls)
    apart = [r for r in judged if reported_apart(r)]
    allowed: dict[str, int] = {}
    if plan_.implementation is not None:  # check: the user's implementation, judged by class
        # setup validations and checks that never called it say nothing about the implementation
        classes = [r["class"] for r in judged if not reported_apart(r)]
        allowed = {c: classes.count(c) for c in plan_.allow if c in classes}
        # a control the check did not flag: the check had no power on this run
        classes += [oc.NO_POWER if r["outcome"] == oc.UNEXPECTED else oc.RUN_ERROR
                    for r in controls if r["outcome"] in (oc.UNEXPECTED, oc.ERROR)]
        code = oc.class_exit_code(classes + ([] if complete else [oc.RUN_ERROR]), plan_.allow)
    else:  # verify: the testbed against its expectations
        code = oc.expectation_exit_code(outcomes + ([] if complete else [oc.ERROR]))
    extra = {}
    if plan_.mutants:
        from . import mutation

        matrix = mutation.kill_matrix(plan_.mutants, theorem_results + privacy_results,
                                      level=family["per_check_level"])
        code = mutation.exit_code(matrix, complete)
        extra["mutants"] = matrix
    return {
        "format": RESULTS_FORMAT,
        "run": {
            "command": command, "suite": plan_.suite, "seed": seed, "seconds": time.time() - started,
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
            "jobs": jobs, "executor": executor, "implementation": plan_.implementation, "tight": plan_.tight,
            **(identity if identity is not None else run_constants(plan_)),
            "isolation": _isolation_level(), "allow": list(plan_.allow), "audit_samples": plan_.audit_samples, "time_budget": plan_.time_budget,
            "randomness": plan_.randomness, "reproducible": plan_.reproducible,
            "complete": complete, "items_planned": len(plan_.items), "items_done": len(done),
            "pending": [i.id for i in plan_.items if i.id not in finished],
        },
        "family": family,
        "summary": {
            "items": len(outcomes), "as_expected": outcomes.count(oc.AS_EXPECTED),
            "unexpected": outcomes.count(oc.UNEXPECTED), "no_power": outcomes.count(oc.OUTCOME_NO_POWER),
            "errors": outcomes.count(oc.ERROR),
            "classes": {c: sum(1 for r in judged if r["class"] == c) for c in oc.CLASSES},
            "controls": len(controls),
            "controls_flagged": sum(1 for r in controls if r["outcome"] == oc.AS_EXPECTED),
            "without_power": [r["id"] for r in results if r["class"] == oc.NO_POWER],
            "apart": [r["id"] for r in apart],
            "allowed": allowed,
            "exit_code": code,
        },
        "specs": spec_records if spec_records is not None else [spec_record(s, plan_) for s in plan_.specs],
        "privacy": privacy_results,
        "theorems": theorem_results,
        "not_checked": plan_.not_checked,
        **({"errata": errata} if errata is not None else {}),
        **extra,
    }


def reported_apart(result: dict) -> bool:
    """A check that says nothing about the implementation under test: a setup validation (it checks the
    instance or the testbed), a check that never called the implementation, or, for a user's implementation, a
    check of the reference's own convention (another tie rule or calibration is valid). Reported apart; it never
    sets the exit code of a ``check``."""
    return (bool(result.get("setup_validation")) or result.get("calls_implementation") is False
            or (bool(result.get("convention")) and result.get("target") == "user"))


# Fields of an item's result that depend on the machine's speed and load, not on the run's seed:
# timings (and the audit's selection/sampling/statistics split), and per audit pair the exact loss of pairs without a candidate (computed while a
# wall-clock budget lasts, privacy.EXACT_BUDGET).
TIMED_FIELDS = frozenset({"seconds", "samples_per_second", "timing", "peak_rss_mb", "clock"})
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


def write_json_atomic(path: Path, document: dict, *, compact: bool = False) -> None:
    """Write ``document`` to ``path`` via a temp file in the same folder and ``os.replace``, signed
    (:func:`..base.integrity.seal`: ``--resume`` and ``report`` accept only what this command line wrote);
    indented, or with ``compact`` on one line (a run's writes before the last: half the bytes, a sixth
    of the time)."""
    from ..base.integrity import seal
    from ..base.outfiles import write

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(seal(document), indent=None if compact else 1, allow_nan=False)
    write(path, text.encode("utf-8"), sync=True)



class ResumeError(ValueError):
    """The results file in the output folder is not a run this plan can continue."""


def resumable(plan_: Plan, document: dict, *, seed: int, command: str) -> list[tuple[Item, dict]]:
    """The finished items of an earlier run's ``document`` that this run may re-use: the document must
    verify (:func:`..base.integrity.verify`: written by this machine's dptestbed, unchanged since), and the
    earlier run must be the same command, suite, seed, implementation (reference and file content), spec
    files, isolation level, dptestbed code, tight setting and plan (the same item ids), and the same
    commit when both runs know theirs; items whose verdict was ``error`` (a crash, a time limit, an
    interruption) are run again. Raises :class:`ResumeError` saying what differs, in one line."""
    from ..base.integrity import verify

    run_ = document.get("run") if isinstance(document, dict) else None
    if not isinstance(run_, dict) or not str(document.get("format", "")).startswith("dptestbed-results/"):
        raise ResumeError("not a dptestbed results file")
    why = verify(document)
    if why:
        raise ResumeError(f"{why}; run without --resume")
    mine = {"command": command, "suite": plan_.suite, "seed": seed, "implementation": plan_.implementation,
            "tight": plan_.tight, "audit_samples": plan_.audit_samples, "time_budget": plan_.time_budget,
            "randomness": plan_.randomness}
    for key, value in mine.items():
        if run_.get(key) != value:
            raise ResumeError(f"it was run with {key} {run_.get(key)!r}, this run has {value!r}")
    identity = {**run_identity(plan_), "isolation": _isolation_level()}
    what = {"implementation_sha256": "the implementation's file changed since (SHA-256 {} then, {} now)",
            "specs_sha256": "a spec file changed since (SHA-256 by spec: {} then, {} now)",
            "code": "it was computed by other dptestbed code (digest {} then, {} now)",
            "isolation": "its implementation ran at the isolation level {}, this run's would run at {}"}
    for key, text in what.items():
        if run_.get(key) != identity[key]:
            raise ResumeError(text.format(json.dumps(run_.get(key)), json.dumps(identity[key])))
    commit = git_commit()
    if run_.get("commit") and commit and run_["commit"] != commit:
        raise ResumeError(f"it was computed by commit {run_['commit']}, this is {commit}")
    earlier = [r for key in ("privacy", "theorems") for r in document.get(key) or []]
    ids = {r.get("id") for r in earlier} | set(run_.get("pending") or [])
    by_id = {item.id: item for item in plan_.items}
    if ids != by_id.keys():
        raise ResumeError(f"its plan differs from this one ({len(ids ^ by_id.keys())} items are in one plan only)")
    return [(by_id[r["id"]], r) for r in earlier if r.get("verdict") != "error"]
