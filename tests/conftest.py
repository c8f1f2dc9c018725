"""Test-suite settings: hypothesis runs derandomized (the same examples on every run, no example
database), so the suite is reproducible and CI cannot flake on a newly drawn example. Every
statistical test fixes its numpy seed explicitly."""

import math

import numpy as np
import pytest
from fresh_venv import build_wheel
from hypothesis import settings

settings.register_profile("dptestbed", derandomize=True, database=None)
settings.load_profile("dptestbed")


@pytest.fixture
def check_transcripts():
    """``check(exact, batch, data, n, rng, **params)``: the Monte Carlo transcript law of a batch
    sampler matches an exact law ({transcript tuple: probability}) within 5 standard errors."""

    def check(exact: dict, batch, data, n: int, rng, **params):
        out = batch(np.asarray(data, float), n, rng=rng, **params)
        keys, counts = np.unique(out, axis=0, return_counts=True)
        mc = {tuple(int(v) for v in k): c / n for k, c in zip(keys, counts)}
        assert sum(exact.values()) == pytest.approx(1.0, abs=1e-9)
        for key in set(exact) | set(mc):
            p, f = exact.get(key, 0.0), mc.get(key, 0.0)
            assert abs(f - p) < 5 * math.sqrt(p * (1 - p) / n) + 2e-5, (key, p, f)

    return check


@pytest.fixture(scope="session")
def dptestbed_wheel(tmp_path_factory):
    """(dptestbed's wheel, the build's output), built once per session (:mod:`fresh_venv`)."""
    return build_wheel(tmp_path_factory.mktemp("wheel"))
