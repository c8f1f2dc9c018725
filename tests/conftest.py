"""Test-suite settings: hypothesis runs derandomized (the same examples on every run, no example
database), so the suite is reproducible and CI cannot flake on a newly drawn example. Every
statistical test fixes its numpy seed explicitly.

The test process forks run items and workers as the command line does, and must not hold threads
when it forks (Python 3.12 warns: a lock held by another thread stays held in the child). The
command line does no linear algebra of its own; a test does, and OpenBLAS then keeps helper threads
for the rest of the session: here it gets none. The modules whose libraries leave threads behind run
last, in :data:`LAST` order (a Dask client its event loop; dp-accounting the FFT's thread pool); under
pytest-xdist (the README's ``-n auto``) last on the worker that runs them, since the workers take whole
modules in this order (``--dist loadfile --no-loadscope-reorder`` in pyproject.toml)."""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads OpenBLAS

import math

import numpy as np
import pytest
from fresh_venv import build_wheel
from hypothesis import settings

settings.register_profile("dptestbed", derandomize=True, database=None)
settings.load_profile("dptestbed")


LAST = ("test_dask_executor.py", "test_claims.py")  # test_claims: dp-accounting as its oracle


def _memoised_catalogue():
    """``load_catalogue`` read once per folder and state of its files (path, size, modification time of
    every spec file and seeds.json), each caller given a catalogue of its own (a dict of frozen specs): test modules and
    the command lines tests run in this process loaded the same 58 files dozens of times (a third of the
    collection's time). A folder whose files changed is read again; errors are never kept."""
    from pathlib import Path

    import dptestbed.spec as spec_package
    from dptestbed.spec import loader

    original, kept = loader.load_catalogue, {}

    def load_catalogue(directory=None):
        folder = Path(directory) if directory is not None else loader.CATALOGUE_DIR
        try:
            state = (str(folder.resolve()), tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size)
                                                  for pattern in ("*.toml", loader.SEEDS_FILE)
                                                  for p in sorted(folder.rglob(pattern))))
        except OSError:
            return original(directory)
        if state not in kept:
            kept[state] = original(directory)
        return loader.Catalogue(kept[state])

    loader.load_catalogue = spec_package.load_catalogue = load_catalogue


_memoised_catalogue()


def _asks_for_measurements(config) -> bool:
    """A marker expression naming ``measurement`` (``-m measurement``: benchmarks/measurements.py) or a test named
    by its node id (``tests/test_x.py::test_y``) runs the long measurements; the README's test command never does."""
    return "measurement" in (config.option.markexpr or "") or any("::" in str(arg) for arg in config.args)


def pytest_collection_modifyitems(config, items):
    """Long measurements (marked ``measurement``) are left out unless asked for, and the modules of :data:`LAST` run
    last (see the module docstring)."""
    if not _asks_for_measurements(config):
        measurements = [item for item in items if item.get_closest_marker("measurement")]
        if measurements:
            config.hook.pytest_deselected(items=measurements)
            items[:] = [item for item in items if not item.get_closest_marker("measurement")]
    items.sort(key=lambda item: LAST.index(item.path.name) + 1 if item.path.name in LAST else 0)


@pytest.fixture(autouse=True)
def _readable_tmp_path(request):
    """Run as root, dptestbed's sandbox is an unprivileged user of the run's own: an implementation a test
    writes into its ``tmp_path`` (or its pytester's folder) must be readable by others, as a user's would."""
    for name, folder in (("tmp_path", lambda f: f), ("pytester", lambda f: f.path)):
        if os.geteuid() == 0 and name in request.fixturenames:
            folder(request.getfixturevalue(name)).chmod(0o755)


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
