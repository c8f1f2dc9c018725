"""One input convention per spec: the privacy audit (its stress and generated pairs, at the defaults and at
every audit point) and every theorem check of a calibration spec hand the implementation ``data`` of the
same type and shape convention, so that a wrapper written to the spec's [input] section (a library's
scalar mechanism, say) cannot work in one and raise a TypeError in the other. Randomized response's
exact-keep check once passed ``np.array([bit])`` where the audit passes the bit itself."""

from __future__ import annotations

import numpy as np
import pytest

from dptestbed.audits.checks.experiments import experiments_for, run_check
from dptestbed.audits.privacy.pairs import candidate_pairs
from dptestbed.audits.sandbox.runner import load_implementation
from dptestbed.impl.mutant import call, call_batch
from dptestbed.spec import load_catalogue

CATALOGUE = load_catalogue()
SPECS = [s for s in CATALOGUE.values() if s.paper == "calibration" and s.implementation and s.privacy]
KINDS = {"b": "bool", "i": "integer", "u": "integer", "f": "real"}


def convention(data) -> str:
    """'scalar <kind>' for a Python or numpy scalar, '<ndim>-d array of <kind>' for an array, else the type."""
    if isinstance(data, np.ndarray) and data.ndim > 0:
        return f"{data.ndim}-d array of {KINDS.get(data.dtype.kind, data.dtype.kind)}"
    if isinstance(data, (int, float, np.integer, np.floating, np.ndarray)):
        return f"scalar {KINDS.get(np.asarray(data).dtype.kind, '?')}"
    return type(data).__name__


def recording(reference, seen: set):
    """The reference, noting the convention of every ``data`` it is given."""
    def batch(data, n, /, *, rng, **params):
        seen.add(convention(data))
        return call_batch(reference, data, n, rng, params)

    def mechanism(data, *, rng, **params):
        seen.add(convention(data))
        return call(reference, data, rng, params)

    mechanism.batch = batch
    return mechanism


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.id)
def test_audit_and_checks_pass_the_same_input_convention(spec):
    audited = set()
    for point in ({}, *spec.audit_points):
        for pair in candidate_pairs(spec, point):
            audited |= {convention(pair.data), convention(pair.neighbour)}
    assert len(audited) == 1, f"{spec.id}: the audit's pairs mix {sorted(audited)}"
    checked = set()
    reference = load_implementation(spec.implementation)
    for exp in experiments_for(spec):
        r = run_check(spec, exp, recording(reference, checked), seed=0, isolate=False, trials=300)
        assert r["error"] is None, (exp.id, r["error"])
    assert checked <= audited, f"{spec.id}: checks pass {sorted(checked - audited)}, the audit {sorted(audited)}"


def test_randomized_response_gets_the_bit_itself():
    spec = CATALOGUE["randomized_response"]
    seen: set = set()
    for exp in experiments_for(spec):
        run_check(spec, exp, recording(load_implementation(spec.implementation), seen), seed=0, isolate=False,
                  trials=300)
    assert seen == {"scalar integer"}
