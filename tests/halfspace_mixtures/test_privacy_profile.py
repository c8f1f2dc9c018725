"""The white-box privacy profile of A_LearnHalf on every stress pair: at most epsilon, and at the
values the spec's stress cases state."""

from __future__ import annotations

import math

import pytest

from dptestbed.audits.exact import exact_epsilon
from dptestbed.audits.pairs import stress_pairs
from dptestbed.spec import load_catalogue

SPEC = load_catalogue()["ppm_halfspace_learner"]
STATED = {"N1_label_flip_deep_private": 0.864, "N1_label_flip_eps4": 3.99, "N5_tiny_single_public_point": 0.865,
          "N1_q05_eps1": 0.912, "N1_q02_eps1": 0.966, "N1_q05_eps05": 0.471, "N1_q01_eps4": 3.580,
          "N5_no_public_points": 0.0}


@pytest.mark.parametrize("pair", stress_pairs(SPEC), ids=lambda p: p.name)
def test_exact_loss_within_claim(pair):
    eps = exact_epsilon(SPEC, pair)
    assert eps is not None and math.isfinite(eps)
    assert eps <= float(pair.env["epsilon"]) + 1e-9
    if pair.name in STATED:
        assert eps == pytest.approx(STATED[pair.name], abs=2e-3)
