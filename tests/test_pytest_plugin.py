"""The pytest plugin, exercised the way a user would: a throwaway test suite run by pytest
in a subprocess, with the plugin loaded from dptestbed's entry point."""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET

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
    _project(pytester, "def test_uses(dptestbed):\n    assert dptestbed.seed == 7 and dptestbed.suite == 'full'\n"
                       "    assert dptestbed.time_budget == 2.5 and dptestbed.jobs == 1\n\n"
                       "def test_plain():\n    pass\n")
    pytester.makeini("[pytest]\ndptestbed_seed = 7\ndptestbed_suite = full\ndptestbed_time_budget = 2.5\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-m", "dptestbed", "--dptestbed-jobs", "1")
    result.stdout.fnmatch_lines(["collected 2 items / 1 deselected / 1 selected",
                                 "dptestbed: seed 7, suite full, alpha 0.001*, jobs 1, time budget 2.5"])
    result.assert_outcomes(passed=1, deselected=1)
    # no test of the session uses the fixture: no settings line (another project's session stays as it was)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-m", "not dptestbed", "--dptestbed-seed", "3")
    assert "dptestbed: seed" not in result.stdout.str()
    result.assert_outcomes(passed=1, deselected=1)
    pytester.makeini("[pytest]\ndptestbed_suite = medium\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert "dptestbed_suite = 'medium'" in result.stderr.str()


@pytest.mark.slow
def test_each_check_is_recorded_as_junit_properties_and_in_the_terminal_summary(pytester):
    pytester.makepyfile(test_user=textwrap.dedent("""
        import numpy as np

        def laplace(data, *, rng, epsilon, gamma):
            f = np.asarray(data, dtype=float)
            return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)

        def laplace_half(data, *, rng, epsilon, gamma):  # half the noise: a loss of 2 against a claim of 1
            f = np.asarray(data, dtype=float)
            return f + rng.laplace(0.0, 0.5 * gamma / epsilon, size=f.shape)

        def mean(data, *, rng):
            return float(np.mean(data)) + rng.laplace(0.0, 0.5 / len(data))

        def test_good(dptestbed):
            dptestbed.check("laplace_mechanism", laplace, samples=20_000, allow=("no-power",))

        def test_half(dptestbed):
            dptestbed.audit("laplace_mechanism", laplace_half, samples=20_000)

        def test_claim(dptestbed):
            dptestbed.audit_claim(mean, epsilon=1.0, relation="replace_one", input_kind="dataset",
                                  pairs=[([0.0] * 4, [1.0] + [0.0] * 3)], samples=20_000)
    """))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-W", "error", "--junitxml=junit.xml")
    result.assert_outcomes(passed=1, failed=2)
    cases = {case.get("name"): {p.get("name"): p.get("value") for p in case.iter("property")}
             for case in ET.parse(pytester.path / "junit.xml").getroot().iter("testcase")}
    good, half, claim = cases["test_good"], cases["test_half"], cases["test_claim"]
    audit = "dptestbed: laplace_mechanism privacy audit: "
    assert good[audit + "class"] in ("pass", "no power") and float(good[audit + "epsilon lower bound"]) < 1.2
    assert good[audit + "claim"] == "epsilon = 1, delta = 0"
    assert good["dptestbed: laplace_mechanism Fact A1 (Laplace tail) tail-bound: class"] == "pass"
    assert half[audit + "class"] == "claim violated" and float(half[audit + "epsilon lower bound"]) > 1
    counterexample = half[audit + "counterexample"]
    assert counterexample.startswith("On the neighbouring pair") and "the output" in counterexample
    assert "value <=" not in counterexample and "value >=" not in counterexample  # the user's terms, not the views'
    assert claim["dptestbed: test_user:mean (ad-hoc claim) privacy audit: class"] == "claim violated"
    text = result.stdout.str()
    assert "privacy audit of test_user:mean (ad-hoc claim): claim violated" in text and "adhoc" not in text
    result.stdout.fnmatch_lines(["*= dptestbed =*",
                                 "test_user.py::test_good: laplace_mechanism privacy audit: *; epsilon lower bound: *",
                                 "test_user.py::test_half: laplace_mechanism privacy audit: claim violated; *"
                                 "counterexample: On the neighbouring pair*"])


@pytest.mark.slow
def test_the_plugin_audits_curve_claims(pytester):
    """Issue 35 through the plugin: a Gaussian of sd 1 keeps mu = 1 (GDP) and rho = 0.5 (zCDP), not 0.8 or 0.3."""
    pytester.makepyfile(textwrap.dedent("""
        import numpy as np
        import pytest

        def gaussian(data, *, rng):
            return np.asarray(data, dtype=float) + rng.normal(0.0, 1.0, size=np.shape(data))

        gaussian.batch = lambda data, n, *, rng: np.asarray(data, dtype=float) + rng.normal(0.0, 1.0, (n, 1))

        @pytest.mark.parametrize("claim", [{"gdp": 1.0}, {"zcdp": 0.5}, {"gdp": 0.8}, {"zcdp": 0.3}])
        def test_claim(dptestbed, claim):
            dptestbed.audit_claim(gaussian, relation="vector_l1", pairs=[([0.0], [1.0])], **claim)
    """))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=2)
    out = result.stdout.str()
    for failed in ("claim2", "claim3"):
        assert f"FAILED test_the_plugin_audits_curve_claims.py::test_claim[{failed}]" in out
    assert "claim violated" in out
