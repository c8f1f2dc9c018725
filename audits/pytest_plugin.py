"""pytest plugin: check your own implementation against a dptestbed spec, in your own suite.

Installed with dptestbed (entry point ``pytest11: dptestbed``); nothing to configure::

    def test_my_sparse_vector(dptestbed):
        dptestbed.check("sparse_vector", my_sparse_vector)        # privacy audit + theorem checks

    def test_privacy_only(dptestbed):
        dptestbed.audit("laplace_mechanism", "src/mech.py:laplace", params={"epsilon": 0.5})

    def test_theorems_only(dptestbed):
        dptestbed.theorems("distance_to_instability", my_stab)

    def test_a_claim_without_a_spec_file(dptestbed):
        dptestbed.audit_claim(my_mean, epsilon=1.0, relation="replace_one", input_kind="dataset",
                              pairs=[([0.0] * 10, [1.0] + [0.0] * 9)])

An implementation is a callable meeting the contract ``mechanism(data, *, rng, **params)``
(optionally with a ``.batch`` sampler) or a reference string (``path/to/file.py:function``,
``package.module:function``). Every class but a pass fails the test (:mod:`.base.verdict`): a claim
violated with the counterexample in the message, a difference from the spec with what differs, no
power with the smallest detectable loss, an implementation that raises, hangs (per-call timeout) or
returns the wrong shape with the reason; ``allow=("differs", "no-power")`` lets those two pass. Each
call returns the JSON results (each item with its ``class``), for further assertions.

A callable runs as ``dptestbed check`` runs a file: never in the test process, only in sandboxed workers
(docs/isolation.md), fresh interpreters that import it anew by its module and qualified name (the
module found where the test process found it, which the workers may read), so nothing it starts
outlives the session. It must be defined at the top level of a module (``from mypkg import my_svt``,
or a function of the test module); a lambda, a function made inside another, a method or a
``functools.partial`` fails the test in one line: give it a name in a module, or a reference string.
What the test does to it at run time (``fn.batch = ...`` inside a test) the workers do not see. The
module's top-level code has run in the test process already when the test imported it. A callable of
dptestbed's own (``dptestbed.impl``) is trusted and runs as the reference implementations do.

Code that draws its own randomness (a library's OS entropy, ``np.random``) is audited as it is with
``randomness="own"`` (``check``, ``audit``, ``audit_claim``, ``theorems``): no determinism probe and no
replay check, the same statistics and confidence; the result says it is not reproducible. Every worker
seeds the global numpy and ``random`` generators from OS entropy before it imports the implementation.

Statistics: the checks of one call form one family; its false-alarm rate (a correct
implementation failing the test) is at most ``--dptestbed-alpha`` (default 1e-3): Holm
over the theorem tests plus a Bonferroni share per privacy audit, as in ``dptestbed verify``.

Settings, each a command-line option or an ini option (``[tool.pytest.ini_options]``,
``pytest.ini``; the command line wins): ``--dptestbed-seed``/``dptestbed_seed`` (default 0),
``--dptestbed-suite``/``dptestbed_suite`` (quick|full, default quick),
``--dptestbed-alpha``/``dptestbed_alpha`` (default 1e-3), ``--dptestbed-deadline``/``dptestbed_deadline``
(seconds one call of ``check``, ``audit`` or ``theorems`` may take however its implementation spends
them, default 1800: a hung implementation fails the test with the reason, it never hangs the suite),
``--dptestbed-jobs``/``dptestbed_jobs`` (worker processes of a privacy audit, default two, as ``--jobs``
of the command line), ``--dptestbed-time-budget``/``dptestbed_time_budget`` (wall seconds of each privacy
audit: as many samples as fit, for slow per-call code, as ``--time-budget``; the result then depends on
the machine's speed). ``check``, ``audit`` and ``audit_claim`` also take ``time_budget=`` per call. The
settings line follows the "collected" line when the session collected a test that uses the fixture
(other projects' sessions in the same environment never see it).

Every check a test runs is recorded as junit properties of the test (``record_property``: ``--junitxml``
writes them) and summed up in a ``dptestbed`` section at the end of the session: the class, for a privacy
audit the epsilon lower bound against the claim, and the counterexample in the user's terms.

Every test that uses the ``dptestbed`` fixture carries the ``dptestbed`` marker: ``pytest -m
dptestbed`` runs those tests alone, ``-m "not dptestbed"`` all the others.

The plugin is loaded by pytest (entry point ``pytest11``), so pytest is no dependency of
dptestbed's command line: ``pip install '.[pytest]'`` in a dptestbed clone installs the pytest it is
tested with.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

from dptestbed.audits.base import verdict

ALPHA = verdict.CALL_ALPHA
DEADLINE = 1800.0  # seconds of one check call
SUITES = ("quick", "full")
# name: (type, default, help); each is --dptestbed-NAME on the command line and dptestbed_NAME in the ini file
SETTINGS: dict[str, tuple[Callable[[str], Any], Any, str]] = {
    "seed": (int, 0, "seed of the dptestbed checks (default 0)"),
    "suite": (str, "quick", "trial counts of the dptestbed theorem checks: quick or full (default quick)"),
    "alpha": (float, ALPHA, "false-alarm rate of one dptestbed check call (default 1e-3)"),
    "deadline": (float, DEADLINE, f"seconds one dptestbed check call may take (default {DEADLINE:g})"),
    "jobs": (int, None, "worker processes of a dptestbed privacy audit (default two)"),
    "time_budget": (float, None, "wall seconds of each dptestbed privacy audit: as many samples as fit "
                                 "(default: fixed sample sizes)"),
}

Implementation = Callable[..., Any] | str  # a callable meeting the contract, or "path/to/file.py:function"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("dptestbed", "dptestbed: differential-privacy spec checks")
    for name, (kind, _, text) in SETTINGS.items():
        group.addoption(f"--dptestbed-{name.replace('_', '-')}", dest=f"dptestbed_{name}", type=kind, default=None,
                        help=text, **({"choices": SUITES} if name == "suite" else {}))
        parser.addini(f"dptestbed_{name}", text)


def setting(config: pytest.Config, name: str) -> Any:
    """The value of setting ``name`` (:data:`SETTINGS`): the command line's, else the ini file's,
    else the default; a bad ini value is a usage error naming the option."""
    kind, default, _ = SETTINGS[name]
    value = config.getoption(f"dptestbed_{name}")
    if value is not None:
        return value
    raw = config.getini(f"dptestbed_{name}")
    if not raw:
        return default
    try:
        value = kind(raw)
    except ValueError:
        raise pytest.UsageError(f"ini option dptestbed_{name} = {raw!r}: not a valid {kind.__name__}") from None
    if name == "suite" and value not in SUITES:
        raise pytest.UsageError(f"ini option dptestbed_suite = {raw!r}: must be one of {', '.join(SUITES)}")
    return value


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "dptestbed: a test that checks an implementation against a dptestbed spec "
                                       "(set on every test that uses the dptestbed fixture)")


def pytest_report_collectionfinish(config: pytest.Config, items: list[pytest.Item]) -> str | None:
    """The settings line, after the "collected" line, when a collected test uses the fixture."""
    if not any("dptestbed" in getattr(item, "fixturenames", ()) for item in items):
        return None
    extra = "".join(f", {name.replace('_', ' ')} {setting(config, name):g}" for name in ("jobs", "time_budget")
                    if setting(config, name) is not None)
    return (f"dptestbed: seed {setting(config, 'seed')}, suite {setting(config, 'suite')}, "
            f"alpha {setting(config, 'alpha'):g} (false-alarm rate of one check call){extra}")


def pytest_unconfigure(config: pytest.Config) -> None:
    """The session ends: every worker the checks started ends with everything it started (and, for root,
    every process and file of the run's own user, :func:`dptestbed.audits.sandbox.isolation.end_run`)."""
    import sys

    if "dptestbed.audits.sandbox.runner" in sys.modules:
        from dptestbed.audits.sandbox import isolation, runner

        runner.close_cached()
        isolation.end_run()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "dptestbed" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.dptestbed)


PROPERTY = "dptestbed: "  # the junit properties the plugin records are named "dptestbed: CHECK: FIELD"


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """A ``dptestbed`` section: one line per check a test ran, from the test's junit properties."""
    lines = []
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) != "call":
                continue
            checks: dict[str, dict[str, Any]] = {}
            for name, value in getattr(report, "user_properties", ()):
                if isinstance(name, str) and name.startswith(PROPERTY):
                    check, _, field = name[len(PROPERTY):].rpartition(": ")
                    checks.setdefault(check, {})[field] = value
            for check, fields in checks.items():
                lines.append(f"{report.nodeid}: {check}: " + "; ".join(
                    f"{v}" if k == "class" else f"{k}: {v:.4g}" if isinstance(v, float) else f"{k}: {v}"
                    for k, v in fields.items()))
    if lines:
        terminalreporter.write_sep("=", "dptestbed")
        for line in lines:
            terminalreporter.write_line(line)


class SpecChecker:
    """What the ``dptestbed`` fixture returns; also usable directly (``SpecChecker().check(...)``)."""

    def __init__(self, seed: int = 0, suite: str = "quick", alpha: float = ALPHA, timeout: float = 60.0,
                 deadline: float = DEADLINE, jobs: int | None = None, time_budget: float | None = None,
                 record: Callable[[str, Any], None] | None = None):
        self.seed, self.suite, self.alpha, self.timeout = int(seed), suite, float(alpha), float(timeout)
        self._allow: tuple[str, ...] = ()
        self._randomness = "rng"
        self.deadline = float(deadline)
        self.jobs, self.time_budget = jobs, time_budget
        self._record = record  # record_property of the test (the fixture's), or None

    # ----------------------------------------------------------------- public API
    def check(self, spec_id: str, implementation: Implementation, *, params: dict[str, Any] | None = None,
              samples: int | None = None, audit: bool = True, theorems: bool = True,
              allow: Sequence[str] = (), randomness: str = "rng", time_budget: float | None = None) -> dict[str, Any]:
        """Privacy audit and every registered theorem check of ``spec_id``; fails the test on any
        class but a pass (those named in ``allow`` excepted). Returns ``{"privacy": ..., "theorems": [...]}``.
        ``randomness="own"``: the implementation draws from a source of its own (see the module docstring)."""
        spec = self._spec(spec_id)
        implementation = sandboxed(implementation)
        self._allow = _allowed(allow)
        self._randomness = _randomness(randomness)
        from dptestbed.audits.checks.experiments import experiments_for
        from dptestbed.audits.checks.theorems import STATISTICAL_KINDS
        from dptestbed.audits.sandbox.cpulimit import deadline

        exps = experiments_for(spec, self.suite) if theorems else []
        n_tests = sum(1 for e in exps if e.kind in STATISTICAL_KINDS)
        n_audits = 1 if audit and spec.privacy is not None else 0
        family = verdict.Family(self.alpha, n_tests, n_audits)
        problems: list[str] = []
        out: dict[str, Any] = {"privacy": None, "theorems": []}
        with deadline(self.deadline, f"dptestbed.check of {spec_id}"):
            if n_audits:
                out["privacy"] = self._audit(spec, implementation, params, samples, family.confidence, problems,
                                             time_budget)
            if exps:
                out["theorems"] = self._theorems(spec, exps, implementation, n_audits, family.level, problems)
        if not n_audits and not exps:
            pytest.fail(f"dptestbed: {spec_id} has no privacy claim and no registered theorem experiment: "
                        f"nothing to check", pytrace=False)
        if problems:
            pytest.fail("\n".join(problems), pytrace=False)
        return out

    def audit(self, spec_id: str, implementation: Implementation, *, params: dict[str, Any] | None = None,
              samples: int | None = None, confidence: float | None = None, allow: Sequence[str] = (),
              randomness: str = "rng", time_budget: float | None = None) -> dict[str, Any]:
        """The privacy audit alone; fails the test on any class but a pass (with the counterexample
        for a claim violated)."""
        spec = self._spec(spec_id)
        implementation = sandboxed(implementation)
        self._allow = _allowed(allow)
        self._randomness = _randomness(randomness)
        if spec.privacy is None:
            pytest.fail(f"dptestbed: {spec_id} makes no privacy claim", pytrace=False)
        problems: list[str] = []
        from dptestbed.audits.sandbox.cpulimit import deadline

        with deadline(self.deadline, f"dptestbed.audit of {spec_id}"):
            result = self._audit(spec, implementation, params, samples, confidence or 1 - self.alpha, problems,
                                 time_budget)
        if problems:
            pytest.fail("\n".join(problems), pytrace=False)
        return result

    def audit_claim(self, mechanism, *, relation: str, pairs, epsilon: float | None = None, delta: float = 0.0,
                    gdp: float | None = None, zcdp: float | None = None, renyi=None, curve=None,
                    sensitivity: float = 1.0, input_kind: str = "vector", params: dict | None = None,
                    samples: int | None = None, allow=(), randomness: str = "rng",
                    time_budget: float | None = None) -> dict:
        """A privacy audit of an ad-hoc claim, without a spec file (:func:`dptestbed.audits.adhoc.adhoc_spec`):
        one of ``epsilon`` (with ``delta``), ``gdp`` (mu), ``zcdp`` (rho), ``renyi`` ([(alpha, epsilon), ...]),
        ``curve`` ([(epsilon, delta), ...]); fails the test on any class but a pass, as :meth:`audit`."""
        from dptestbed.audits.adhoc import adhoc_spec

        try:
            spec = adhoc_spec(epsilon=epsilon, delta=delta, gdp=gdp, zcdp=zcdp, renyi=renyi, curve=curve,
                              relation=relation, sensitivity=sensitivity, pairs=pairs, input_kind=input_kind,
                              params=params, name=_name(mechanism))
        except ValueError as exc:
            pytest.fail(f"dptestbed: {exc}", pytrace=False)
        mechanism = sandboxed(mechanism)
        self._allow = _allowed(allow)
        self._randomness = _randomness(randomness)
        problems: list[str] = []
        from dptestbed.audits.sandbox.cpulimit import deadline

        with deadline(self.deadline, "dptestbed.audit_claim"):
            result = self._audit(spec, mechanism, None, samples, 1 - self.alpha, problems, time_budget,
                                 label=f"{_name(mechanism)} (ad-hoc claim)")
        if problems:
            pytest.fail("\n".join(problems), pytrace=False)
        return result

    def theorems(self, spec_id: str, implementation: Implementation, *, allow: Sequence[str] = (),
                 randomness: str = "rng") -> list[dict[str, Any]]:
        """Every registered theorem check alone; fails the test on any class but a pass."""
        return self.check(spec_id, implementation, audit=False, allow=allow, randomness=randomness)["theorems"]

    # ----------------------------------------------------------------- internals
    @staticmethod
    def _spec(spec_id: str):
        from dptestbed.spec import load_catalogue

        catalogue = load_catalogue()
        try:
            return catalogue.get_spec(spec_id)
        except KeyError as exc:
            pytest.fail(f"dptestbed: {exc.args[0]}", pytrace=False)

    def _audit(self, spec, implementation, params, samples, confidence, problems, time_budget=None, *,
               label: str | None = None) -> dict:
        from dptestbed.audits.privacy import audit
        from dptestbed.audits.report import counterexample_text
        from dptestbed.audits.report.model import audit_claim, fmt_num

        budget = self.time_budget if time_budget is None else time_budget
        result = audit(spec, implementation=implementation, params=params, samples=samples,
                       confidence=confidence, seed=self.seed, timeout=self.timeout, jobs=self.jobs,
                       time_budget=budget, randomness=self._randomness).to_json()
        cls, label = result["class"], label or spec.id
        claim, _ = audit_claim(result)
        self._properties(f"{label} privacy audit", {
            "class": cls,
            "epsilon lower bound": result.get("epsilon_lower_bound"),
            "claim": f"epsilon = {fmt_num(claim.get('epsilon'), 4)}, delta = {fmt_num(claim.get('delta'), 4)}",
            "confidence": result.get("confidence"),
            "counterexample": " ".join((counterexample_text(result) or "").split()) or None,
            "reason": result.get("reason") if cls == verdict.IMPLEMENTATION_ERROR else None})
        if cls in (verdict.PASS, *self._allow):
            return result
        if cls in (verdict.CLAIM_VIOLATED, verdict.DIFFERS):
            problems.append(f"dptestbed: privacy audit of {label}: {cls}:\n{counterexample_text(result)}")
        elif cls == verdict.NO_POWER:
            power = result.get("power") or {}
            problems.append(f"dptestbed: privacy audit of {label}: no power: the smallest loss it could show is "
                            f"{power.get('minimum_detectable_epsilon')} against a claim of {power.get('claim')} "
                            f"(give more samples or a time budget)")
        else:
            problems.append(f"dptestbed: privacy audit of {label}: {cls}: {result.get('reason') or result.get('error')}")
        return result

    def _properties(self, check: str, fields: dict[str, Any]) -> None:
        """Record a check's fields (those not None) as junit properties ``dptestbed: CHECK: FIELD``."""
        if self._record is not None:
            for field, value in fields.items():
                if value is not None:
                    self._record(f"{PROPERTY}{check}: {field}", value)

    def _theorems(self, spec, exps, implementation, n_audits, level, problems) -> list[dict]:
        import numpy as np

        from dptestbed.audits.checks.experiments import check_id, run_check
        from dptestbed.audits.checks.theorems import apply_multiple_testing
        from dptestbed.audits.run.planning import item_seed

        results = []
        for exp in exps:
            rng = np.random.default_rng(item_seed(self.seed, check_id(spec.id, exp.ref, exp.name, "user")))
            results.append(run_check(spec, exp, implementation, suite=self.suite, rng=rng, timeout=self.timeout,
                                     target="user", randomness=self._randomness, level=level))
        apply_multiple_testing(results, n_audits=n_audits, family_alpha=self.alpha)
        for r in results:
            counterexample = r.get("counterexample")
            self._properties(f"{r['spec']} {r['ref']} {r['check']}", {
                "class": r["class"], "p-value": r.get("p_value_adjusted", r.get("p_value")),
                "failures": f"{r['failures']} of {r['trials']} runs" if r.get("kind") in ("bound", "property")
                and r.get("trials") else None,
                "counterexample": None if counterexample is None else json.dumps(counterexample)[:2000],
                "error": r.get("error")})
            if r["class"] in (verdict.PASS, *self._allow):
                continue
            if r["class"] in (verdict.CLAIM_VIOLATED, verdict.DIFFERS):
                problems.append(_describe_violation(r))
            elif r["class"] == verdict.NO_POWER:
                problems.append(f"dptestbed: {r['spec']} {r['ref']} ({r['check']}): no power: its power against the "
                                f"reference alternative is {r.get('power')}")
            else:
                problems.append(f"dptestbed: {r['spec']} {r['ref']} ({r['check']}) could not run: {r['error']}")
        return results


def sandboxed(implementation: Implementation) -> Implementation:
    """What the checks run for ``implementation`` (module docstring): a reference string, or a callable of
    dptestbed's own, as it is; any other callable as the reference a sandboxed worker imports it anew by
    (``module:name``, the folders the test process imports from given to the workers; the file's path
    when the module's name does not say where its file lies); the test fails in one line when it cannot
    be imported anew."""
    import os
    import sys

    from dptestbed.audits.sandbox import isolation
    from dptestbed.audits.sandbox.runner import is_trusted

    if isinstance(implementation, str) or is_trusted(implementation):
        return implementation
    fn = implementation
    name, qualname = getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)
    module = sys.modules.get(name) if isinstance(name, str) else None
    file = getattr(module, "__file__", None)
    if not callable(fn) or not isinstance(qualname, str) or not qualname.isidentifier():
        why = "is not a function defined at the top level of a module (a lambda, a function made inside another, a method)"
    elif name == "__main__" or not file:
        why = f"lives in {name!r}, which has no file to import it from"
    elif getattr(module, qualname, None) is not fn:
        why = f"is not what {name}.{qualname} names (it was made or replaced at run time)"
    else:
        why = None
    if why:
        pytest.fail(f"dptestbed: the implementation {qualname or fn!r} cannot be imported again in the sandbox: it "
                    f"{why}; define it at the top level of a module, or give 'path/to/file.py:function'", pytrace=False)
    parts, path = str(name).split("."), os.path.realpath(str(file))
    stem = os.path.dirname(path) if os.path.basename(path) == "__init__.py" else os.path.splitext(path)[0]
    if stem.split(os.sep)[-len(parts):] != parts:  # a module under a name of pytest's own: by its file
        return f"{path}:{qualname}"
    root = stem
    for _ in parts:
        root = os.path.dirname(root)
    isolation.import_from([root, *(p for p in sys.path if p)])
    return f"{name}:{qualname}"


def _name(mechanism) -> str:
    return mechanism if isinstance(mechanism, str) else getattr(mechanism, "__qualname__", str(mechanism))


def _randomness(value: str) -> str:
    from dptestbed.audits.sandbox.runner import RANDOMNESS

    if value not in RANDOMNESS:
        raise ValueError(f"randomness: {value!r} is not one of {list(RANDOMNESS)}")
    return value


def _allowed(allow: Iterable[str]) -> tuple[str, ...]:
    unknown = [a for a in allow if a not in verdict.ALLOWABLE]
    if unknown:
        raise ValueError(f"allow: {unknown[0]!r} is not one of {sorted(verdict.ALLOWABLE)}")
    return tuple(verdict.ALLOWABLE[a] for a in allow)


def _describe_violation(r: dict) -> str:
    head = f"dptestbed: {r['spec']} {r['ref']}: {r['class']} ({r['check']}: {r['title']})"
    if r["kind"] == "bound":
        body = (f"{r['failures']} failures in {r['trials']} trials (rate {r['failure_rate']:.4g}) against "
                f"beta = {r['beta']:.4g}; p = {r['p_value']:.3g}, Holm-adjusted {r.get('p_value_adjusted', 1):.3g}\n"
                f"instance: {r['instance']}")
    elif r["kind"] == "calibration":
        cells = "; ".join(f"{c['label']}: {c['events']}/{c['trials']} = {c['rate']:.4g} vs exact {c['exact']:.4g} "
                          f"(p = {c['p_value']:.3g})" for c in r.get("cells", []))
        body = f"measured rates differ from the exact probabilities: {cells}"
    else:
        body = f"{r['failures']} of {r['trials']} runs break it; counterexample: {json.dumps(r.get('counterexample'))}"
    return f"{head}\n{body}\nparameters: {r.get('params')}"


@pytest.fixture
def dptestbed(request: pytest.FixtureRequest) -> SpecChecker:
    """Check an implementation against a dptestbed spec: ``dptestbed.check(spec_id, impl)``."""
    config = request.config
    return SpecChecker(seed=setting(config, "seed"), suite=setting(config, "suite"), alpha=setting(config, "alpha"),
                       deadline=setting(config, "deadline"), jobs=setting(config, "jobs"),
                       time_budget=setting(config, "time_budget"),
                       record=lambda name, value: request.node.user_properties.append((name, value)))
