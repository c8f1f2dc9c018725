"""Calibration-corpus mutants: well formed, and each killed by its first declared theorem check (those killed by
the privacy audit alone are audited in tests/test_mutation.py)."""

from pathlib import Path

import numpy as np
import pytest

from dptestbed.audits.checks import theorems as thm
from dptestbed.audits.checks.experiments import load_registry, run_check
from dptestbed.audits.privacy.exact import dist_epsilon, svt_distribution
from dptestbed.audits.sandbox.runner import load_implementation
from dptestbed.impl.calibration.mutants import MUTANTS
from dptestbed.spec import load_catalogue

CATALOGUE = load_catalogue()
REGISTRY = load_registry()


def _experiment(check_id: str):
    spec_id, rest = check_id.split("/", 1)
    ref, name = rest.rsplit("/", 1)
    return spec_id, next(e for e in REGISTRY[(spec_id, ref)] if e.name == name)


def test_declarations():
    assert len({m.id for m in MUTANTS}) == len(MUTANTS)
    for m in MUTANTS:
        load_implementation(m.implementation)
        assert not CATALOGUE[m.spec].broken and m.killed_by
        assert all(_experiment(c)[0] == m.spec for c in m.killed_by if c != "privacy audit")


CHECKED = [m for m in MUTANTS if any(c != "privacy audit" for c in m.killed_by)]  # the others: tests/test_mutation.py


@pytest.mark.parametrize("mutant", CHECKED, ids=[m.id for m in CHECKED])
def test_mutant_killed(mutant):
    spec_id, exp = _experiment(next(c for c in mutant.killed_by if c != "privacy audit"))
    r = run_check(CATALOGUE[spec_id], exp, mutant.implementation, seed=7, isolate=False, trials=20_000)
    refused = str(r.get("error") or "").startswith("implementation error")
    assert refused or (r["p_value"] is not None and r["p_value"] <= thm.FAMILY_ALPHA / 30), r.get("error")


@pytest.mark.parametrize("epsilon, c, worst", [(1.0, 1, 0.99), (1.0, 2, 0.72), (0.5, 2, 0.36)])
def test_never_redraw_keeps_the_claim(epsilon, c, worst):
    """svt_lyu_2/never_redraw is labelled "utility": its exact epsilon, largest over the spec's stress
    pairs, stays under the claim at the defaults, at c = 2 and at the audit point (the figures in its bug text)."""
    mutant = next(m for m in MUTANTS if m.id == "svt_lyu_2/never_redraw")
    assert mutant.breaks == "utility"
    losses = []
    for case in CATALOGUE["svt_lyu_2"].stress_cases:
        cc = int((case.params or {}).get("c", c))
        law = [svt_distribution(np.asarray(x, dtype=float), threshold=0.0, rho_scale=2 * cc / epsilon,
                                nu_scale=4 * cc / epsilon, limit=cc, count_symbol=1) for x in (case.data, case.neighbour)]
        losses.append(dist_epsilon(*law, 0.0))
    assert max(losses) == pytest.approx(worst, abs=0.005) and max(losses) < epsilon


INDEPENDENT = Path(__file__).parents[1] / "independent" / "calibration"


@pytest.mark.parametrize("spec_id, file, differs", [
    ("svt_lyu_1", "svt_chunked.py:svt", True),          # Algorithm 1 run afresh on each block of 16 queries
    ("svt_lyu_2", "svt2_pages.py:svt", True),           # Algorithm 2 with the threshold noise redrawn every 16 queries
    ("svt_lyu_1", "svt1_predrawn_noise.py:svt", False),  # valid: every noise drawn up front
    ("svt_lyu_1", "svt1_noise_first_list.py:svt", False),
])
def test_forty_query_transcripts_tell_a_sparse_vector_served_in_blocks(spec_id, file, differs):
    """Users' files (tests/independent): exact on the 4-query transcript check, told apart on 40 answers far below the
    threshold (the run stops without a top 0.06 of the time against 0.11); valid variants keep the law."""
    exp = next(e for (s, _), es in REGISTRY.items() if s == spec_id for e in es if e.name == "transcript-long")
    r = run_check(CATALOGUE[spec_id], exp, f"{INDEPENDENT / file}", seed=1, isolate=False, trials=60_000)
    assert (r["p_value"] <= thm.FAMILY_ALPHA / 30) == differs, r["p_value"]
