"""The exact losses behind the seed-000 mutants' 'breaks' labels.

A mutant of the sparse-vector family whose law is an exact sparse-vector law (lam, w or the query
noise scaled, the threshold re-drawn after every answer or never, the counter counting tops, the
cutoff moved, the other distance of Alg 4) has an exact epsilon at the claimed delta on every
stress pair of its spec, the pairs the privacy audit runs, placed at the reference's threshold as the
audit places them and at the mutant's own (transcript laws by quadrature,
``audits.model_agnostic.transcripts``). A mutant labelled "utility" must keep the claim of every
pair, and its bug text states the largest figure ("exact eps 0.76 against 8"); one labelled
"privacy" must break the claim of some pair (the privacy audit measures it: ``dptestbed mutants``
reports it as ``privacy_shown``). Mutants outside these laws (one query noise per run, leaked
values, other outputs) are backed by the audit alone.
"""

import math
import re

import numpy as np
import pytest

from dptestbed.audits.exact import dist_epsilon
from dptestbed.audits.model_agnostic.transcripts import (
    BOTH_BOTTOM,
    NOT_ANSWERED,
    REGULAR,
    SHIFTED,
    sequence_law,
    soft_law,
)
from dptestbed.impl.model_agnostic import mutants as M
from dptestbed.impl.model_agnostic.online_query_release import oqr_lambda, oqr_threshold
from dptestbed.impl.model_agnostic.soft_label import histogram_tests, soft_label_lambda, soft_label_threshold
from dptestbed.impl.model_agnostic.sparse_vector import sparse_vector_lambda
from dptestbed.impl.model_agnostic.subsample_aggregate import dist_corrected, dist_printed, mode_and_gap
from dptestbed.spec import load_catalogue
from dptestbed.spec.schema import resolve_stress_values

CATALOGUE = load_catalogue()
LN10 = math.log(10.0)
VOTES = {"subsample_aggregate": "printed", "subsample_aggregate_corrected": "corrected",
         "private_classification_queries": "printed", "private_classification_queries_conference": "printed"}
SPECS = ("sparse_vector", "online_query_release", *VOTES, "soft_label_queries_corrected")

# the rule of each mutant with an exact law (MutatedRuns attributes; DIST: the distance of Alg 4)
RULES = {name: rule for name, rule, _ in M.CORE_BUGS + M.THRESHOLD_BUGS if not rule.get("SHARED_NOISE")}
EXTRA = {
    ("sparse_vector", "log10"): {"LAM_FACTOR": 1 / math.sqrt(LN10)},                 # w is an input
    ("sparse_vector", "noise_30pct_more"): {"LAM_FACTOR": 1.3},
    ("online_query_release", "log10"): {"LAM_FACTOR": 1 / math.sqrt(LN10), "W_FACTOR": 1 / LN10 ** 1.5},
    ("online_query_release", "lam_quarter"): {"LAM_FACTOR": 0.25, "W_FACTOR": 0.25},
    ("subsample_aggregate", "lam_quarter"): {"LAM_FACTOR": 0.25, "W_FACTOR": 0.25},
    ("subsample_aggregate", "corrected_dist"): {"DIST": "corrected"},
    ("subsample_aggregate_corrected", "printed_dist"): {"DIST": "printed"},
    ("soft_label_queries_corrected", "printed_threshold"): {"W_FACTOR": 0.5},          # lam log(4m/delta)
}


def _rule(mutant) -> dict | None:
    if (mutant.spec, mutant.name) in EXTRA:
        return EXTRA[mutant.spec, mutant.name]
    return RULES.get(mutant.name) if mutant.implementation.endswith(f":{mutant.spec}_{mutant.name}") else None


def _lam_w(spec_id: str, env: dict) -> tuple[float, float]:
    eps, delta, T, m = (float(env[k]) for k in ("epsilon", "delta", "T", "m"))
    if spec_id == "sparse_vector":
        return sparse_vector_lambda(eps, delta, T), float(env["w"])
    if spec_id == "soft_label_queries_corrected":
        lam = soft_label_lambda(eps, delta, T)
        return lam, soft_label_threshold(lam, m, delta, True)
    lam = oqr_lambda(eps, delta, T)
    return lam, oqr_threshold(lam, m, delta)


def _core(spec_id: str, env: dict, rule: dict) -> tuple[float, float]:
    """(lam, w) of the core the mutant runs with at ``env``."""
    lam, w = _lam_w(spec_id, env)
    lam_m = lam * rule.get("LAM_FACTOR", 1.0)
    return lam_m, w * rule.get("W_FACTOR", 1.0) + rule.get("W_SHIFT", 0.0) * lam_m


def output_law(spec_id: str, data, env: dict, rule: dict) -> dict:
    """Exact law of the outputs of ``spec_id``'s reference run with the core ``rule`` on ``data``."""
    lam, w = _core(spec_id, env, rule)
    kw = dict(w=w, lam=lam, T=int(env["T"]) + rule.get("HALT_OFFSET", 0), rule=rule.get("REDRAW", "bottom"),
              count=rule.get("COUNT", "bottom"), nu_factor=rule.get("QUERY_NOISE_FACTOR", 2.0))
    x = np.asarray(data, dtype=float)
    if spec_id == "sparse_vector":
        return sequence_law(tuple(x), **kw)
    if spec_id == "soft_label_queries_corrected":
        gamma = float(env["gamma"])
        reg_mode, reg_dist, sh_mode, sh_dist = histogram_tests(x, gamma)
        law = soft_law(tuple(reg_dist.astype(float)), tuple(sh_dist.astype(float)), **kw)
        value = [{REGULAR: ((2 * r - 1) * gamma / 2, 0.0), SHIFTED: (s * gamma, 1.0), BOTH_BOTTOM: (-1.0, 1.0),
                  NOT_ANSWERED: (-2.0, -1.0)} for r, s in zip(reg_mode, sh_mode)]
    else:
        if spec_id == "online_query_release":
            labels, dist = x[:, 0].astype(int), x[:, 1]
        else:
            counts = x.astype(np.int64)
            labels = mode_and_gap(counts)[0]
            dist = {"printed": dist_printed, "corrected": dist_corrected}[rule.get("DIST", VOTES[spec_id])](counts)
        law = sequence_law(tuple(np.asarray(dist, dtype=float)), **kw)
        value = [{1: int(lab), 0: -1, -1: -2} for lab in labels]
    out: dict[tuple, float] = {}
    for transcript, p in law.items():
        key = tuple(value[i][o] for i, o in enumerate(transcript))
        out[key] = out.get(key, 0.0) + p
    return out


def stress_losses(spec_id: str, rule: dict) -> list[tuple[str, float, float]]:
    """(pair, exact epsilon at the pair's delta, the pair's claimed epsilon) for every stress pair,
    placed as the audit places it (at the reference's lam and w) and, for a mutant with another lam or
    w, also at the mutant's own (the stress formulas evaluated with its lam and w)."""
    spec = CATALOGUE[spec_id]
    rows = []
    for case in spec.stress_cases:
        env = spec.bind(dict(case.params))
        lam, w = _core(spec_id, env, rule)
        for placement in ({}, {"lam": lam, "w": w}):
            where = {**env, **placement}
            d1, d2 = (output_law(spec_id, resolve_stress_values(v, where), env, rule)
                      for v in (case.data, case.neighbour))
            delta = float(env["delta"])
            rows.append((case.name + (" at the mutant's w" if placement else ""),
                         max(dist_epsilon(d1, d2, delta), dist_epsilon(d2, d1, delta)), float(env["epsilon"])))
    return rows


EXACT = [m for m in M.MUTANTS if m.spec in SPECS and _rule(m) is not None]
FIGURE = re.compile(r"exact eps (?:over the stress pairs )?([0-9.]+) against ([0-9.]+)")


def test_the_references_keep_their_claims():
    for spec_id in SPECS:
        assert all(eps <= claim for _, eps, claim in stress_losses(spec_id, {})), spec_id


@pytest.mark.slow
@pytest.mark.parametrize("mutant", EXACT, ids=[m.id for m in EXACT])
def test_label_matches_the_exact_loss(mutant):
    rows = stress_losses(mutant.spec, _rule(mutant))
    pair, eps, claim = max(rows, key=lambda r: r[1] / r[2])
    if mutant.breaks == "utility":
        assert eps <= claim, f"{mutant.id} breaks the claim on {pair}: exact eps {eps:.3g} against {claim:g}"
        found = FIGURE.search(mutant.bug)
        assert found, f"{mutant.id}: the bug text must state the exact figure (exact eps {eps:.2f} against {claim:g})"
        assert float(found.group(1)) == pytest.approx(eps, abs=0.006) and float(found.group(2)) == claim, (
            f"{mutant.id}: exact eps {eps:.2f} against {claim:g} on {pair}")
    else:
        assert eps > claim, f"{mutant.id} keeps every claim: largest exact eps {eps:.3g} against {claim:g} on {pair}"
