"""The errata phase: each measurement in a process of its own under a memory limit, so the phase holds
what its largest measurement needs (the full suite once grew one process to 24 GB measuring them in turn)."""

from __future__ import annotations

import numpy as np
import pytest

from dptestbed.audits.checks import errata as E


def _erratum(measure) -> E.Erratum:
    return E.Erratum("test-E0", None, None, "proof", (), measure)


def _ctx(suite: str = "quick") -> E.ErratumContext:
    return E.ErratumContext(0, suite, {})


def _allocate(megabytes: int):
    def measure(ctx):
        block = np.ones(megabytes * 2**20 // 8)              # touched: resident
        return {"verdict": "analytic", "measurement": f"held {block.nbytes >> 20} MB", "details": {}}
    return measure


def test_a_measurement_apart_returns_its_result_and_its_peak():
    res = E.measure_apart(_erratum(_allocate(200)), _ctx())
    assert res["verdict"] == "analytic" and res["measurement"] == "held 200 MB"
    assert 200 <= res["peak_rss_mb"] < 1000


def test_a_measurement_past_the_memory_limit_is_stopped_and_says_so():
    def grow(ctx):
        blocks = []
        while True:                                            # would take the machine's memory
            blocks.append(np.ones(50 * 2**20 // 8))

    res = E.measure_apart(_erratum(grow), _ctx(), limit_mb=400)
    assert res["verdict"] == "inconclusive" and "more than 400 MB" in res["measurement"]


def test_a_crash_apart_is_inconclusive_with_the_error():
    def crash(ctx):
        raise RuntimeError("deliberate")

    res = E.measure_apart(_erratum(crash), _ctx())
    assert res["verdict"] == "inconclusive" and "RuntimeError: deliberate" in res["measurement"]


@pytest.mark.slow
def test_every_erratum_of_the_quick_suite_stays_under_the_memory_limit():
    """The errata phase as the suite runs it (each apart): every measurement's peak below the limit that
    stops it, so the phase's peak is one measurement's (the full suite's figures: docs/performance.md)."""
    out = E.errata_measurements(0, "quick", apart=True)
    assert out and all("stopped" not in (e["measurement"] or "") for e in out)
    worst = max(out, key=lambda e: e["peak_rss_mb"])
    assert worst["peak_rss_mb"] < E.MEMORY_LIMIT_MB / 2, (worst["id"], worst["peak_rss_mb"])
