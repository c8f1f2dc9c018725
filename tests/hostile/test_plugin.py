"""The pytest plugin runs a callable as ``check`` runs a file: in a sandboxed worker that imports it anew
by module and qualified name, so that nothing it starts outlives the session; a callable that cannot be
imported anew (a lambda, a function made inside a function) is refused in one line."""

from __future__ import annotations

import os
import shutil
import time
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]
HERE = Path(__file__).parent


def _alive(mark: str) -> list[int]:
    needle = f"DPTESTBED_HOSTILE_MARK={mark}".encode()
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/environ", "rb") as fh:
                if needle in fh.read():
                    with open(f"/proc/{entry}/stat") as st:
                        if st.read().rpartition(")")[2].split()[0] != "Z":
                            found.append(int(entry))
        except (OSError, ValueError):
            continue
    return found


@pytest.mark.slow
def test_a_callables_daemon_neither_outlives_the_session_nor_rewrites_its_verdict(pytester, monkeypatch):
    shutil.copy(HERE / "plugin_daemon.py", pytester.path / "daemon_impl.py")
    pytester.makepyfile(test_user='''
        from daemon_impl import laplace

        def test_it(dptestbed):
            dptestbed.audit("laplace_mechanism", laplace, params={"epsilon": 1.0, "gamma": 1.0, "p": 1}, samples=2000)
    ''')
    mark, junit = uuid.uuid4().hex, pytester.path / "junit.xml"
    monkeypatch.setenv("DPTESTBED_HOSTILE_MARK", mark)
    monkeypatch.setenv("HOSTILE_JUNIT", str(junit))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", f"--junitxml={junit}", timeout=300)
    result.assert_outcomes(failed=1)
    assert "claim violated" in result.stdout.str()
    end = time.monotonic() + 5  # past the moment the daemon would have struck
    while time.monotonic() < end and not (survivors := _alive(mark)):
        time.sleep(0.2)
    for pid in survivors:  # never leave them behind, even when the test fails
        os.kill(pid, 9)
    assert not survivors, f"{len(survivors)} processes of the session alive after it ended"
    assert ET.parse(junit).getroot().find("testsuite").get("failures") == "1"


@pytest.mark.slow
def test_a_callable_that_cannot_be_imported_again_is_refused(pytester):
    pytester.makepyfile(test_user='''
        import numpy as np

        def test_lambda(dptestbed):
            dptestbed.audit("laplace_mechanism", lambda data, *, rng, epsilon, gamma: np.asarray(data, float))

        def test_closure(dptestbed):
            def inner(data, *, rng, epsilon, gamma):
                return np.asarray(data, float)
            dptestbed.audit("laplace_mechanism", inner)
    ''')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", timeout=300)
    result.assert_outcomes(failed=2)
    lines = [line for line in result.stdout.lines if line.startswith("dptestbed: the implementation")]
    assert len(lines) == 2 and all("cannot be imported again" in line for line in lines), result.stdout.str()
