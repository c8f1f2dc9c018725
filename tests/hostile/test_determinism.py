"""Randomness from ``rng``, checked so that no process-local memory passes it: the determinism probe
draws its second run, and the replay its batch, in a worker process started for them; the replay
compares values by dtype, so a correct implementation with np.longdouble outputs (padding bytes that
no computation writes) passes."""

from __future__ import annotations

import numpy as np
import pytest

from dptestbed.audits.privacy.estimation import _digest


@pytest.mark.slow
def test_outputs_remembered_by_rng_state_are_caught_on_every_run(hostile, agree):
    for _ in range(3):  # the same class each time: the check does not depend on which worker ran what
        run = hostile("memoises")
        doc = agree(run, 5)
        user = [r for r in doc["privacy"] + doc["theorems"] if not r.get("control")]
        assert all(r["class"] == "implementation error" for r in user), [(r["id"], r["class"]) for r in user]
        assert all("randomness not from rng" in (r.get("reason") or r.get("error") or "") for r in user)


@pytest.mark.slow
def test_a_correct_longdouble_implementation_passes(hostile, agree):
    agree(hostile("longdouble"), 0)


def test_the_replay_digest_reads_values_not_padding():
    x = np.array([1.5, -0.0, 1e-300, np.pi], dtype=np.longdouble) / np.longdouble(3)
    raw = x.view(np.uint8).reshape(len(x), -1).copy()
    if raw.shape[1] > 10:  # x86-64: 10 bytes of value, the rest padding
        raw[:, 10:] = 0xAB
    same = raw.view(np.longdouble).ravel()
    assert np.array_equal(x, same) and _digest(x) == _digest(same)
    other = x.copy()
    other[3] = np.nextafter(other[3], np.longdouble(10))  # one unit in the last place of 64 bits
    assert _digest(x) != _digest(other)
    assert _digest(np.array([0.0])) != _digest(np.array([-0.0]))
