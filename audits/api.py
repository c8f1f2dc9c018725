"""What a paper package (``audits/<paper>/``) uses of the engine, in one place: a paper's modules import
the engine from here alone (``from dptestbed.audits.api import Context, experiment``), so that the engine's
modules may move without touching the papers, and what the papers rely on is stated.

* registering checks: :func:`experiment` with its :class:`Context` and :class:`Control`, and the helpers
  experiments share (:mod:`.checks.experiments`); the binomial tools (:mod:`.checks.theorems`);
* registering errata: :func:`erratum`, :class:`ErratumContext`, :func:`audit_summary` (:mod:`.checks.errata`);
* registering exact privacy profiles: :func:`register` and the exact laws (:mod:`.privacy.exact`);
* the audit's own pairs and points, for the exact losses of mutants (:mod:`.privacy.pairs`,
  :mod:`.privacy.claims`, :mod:`.privacy.procedure`, :func:`audit_points`);
* calling an implementation in batches (:func:`call_batch`, :mod:`.sandbox.runner`)."""

from __future__ import annotations

from dptestbed.spec import Spec

from .checks.errata import ErratumContext, audit_summary, erratum
from .checks.experiments import (
    DETECTION_LEVEL,
    PLUG_IN_LEVEL,
    Context,
    Control,
    experiment,
    first_crossing,
    fudged,
    implied_failure,
    laplace_sf,
    margin_sweep,
    plug_in_upper,
    quantile_interval,
    rate_comparison,
    rate_difference,
    reference_comparison,
    release_probability,
    scalar,
    svt_top_probability,
    transcript_cells,
)
from .checks.theorems import NOISE_FUDGE, Cell, bound_power, clopper_pearson
from .privacy.claims import make_claim
from .privacy.exact import (
    as_vector,
    discrete_epsilon,
    dist_epsilon,
    gaussian_delta,
    gaussian_epsilon,
    geometric_epsilon,
    lap_sf,
    laplace_epsilon,
    noisy_max_distribution,
    noisy_max_value_epsilon,
    register,
    svt_distribution,
    svt_segment,
)
from .privacy.options import MAX_PAIRS, MAX_SEARCHED
from .privacy.pairs import Pair, candidate_pairs, claim, generated_pairs, stress_pairs
from .sandbox.runner import call_batch

__all__ = [
    "DETECTION_LEVEL", "MAX_PAIRS", "MAX_SEARCHED", "NOISE_FUDGE", "PLUG_IN_LEVEL", "Cell", "Context", "Control",
    "ErratumContext", "Pair", "as_vector", "audit_points", "audit_summary", "bound_power", "call_batch",
    "candidate_pairs", "claim", "clopper_pearson", "discrete_epsilon", "dist_epsilon", "erratum", "experiment",
    "first_crossing", "fudged", "gaussian_delta", "gaussian_epsilon", "generated_pairs", "geometric_epsilon",
    "implied_failure", "lap_sf", "laplace_epsilon", "laplace_sf", "make_claim", "margin_sweep",
    "noisy_max_distribution", "noisy_max_value_epsilon", "plug_in_upper", "quantile_interval", "rate_comparison", "rate_difference",
    "reference_comparison", "register", "release_probability", "scalar", "stress_pairs", "svt_distribution",
    "svt_segment", "svt_top_probability", "transcript_cells",
]


def audit_points(spec: Spec, suite: str, override: dict | None = None) -> list[dict]:
    """The audit points of ``spec`` in ``suite`` (:func:`.run.planning.audit_points`), imported when called:
    a paper module loaded by an audit alone (its exact profiles) does not load the run's machinery."""
    from .run.planning import audit_points as points

    return points(spec, suite, override)
