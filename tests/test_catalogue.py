"""The packaged catalogue: every spec loads, every formula evaluates on its domain, every proof
obligation holds over the whole parameter domain (hypothesis), and the ids users type exist."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dptestbed.spec import load_catalogue
from dptestbed.spec.schema import resolve_stress_values

CATALOGUE = load_catalogue()
SPECS = list(CATALOGUE.values())

REQUIRED_IDS = """
laplace_mechanism sparse_vector distance_to_instability online_query_release subsample_aggregate
subsample_aggregate_corrected private_classification_queries private_classification_queries_conference
label_private_learner soft_label_queries soft_label_queries_corrected soft_label_learner soft_label_classifier
halfspace_family ppm_halfspace_learner exponential_mechanism subsample_aggregate_prediction
stable_laplace_prediction stable_gaussian_prediction averaged_learner agnostic_private_prediction
convex_erm_prediction private_prediction_lower_bound littlestone_dimension standard_optimal_algorithm
globally_stable_learner stable_histogram generic_private_learner private_littlestone_learner
gaussian_mechanism randomized_response report_noisy_max svt_lyu_1 svt_lyu_2 svt_lyu_3 svt_lyu_4
svt_lyu_5 svt_lyu_6 laplace_mechanism_broken gaussian_mechanism_broken report_noisy_max_broken
""".split()


def test_every_required_id_is_in_the_catalogue():
    missing = sorted(set(REQUIRED_IDS) - CATALOGUE.keys())
    assert not missing, f"missing specs: {missing}"


def test_catalogue_covers_every_seed_paper():
    seeds = {s.source["paper_number"] for s in SPECS if s.seed}
    assert {"000", "001", "002", "003"} <= seeds


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.id)
def test_variants_are_declared(spec):
    if spec.id.endswith("_corrected"):
        assert spec.variant_of == spec.id.removesuffix("_corrected") and spec.erratum, spec.id
    if spec.id.endswith("_broken"):
        assert spec.variant_of and spec.broken, spec.id
    if spec.erratum and spec.variant_of:
        assert CATALOGUE[spec.variant_of].erratum, f"{spec.variant_of} should carry the erratum block too"


def _point(spec):
    """The audit point if declared, else a point inside every domain."""
    values = {}
    for name, p in spec.parameters.items():
        if p.default is not None:
            values[name] = p.default
        elif p.type == "choice":
            values[name] = p.choices[0]
        else:
            lo = p.min if p.min is not None else 0.0
            hi = p.max if p.max is not None else lo + 10.0
            mid = (lo + hi) / 2
            values[name] = int(np.ceil(mid)) if p.type == "integer" else mid
    return values


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.id)
def test_every_formula_evaluates_at_a_domain_point(spec):
    env = spec.bind(_point(spec))
    for name in spec.derived:
        assert name in env, f"{spec.id}: derived {name} not computable"
        assert np.all(np.isfinite(env[name])), f"{spec.id}: derived {name} = {env[name]}"
    if spec.privacy:
        for formula in (spec.privacy.epsilon, spec.privacy.delta):
            assert np.isfinite(formula.evaluate(env))
    for theorem in spec.theorems:
        scope = dict(env)
        for _ in theorem.quantities:
            for name, f in theorem.quantities.items():
                if name not in scope and f.names <= scope.keys():
                    scope[name] = f.evaluate(scope)
        for name in theorem.quantities:
            assert name in scope, f"{spec.id} {theorem.ref}: quantity {name} not computable"
            assert np.all(~np.isnan(np.asarray(scope[name], dtype=float))), f"{spec.id} {theorem.ref}: {name} is NaN"
        for condition in theorem.preconditions:
            condition.evaluate(scope)  # evaluable; whether it holds depends on the instance
    for case in spec.stress_cases:
        case_env = spec.bind({**_point(spec), **case.params})
        for side in (case.data, case.neighbour):
            values = np.asarray(resolve_stress_values(side, case_env), dtype=object)
            assert values.size > 0


@pytest.mark.parametrize("spec", [s for s in SPECS if s.privacy], ids=lambda s: s.id)
def test_privacy_specs_have_an_audit_point(spec):
    env = spec.bind()
    assert set(spec.parameters) <= env.keys()
    assert float(spec.privacy.epsilon.evaluate(env)) > 0


def _parameter_strategy(p):
    """Values across the whole domain, log-uniform where it is unbounded (so 1e-6 and 1e4 both occur;
    integers up to 1e8, where the sample sizes of the learners' bounds lie)."""
    if p.type == "choice":
        return st.sampled_from(p.choices)
    lo = p.min if p.min is not None else -1e4
    if p.type == "integer":
        lo = int(np.ceil(lo)) + (0 if p.min_inclusive or lo != p.min else 1)
        hi = int(p.max) if p.max is not None else None
        spread = st.floats(0, 8).map(lambda e: lo + int(10 ** e) - 1)   # sample sizes reach 10^8
        return spread if hi is None else st.integers(lo, hi) | spread.filter(lambda v: v <= hi)
    if p.max is not None:
        if lo == 0 and not p.min_inclusive:
            # Open zero bound: sample log-uniformly down to 1e-12; below that float64 underflow
            # (log(1/delta) with delta = 5e-324), not the mathematics, decides the outcome.
            return st.floats(-12, np.log10(p.max)).map(lambda e: 10.0 ** e).filter(
                lambda v: v < p.max or p.max_inclusive)
        return st.floats(lo, p.max, exclude_min=not p.min_inclusive, exclude_max=not p.max_inclusive,
                         allow_nan=False, allow_subnormal=False)
    offsets = st.floats(-6, 4).map(lambda e: 10.0 ** e)
    return offsets.map(lambda d: lo + d) if p.min is not None else st.floats(-1e4, 1e4)


OBLIGATIONS = [(s, o) for s in SPECS for o in s.obligations]


@pytest.mark.slow
@pytest.mark.parametrize("spec, obligation", OBLIGATIONS, ids=lambda x: getattr(x, "id", getattr(x, "name", "")))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(data=st.data())
def test_proof_obligations_hold_over_the_domain(spec, obligation, data):
    values = {name: data.draw(_parameter_strategy(p), label=name) for name, p in spec.parameters.items()}
    try:
        env = spec.bind(values, use_defaults=False)
    except ValueError:
        assume(False)  # outside the joint constraints
    assume(obligation.condition.names <= env.keys())
    if obligation.given is not None:
        assume(bool(obligation.given.evaluate(env)))
    assert bool(obligation.condition.evaluate(env)), (
        f"{spec.id}: obligation {obligation.name!r} ({obligation.condition.source}; {obligation.source}) "
        f"fails at {values}")


@pytest.mark.parametrize("spec, obligation", OBLIGATIONS, ids=lambda x: getattr(x, "id", getattr(x, "name", "")))
def test_proof_obligations_hold_at_the_default_point(spec, obligation):
    """A fixed point inside the domain, so every obligation is evaluated at least once."""
    env = spec.bind(_point(spec))
    if obligation.condition.names <= env.keys() and (obligation.given is None or bool(obligation.given.evaluate(env))):
        assert bool(obligation.condition.evaluate(env)), f"{spec.id}: {obligation.name} fails at {_point(spec)}"


def test_every_registered_experiment_control_and_mutant_resolves():
    """The registries are checked as a whole, as scikit-learn's check_estimator runs every estimator: every
    experiment names a spec of the catalogue and one of its theorems, its controls import; every mutant names a
    spec, imports, and is meant to be killed by checks that exist (the privacy audit or a registered experiment)."""
    from dptestbed.audits.base.discovery import load_mutants
    from dptestbed.audits.checks.experiments import load_registry
    from dptestbed.audits.sandbox.contract_checks import load_implementation

    registry = load_registry()
    ids = {"privacy audit"}
    for (spec_id, ref), experiments in registry.items():
        assert spec_id in CATALOGUE, f"experiments registered for an unknown spec {spec_id!r}"
        assert ref in {t.ref for t in CATALOGUE[spec_id].theorems}, f"{spec_id}: no theorem {ref!r}"
        for exp in experiments:
            ids.add(exp.id)
            for control in exp.controls:
                assert callable(load_implementation(control.implementation)), f"{exp.id}: {control.name}"
    mutants = load_mutants()
    assert len(mutants) > 50
    for m in mutants:
        assert m.spec in CATALOGUE and callable(load_implementation(m.implementation)), m.id
        assert set(m.killed_by) <= ids, f"{m.id}: killed_by names no check: {set(m.killed_by) - ids}"
