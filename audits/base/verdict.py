"""The verdict's one home: the classes (the one word a user acts on, for every item of every run), the
verdicts they are read from, the outcomes against expectations, the exit codes, and the multiple-testing
family whose level every statistical verdict is taken at (:class:`Family`).

Every privacy audit and theorem check ends in exactly one class:

``claim violated``
    a measurement shows a privacy claim or a theorem's statement broken, at the parameters printed
    beside it: an audit's epsilon lower bound above the claim of the pair it was measured on; a
    bound check's failure rate above the theorem's beta; a property that the theorem states
    failing on the implementation's output.
``differs from the spec``
    the implementation's law, output or behaviour differs from the spec's algorithm while no claim
    is shown broken: an exact-law calibration or a transcript law rejected, a convention of the
    reference not followed (a check with ``tests = "conformance"``), or an audit bound above the
    spec mechanism's exact loss on a pair but within the claim.
``no power``
    the check could not have detected a violation at this size: an audit whose smallest detectable
    epsilon is more than its resolution above the claim (:data:`..privacy.result.AUDIT_RESOLUTION`),
    or a statistical check whose power against its reference alternative is below
    :data:`..checks.theorems.POWER_TARGET`. Never counted as a pass.
``implementation error``
    the implementation crashed, hung past its limit, or broke the contract (randomness not from
    ``rng``, a wrong output encoding, NaN).
``pass``
    measured with power, and nothing found.
``run error``
    the testbed could not run the item (its own failure, an interruption): no verdict.

Exit codes of ``audit`` and ``check`` (the most severe class present decides, in the order
:data:`SEVERITY`): 0 pass, 1 claim violated, 3 differs from the spec, 4 no power, 5 implementation
error, 6 run error; 2 is bad usage (an unknown spec, a bad parameter), 130 an interruption.
``--allow CLASS`` (``differs``, ``no-power``) turns those classes into exit 0 for users who gate on
privacy claims only; the console and the report still show them.

``verify`` and ``mutants`` check the testbed itself against expectations (references must pass,
negative controls must be flagged, mutants must be killed): 0 every outcome as expected, 1 an
unexpected outcome, 4 no unexpected outcome but some item without power, 6 some item could not run.

One run is one family (:class:`Family`): its false-alarm rate alpha is split before anything runs
between its K statistical checks and privacy audits: the theorem tests share alpha * n_tests / K
(Holm-corrected), each audit runs at confidence 1 - alpha / K, and a negative control is tested at the
per-check level alpha / K. The command line's runs use :data:`FAMILY_ALPHA`, one check call of the pytest
plugin :data:`CALL_ALPHA`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum


class ItemClass(StrEnum):
    """The one word a user acts on, for every item of every run (the module's docstring defines each). A
    ``str``: results.json, the console and the API carry its value."""

    PASS = "pass"
    CLAIM_VIOLATED = "claim violated"
    DIFFERS = "differs from the spec"
    NO_POWER = "no power"
    IMPLEMENTATION_ERROR = "implementation error"
    RUN_ERROR = "run error"


class AuditVerdict(StrEnum):
    """The verdict a privacy audit states (``AuditResult.verdict``); :data:`AUDIT_CLASS` reads its class."""

    VIOLATION = "violation"
    NO_VIOLATION = "no violation found"
    DIFFERS = "differs from the spec"
    NO_POWER = "no power"
    IMPLEMENTATION_ERROR = "implementation error"


class CheckVerdict(StrEnum):
    """The verdict of a theorem check (its ``verdict`` field) after the multiple-testing correction."""

    VIOLATED = "violated"
    CONSISTENT = "consistent"
    INCONCLUSIVE = "inconclusive"
    ERROR = "error"


class Outcome(StrEnum):
    """An item's outcome against its expectation (``verify``, ``mutants``)."""

    AS_EXPECTED = "as expected"
    UNEXPECTED = "unexpected"
    NO_POWER = "no power"
    ERROR = "error"


CLAIM_VIOLATED, DIFFERS, NO_POWER = ItemClass.CLAIM_VIOLATED, ItemClass.DIFFERS, ItemClass.NO_POWER
IMPLEMENTATION_ERROR, PASS, RUN_ERROR = ItemClass.IMPLEMENTATION_ERROR, ItemClass.PASS, ItemClass.RUN_ERROR
CLASSES = tuple(ItemClass)
FLAGGED = (CLAIM_VIOLATED, DIFFERS)  # a negative control or a mutant is caught by one of these

AUDIT_VIOLATION, AUDIT_NO_VIOLATION = AuditVerdict.VIOLATION, AuditVerdict.NO_VIOLATION
AUDIT_VALUES = frozenset(v.value for v in AuditVerdict)
AUDIT_CLASS = {AuditVerdict.VIOLATION: CLAIM_VIOLATED, AuditVerdict.DIFFERS: DIFFERS, AuditVerdict.NO_POWER: NO_POWER,
               AuditVerdict.IMPLEMENTATION_ERROR: IMPLEMENTATION_ERROR, AuditVerdict.NO_VIOLATION: PASS}

EXIT_OK, EXIT_USAGE, EXIT_INTERRUPTED = 0, 2, 130
EXIT_CODES = {PASS: 0, CLAIM_VIOLATED: 1, DIFFERS: 3, NO_POWER: 4, IMPLEMENTATION_ERROR: 5, RUN_ERROR: 6}
SEVERITY = (CLAIM_VIOLATED, IMPLEMENTATION_ERROR, DIFFERS, RUN_ERROR, NO_POWER, PASS)  # most severe first
ALLOWABLE = {"differs": DIFFERS, "no-power": NO_POWER}  # --allow NAME

# verify / mutants: outcomes against expectations
AS_EXPECTED, UNEXPECTED, OUTCOME_NO_POWER, ERROR = Outcome.AS_EXPECTED, Outcome.UNEXPECTED, Outcome.NO_POWER, Outcome.ERROR
EXPECTATION_EXIT = {AS_EXPECTED: 0, UNEXPECTED: 1, OUTCOME_NO_POWER: 4, ERROR: 6}
EXPECTATION_SEVERITY = (UNEXPECTED, ERROR, OUTCOME_NO_POWER, AS_EXPECTED)
OUTCOME_MARK = {AS_EXPECTED: "ok", UNEXPECTED: "UNEXPECTED", ERROR: "ERROR", OUTCOME_NO_POWER: "NO POWER"}  # console

EXIT_TEXT = {
    0: "PASS: every check measured with power, nothing found",
    1: "CLAIM VIOLATED: a measurement shows a privacy claim or a theorem's statement broken",
    3: "DIFFERS FROM THE SPEC: the implementation's law or behaviour differs from the spec's algorithm "
       "(no claim shown broken)",
    4: "NO POWER: some check could not have detected a violation at this size",
    5: "IMPLEMENTATION ERROR: the implementation crashed, hung or broke the contract",
    6: "RUN ERROR: some items could not run",
}
EXPECTATION_TEXT = {
    0: "PASS: every outcome as expected",
    1: "FAIL: unexpected outcome(s)",
    4: "NO POWER: every outcome as expected, but some checks had no power",
    6: "ERROR: some items could not run",
}
HELP = ("exit codes: 0 pass (measured with power, nothing found); 1 claim violated; 2 bad usage; 3 differs from the "
        "spec (no claim shown broken); 4 no power (a check could not have detected a violation); 5 implementation "
        "error (crash, hang, contract breach); 6 run error (an item could not run); 130 interrupted")


FAMILY_ALPHA = 0.01  # family-wise false-alarm rate of a run of the command line (verify, check, audit, mutants)
CALL_ALPHA = 1e-3  # family-wise false-alarm rate of one check call of the pytest plugin (--dptestbed-alpha)


@dataclass(frozen=True)
class Family:
    """One multiple-testing family: the false-alarm rate ``alpha`` shared by ``n_tests`` statistical checks
    and ``n_audits`` privacy audits, split before anything runs. Its size K is ``n_tests + n_audits`` (at
    least 1), or ``override`` (a mutants run tests each cell at the level of a one-spec ``check``)."""

    alpha: float
    n_tests: int
    n_audits: int
    override: int | None = None

    @property
    def size(self) -> int:
        return self.override or max(1, self.n_tests + self.n_audits)

    @property
    def level(self) -> float:
        """The per-check level alpha / K: a privacy audit's risk, a negative control's level, the level a
        ``test`` check computes its power at."""
        return self.alpha / self.size

    @property
    def confidence(self) -> float:
        """The confidence of each privacy audit, 1 - alpha / K."""
        return 1 - self.alpha / self.size

    @property
    def tests_alpha(self) -> float:
        """The theorem tests' share of alpha, alpha * n_tests / K, over which Holm's correction runs."""
        return self.alpha * self.n_tests / self.size


def audit_class(result: Mapping) -> ItemClass:
    """The class of a privacy audit's result (``AuditResult.to_json()``, or an error item)."""
    verdict = result.get("verdict")
    return AUDIT_CLASS[AuditVerdict(verdict)] if verdict in AUDIT_VALUES else RUN_ERROR


def check_class(result: Mapping) -> ItemClass:
    """The class of a theorem check's result (after the multiple-testing correction set its verdict):
    a rejected check of a theorem's statement is a claim violated, of a conformance check a
    difference from the spec."""
    verdict = result.get("verdict")
    if verdict == CheckVerdict.VIOLATED:
        return DIFFERS if result.get("tests") == "conformance" else CLAIM_VIOLATED
    if verdict == CheckVerdict.INCONCLUSIVE:
        return NO_POWER
    if verdict == CheckVerdict.CONSISTENT:
        return PASS
    if verdict == CheckVerdict.ERROR and result.get("error_kind") == "implementation":
        return IMPLEMENTATION_ERROR
    return RUN_ERROR


def item_class(result: Mapping) -> ItemClass:
    """The class of any item's result, the one function that turns a measurement into a class (an audit
    has ``epsilon_lower_bound`` or an audit point, a check has ``ref``)."""
    return check_class(result) if "ref" in result else audit_class(result)


def expects_flag(result: Mapping) -> bool:
    """Whether an item is expected to be flagged (a negative control: an audit expecting a violation, a
    check expecting its statement violated)."""
    return result.get("expected") in (AuditVerdict.VIOLATION, CheckVerdict.VIOLATED)


def outcome(cls: str, expected: str | None) -> Outcome:
    """An item's outcome against its expectation: ``expected`` None (a reference or a user's
    implementation: it should pass) or a flag ("violated", "violation": a negative control)."""
    if cls in (RUN_ERROR, IMPLEMENTATION_ERROR):
        return ERROR
    if expected:
        return AS_EXPECTED if cls in FLAGGED else UNEXPECTED
    if cls in FLAGGED:
        return UNEXPECTED
    return OUTCOME_NO_POWER if cls == NO_POWER else AS_EXPECTED


def class_exit_code(classes, allow=()) -> int:
    """The exit code of a run judged by its classes (``audit``, ``check``): the most severe class
    present, with the ``allow``-ed classes counted as passes."""
    present = {PASS if c in allow else c for c in classes}
    worst = next((c for c in SEVERITY if c in present), PASS)
    return EXIT_CODES[worst]


def expectation_exit_code(outcomes) -> int:
    """The exit code of a run judged against expectations (``verify``, ``mutants``)."""
    present = set(outcomes)
    worst = next((o for o in EXPECTATION_SEVERITY if o in present), AS_EXPECTED)
    return EXPECTATION_EXIT[worst]
