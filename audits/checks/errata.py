"""Errata settled by measurement: the registry and the run.

A paper module registers each suspected erratum with :func:`erratum`::

    @erratum("000-E2", printed="soft_label_queries", corrected="soft_label_queries_corrected",
             kind="privacy", involves=("soft_label_classifier",))
    def measure(ctx: ErratumContext) -> dict: ...

``measure`` returns ``{"verdict": one of VERDICTS, "measurement": text with the numbers,
"deciding": which measurement decides, "details": {...}}``. The verdicts say exactly what was shown:

``confirmed``
    a measurement on what the paper states (its printed algorithm, constant or step, on the
    objects the paper applies it to) shows it wrong, and the correction right;
``analytic``
    the erratum stands on an argument, not on a measurement here; the measurement text says why
    nothing can be measured (the record keeps any supporting numbers as such);
``not an erratum``
    an implementation pitfall the paper does not commit (e.g. floating point): listed apart;
``refuted``
    a measurement shows the printed statement holding where the erratum says it fails;
``inconclusive``
    the measurement could not decide (too few trials, a failed run).

``kind`` says what the erratum is about: ``privacy`` (the printed variant breaks its privacy
claim), ``utility`` (an accuracy or sample-complexity statement) or ``proof`` (a step of a proof,
the statement may still hold). ``printed`` / ``corrected`` name the specs of the two variants when
there are some; ``printed_text`` / ``corrected_text`` state the two versions (a formula, a step) when
no spec carries them, so that no report cell is empty. ``ctx.audit(spec_id)`` gives the privacy
audit of a spec, reused from the run when it is there (quick: 2e5 samples per side; full: the
auditor's adaptive default).

Exit codes: a printed spec whose audit flags a violation counts as "as expected" only when a
*privacy* erratum naming it as printed is confirmed (:func:`reclassify`); a utility or proof
erratum never silences a privacy violation.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

from ..base.verdict import AS_EXPECTED, AUDIT_VIOLATION, UNEXPECTED
from ..privacy.claims import from_json

KINDS = ("privacy", "utility", "proof")
VERDICTS = ("confirmed", "analytic", "not an erratum", "refuted", "inconclusive")
AUDIT_SAMPLES = {"quick": 200_000, "full": None}
MEMORY_LIMIT_MB = 4096  # resident memory of one measurement's process tree; above it the measurement is stopped


@dataclass(frozen=True)
class Erratum:
    id: str
    printed: str | None
    corrected: str | None
    kind: str
    involves: tuple[str, ...]
    measure: Callable
    printed_text: str = ""
    corrected_text: str = ""


ERRATA: dict[str, Erratum] = {}


def erratum(erratum_id: str, *, kind: str, printed: str | None = None, corrected: str | None = None,
            involves: tuple[str, ...] = (), printed_text: str = "", corrected_text: str = ""):
    """Decorator registering ``measure(ctx) -> dict`` as the measurement of an erratum."""
    if kind not in KINDS:
        raise ValueError(f"erratum {erratum_id}: kind must be one of {KINDS}")

    def register(measure):
        if erratum_id in ERRATA:
            raise ValueError(f"erratum {erratum_id} registered twice")
        specs = tuple(s for s in (printed, corrected, *involves) if s)
        ERRATA[erratum_id] = Erratum(erratum_id, printed, corrected, kind, specs, measure, printed_text, corrected_text)
        return measure

    return register


def registered() -> dict[str, Erratum]:
    from ..base.discovery import load_papers

    load_papers("errata")
    return ERRATA


@dataclass
class ErratumContext:
    seed: int
    suite: str
    catalogue: dict
    audits: dict = field(default_factory=dict)  # spec id -> privacy-audit JSON of this run

    def audit(self, spec_id: str) -> dict:
        """The privacy audit of ``spec_id`` (reused from the run, else run here; never raises)."""
        done = self.audits.get(spec_id)
        if done is not None and done.get("verdict") not in (None, "error"):
            return {**done, "_reused": True}
        try:
            from ..privacy import audit
            res = audit(self.catalogue[spec_id], samples=AUDIT_SAMPLES[self.suite], seed=self.seed, progress=False)
            self.audits[spec_id] = res.to_json()
        except Exception as exc:  # noqa: BLE001 - a failed audit is reported in the erratum, never raised
            self.audits[spec_id] = {"spec": spec_id, "verdict": "error", "error": f"{type(exc).__name__}: {exc}"}
        return self.audits[spec_id]


def audit_summary(a: dict | None) -> dict | None:
    """The fields of an audit an erratum's details keep."""
    if a is None:
        return None
    stated = from_json(a.get("claim")) if a.get("claim") else None
    return {"spec": a.get("spec"), "verdict": a.get("verdict"), "epsilon_lower_bound": a.get("epsilon_lower_bound"),
            "exact_epsilon": a.get("exact_epsilon"),
            # the claim's parameter (epsilon, or mu, rho, a curve's scale: claim_name says which) and its text
            "claim_epsilon": None if stated is None else stated.value, "claim_name": None if stated is None else stated.name,
            "claim_delta": None if stated is None else stated.delta, "claim": None if stated is None else stated.describe(),
            "samples_per_side": a.get("samples_per_side"),
            "reused_from_run": a.get("_reused", False), **({"error": a["error"]} if a.get("error") else {})}


def wanted(spec_ids, suite: str) -> bool:
    """Run the errata when any involved spec is selected, and always in the full suite."""
    selected = set(spec_ids)
    return suite == "full" or any(selected & set(e.involves) for e in registered().values())


def _measure(e: Erratum, ctx: ErratumContext) -> dict:
    """``e.measure(ctx)``, never raising: a failed measurement is verdict "inconclusive" with the error."""
    try:
        res = e.measure(ctx)
    except Exception as exc:  # noqa: BLE001 - a failed measurement is verdict "inconclusive" with the error
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" ({tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno})" if tb else ""
        res = {"verdict": "inconclusive", "measurement": f"measurement failed: {type(exc).__name__}: {exc}{where}",
               "details": {}}
    from ..base.serialize import jsonable

    return jsonable(res)


def _child(e: Erratum, ctx: ErratumContext, conn) -> None:
    from ..sandbox.proctree import die_with_parent

    die_with_parent()
    res = _measure(e, ctx)
    import resource

    res["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # KiB on Linux
    conn.send(res)
    conn.close()


def measure_apart(e: Erratum, ctx: ErratumContext, limit_mb: float = MEMORY_LIMIT_MB) -> dict:
    """``e``'s measurement in a forked process of its own, so that what it allocates is returned when it
    ends (the errata phase's memory is its largest measurement's, not their sum), stopped with everything
    it started once its resident memory passes ``limit_mb``: then verdict "inconclusive", saying so."""
    from ..sandbox.proctree import fork_context, kill_tree, resident_mb

    mp = fork_context()
    receive, send = mp.Pipe(duplex=False)
    proc = mp.Process(target=_child, args=(e, ctx, send), daemon=False)
    proc.start()
    send.close()
    peak, res = 0.0, None
    try:
        while res is None:
            if receive.poll(0.2):
                res = receive.recv()
            elif not proc.is_alive():
                res = {"verdict": "inconclusive", "details": {},
                       "measurement": f"the measurement's process died (exit code {proc.exitcode}) without a result"}
            else:
                peak = max(peak, resident_mb(proc.pid))
                if peak > limit_mb:
                    kill_tree(proc.pid)
                    res = {"verdict": "inconclusive", "details": {}, "peak_rss_mb": round(peak, 1),
                           "measurement": f"stopped: the measurement's processes held more than {limit_mb:g} MB of "
                                          "memory (its sizes are too large for this machine's budget)"}
    except (EOFError, OSError) as exc:
        res = {"verdict": "inconclusive", "details": {}, "measurement": f"the measurement's process failed: {exc}"}
    finally:
        proc.join(5.0)
        if proc.is_alive():
            kill_tree(proc.pid)
            proc.join()
        receive.close()
    res.setdefault("peak_rss_mb", round(peak, 1))
    return res


def errata_measurements(seed: int, suite: str = "quick", audits: dict | None = None, catalogue=None,
                        spec_ids=None, apart: bool = False) -> list[dict]:
    """Every registered erratum involving a selected spec (all when ``spec_ids`` is None),
    measured (with ``apart``, each in a process of its own under the memory limit, see
    :func:`measure_apart`). Never raises: a failed measurement is verdict "inconclusive" with the error."""
    if catalogue is None:
        from dptestbed.spec import load_catalogue
        catalogue = load_catalogue()
    ctx = ErratumContext(seed, suite, catalogue, dict(audits or {}))
    selected = None if spec_ids is None or suite == "full" else set(spec_ids)
    out = []
    for e in registered().values():
        if selected is not None and not selected & set(e.involves):
            continue
        t0 = time.perf_counter()
        res = measure_apart(e, ctx) if apart else _measure(e, ctx)
        if res.get("verdict") not in VERDICTS:
            res = {**res, "verdict": "inconclusive",
                   "measurement": f"the measurement returned verdict {res.get('verdict')!r}, not one of {VERDICTS}: "
                                  f"{res.get('measurement')}"}
        spec_erratum = (catalogue[e.printed].erratum if e.printed in catalogue else None) or {}
        out.append({"id": e.id, "title": e.id, "kind": e.kind, "description": spec_erratum.get("description"),
                    "printed": e.printed, "corrected": e.corrected,
                    "printed_formula": spec_erratum.get("printed") or e.printed_text or None,
                    "corrected_formula": spec_erratum.get("corrected") or e.corrected_text or None,
                    "verdict": res["verdict"], "measurement": res["measurement"], "deciding": res.get("deciding"),
                    "details": res.get("details", {}), "seconds": time.perf_counter() - t0,
                    **({"peak_rss_mb": res["peak_rss_mb"]} if "peak_rss_mb" in res else {})})
    return out


def reclassify(privacy_results: list[dict], errata: list[dict]) -> None:
    """A printed spec's audit violation is "as expected" when a privacy erratum naming it is
    confirmed (in place). Utility and proof errata never reclassify."""
    confirmed = {e["printed"]: e["id"] for e in errata
                 if e.get("verdict") == "confirmed" and e.get("kind") == "privacy" and e.get("printed")}
    for r in privacy_results:
        eid = confirmed.get(r.get("spec"))
        if eid and r.get("verdict") == AUDIT_VIOLATION and r.get("outcome") == UNEXPECTED:
            r["outcome"] = AS_EXPECTED
            r["erratum_confirmed"] = eid
