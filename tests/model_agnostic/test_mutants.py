"""Seed-000/004 mutants: declarations are well formed, the exact transcript laws are right, and
each mutant is killed by its first declared check (cheap checks here; the Sec. 4 ones are slow)."""

import math

import pytest

from dptestbed.audits import theorems as thm
from dptestbed.audits.experiments import load_registry, run_check
from dptestbed.audits.model_agnostic.transcripts import sequence_law, soft_law, soft_multisets
from dptestbed.audits.runner import load_implementation
from dptestbed.impl.model_agnostic.mutants import MUTANTS
from dptestbed.spec import load_catalogue

CATALOGUE = load_catalogue()
REGISTRY = load_registry()
LEVEL = thm.FAMILY_ALPHA / 30  # about the strictest per-check level of a one-spec `check` run
SLOW_SPECS = {"private_classification_queries", "label_private_learner"}  # seconds per run: marked slow
CHEAP = 20_000


def _experiment(check_id: str):
    spec_id, rest = check_id.split("/", 1)
    ref, name = rest.rsplit("/", 1)
    return spec_id, next(e for e in REGISTRY[(spec_id, ref)] if e.name == name)


def _killed(mutant) -> tuple[bool, str]:
    for check_id in mutant.killed_by:
        if check_id == "privacy audit":
            continue
        spec_id, exp = _experiment(check_id)
        cheap = exp.kind != "bound" or exp.name in ("delta-event",)
        r = run_check(CATALOGUE[spec_id], exp, mutant.implementation, seed=11, isolate=False,
                      trials=min(exp.trials["quick"], CHEAP) if cheap and spec_id not in SLOW_SPECS else None)
        if str(r.get("error") or "").startswith("implementation error"):
            return True, check_id  # the check refuses the output (as `dptestbed mutants` counts it)
        if r["kind"] == "property":
            if r["failures"]:
                return True, check_id
        elif r.get("p_value") is not None and r["p_value"] <= LEVEL:
            return True, check_id
    return False, ""


def test_declarations():
    ids = [m.id for m in MUTANTS]
    assert len(ids) == len(set(ids))
    for m in MUTANTS:
        assert m.spec in CATALOGUE and CATALOGUE[m.spec].implementation
        load_implementation(m.implementation)
        assert m.killed_by or m.equivalent
        for check_id in m.killed_by:
            if check_id != "privacy audit":
                assert _experiment(check_id)[0] == m.spec
    why = {"constant label": "private_classification_queries/constant_label",
           "constant threshold": "label_private_learner/constant_threshold",
           "re-draw every answer": "sparse_vector/redraw_every_answer", "never re-draw": "sparse_vector/never_redraw",
           "OQR w/2": "online_query_release/threshold_halved", "OQR lam/4": "online_query_release/lam_quarter",
           "printed Alg 6": "soft_label_queries_corrected/printed_threshold"}
    assert set(why.values()) <= set(ids)


def test_transcript_laws():
    lam = math.sqrt(32 * 2 * math.log(1e6))  # epsilon = 1, delta = 1e-6, T = 2 (the example)
    laws = {rule: sequence_law((0.0,) * 4, w=0.0, lam=lam, T=2, rule=rule) for rule in ("bottom", "every", "never")}
    for law in laws.values():
        assert sum(law.values()) == pytest.approx(1.0, abs=1e-9)
    assert laws["bottom"][(1, 1, 1, 1)] == pytest.approx(0.129, abs=2e-3)
    assert laws["every"][(1, 1, 1, 1)] == pytest.approx(0.062, abs=2e-3)
    assert laws["never"][(0, 0, 0, -1)] == pytest.approx(0.187, abs=2e-3)
    S, reg, sh = soft_multisets([10.0, 3.0], [20.0, 0.0], 0.25)
    assert S.shape == (2, 200) and reg.tolist() == [11.0, 3.0] and sh.tolist() == [21.0, 1.0]
    assert sum(soft_law(tuple(reg), tuple(sh), w=12.0, lam=4.0, T=1).values()) == pytest.approx(1.0, abs=1e-9)


FAST = [m for m in MUTANTS if m.spec not in SLOW_SPECS and not m.equivalent]
SLOW = [m for m in MUTANTS if m.spec in SLOW_SPECS and not m.equivalent]


@pytest.mark.slow
@pytest.mark.parametrize("mutant", FAST, ids=[m.id for m in FAST])
def test_mutant_killed(mutant):
    killed, by = _killed(mutant)
    assert killed, f"{mutant.id} survived {mutant.killed_by}"


@pytest.mark.slow
@pytest.mark.parametrize("mutant", SLOW, ids=[m.id for m in SLOW])
def test_mutant_killed_sec4(mutant):
    killed, by = _killed(mutant)
    assert killed, f"{mutant.id} survived {mutant.killed_by}"
