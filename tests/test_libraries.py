"""The library wrappers of ``examples/libraries/`` (IBM diffprivlib 0.6.6, OpenDP 0.16): each returns the
encoding of the spec it is audited against, single runs and batches alike; none draws from ``rng`` (they
are audited with ``randomness="own"``); and, marked slow, one correct wrapper per library passes its privacy
audit and one misconfigured one is shown to violate its claim. The whole table is
``benchmarks/libraries.py``.

The libraries are an optional extra (``pip install -e '.[examples]'``): without them this module is
skipped, so CI's venv with ``.[test]`` alone collects it and reports the skip."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("diffprivlib", reason="diffprivlib not installed: pip install -e '.[examples]' to test "
                    "examples/libraries")
pytest.importorskip("opendp", reason="opendp not installed: pip install -e '.[examples]' to test examples/libraries")

from dptestbed.audits.base import verdict as outcomes  # imported after the skips
from dptestbed.audits.privacy import audit
from dptestbed.audits.sandbox.contract_checks import load_implementation
from dptestbed.impl.contract import accepted_params
from dptestbed.spec import load_catalogue

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "libraries"
CATALOGUE = load_catalogue()


def _load(name):
    spec = importlib.util.spec_from_file_location(f"examples_libraries_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DPL, ODP, PER_CALL = _load("diffprivlib_mechanisms"), _load("opendp_mechanisms"), _load("per_call")

# (wrapper, spec, data, params): every wrapper, at a small point of its spec
CASES = [
    (DPL.laplace, "laplace_mechanism", np.array([0.0, 2.0]), {"epsilon": 1.0, "gamma": 1.0}),
    (DPL.gaussian, "gaussian_mechanism_analytic", np.array([0.0, 2.0]), {"epsilon": 1.0, "delta": 1e-5, "sensitivity": 1.0}),
    (DPL.geometric, "geometric_mechanism", np.array([0.0, 3.0]), {"epsilon": 1.0, "sensitivity": 2}),
    (DPL.exponential, "exponential_mechanism", np.array([0.0, 1.0, 1.0]), {"epsilon": 1.0, "sensitivity": 1.0}),
    (DPL.mean, "bounded_mean", np.array([0.2, 5.0, -1.0]), {"epsilon": 1.0, "lower": 0.0, "upper": 1.0}),
    (ODP.laplace, "laplace_mechanism", np.array([0.0, 2.0]), {"epsilon": 1.0, "gamma": 1.0}),
    (ODP.gaussian, "gaussian_mechanism", np.array([0.0, 2.0]), {"sigma": 1.0, "sensitivity": 1.0}),
    (ODP.geometric, "geometric_mechanism", np.array([0.0, 3.0]), {"epsilon": 1.0, "sensitivity": 2}),
    (ODP.randomized_response, "randomized_response", 1, {"epsilon": 1.0}),
    (ODP.randomized_response_per_call, "randomized_response", 0, {"epsilon": 1.0}),
    (PER_CALL.laplace_100us, "laplace_mechanism", np.array([0.0, 2.0]), {"epsilon": 1.0, "gamma": 1.0}),
    (DPL.misconfigured_laplace_half_sensitivity, "laplace_mechanism", np.array([0.0]), {"epsilon": 1.0, "gamma": 1.0}),
    (DPL.misconfigured_gaussian_delta_understated, "gaussian_mechanism_analytic", np.array([0.0]),
     {"epsilon": 1.0, "delta": 1e-6, "sensitivity": 1.0}),
    (DPL.misconfigured_mean_bounds_missing, "bounded_mean", np.array([0.0, 3.0]), {"epsilon": 1.0, "lower": 0.0, "upper": 1.0}),
    (ODP.misconfigured_laplace_scale_for_2eps, "laplace_mechanism", np.array([0.0]), {"epsilon": 1.0, "gamma": 1.0}),
]
IDS = [f"{fn.__module__.split('_', 2)[-1]}.{fn.__name__}" for fn, *_ in CASES]


@pytest.mark.parametrize("wrapper, spec_id, data, params", CASES, ids=IDS)
def test_wrappers_return_the_spec_encoding(wrapper, spec_id, data, params):
    """A single run has the shape and number kind of the spec reference's output; a batch of 5 stacks 5
    of them on axis 0."""
    reference = load_implementation(CATALOGUE[spec_id].implementation)
    full = {**CATALOGUE[spec_id].defaults(), **params, "p": np.size(data), "n": np.size(data)}
    want = np.asarray(reference(data, rng=np.random.default_rng(0), **accepted_params(reference, full)))
    one = np.asarray(wrapper(data, rng=np.random.default_rng(0), **params))
    assert one.shape == want.shape and one.dtype.kind == want.dtype.kind
    if hasattr(wrapper, "batch"):
        five = np.asarray(wrapper.batch(data, 5, rng=np.random.default_rng(0), **params))
        assert five.shape == (5, *want.shape) and five.dtype.kind == want.dtype.kind


@pytest.mark.parametrize("wrapper, data, params", [(DPL.laplace, [0.0], {"epsilon": 1.0, "gamma": 1.0}),
                                                   (ODP.laplace, [0.0], {"epsilon": 1.0, "gamma": 1.0})],
                         ids=["diffprivlib", "opendp"])
def test_the_libraries_draw_their_own_randomness(wrapper, data, params):
    """Generators of the same seed give different releases: the noise is the library's, which is why the
    wrappers are audited with randomness="own" (the default probe would refuse them)."""
    a = wrapper.batch(data, 50, rng=np.random.default_rng(7), **params)
    b = wrapper.batch(data, 50, rng=np.random.default_rng(7), **params)
    assert not np.array_equal(a, b)


def _audit(spec_id, function, params, samples):
    result = audit(CATALOGUE[spec_id], implementation=str(EXAMPLES / function), params=params, samples=samples,
                   randomness="own").to_json()
    return outcomes.audit_class(result), result


@pytest.mark.slow
def test_a_correct_diffprivlib_wrapper_passes_its_audit():
    cls, r = _audit("laplace_mechanism", "diffprivlib_mechanisms.py:laplace", {"epsilon": 1.0, "gamma": 1.0, "p": 1},
                    100_000)
    assert cls == outcomes.PASS, r.get("reason")
    assert r["randomness"] == "own" and r["reproducible"] is False


@pytest.mark.slow
def test_a_correct_opendp_wrapper_passes_its_audit():
    cls, r = _audit("geometric_mechanism", "opendp_mechanisms.py:geometric", {"epsilon": 1.0, "sensitivity": 1},
                    100_000)
    assert cls == outcomes.PASS, r.get("reason")


@pytest.mark.slow
def test_a_misconfigured_wrapper_violates_its_claim():
    cls, r = _audit("laplace_mechanism", "diffprivlib_mechanisms.py:misconfigured_laplace_half_sensitivity",
                    {"epsilon": 1.0, "gamma": 1.0, "p": 1}, 50_000)
    assert cls == outcomes.CLAIM_VIOLATED
    assert r["epsilon_lower_bound"] > 1.5  # the true loss is 2
