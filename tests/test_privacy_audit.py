"""The privacy auditor: calibration corpus, false-alarm rate, robustness, CLI.

Calibration (fixed seeds, so each verdict is deterministic): every correct corpus mechanism
gets "no violation found" and a bound below its exact epsilon; every broken one is flagged,
Lyu's Algorithms 3-6 at 99% confidence.

False-alarm rate of the suite (measured, ``test_false_alarm_rate_*``): randomized response at its
exact epsilon (the claim is tight on the stress pair), 200 seeds at confidence 0.8 with 2*10^4
samples per side: the test allows at most ``binomial_false_alarm_limit(200, 0.2, 1e-3)`` alarms
(a one-sided exact binomial test at level 1e-3 of "rate <= 20%"); the same for Laplace in
``benchmarks/false_alarms.py --audit laplace_mechanism`` (5 minutes). Measured over 2000 seeds: 3.0% at nominal 20% (Laplace and randomized response
alike), 0.3% at nominal 5% (Laplace). Every other
statistical assertion here uses a fixed seed, so the suite itself is not flaky.
"""

from __future__ import annotations

import json
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dptestbed.audits.base.stats import binomial_false_alarm_limit
from dptestbed.audits.cli import main
from dptestbed.audits.privacy import IMPL_ERROR, NO_VIOLATION, VIOLATION, AuditError, audit, tight, views
from dptestbed.audits.privacy.claims import Claim, from_json
from dptestbed.audits.privacy.events import search_events
from dptestbed.audits.privacy.pairs import candidate_pairs, generated_pairs, stress_pairs
from dptestbed.audits.privacy.views import Featurizer, lookup, quantile_edges, small_int_counts, weighted_counts
from dptestbed.audits.sandbox.runner import ImplementationError, Runner, call_batch, load_implementation
from dptestbed.spec import load_spec, spec_file

REQUIRED_KEYS = {"spec", "implementation", "claim", "epsilon_lower_bound", "exact_epsilon", "confidence",
                 "samples_per_side", "verdict", "counterexample", "seconds", "seed", "pairs_tried",
                 "events_tried", "reason", "expected"}


def spec_of(spec_id: str):
    return load_spec(spec_file(spec_id))


# =========================================================================== calibration corpus

CORRECT = ["laplace_mechanism", "gaussian_mechanism", "randomized_response", "exponential_mechanism",
           "report_noisy_max", "distance_to_instability", "sparse_vector", "svt_lyu_1",
           pytest.param("svt_lyu_2", marks=pytest.mark.measurement)]  # 60-80 s: a long measurement
BROKEN = ["laplace_mechanism_broken", "gaussian_mechanism_broken", "exponential_mechanism_broken",
          "report_noisy_max_broken"]
LYU_NOT_PRIVATE = ["svt_lyu_3", "svt_lyu_4", "svt_lyu_5", "svt_lyu_6"]


def _check_sound(result):
    """Each carried candidate's bound is at most the exact epsilon of its pair (when known)."""
    for c in result.to_json()["candidates"]:
        exact = c["exact_epsilon"]
        if exact is not None and exact != "inf":
            assert c["epsilon_lower_bound"] == "-inf" or c["epsilon_lower_bound"] <= exact + 1e-9, c


@pytest.mark.slow
@pytest.mark.parametrize("spec_id", CORRECT)
def test_correct_mechanism_passes(spec_id):
    result = audit(spec_of(spec_id), seed=1)  # the default size: enough for power on every one
    assert result.verdict == NO_VIOLATION, result.to_json()["best"]
    assert result.counterexample is None
    assert 0 <= result.epsilon_lower_bound <= from_json(result.claim).value + 1e-9
    _check_sound(result)
    out = result.to_json()
    assert REQUIRED_KEYS <= out.keys()
    json.dumps(out)  # plain JSON


@pytest.mark.parametrize("spec_id", BROKEN)
def test_broken_mechanism_is_flagged(spec_id):
    spec = spec_of(spec_id)
    result = audit(spec, samples=200_000, seed=1)
    assert spec.broken and result.expected == VIOLATION
    assert result.verdict == VIOLATION
    ce = result.counterexample
    assert ce is not None and ce["epsilon_lower_bound"] > from_json(ce["claim"]).value
    assert {"pair", "event", "p_data", "p_neighbour"} <= ce.keys()
    assert {"data", "neighbour", "name"} <= ce["pair"].keys()
    _check_sound(result)


@pytest.mark.slow
@pytest.mark.parametrize("spec_id", LYU_NOT_PRIVATE)
def test_lyu_non_private_variants_flagged_at_99_percent(spec_id):
    result = audit(spec_of(spec_id), samples=300_000, confidence=0.99, seed=2)
    assert result.verdict == VIOLATION, result.to_json()["best"]
    _check_sound(result)


def test_approximate_dp_events_account_for_delta():
    """An (epsilon, delta) claim: events chosen for (p1 - delta)/p2 bring the bound close to the exact epsilon
    (the Gaussian mechanism audited at its paper point, its curve set aside); the Gaussian spec itself claims its
    GDP curve, mu = 1 exactly; the 30%-too-little noise variant exceeds its curve and the audit flags it at 99%."""
    import dataclasses

    spec = spec_of("gaussian_mechanism")
    point = dataclasses.replace(spec, privacy=dataclasses.replace(spec.privacy, profile=None))
    ok = audit(point, samples=300_000, seed=0)
    assert ok.claim["delta"] > 0 and ok.verdict in (NO_VIOLATION, "no power")
    assert ok.exact_epsilon == pytest.approx(1.0, abs=1e-6) and ok.epsilon_lower_bound >= 0.8
    curve = audit(spec, samples=300_000, seed=0)
    assert curve.claim == {"kind": "gdp", "mu": 1.0} and curve.verdict == NO_VIOLATION
    assert curve.exact_epsilon == pytest.approx(1.0) and 0.97 <= curve.epsilon_lower_bound <= 1.0
    bad = audit(spec_of("gaussian_mechanism_broken"), samples=300_000, confidence=0.99, seed=0)
    assert bad.exact_exceeds_claim is True and bad.verdict == VIOLATION


def test_laplace_target_tightness():
    """Issue target: Laplace at epsilon = 1, eps_lb >= 0.90 at 95% with <= 10^6 samples per side."""
    result = audit(spec_of("laplace_mechanism"), samples=1_000_000, seed=0)
    assert result.verdict == NO_VIOLATION
    assert result.samples_per_side <= 1_000_000
    assert result.epsilon_lower_bound >= 0.90
    assert result.exact_epsilon == pytest.approx(1.0)


@pytest.mark.slow
def test_default_audit_is_reproducible_and_records_seed():
    a = audit(spec_of("randomized_response"), samples=50_000, seed=7).to_json()
    b = audit(spec_of("randomized_response"), samples=50_000, seed=7).to_json()
    c = audit(spec_of("randomized_response"), samples=50_000, seed=8).to_json()
    for d in (a, b, c):
        d.pop("seconds"), d.pop("samples_per_second"), d.pop("timing")
    assert a == b and a["seed"] == 7
    assert a["epsilon_lower_bound"] != c["epsilon_lower_bound"]


# =========================================================================== false-alarm rate


def _alarms(spec, seeds, samples=20_000, confidence=0.8):
    return sum(audit(spec, samples=samples, confidence=confidence, seed=s).verdict == VIOLATION for s in seeds)


@pytest.mark.slow
def test_false_alarm_rate_randomized_response_at_exact_epsilon():
    """Laplace's 200 runs (about 5 minutes) are measured in benchmarks/false_alarms.py --audit laplace_mechanism."""
    seeds = range(200)
    alarms = _alarms(spec_of("randomized_response"), seeds)
    assert alarms <= binomial_false_alarm_limit(len(seeds), 0.2, 1e-3)


@pytest.mark.slow
def test_false_alarm_harness_has_power(tmp_path):
    """The same harness on a claim 20% below the exact epsilon alarms in most seeds, so the
    false-alarm tests above could fail."""
    text = (spec_file("laplace_mechanism")).read_text()
    text = text.replace('id = "laplace_mechanism"', 'id = "laplace_overclaimed"')
    text = text.replace('[privacy]\nepsilon = "epsilon"', '[privacy]\nepsilon = "0.8*epsilon"')
    path = tmp_path / "laplace_overclaimed.toml"
    path.write_text(text)
    spec = load_spec(path)
    assert spec.privacy.epsilon.source == "0.8*epsilon"
    assert _alarms(spec, range(20)) >= 15


# =========================================================================== user implementations

USER_CODE = textwrap.dedent('''
    import time
    import numpy as np

    def good(data, *, rng, epsilon, gamma):
        return np.asarray(data, float) + rng.laplace(0.0, gamma / epsilon, np.shape(data))

    def too_little_noise(data, *, rng, epsilon, gamma):
        return np.asarray(data, float) + rng.laplace(0.0, 0.6 * gamma / epsilon, np.shape(data))

    def raises(data, *, rng, **params):
        raise RuntimeError("user bug")

    def hangs(data, *, rng, **params):
        while True:
            time.sleep(0.01)

    def returns_nan(data, *, rng, **params):
        return float("nan")

    def returns_text(data, *, rng, **params):
        return "top"

    def changes_shape(data, *, rng, **params):
        return np.zeros(int(rng.integers(1, 3)))

    def dies(data, *, rng, **params):
        import os
        os._exit(7)

    def no_rng(data, epsilon):  # takes no rng and draws its own randomness: called without rng, caught by the probe
        return float(np.random.laplace(0.0, 1.0 / epsilon))

    def chatty(data, *, rng, epsilon, gamma):
        print("hello from user code")
        return float(np.asarray(data, float)[0] + rng.laplace(0.0, gamma / epsilon))
''')


@pytest.fixture
def user_file(tmp_path):
    path = tmp_path / "user_mech.py"
    path.write_text(USER_CODE)
    return path


@pytest.mark.slow
def test_user_file_audited_by_path(user_file):
    spec = spec_of("laplace_mechanism")
    ok = audit(spec, implementation=f"{user_file}:good", samples=300_000, seed=3)
    assert ok.verdict == NO_VIOLATION and ok.implementation == f"{user_file}:good"
    assert ok.epsilon_lower_bound > 0.7
    bad = audit(spec, implementation=f"{user_file}:too_little_noise", samples=30_000, seed=3)
    assert bad.verdict == VIOLATION


@pytest.mark.slow
@pytest.mark.parametrize("name,reason", [
    ("raises", "RuntimeError: user bug"),
    ("hangs", "timed out"),
    ("returns_nan", "NaN"),
    ("returns_text", "expected a number"),
    ("changes_shape", "different shapes"),
    ("dies", "died"),
    ("no_rng", "randomness not from rng"),
    ("missing", "no attribute"),
])
def test_implementation_errors_become_verdicts(user_file, name, reason):
    result = audit(spec_of("laplace_mechanism"), implementation=f"{user_file}:{name}", samples=2_000,
                   seed=0, timeout=1.0)
    assert result.verdict == IMPL_ERROR
    assert reason in result.reason
    out = result.to_json()
    assert out["verdict"] == IMPL_ERROR and out["reason"] and out["counterexample"] is None


def test_spec_without_implementation_is_an_implementation_error(tmp_path):
    text = (spec_file("laplace_mechanism")).read_text()
    text = "\n".join(line for line in text.splitlines() if not line.startswith("implementation ="))
    path = tmp_path / "noimpl.toml"
    path.write_text(text)
    result = audit(load_spec(path))
    assert result.verdict == IMPL_ERROR and "no reference implementation" in result.reason


def test_unauditable_requests_raise_audit_error():
    spec = spec_of("laplace_mechanism")
    with pytest.raises(AuditError):
        audit(spec, params={"epsilon": -1.0})
    with pytest.raises(AuditError):
        audit(spec, params={"nope": 1})
    with pytest.raises(AuditError):
        audit(spec, confidence=1.5)


# =========================================================================== runner


def test_load_implementation_refs(user_file):
    fn = load_implementation("dptestbed.impl.calibration.laplace:laplace_mechanism")
    assert callable(fn.batch)
    assert callable(load_implementation(f"{user_file}:good"))
    for ref, msg in [("no_colon", "expected"), ("dptestbed.nope:f", "cannot import"),
                     ("dptestbed.impl.calibration.laplace:nope", "no attribute"), ("/nonexistent/x.py:f", "no such file")]:
        with pytest.raises(ImplementationError, match=msg):
            load_implementation(ref)


def test_call_batch_shapes_and_determinism(user_file):
    ref = load_implementation("dptestbed.impl.calibration.laplace:laplace_mechanism")
    params = {"epsilon": 1.0, "gamma": 1.0, "p": 1, "beta": 0.05}
    a = call_batch(ref, [0.0, 1.0], 1000, rng=np.random.default_rng(0), params=params)
    b = call_batch(ref, [0.0, 1.0], 1000, rng=np.random.default_rng(0), params=params)
    assert a.shape == (1000, 2) and np.array_equal(a, b)
    user = load_implementation(f"{user_file}:good")
    u1 = call_batch(user, [0.0], 5000, rng=np.random.default_rng(1), params=params)
    with Runner(user, workers=1) as one:
        u2 = one.sample([0.0], 5000, rng=np.random.default_rng(1), params=params)
    assert u1.shape == (5000, 1) and np.array_equal(u1, u2)  # independent of the worker count
    assert abs(u1.mean()) < 0.1


def test_user_prints_do_not_reach_stdout(user_file, capfd):
    user = load_implementation(f"{user_file}:chatty")
    out = call_batch(user, [0.0], 50, rng=np.random.default_rng(0), params={"epsilon": 1.0, "gamma": 1.0})
    assert out.shape == (50,)
    captured = capfd.readouterr()
    assert "hello from user code" not in captured.out


def test_batch_sampler_validation():
    def mech(data, *, rng):
        return 0.0

    mech.batch = lambda data, n, *, rng: np.zeros(n - 1)
    with pytest.raises(ImplementationError, match="shape"):
        call_batch(mech, [0.0], 10, rng=np.random.default_rng(0), isolate=False)
    mech.batch = lambda data, n, *, rng: np.full(n, np.nan)
    with pytest.raises(ImplementationError, match="NaN"):
        call_batch(mech, [0.0], 10, rng=np.random.default_rng(0), isolate=True)


# =========================================================================== pairs and events


@pytest.mark.slow
def test_generated_pairs_are_neighbours():
    spec = spec_of("sparse_vector")
    pairs = candidate_pairs(spec)
    assert pairs[0].source == "stress" and any(p.source == "generated" for p in pairs)
    for p in pairs:
        assert np.max(np.abs(np.asarray(p.neighbour, float) - np.asarray(p.data, float))) <= 1 + 1e-12
    lap = spec_of("laplace_mechanism")
    for p in candidate_pairs(lap, {"p": 1}):
        assert np.abs(np.asarray(p.neighbour, float) - np.asarray(p.data, float)).sum() <= 1 + 1e-12


def test_no_generated_pairs_for_structured_inputs():
    spec = spec_of("distance_to_instability")   # data = [label, dist]: moving the label is no neighbour
    assert generated_pairs(spec, stress_pairs(spec)) == []


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=20, max_size=300), st.lists(st.integers(-3, 3), min_size=20, max_size=300),
       st.sampled_from([0.0, 0.01]))
def test_event_search_scores_match_the_event(s1, s2, delta):
    """The predicted bound reported for each event is the bound of that event's own frequencies."""
    a, b = np.array(s1, float), np.array(s2, float)
    found, tried = search_events(a, b, 10_000, Claim("dp", 1.0, delta), 0.05)
    assert tried > 0
    for orient, _family, event, pred in found:
        q1, q2 = event.indicator(a).mean(), event.indicator(b).mean()
        num, den = (q1, q2) if orient == 1 else (q2, q1)
        assert pred == pytest.approx(float(Claim("dp", 1.0, delta).predicted(num, den, 10_000, 0.05)), rel=1e-9)


def test_event_search_finds_disjoint_support():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 5, 5000).astype(float)
    b = rng.integers(3, 8, 5000).astype(float)
    found, _ = search_events(a, b, 10_000, Claim("dp", 1.0), 0.05)
    best = max(found, key=lambda f: f[3])
    assert best[3] > 5  # {0, 1, 2} never happens under D'


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-40, 40), min_size=5, max_size=200), st.lists(st.integers(-40, 40), min_size=5, max_size=200),
       st.booleans())
def test_counting_matches_the_indicator(s1, s2, as_float):
    """Selection by counting (bincount per value, events counted from per-value counts) agrees
    with a pass of each event's indicator over the sample."""
    a, b = (np.array(v, float if as_float else np.int64) for v in (s1, s2))
    values, k1, k2 = small_int_counts(a, b)
    u, c = np.unique(np.concatenate([a, b]), return_counts=True)
    assert np.array_equal(values, u) and np.array_equal(k1 + k2, c)
    found, _ = search_events(a, b, 10_000, Claim("dp", 1.0), 0.05)
    for _orient, _family, event, _pred in found:
        assert event.count(a, (values, k1)) == event.count(a) == int(event.indicator(a).sum())
    assert small_int_counts(a + 0.5, b) is None and small_int_counts(a, np.array([np.nan])) is None


def _decimals_loop(x):
    """The definition of views.decimals, one pass per k over every value."""
    out = np.full(x.shape, views.DECIMALS_CAP + 1, dtype=np.int64)
    todo = np.isfinite(x)
    for k in range(views.DECIMALS_CAP + 1):
        with np.errstate(over="ignore", invalid="ignore"):
            y = x * 10.0 ** k
            hit = todo & (np.abs(y - np.round(y)) <= 8 * np.spacing(np.abs(y)))
        out[hit] = k
        todo &= ~hit
    return out


def test_decimal_places_of_a_release_are_those_of_the_definition():
    """views.decimals sends only values whole at 10^-CAP through its loop: the same places as the
    definition on continuous draws, grids of every step, huge, subnormal and non-finite values."""
    rng = np.random.default_rng(5)
    n = 50_000
    cases = [rng.laplace(size=n), np.round(rng.laplace(size=n) * 10.0 ** rng.integers(0, 12, n)) / 10.0 ** rng.integers(0, 12, n),
             np.round(rng.normal(size=n), 4) * 1e5, rng.normal(size=n) * 1e15, rng.integers(-10**9, 10**9, n) / 10.0 ** rng.integers(0, 11, n),
             np.array([np.inf, -np.inf, np.nan, 0.1, 0.3, 1e300, -1e300, 5e-324, 1e-300, 1 / 3, 0.1 + 0.2, 0.0, -0.0]),
             rng.integers(0, 100, (n // 2, 2)) * 0.01 + rng.integers(0, 5, (n // 2, 2))]
    for x in cases:
        assert np.array_equal(views.decimals(x), _decimals_loop(x))


def test_tight_round_estimates_the_winner_on_fresh_samples(monkeypatch, capsys, spec_dir):
    monkeypatch.setattr(tight, "TIGHT_MAX_SAMPLES", 1_000_000)
    result = audit(spec_of("laplace_mechanism"), samples=20_000, seed=2, tight=True)
    out = result.to_json()
    assert [r.get("tight", False) for r in out["rounds"]] == [False, True]
    assert out["rounds"][1]["alpha"] == pytest.approx(0.025) == out["rounds"][0]["alpha"]  # alpha split over both
    # the verdict's round, the tight round's own selection (3 x 20,000 per side, a third of it drawn
    # for training) and its estimation (at most the patched cap)
    assert out["rounds"][1]["train"] == 20_000
    assert 40_000 < out["samples_per_side"] <= 1_040_000 and out["best"]["n_per_side"] > 20_000
    assert result.verdict == NO_VIOLATION and 0.8 < result.epsilon_lower_bound <= 1.0
    assert set(out["timing"]) == {"selection", "sampling", "counting", "statistics", "exact"}
    code, text, _ = _run(capsys, "audit", "laplace_mechanism", "--dir", str(spec_dir), "--samples", "20000", "--tight")
    assert code == 0 and "tight round" in text and "the bound reaches" in text


@pytest.mark.parametrize("values, dtype", [([-128, 127, 0, 127], np.int8), ([True, False, True], np.bool_),
                                           ([2**64 - 1, 2**64 - 3], np.uint64), ([-2**63, -2**63 + 5], np.int64),
                                           ([-40_000.0, 3.0, 20_000.0], np.float64)])
def test_small_int_counts_of_every_integer_type(values, dtype):
    """Counts per value in any integer dtype, at its extremes: int8's -128 .. 127 spans more
    than int8 holds (its difference wrapped, and bincount failed on a negative index)."""
    x = np.array(values, dtype=dtype)
    got = small_int_counts(x, x[:1])
    u, c = np.unique(x, return_counts=True)
    assert got[0].dtype == x.dtype and np.array_equal(got[0], u) and np.array_equal(got[1], c)
    assert got[2].sum() == 1


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["int8", "int16", "int64", "float64", "float32"]), st.integers(1, 300),
       st.integers(-200, 200), st.integers(0, 10**6))
def test_featurizer_symbols_and_indices(dtype, span, lo, seed):
    """The symbols of the integer columns are their distinct values and each sample's symbol
    indices those of a lookup, whichever way they are found (16-bit fast path or not)."""
    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype) if dtype.startswith("int") else None
    lo = max(lo, int(info.min)) if info else lo
    hi = min(lo + span, int(info.max)) if info else lo + span
    x1, x2 = (rng.integers(lo, hi + 1, size=(50, 3)).astype(dtype) for _ in range(2))
    feat = Featurizer(x1, x2)
    assert np.array_equal(feat.symbols, np.unique(np.concatenate([x1, x2])))
    for x in (x1, x2, x1[::-1]):
        assert np.array_equal(feat._known(x), lookup(feat.symbols, x))


def test_naive_bayes_score_fitted_on_rows_or_columns_and_scored_in_blocks(monkeypatch):
    """The integer columns' naive-Bayes table is the same fitted on the distinct rows (weighted)
    or column by column, and the score the same computed in blocks of any size."""
    rng = np.random.default_rng(3)
    x1 = np.hstack([rng.integers(0, 3, (4000, 4)), rng.normal(size=(4000, 2))])
    x2 = np.hstack([rng.integers(0, 2, (4000, 4)), rng.normal(0.5, 1, size=(4000, 2))])
    feat = Featurizer(x1, x2)
    assert feat.grouped is not None and feat.nb_sym is not None
    monkeypatch.setattr(Featurizer, "group", lambda self, *samples: None)
    by_columns = Featurizer(x1, x2)
    assert by_columns.grouped is None and np.allclose(by_columns.nb_sym[0], feat.nb_sym[0], rtol=0, atol=1e-12)
    whole = feat.stat("nb", x1)
    monkeypatch.setattr(views, "NB_BLOCK", 7)
    assert np.array_equal(feat.stat("nb", x1[::-1].copy()), whole[::-1])


def test_quantile_edges_are_numpys_quantiles():
    x = np.random.default_rng(1).normal(size=1001)
    x[::3] = 0.0
    levels = np.linspace(0, 1, 33)[1:-1]
    assert np.allclose(quantile_edges(x, 32), np.unique(np.quantile(x, levels)), rtol=0, atol=1e-12)


def test_lookup_of_large_integer_codes():
    """Hashed 62-bit row codes two apart: a float span would call them equal (an IndexError)."""
    keys = np.array([2**62 + 1, 2**62 + 3], dtype=np.int64)
    x = np.array([2**62 + 3, 2**62 + 2, 2**62 + 1, -2**62], dtype=np.int64)
    assert lookup(keys, x).tolist() == [2, 0, 1, 0]


def test_lookup_of_many_float_keys_sorts_its_queries_and_keeps_their_order():
    """A support event holding every value of one side (1.7e6 keys in an audit of the Gaussian): the queries are
    searched in sorted order; the answer is the definition's, in the queries' own order and shape."""
    rng = np.random.default_rng(3)
    keys = np.unique(np.round(rng.normal(size=40_000) * 1e6, 1))
    x = np.concatenate([rng.choice(keys, 30_000), np.round(rng.normal(size=30_000) * 1e6, 1), [np.nan]])
    rng.shuffle(x)
    want = np.where(np.isin(x, keys), np.searchsorted(keys, x) + 1, 0)
    assert np.array_equal(lookup(keys, x), want)
    assert np.array_equal(lookup(keys, x.reshape(-1, 1)), want.reshape(-1, 1))


def test_curve_thresholds_of_a_large_sample_are_exact_in_the_tails():
    """The trade-off curve's thresholds on 3e5 heavy-tailed values: numpy's quantiles at every level within 1% of 0
    or 1 (order statistics), and in the middle within the range of the neighbouring exact levels."""
    from dptestbed.audits.privacy.tradeoff import CURVE_POINTS, CURVE_TAIL, curve_thresholds

    v = np.random.default_rng(5).standard_cauchy(size=300_001)
    tail = np.geomspace(1.0 / v.size, 0.5, CURVE_POINTS // 2)
    levels = np.unique(np.concatenate([tail, 1 - tail]))
    exact, got = np.quantile(v, levels), curve_thresholds(v)
    assert got.size == levels.size and np.all(np.diff(got) > 0)
    edge = (levels <= CURVE_TAIL) | (levels >= 1 - CURVE_TAIL)
    assert np.allclose(got[edge], exact[edge], rtol=1e-12, atol=0)
    inner = np.flatnonzero(~edge)
    assert np.all((got[inner] > exact[inner - 1]) & (got[inner] < exact[inner + 1]))


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.integers(0, 3), st.integers(5, 400), st.integers(0, 10**6))
def test_grouped_views_count_like_the_samples(d_int, d_cont, n, seed):
    """A view of the integer columns alone, computed once per distinct row and counted with the
    rows' counts as weights, has the same value counts as the view over every sample."""
    rng = np.random.default_rng(seed)

    def sample():
        codes = rng.integers(-1, 2, (n, d_int)).astype(float)
        return np.hstack([codes, rng.normal(size=(n, d_cont))])

    x1, x2 = sample(), sample()
    feat = Featurizer(x1, x2)
    grouped = feat.group(x1, x2)
    if grouped is None:  # most rows distinct: no grouping, the per-sample path
        assert len(np.unique(feat.stat("row", np.vstack([x1, x2])))) > (2 * n) // 4
        return
    reps, c1, c2 = grouped
    assert c1.sum() == n and c2.sum() == n
    assert np.array_equal(feat.group(x1[:, :, None], x2[:, :, None])[1], c1)  # a 3-D output groups like its rows
    for view in feat.views:
        if not feat.int_only(view):
            continue
        values, k1, k2 = weighted_counts(feat.stat(view, reps), c1, c2)
        u1, n1 = np.unique(feat.stat(view, x1), return_counts=True)
        assert np.array_equal(k1[k1 > 0], n1) and np.array_equal(values[k1 > 0], u1)
        assert k2.sum() == n


def test_row_by_bin_view_finds_a_leak_inside_one_row():
    """Lyu et al.'s Algorithm 3 pattern: the same rows on both sides, a ratio only where the
    released value falls in a band; the row x bin view names that row and the band."""
    rng = np.random.default_rng(0)
    n = 200_000
    value1, value2 = rng.normal(0.0, 1.0, n), rng.normal(0.0, 1.0, n)
    value1 = np.where(rng.random(n) < 0.3, rng.uniform(0.0, 1.0, n), value1)  # more mass on [0, 1] under D
    row1, row2 = rng.integers(0, 2, (n, 3)).astype(float), rng.integers(0, 2, (n, 3)).astype(float)
    x1 = np.hstack([row1, (row1[:, :1] * value1[:, None])])
    x2 = np.hstack([row2, (row2[:, :1] * value2[:, None])])
    feat = Featurizer(x1, x2)
    assert "rowbin" in feat.views
    codes = feat.stat("rowbin", x1[:5])
    for row, code in zip(x1[:5], codes):
        text = feat.rowbin_outcome(code)
        assert text.startswith(str(row[:3].tolist()))
        lo, hi = (float(v) for v in text.split("[")[-1].rstrip(")").split(", "))
        assert lo <= row[3] < hi
    found, _ = search_events(feat.stat("rowbin", x1), feat.stat("rowbin", x2), 10**6, Claim("dp", 1.0), 0.05,
                             view="rowbin", discrete=True)
    union = [event for orient, family, event, _ in found if orient == 1 and family == "lr_union"][0]
    inside = union.indicator(feat.stat("rowbin", x1))
    assert np.all(x1[inside, 0] == 1) and np.mean((x1[inside, 3] > -0.1) & (x1[inside, 3] < 1.1)) > 0.9


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 12), st.integers(5, 60), st.integers(0, 10**6))
def test_row_codes_round_trip(d, n, seed):
    rng = np.random.default_rng(seed)
    x1 = rng.integers(-1, 2, (n, d)).astype(np.int8)
    x2 = rng.integers(-1, 2, (n, d)).astype(np.int8)
    feat = Featurizer(x1, x2)
    assert "row" in feat.views
    codes = feat.stat("row", x1)
    for row, code in zip(x1, codes):
        assert feat.row_outcome(code) == row.tolist()
    assert len(set(codes.tolist())) == len({tuple(r) for r in x1.tolist()})


# =========================================================================== CLI


@pytest.fixture
def spec_dir(tmp_path):
    folder = tmp_path / "specs"
    folder.mkdir()
    for sid in ("laplace_mechanism", "laplace_mechanism_broken", "randomized_response"):
        (folder / f"{sid}.toml").write_text((spec_file(sid)).read_text())
    return folder


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.slow
def test_cli_audit_json(capsys, spec_dir):
    code, out, _ = _run(capsys, "audit", "laplace_mechanism", "--dir", str(spec_dir), "--json", "--samples", "100000")
    result = json.loads(out)
    assert code == 0 and result["verdict"] == NO_VIOLATION
    assert REQUIRED_KEYS <= result.keys()
    assert result["exact_epsilon"] == pytest.approx(1.0) and result["claim"] == {"kind": "dp", "epsilon": 1.0, "delta": 0.0}


@pytest.mark.slow
def test_cli_broken_exits_1_with_counterexample(capsys, spec_dir):
    code, out, _ = _run(capsys, "audit", "laplace_mechanism_broken", "--dir", str(spec_dir), "--json",
                        "--samples", "100000", "--confidence", "0.99")
    result = json.loads(out)
    assert code == 1 and result["verdict"] == VIOLATION and result["counterexample"]["pair"]


@pytest.mark.slow
def test_cli_human_output_and_params(capsys, spec_dir):
    code, out, _ = _run(capsys, "audit", "randomized_response", "--dir", str(spec_dir), "--param", "epsilon=0.5",
                        "--seed", "4")
    assert code == 0
    assert "no violation found" in out and "epsilon = 0.5" in out and "exact epsilon" in out


@pytest.mark.slow
def test_cli_implementation_errors_exit_5(capsys, spec_dir, user_file):
    code, out, _ = _run(capsys, "audit", "laplace_mechanism", "--dir", str(spec_dir), "--impl", f"{user_file}:raises",
                        "--json")
    assert code == 5 and json.loads(out)["verdict"] == IMPL_ERROR
    code, out, _ = _run(capsys, "audit", "laplace_mechanism", "--dir", str(spec_dir), "--impl", f"{user_file}:hangs",
                        "--timeout", "1", "--json")
    result = json.loads(out)
    assert code == 5 and result["verdict"] == IMPL_ERROR and "timed out" in result["reason"]


@pytest.mark.slow
def test_cli_bad_input_exits_2(capsys, spec_dir):
    assert _run(capsys, "audit", "nope", "--dir", str(spec_dir))[0] == 2
    code, _, err = _run(capsys, "audit", "laplace_mechanism", "--dir", str(spec_dir), "--param", "epsilon=-1")
    assert code == 2 and "epsilon" in err
    assert _run(capsys, "audit", "laplace_mechanism", "--dir", str(spec_dir), "--samples", "10")[0] == 2


def _float32_laplace_batch(data, n, *, rng, epsilon, gamma):
    """Laplace noise from float32 uniforms: D's and D''s outputs live on different grids."""
    f = np.asarray(data, dtype=float)
    u = rng.random(size=(n, *f.shape), dtype=np.float32).astype(float) - 0.5
    return f - (gamma / epsilon) * np.sign(u) * np.log1p(-2 * np.abs(u))


def _float32_laplace(data, *, rng, epsilon, gamma):
    return _float32_laplace_batch(data, 1, rng=rng, epsilon=epsilon, gamma=gamma)[0]


_float32_laplace.batch = _float32_laplace_batch


@pytest.mark.slow
def test_floating_point_support_leak_is_flagged():
    """No threshold event sees it (the law is Laplace to 7 digits), the support event does."""
    result = audit(spec_of("laplace_mechanism"), implementation=_float32_laplace, samples=1_000_000, seed=3,
                   isolate=False)
    assert result.verdict == VIOLATION and result.counterexample["family"] == "support"
    c = result.counterexample
    assert c["count_data" if c["numerator"] == "neighbour" else "count_neighbour"] == 0  # never on the other side
    assert result.epsilon_lower_bound > 5


def test_the_pair_search_ranks_pairs_by_fraction_of_their_claim():
    """Pairs at different claims: the best by fraction of its claim (a leaking pair at epsilon 8 with a pilot
    bound of 6.8 beside an empty one at 0.5), then the best at the audit's own point when the first is at a
    moved parameter point, then the best by margin, then the rest by fraction."""
    from types import SimpleNamespace

    from dptestbed.audits.privacy.rounds import Auditor

    home, moved = SimpleNamespace(source="stress"), SimpleNamespace(source="parameter")
    aud = SimpleNamespace(pairs=[home, home, home, home], claims=[Claim("dp", 0.5), Claim("dp", 1.0),
                                                                  Claim("dp", 8.0, 1e-3), Claim("dp", 8.0, 1e-3)])
    aud.fraction = lambda i, m: Auditor.fraction(aud, i, m)
    margins = {0: -0.5, 1: -1.0, 2: -1.2, 3: -8.0}        # bounds 0, 0, 6.8, 0
    assert Auditor.rank(aud, [0, 1, 2, 3], margins) == [2, 0, 1, 3]
    aud.pairs = [home, home, moved, home]  # the leaking pair at a moved point: the audit point's best follows it
    assert Auditor.rank(aud, [0, 1, 2, 3], margins)[:2] == [2, 0]
    assert Auditor.rank(aud, [1, 3], margins) == [1, 3]


def test_one_query_noise_per_run_in_a_oqr_is_a_violation_at_a_strict_level():
    """The leaking pair (mixed_directions) survives the pair search at the mutants run's level."""
    r = audit(load_spec(spec_file("online_query_release")),
              "dptestbed.impl.model_agnostic.mutants:online_query_release_shared_query_noise",
              seed=2002005278, confidence=1 - 3.333e-4, isolate=False)
    assert r.verdict == VIOLATION and r.epsilon_lower_bound > 8.0


def test_a_round_for_power_alone_estimates_the_most_sensitive_event_on_every_sample(tmp_path):
    """Per-call code (no batch sampler): round 1 (20,000 a side) is short of power and shows nothing; the next
    round re-estimates its most sensitive event (fixed before the round's samples exist) on all its fresh
    samples, alone at the round's level: no training third, one candidate, and power reached with fewer samples
    than a full round would need. (Batched code gets a full round: its selection on more samples finds rarer
    events of higher loss.)"""
    (tmp_path / "lap.py").write_text("import numpy as np\n\ndef laplace(data, *, rng, epsilon, gamma):\n"
                                     "    f = np.atleast_1d(np.asarray(data, dtype=float))\n"
                                     "    return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)\n")
    result = audit(spec_of("laplace_mechanism"), f"{tmp_path / 'lap.py'}:laplace", rounds=[20_000, 1_000_000], seed=4)
    first, second = result.to_json()["rounds"]
    assert first["power_short"]["minimum_detectable_epsilon"] > 1.05 and not first.get("power_round")
    assert second["power_round"] and second["train"] == 0 and second["K"] == 1
    assert second["alpha"] == first["alpha"] and second["test"] == second["samples_per_side"] < 1_000_000
    assert second["kept_pairs"] == [result.to_json()["power"]["pair"]]
    assert result.verdict == NO_VIOLATION and result.power["minimum_detectable_epsilon"] <= 1.05
    assert 0.85 < result.epsilon_lower_bound <= result.exact_epsilon + 1e-9


@pytest.mark.slow
def test_a_batched_round_sized_for_power_also_estimates_the_event_it_was_sized_for():
    """svt_lyu_2 at epsilon 0.5, c = 2 in the quick suite (its seed and level in the false-alarm run's seed 1): round 1
    is short of power, round 2 is sized so that round 1's most sensitive event would have it, and its own selection
    (on 1.5e6 of its 1.8e7 samples a side) chose a weaker one: "no power" (0.545 detectable against 0.525
    needed). The event round 2 was sized for is estimated there too, fixed before its samples exist and in its
    Bonferroni count: power (0.517)."""
    result = audit(spec_of("svt_lyu_2"), None, params={"epsilon": 0.5, "c": 2}, seed=413680744,
                   confidence=1 - 2 * 2.3195876288639728e-05)
    second = result.to_json()["rounds"][1]
    assert second["carried"] and second["K"] >= 2  # its own choices (one before the ramps, three with them) and the carried
    assert result.verdict == NO_VIOLATION and result.power["minimum_detectable_epsilon"] <= 0.525


def test_the_automatic_rounds_end_with_a_round_for_power_alone_whose_alpha_is_set_aside(tmp_path, monkeypatch):
    """Default rounds of per-call code: three shares of alpha, fixed before any sample (round 1, round 2, and a
    last round for power alone that runs only when round 2 left power short). Round 1 cut to 3,000 a side is
    short of power and shows nothing: round 2 is a round for power alone, sized for it; whether the last round
    runs or not, every round's level is alpha / 3 of what the serial test of a user's function leaves."""
    from dptestbed.audits.privacy import procedure
    from dptestbed.audits.privacy.serial import SERIAL_ALPHA_SHARE
    monkeypatch.setattr(procedure, "CALL_FIRST_ROUND", 3_000)
    (tmp_path / "lap.py").write_text("import numpy as np\n\ndef laplace(data, *, rng, epsilon, gamma):\n"
                                     "    f = np.atleast_1d(np.asarray(data, dtype=float))\n"
                                     "    return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)\n")
    # (without the line search: its pairs far out, at -32768, predict a rising bound on 3,000 samples, and round 2
    # is then a full round, as it should be; the rounds' accounting is what this test is about)
    result = audit(spec_of("laplace_mechanism"), f"{tmp_path / 'lap.py'}:laplace", seed=4, confidence=0.95,
                   line_search=False)
    rounds = result.to_json()["rounds"]
    assert [r["alpha"] for r in rounds] == pytest.approx([0.05 * (1 - SERIAL_ALPHA_SHARE) / 3] * len(rounds))
    assert len(rounds) >= 2 and all(r["power_round"] for r in rounds[1:])
    assert result.verdict == NO_VIOLATION and result.power["minimum_detectable_epsilon"] <= 1.05


def test_a_round_that_would_outlast_the_items_limits_is_not_started_and_the_verdict_names_what_power_needs(
        tmp_path, monkeypatch):
    """Slow per-call code: when the round sized for power would take longer than CALL_ROUND_SECONDS at the last
    round's pace, it is not started (an item's CPU limit would cut it into a run error); the audit ends "no
    power" with the samples a side and the seconds that power needs. The first round is cut to what fits in
    CALL_ROUND_SECONDS too (here the least a round draws, 300), with a note."""
    from dptestbed.audits.privacy import procedure
    monkeypatch.setattr(procedure, "CALL_FIRST_ROUND", 3_000)
    monkeypatch.setattr(procedure, "CALL_ROUND_SECONDS", 0.0)
    (tmp_path / "lap.py").write_text("import numpy as np\n\ndef laplace(data, *, rng, epsilon, gamma):\n"
                                     "    f = np.atleast_1d(np.asarray(data, dtype=float))\n"
                                     "    return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)\n")
    # (without the line search: its pairs far out, at -32768, predict a rising bound on 3,000 samples, and round 2
    # is then a full round, as it should be; the rounds' accounting is what this test is about)
    result = audit(spec_of("laplace_mechanism"), f"{tmp_path / 'lap.py'}:laplace", seed=4, confidence=0.95,
                   line_search=False)
    (first,) = result.to_json()["rounds"]
    assert first["samples_per_side"] < 3_000 and any("the first round drew 300 samples" in n for n in result.notes)
    assert first["skipped_round"]["samples_per_side"] == first["power_short"]["next_round_samples"] > 3_000
    assert result.verdict == "no power" and result.power["samples_for_power"] > 3_000
    assert result.timing["seconds_for_power"] > 0


@pytest.mark.slow
def test_a_time_budget_bounds_the_whole_audit_of_slow_per_call_code(tmp_path):
    """A per-call mechanism of 3 ms a call (a library call; asleep, so a loaded machine does not stretch it): with
    --time-budget 40 the whole audit (pace, line search, every round, the replay) ends within the budget and its
    tolerance (10% and 5 s), sized to what fits; it has no power at this budget and says what would reach it, and
    the budget it names is larger than the one it was given. Before: the first round alone was 10^5 calls a side
    a pair (about 15 minutes here)."""
    (tmp_path / "slow.py").write_text("import time\nimport numpy as np\n\ndef laplace(data, *, rng, epsilon, gamma):\n"
                                      "    time.sleep(0.003)\n"
                                      "    f = np.atleast_1d(np.asarray(data, dtype=float))\n"
                                      "    return f + rng.laplace(0.0, gamma / epsilon, size=f.shape)\n")
    from dptestbed.audits.report.model import power_remedy

    result = audit(spec_of("laplace_mechanism"), f"{tmp_path / 'slow.py'}:laplace", seed=2, time_budget=40)
    assert result.seconds <= 40 * 1.1 + 5, result.seconds
    assert result.verdict == "no power" and result.power["samples_for_power"] > result.samples_per_side
    remedy = power_remedy(result.to_json())
    assert int(remedy.rsplit("--time-budget ", 1)[1]) > 40


def test_the_alpha_budget_is_fixed_before_sampling_and_its_shares_sum_to_the_level():
    """The soundness rule as a unit (audits/privacy/budget.py): the shares of every phase that may run, set aside
    before any sample, sum to 1 - confidence; a phase that cannot run takes none; an audit's rounds report theirs."""
    from dptestbed.audits.privacy.budget import AlphaBudget

    full = AlphaBudget.split(0.05, 3, confirm=True, agree=True, diverge=True, serial=True)
    assert (full.per_round * full.rounds + full.confirm + full.agree + full.diverge + full.serial
            == pytest.approx(0.05))
    assert min(full.per_round, full.confirm, full.agree, full.diverge, full.serial) > 0
    plain = AlphaBudget.split(0.05, 1)
    assert plain.per_round == 0.05 and plain.confirm == plain.agree == plain.diverge == plain.serial == 0.0
    for total, rounds in ((0.0, 1), (1.0, 1), (0.05, 0)):
        with pytest.raises(ValueError, match="alpha budget"):
            AlphaBudget.split(total, rounds)
    result = audit(spec_of("laplace_mechanism"), samples=20_000, seed=1, confidence=0.9)
    assert [r["alpha"] for r in result.to_json()["rounds"]] == pytest.approx([0.1])


def test_audit_options_are_one_object_with_keyword_overrides():
    """``audit`` takes its settings as an :class:`AuditOptions` and any field as a keyword; an unknown keyword is a
    TypeError naming it, and ``workers`` (the former name of ``jobs``) warns and sets ``jobs``."""
    from dptestbed.audits.privacy import AuditOptions

    base = AuditOptions(samples=2_000, seed=3)
    assert AuditOptions.of(base, {"seed": 4}) == AuditOptions(samples=2_000, seed=4)
    assert AuditOptions.of(None, {"rounds": [1000, 2000]}).rounds == (1000, 2000)
    with pytest.raises(TypeError, match="sampels"):
        AuditOptions.of(None, {"sampels": 10})
    with pytest.warns(DeprecationWarning):
        assert AuditOptions.of(None, {"workers": 3}).jobs == 3
    spec = spec_of("laplace_mechanism")
    by_object = audit(spec, options=AuditOptions(samples=3_000, seed=1, exact=False))
    by_keywords = audit(spec, samples=3_000, seed=1, exact=False)
    assert by_object.epsilon_lower_bound == by_keywords.epsilon_lower_bound and by_object.verdict == by_keywords.verdict


def test_a_slow_pair_of_per_call_code_draws_what_fits_and_the_others_all_their_runs():
    """A pair whose runs cost far more than the typical pair's (an item id moved to 10^6 in a histogram that reads
    its domain from the data: 10 ms a run against 60 us) draws in each phase what fits in the phase's seconds,
    never fewer than MIN_PAIR_RUNS; the typical pairs draw every run they are asked for."""
    from dptestbed.audits.privacy import rounds
    from dptestbed.audits.privacy.progress import ProgressBar

    spec = load_spec(spec_file("laplace_mechanism"))
    pairs = stress_pairs(spec)[:1] * 5

    class Timed:  # a runner whose requests take 60 us a run, the last pair's 10 ms
        n_workers, batched = 2, False

        def sample_many(self, requests, *, seconds):
            seconds[:] = [n * (0.01 if k >= 24 else 6e-5) for k, (_, n, _, _) in enumerate(requests)]  # 6 a pair
            return [np.zeros((n, 1)) for _, n, _, _ in requests]

    aud = rounds.Auditor(spec, pairs, Timed(), 0, ProgressBar(False))
    aud.measure_costs()
    assert [aud.slow(i) for i in range(5)] == [False] * 4 + [True]
    assert aud.runs(0, 10**6) == 10**6
    assert aud.runs(4, 10**6) == int(rounds.PAIR_PHASE_SECONDS * 2 / (2 * 0.01))
    assert aud.runs(4, 10**6, seconds=0.1) == rounds.MIN_PAIR_RUNS
    assert aud.runs(4, 150) == 150
