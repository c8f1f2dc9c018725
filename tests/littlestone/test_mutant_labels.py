"""The privacy side of seed 003's mutant labels, recomputed: for every mutant labelled "utility" whose bug
touches a privacy mechanism, its exact epsilon at the claimed delta on every pair the privacy audit tries
(``candidate_pairs`` with the audit's caps: stress cases, generated pairs and the input-space search) at every
audit point, against each pair's claim. The largest value is the figure its bug text states ("largest over the
N pairs the audit tries"); the mutants whose label rests on an argument alone (post-processing, a smaller
epsilon, parallel composition) state the argument, and the figure backs it on the pairs the audit tries.

Rerun it after the pair search changes: ``python -m pytest -q -m "slow or measurement" tests/littlestone/test_mutant_labels.py``.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from dptestbed.audits.base.discovery import load_mutants
from dptestbed.audits.littlestone.exact_profiles import histogram_law_epsilon, m_pair_epsilon
from dptestbed.audits.privacy.options import MAX_PAIRS, MAX_SEARCHED
from dptestbed.audits.privacy.pairs import candidate_pairs, claim
from dptestbed.audits.run.planning import audit_points
from dptestbed.impl.littlestone.histogram import threshold
from dptestbed.spec import load_catalogue

CATALOGUE = load_catalogue()
HIST, M = "stable_histogram", "private_littlestone_learner"


def _hist(tau=None, scale=None):
    def law(pair, delta):
        env = pair.env
        eps, dlt = float(env["epsilon"]), float(env["delta"])
        return histogram_law_epsilon(pair.data, pair.neighbour, env, delta,
                                     None if tau is None else tau(eps, dlt), None if scale is None else scale(eps))
    return law


def _m(**options):
    def law(pair, delta):
        env = pair.env
        resolved = {k: (v(env) if callable(v) and k == "generic_epsilon" else v) for k, v in options.items()}
        if "eta" in resolved:
            env = {**env, "eta": resolved.pop("eta")}
        return m_pair_epsilon(pair.data, pair.neighbour, env, delta, **resolved)
    return law


def _cut_from_top(counts, tau):                  # m_eta_from_private_data: eta = the modal frequency of h_1..h_k
    return max(tau, 3 * max(counts) / 4)


LAWS = {
    (HIST, "hist_threshold_without_one"): _hist(tau=lambda eps, dlt: (2 / eps) * math.log(1 / dlt)),
    (HIST, "hist_epsilon_quartered"): _hist(tau=lambda eps, dlt: threshold(eps / 4, dlt), scale=lambda eps: 8 / eps),
    (M, "m_generic_missing_half"): _m(generic_epsilon=lambda env: float(env["epsilon"])),
    (M, "m_generic_sensitivity_three"): _m(generic_epsilon=lambda env: float(env["epsilon"]) / 6),
    (M, "m_generic_whole_sample"): _m(whole_sample=True),
    (M, "m_no_pruning"): _m(eta=0.0),
    (M, "m_overlapping_batches"): _m(stride=0.5),
    (M, "m_eta_from_private_data"): _m(cut_from_counts=_cut_from_top),
}


def audit_pairs(spec):
    """Every pair the privacy audit of ``spec`` tries, at every audit point of the full suite."""
    out = []
    for point in audit_points(spec, "full"):
        out += candidate_pairs(spec, point, max_generated=max(MAX_PAIRS - len(spec.stress_cases), 0),
                               max_searched=MAX_SEARCHED)
    return out


def largest_loss(spec_id: str, law) -> tuple[float, float, str, int, int]:
    """(largest exact epsilon at the claimed delta over the audit's pairs, that pair's claim, its name, pairs
    computed, pairs whose law is too large to compute)."""
    spec = CATALOGUE[spec_id]
    best, skipped, done = (-math.inf, math.nan, ""), 0, 0
    for pair in audit_pairs(spec):
        stated = claim(spec, pair.env)
        eps_claim, delta = stated.value, stated.delta
        value = law(pair, delta)
        if value is None:
            skipped += 1
            continue
        done += 1
        if value - eps_claim > best[0] - best[1] or not np.isfinite(best[1]):
            best = (float(value), float(eps_claim), pair.name)
    return (*best, done, skipped)


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(LAWS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_utility_mutants_keep_the_claim_on_every_pair_the_audit_tries(key):
    spec_id, name = key
    mutant = next(m for m in load_mutants() if m.spec == spec_id and m.name == name)
    assert mutant.breaks == "utility"
    value, eps_claim, where, done, skipped = largest_loss(spec_id, LAWS[key])
    assert done > 0 and skipped == 0, (done, skipped)
    assert value <= eps_claim + 1e-9, (value, eps_claim, where)
    stated = re.search(r"largest over the (\d+) pairs the audit tries: ([0-9.]+) against ([0-9.]+)", mutant.bug)
    assert stated, f"{mutant.id}: the bug text states no figure over the audit's pairs"
    assert int(stated.group(1)) == done and float(stated.group(2)) == pytest.approx(round(value, 2), abs=0.006), \
        (mutant.id, value, done, where)


@pytest.mark.measurement
def test_the_full_suites_audit_of_the_learner_leaves_out_a_parameter_point_too_large_for_the_machine():
    """The parameter search's d = 4 point expands the learner's sample to 1.7e8 examples (7.9 GB in one audit of
    the full suite): the reference's domain check stops it at 1 GB and the pair is left out, named in the notes;
    the whole audit, run in a process of its own, stays under 2 GB."""
    import subprocess
    import sys

    code = ("import resource; from dptestbed.spec import load_catalogue; from dptestbed.audits.privacy import audit; "
            "r = audit(load_catalogue()['private_littlestone_learner'], confidence=0.99995, seed=0); "
            "print(max(resource.getrusage(w).ru_maxrss for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) "
            "// 1024); print(r.verdict); print('\\n'.join(r.notes))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1200, check=True).stdout
    peak_mb, verdict = out.splitlines()[:2]
    assert verdict == "no violation found", out
    assert "@d=4: left out" in out and "more than 1024 MB" in out
    assert int(peak_mb) < 2048, out
