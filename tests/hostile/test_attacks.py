"""Hostile implementations (one file per attack in this folder) run through the command line as a
user would run them (the ``hostile`` fixture, conftest.py). Each attack must end with a named outcome
(a violation, or an implementation error) within its deadline; 2 s after the command line exits no
process of the run is alive; no file outside the output folder changed; and the console, the exit
code and results.json agree (results.json signed by this machine's dptestbed)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dptestbed.audits.base import sanitize

pytest_plugins = ["pytester"]
HERE = Path(__file__).parent
CONTROL = [chr(c) for c in range(32) if chr(c) not in "\t\n"] + ["\x7f", "\x9b", "\u202e"]


# the levels this machine can show: the strongest, and the unprivileged uid when the tests run as root
LEVELS = ["auto"] + (["uid"] if os.geteuid() == 0 else [])


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_forged_pass_is_neither_written_nor_shown(hostile, agree, level):
    run = hostile("forged_pass", "--isolation", level)
    doc = agree(run, 1)
    assert "PASS" not in run.stdout and all(r["verdict"] == "violation" for r in doc["privacy"])


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_fork_hopping_daemon_dies_with_the_run(hostile, agree, level):
    run = hostile("fork_hopper", "--isolation", level)
    agree(run, 1)
    html = (run.out / "index.html").read_text()
    time.sleep(3)  # past the moment the daemon would have struck
    assert run.document["summary"]["exit_code"] == 1 and (run.out / "index.html").read_text() == html
    assert "alert('forged')" not in html


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_daemon_cannot_edit_the_results_during_the_run(hostile, agree, level):
    doc = agree(hostile("double_fork_daemon", "--isolation", level), 1)
    assert all(r["verdict"] == "violation" for r in doc["privacy"])


@pytest.mark.slow
def test_forged_progress_cannot_keep_a_hung_call_alive(hostile):
    run = hostile("progress_forger", "--timeout", "2", "--deadline", "60", command="audit", deadline=60)
    assert run.code == 5 and "implementation error" in run.stdout.lower(), run.stdout + run.stderr
    assert "timed out" in run.stdout or "broke the worker protocol" in run.stdout
    assert run.seconds < 40


@pytest.mark.slow
def test_the_audit_deadline_ends_a_hung_implementation(hostile):
    run = hostile("progress_forger", "--deadline", "8", command="audit", deadline=60)
    assert run.code == 5 and "deadline of 8 s" in run.stdout, run.stdout + run.stderr
    assert run.seconds < 30


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_cleared_death_signals_do_not_outlive_a_killed_command_line(hostile, level):
    run = hostile("pdeathsig_clear", "--isolation", level, "--call-timeout", "600", kill_after=8.0)
    assert run.code == -signal.SIGKILL  # and the fixture found no survivor 2 s later


@pytest.mark.slow
def test_an_announced_huge_array_is_refused_before_any_allocation(hostile):
    run = hostile("huge_frame", command="audit", deadline=60)
    assert run.code == 5 and "broke the worker protocol" in run.stdout and "Traceback" not in run.stderr
    assert run.seconds < 30


@pytest.mark.slow
def test_a_closed_channel_is_an_implementation_error(hostile):
    run = hostile("closes_channel", command="audit", deadline=60)
    assert run.code == 5 and "closed the worker's channel" in run.stdout, run.stdout + run.stderr
    assert "stdout closed" not in run.stderr


@pytest.mark.slow
def test_limits_cannot_be_raised(hostile, agree):
    agree(hostile("raises_limits"), 1)


@pytest.mark.slow
def test_dying_while_imported_says_so(hostile):
    run = hostile("dies_at_import", command="audit", deadline=60)
    assert run.code == 5 and "died (exit code 3) while importing the implementation" in run.stdout + run.stderr


@pytest.mark.slow
def test_control_characters_are_inert_in_every_output(hostile, agree):
    run = hostile("control_characters")
    doc = agree(run, 5)
    for text in (run.stdout, run.stderr, (run.out / "report.md").read_text(), (run.out / "index.html").read_text(),
                 json.dumps(doc, ensure_ascii=False)):
        assert not any(c in text for c in CONTROL), repr([c for c in CONTROL if c in text])
    assert "\\x1b[31mPASS" in run.stderr  # the implementation's print, shown inert
    tree = ET.parse(run.out / "junit.xml")  # well-formed XML 1.0
    errors = [e.get("message") for e in tree.iter("error")]
    assert errors and all("ValueError" in m and "\\x1b" in m for m in errors)


def test_the_sanitiser_escapes_what_acts_on_terminals_and_breaks_xml():
    evil = "a\x1b[31mb\x00c\rd\x07\u202ee\ud800f\ufffe\tg\nh"
    assert sanitize.text(evil) == "a\\x1b[31mb\\x00c\\x0dd\\x07\\u202ee\\ud800f\\ufffe\tg\nh"
    assert sanitize.line(evil).endswith("\\ufffe g h")
    assert sanitize.tree({"k\x00": ["\x1b", 1, None]}) == {"k\\x00": ["\\x1b", 1, None]}


@pytest.mark.slow
def test_the_pytest_plugin_fails_a_hung_implementation_by_its_deadline(pytester):
    shutil.copy(HERE / "progress_forger.py", pytester.path / "forger.py")
    pytester.makepyfile(test_user='''
        import time

        def sleeps(data, *, rng, epsilon, gamma):
            time.sleep(3600)

        def test_forged_progress(dptestbed):
            dptestbed.audit("laplace_mechanism", "forger.py:laplace")

        def test_a_hung_callable(dptestbed):
            dptestbed.audit("laplace_mechanism", sleeps)
    ''')
    t0 = time.monotonic()
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--dptestbed-deadline", "8", timeout=120)
    result.assert_outcomes(failed=2)
    assert time.monotonic() - t0 < 60
    # One failure line per test; the short summary repeats them, cut or not by the terminal width.
    reports = [line for line in result.stdout.lines
               if line.startswith("dptestbed: privacy audit of laplace_mechanism: implementation error")]
    assert len(reports) == 2, result.stdout.str()
    assert all("did not finish within its deadline of 8 s" in line for line in reports)
