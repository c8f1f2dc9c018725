"""The exact losses behind the seed-000 mutants' 'breaks' labels.

A mutant of the sparse-vector family whose law is an exact sparse-vector law (lam, w or the query
noise scaled, the threshold re-drawn after every answer or never, the counter counting tops, the
cutoff moved, the other distance of Alg 4) has an exact epsilon at the claimed delta on every pair
the privacy audit tries at every audit point, on the stress pairs placed at the mutant's own threshold,
and on the best pair of a coordinate search over the rows' placements
(``audits.model_agnostic.mutant_profiles``; ``python benchmarks/mutant_labels.py`` prints the table).
A mutant labelled "utility" must keep the claim of every such pair, and its bug text states the
largest figure ("exact eps 0.76 against 8"); one labelled "privacy" must break the claim of some pair
(the privacy audit measures it: ``dptestbed mutants`` reports it as ``privacy_shown``) or name the exact
computation that shows it (``Mutant.exact_loss``, recomputed here). Mutants outside these laws (one query
noise per run, leaked values, other outputs) are backed by the audit alone.
"""

import re

import pytest

from dptestbed.audits.model_agnostic.mutant_profiles import (
    SPECS,
    exact_mutants,
    lam_quarter_loss,
    leaks_noisy_answer_loss,
    pair_losses,
    rule_of,
    worst_pair,
)
from dptestbed.impl.model_agnostic import mutants as M

EXACT = exact_mutants()
FIGURE = re.compile(r"exact eps ([0-9.]+) against ([0-9.]+)")


def test_the_references_keep_their_claims():
    for spec_id in SPECS:
        assert all(eps <= claim for _, eps, claim in pair_losses(spec_id, {}, "quick")), spec_id


@pytest.mark.slow
@pytest.mark.parametrize("mutant", EXACT, ids=[m.id for m in EXACT])
def test_label_matches_the_exact_loss(mutant):
    pair, eps, claim = worst_pair(mutant.spec, rule_of(mutant))
    if mutant.breaks == "utility":
        assert eps <= claim, f"{mutant.id} breaks the claim on {pair}: exact eps {eps:.3g} against {claim:g}"
        found = FIGURE.search(mutant.bug)
        assert found, f"{mutant.id}: the bug text must state the exact figure (exact eps {eps:.2f} against {claim:g})"
        assert float(found.group(1)) == pytest.approx(eps, abs=0.006) and float(found.group(2)) == claim, (
            f"{mutant.id}: exact eps {eps:.2f} against {claim:g} on {pair}")
    else:
        assert eps > claim or mutant.exact_loss, (
            f"{mutant.id} keeps every claim: largest exact eps {eps:.3g} against {claim:g} on {pair}")


def _mutant(spec, name):
    return next(m for m in M.MUTANTS if m.spec == spec and m.name == name)


def test_lam_quarter_breaks_the_claim_at_m_6():
    """Alg 4 with lam/4: the exact loss behind its 'privacy' label (the audit's pairs at m = 4 stay below 8)."""
    mutant = _mutant("subsample_aggregate", "lam_quarter")
    assert mutant.breaks == "privacy" and mutant.exact_loss.startswith("11.44 against 8 at m = 6")
    assert lam_quarter_loss() == pytest.approx(11.44, abs=0.006)


def test_leaked_fresh_answers_break_the_claim_from_m_103():
    """Sparse vector releasing fresh noisy answers: the fresh values alone break (1, 1e-6) from m = 103."""
    mutant = _mutant("sparse_vector", "leaks_noisy_answer")
    assert mutant.breaks == "privacy" and mutant.exact_loss.startswith("1.09 against 1 at m = 120")
    assert leaks_noisy_answer_loss(120) == pytest.approx(1.09, abs=0.006)
    assert leaks_noisy_answer_loss(102) < 1 < leaks_noisy_answer_loss(103)
