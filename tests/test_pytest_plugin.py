"""The pytest plugin, exercised the way a user would: a throwaway test suite run by pytest
in a subprocess, with the plugin loaded from dptestbed's entry point."""

from __future__ import annotations

import textwrap

import pytest

pytest_plugins = ["pytester"]

IMPLEMENTATIONS = '''
import math

def stab(data, *, rng, epsilon, delta):
    """A correct A_stab written from the paper, no batch sampler."""
    label, dist = int(data[0]), float(data[1])
    gamma = math.log(1 / delta) / epsilon
    return label if dist + rng.laplace(0.0, 1 / epsilon) > gamma else -1

def stab_log10(data, *, rng, epsilon, delta):
    """Bug: log10 in the threshold (a smaller threshold: releases too often)."""
    label, dist = int(data[0]), float(data[1])
    gamma = math.log10(1 / delta) / epsilon
    return label if dist + rng.laplace(0.0, 1 / epsilon) > gamma else -1
'''


def _project(pytester, tests: str):
    pytester.makepyfile(mymech=IMPLEMENTATIONS)
    pytester.makepyfile(test_user=tests)


@pytest.mark.slow
def test_the_plugin_is_registered_by_entry_point(pytester):
    _project(pytester, "def test_fixture(dptestbed):\n    assert hasattr(dptestbed, 'check')\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--help")
    result.stdout.fnmatch_lines(["*dptestbed*", "*--dptestbed-seed*"])
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


@pytest.mark.slow
def test_a_correct_implementation_passes_and_a_broken_one_fails_with_the_evidence(pytester):
    _project(pytester, '''
from mymech import stab, stab_log10

def test_correct(dptestbed):
    out = dptestbed.check("distance_to_instability", stab, samples=20_000, allow=("no-power",))  # a small audit
    assert out["privacy"]["verdict"] in ("no violation found", "no power")
    assert {t["verdict"] for t in out["theorems"]} <= {"consistent", "inconclusive"}

def test_broken_theorems(dptestbed):
    dptestbed.theorems("distance_to_instability", stab_log10)

def test_broken_privacy(dptestbed):
    dptestbed.audit("distance_to_instability", "mymech.py:stab_log10", params={"delta": 1e-3}, samples=20_000)
''')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--dptestbed-seed", "4")
    result.assert_outcomes(passed=1, failed=2)
    text = result.stdout.str()
    assert "distance_to_instability Lemma 3.4: claim violated" in text
    assert "failures in" in text and "beta" in text
    assert "privacy audit of distance_to_instability: claim violated" in text
    assert "On the neighbouring pair" in text and "so epsilon >= " in text  # the counterexample, as sentences


@pytest.mark.slow
def test_an_unknown_spec_fails_cleanly(pytester):
    _project(pytester, '''
from mymech import stab

def test_unknown(dptestbed):
    dptestbed.check("no_such_spec", stab)
''')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*unknown spec id 'no_such_spec'*"])


@pytest.mark.slow
def test_the_plugin_audits_a_claim(pytester):
    pytester.makepyfile(textwrap.dedent("""
        import numpy as np

        def mean(data, *, rng):
            x = np.clip(np.asarray(data, dtype=float), 0.0, 1.0)
            return x.mean() + rng.laplace(0.0, 1.0 / (x.size * 2.0))  # loss 2 when a record moves by 1

        def test_claim(dptestbed):
            dptestbed.audit_claim(mean, epsilon=1.0, relation="replace_one", input_kind="dataset",
                                  pairs=[([0.0] * 10, [1.0] + [0.0] * 9)], samples=20_000)
    """))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    assert "claim violated" in result.stdout.str()


def test_settings_come_from_the_ini_file_the_header_shows_them_and_the_marker_selects(pytester):
    _project(pytester, "def test_uses(dptestbed):\n    assert dptestbed.seed == 7 and dptestbed.suite == 'full'\n\n"
                       "def test_plain():\n    pass\n")
    pytester.makeini("[pytest]\ndptestbed_seed = 7\ndptestbed_suite = full\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-m", "dptestbed")
    result.stdout.fnmatch_lines(["dptestbed: seed 7, suite full, alpha 0.001*"])
    result.assert_outcomes(passed=1, deselected=1)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-m", "not dptestbed", "--dptestbed-seed", "3")
    result.stdout.fnmatch_lines(["dptestbed: seed 3, suite full*"])
    result.assert_outcomes(passed=1, deselected=1)
    pytester.makeini("[pytest]\ndptestbed_suite = medium\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert "dptestbed_suite = 'medium'" in result.stderr.str()
