"""Implementations written from the paper (independent_impls.py) get the class that matches the
truth: a valid calibration or tie rule differs from the reference's convention, which its check reports
("differs from the spec") apart from the checks that set the exit code (a valid alternative passes: exit 0),
never "claim violated"; a histogram with the add/remove noise scale violates the claim (exit 1)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from dptestbed.audits.checks import theorems as thm
from dptestbed.audits.checks.experiments import load_registry, run_check
from dptestbed.audits.cli.main import main
from dptestbed.spec import load_catalogue

IMPLS = Path(__file__).with_name("independent_impls.py")


def _check(tmp_path, spec: str, name: str) -> tuple[int, dict]:
    out = tmp_path / name
    # default flags: the audit sizes its rounds for power (a fixed 3 x 10^5 a side fell short, 1.05 against 1.05,
    # once the search added the huge-id pairs; the default rounds pass the textbook histogram in about 20 s)
    code = main(["check", spec, "--impl", f"{IMPLS}:{name}", "--out", str(out), "--quiet", "--no-plots",
                 "--no-controls"])
    doc = json.loads((out / "results.json").read_text())
    classes = {t["check"]: t["class"] for t in doc["theorems"]}
    for audit in doc["privacy"]:                 # stable_histogram: one audit point; the SOA makes no claim
        classes["privacy audit"] = audit["class"]
    return code, classes


@pytest.mark.measurement
@pytest.mark.parametrize("name, code, audit", [
    ("hist_textbook", 0, "pass"),                          # tau = 1 + (2/eps) ln(2/delta): more private
    ("hist_without_one", 0, "pass"),                       # delta-event (delta/2) e^(eps/2) = 0.0165 <= 0.02
    ("hist_laplace_one_over_epsilon", 1, "claim violated"),  # the count-shift pair's loss is 2 epsilon
])
def test_stable_histograms_written_from_the_paper(tmp_path, name, code, audit):
    got, classes = _check(tmp_path, "stable_histogram", name)
    assert got == code, classes
    assert classes["privacy audit"] == audit
    assert classes["reference-release-law"] == "differs from the spec"   # the reference's convention, apart
    assert classes["heavy-item"] == "pass"


@pytest.mark.slow
def test_soa_breaking_ties_towards_minus_one_is_an_soa(tmp_path):
    got, classes = _check(tmp_path, "standard_optimal_algorithm", "soa_ties_to_minus_one")
    assert got == 0, classes  # the tie-rule check of the reference's convention is reported apart
    assert classes.pop("reference-tie-rule") == "differs from the spec"
    assert set(classes.values()) == {"pass"}, classes                   # Definition 8, Observation 11, ...


def test_independent_soa_agrees_with_the_reference_off_ties():
    """The hand-written SOA is an SOA: on realizable sequences over the thresholds on 7 points it
    matches the reference wherever the final version space has no Ldim tie."""
    from dptestbed.audits.sandbox.runner import load_implementation
    from dptestbed.impl.littlestone import classes as C
    from dptestbed.impl.littlestone.soa import Class, standard_optimal_algorithm

    soa_ties_to_minus_one = load_implementation(f"{IMPLS}:soa_ties_to_minus_one")
    rng = np.random.default_rng(0)
    H = C.thresholds(7)
    cls = Class(H)
    for _ in range(50):
        x = rng.integers(0, 7, size=rng.integers(0, 6))
        y = H[rng.integers(len(H))][x]
        mine = soa_ties_to_minus_one({"H": H, "x": x, "y": y})
        ref = standard_optimal_algorithm({"H": H, "x": x, "y": y})
        mask = cls.run(cls.start(), x, y)[0]
        tied = [p for p, pm in enumerate(cls.pos_mask) if cls.ldim(mask & pm) == cls.ldim(mask & ~pm)]
        keep = np.setdiff1d(np.arange(7), tied)
        assert keep.size and np.array_equal(mine[keep], ref[keep])
        assert np.all(mine[tied] == -1) and np.all(ref[tied] == 1)


@pytest.mark.parametrize("file, differs", [
    ("gpl_dedup_rows.py:generic_private_learner", True),       # the exponential mechanism over H's distinct rows: the copy is never output
    ("gpl_gumbel_valid.py:generic_private_learner", False),    # valid: Gumbel-max, the same law
])
def test_the_generic_learners_law_counts_every_row_of_h(file, differs):
    """Users' files (tests/independent): rows of H may repeat and each one is a candidate; the exact-softmax check
    repeats the many_rivals case's first row, where a learner over the distinct rows gives the copy probability 0."""
    exp = next(e for (s, _), es in load_registry().items() if s == "generic_private_learner" for e in es
               if e.name == "exact-softmax")
    impl = Path(__file__).parents[1] / "independent" / "littlestone" / file
    r = run_check(load_catalogue()["generic_private_learner"], exp, str(impl), seed=1, isolate=False, trials=60_000)
    assert (r["p_value"] <= thm.FAMILY_ALPHA / 30) == differs, r["p_value"]


@pytest.mark.measurement
@pytest.mark.parametrize("file, differs", [
    ("gpl_shortcut_rival_below.py:below_1e4", True),  # the best row when every rival is below 1e-4
    ("gpl_gumbel_valid.py:generic_private_learner", False),             # valid: Gumbel-max, the same law
])
def test_the_generic_learners_law_keeps_the_softmax_tail(file, differs):
    """A shortcut to the best row below a rival weight of 10^-4 passed every check at default flags (its privacy loss
    needs 10^6 runs a side to show): the tail check's lead of 19 gives the rival 7.5e-5, 15 expected in 2 x 10^5 runs."""
    exp = next(e for (s, _), es in load_registry().items() if s == "generic_private_learner" for e in es
               if e.name == "exact-softmax-tail")
    impl = Path(__file__).parents[1] / "independent" / "littlestone" / file
    r = run_check(load_catalogue()["generic_private_learner"], exp, str(impl), seed=1, isolate=False)
    assert (r["p_value"] <= thm.FAMILY_ALPHA / 30) == differs, r["p_value"]
