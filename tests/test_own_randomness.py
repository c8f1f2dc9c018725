"""Own randomness (issue 27): an implementation that draws from a source of its own is audited on
independent samples (``randomness="own"``), never re-seeded; the independence probe catches a state
that repeats across workers or tasks; batch calls get limits that scale with their size."""

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from dptestbed.audits.adhoc import audit_mechanism
from dptestbed.audits.privacy import audit
from dptestbed.audits.privacy.pairs import Pair
from dptestbed.audits.privacy.procedure import _first_round_runs, _pace, _slow_note
from dptestbed.audits.pytest_plugin import SpecChecker
from dptestbed.audits.sandbox.cpulimit import batch_calls, batch_timeout
from dptestbed.audits.sandbox.probes import REPEAT_LEVEL, probe_independence
from dptestbed.audits.sandbox.runner import ImplementationError, Runner
from dptestbed.spec import find_spec

MECHANISMS = '''
import random
import time
import numpy as np

def states(data, *, rng):
    """The global generators' next numbers: what a library drawing from them would get."""
    return np.array([np.random.random(), random.random()])

def laplace_global(data, *, rng, epsilon, gamma):
    return np.asarray(data, float) + np.random.laplace(0.0, gamma / epsilon, size=np.shape(data))

_FIXED = np.random.default_rng(1234)

def laplace_fixed_seed(data, *, rng, epsilon, gamma):
    return np.asarray(data, float) + _FIXED.laplace(0.0, gamma / epsilon, size=np.shape(data))

def laplace_no_rng(data, *, epsilon, gamma):
    """A library's mechanism wrapped as its users write it: no rng, its own generator."""
    return np.asarray(data, float) + np.random.laplace(0.0, gamma / epsilon, size=np.shape(data))

def _laplace_no_rng_batch(data, n, *, epsilon, gamma):
    return np.asarray(data, float) + np.random.laplace(0.0, gamma / epsilon, size=(n, *np.shape(data)))

laplace_no_rng.batch = _laplace_no_rng_batch

def slow_batch(data, *, rng, seconds_per_run, stall_above=None):
    return 0.0

def _slow(data, n, *, rng, seconds_per_run, stall_above=None):
    time.sleep(n * seconds_per_run + (30.0 if stall_above is not None and n > stall_above else 0.0))
    return rng.random(n)

slow_batch.batch = _slow
'''


@pytest.fixture
def mechanisms(tmp_path):
    path = tmp_path / "mechanisms.py"
    path.write_text(MECHANISMS)
    return str(path)


# ----------------------------------------------------------------------------- the probe


def _draws(*arrays):
    """A draw_each returning the given arrays, one pair per call."""
    calls = iter([list(arrays[:2]), list(arrays[2:4])] * 4)
    return lambda n, rng: next(calls)


def test_the_probe_passes_draws_that_differ_and_refuses_repeated_ones():
    x = np.random.default_rng(0).random((16, 1))
    y, z, w = (np.random.default_rng(k).random((16, 1)) for k in (1, 2, 3))
    assert probe_independence(_draws(x, y, z, w)) is x
    with pytest.raises(ImplementationError, match="two worker processes drew the same 16 outputs"):
        probe_independence(_draws(x, x, z, w))
    with pytest.raises(ImplementationError, match="two successive tasks of one worker"):
        probe_independence(_draws(x, y, x, w))
    with pytest.raises(ImplementationError, match="fresh interpreters"):  # forks copy a library's generator
        probe_independence(_draws(x, x, z, w), where="forked")


def test_the_probe_draws_longer_before_it_calls_low_entropy_outputs_repeated():
    """16 bits of randomized response at epsilon = 3 repeat by chance (P about 0.2): no verdict from
    them; the probe draws fresh, longer ones, and calls a repeat only below REPEAT_LEVEL."""
    sizes = []
    bits = np.random.default_rng(5)

    def independent(n, rng):
        sizes.append(n)
        return [(bits.random((n, 1)) < 0.05).astype(np.int8) for _ in range(2)]

    assert probe_independence(independent).shape == (16, 1)
    fixed = np.random.default_rng(6)

    def repeating(n, rng):  # two workers in step: the same state
        x = (fixed.random((n, 1)) < 0.05).astype(np.int8)
        return [x, x.copy()]

    with pytest.raises(ImplementationError, match="randomness repeats"):
        probe_independence(repeating)


def test_constant_outputs_tell_the_probe_nothing():
    """A deterministic mechanism is the audit's business (a violation, or a constant that leaks nothing)."""
    assert probe_independence(lambda n, rng: [np.zeros((n, 1)), np.zeros((n, 1))]).shape[0] == 16


def test_the_false_alarm_level_is_small():
    assert REPEAT_LEVEL <= 1e-9


# ----------------------------------------------------------------------------- independence per path


def _all_distinct(rows: np.ndarray) -> bool:
    return len(np.unique(rows, axis=0)) == len(rows)


def test_sandboxed_workers_have_global_states_of_their_own_and_keep_them_across_tasks(mechanisms):
    """Fresh interpreters seed np.random and random from OS entropy, never again: the numbers of
    two workers, and of one worker's successive tasks, all differ."""
    with Runner(f"{mechanisms}:states", timeout=30, workers=2) as runner:
        assert runner.where == "sandboxed"
        draws = runner.draw_each(None, 50, rng=np.random.default_rng(0)) + \
            runner.draw_each(None, 50, rng=np.random.default_rng(0))  # the same seeds: rng does not matter
        assert len(draws) == 4
        assert _all_distinct(np.concatenate(draws))
        blocks = runner.sample(None, 6000, rng=np.random.default_rng(0))  # three tasks of 2000 calls
        assert _all_distinct(blocks)


def test_forked_workers_reseed_the_global_states_after_the_fork():
    def states(data, *, rng):
        import random

        return np.array([np.random.random(), random.random()])

    with Runner(states, timeout=30, workers=2) as runner:
        assert runner.where == "forked"
        draws = runner.draw_each(None, 50, rng=np.random.default_rng(0)) + \
            runner.draw_each(None, 50, rng=np.random.default_rng(0))
        assert _all_distinct(np.concatenate(draws))


def test_an_in_process_state_runs_on_from_call_to_call():
    def states(data, *, rng):
        return np.random.random()

    with Runner(states, isolate=False) as runner:
        assert runner.where == "in-process"
        draws = runner.draw_each(None, 50, rng=np.random.default_rng(0))
        assert _all_distinct(np.concatenate(draws)[:, None])


# ----------------------------------------------------------------------------- audits


def test_own_randomness_is_audited_where_rng_mode_refuses_it(mechanisms):
    spec = find_spec("laplace_mechanism")
    refused = audit(spec, implementation=f"{mechanisms}:laplace_global", samples=3000)
    assert refused.verdict == "implementation error" and "randomness not from rng" in refused.reason
    assert "--randomness own" in refused.reason
    result = audit(spec, implementation=f"{mechanisms}:laplace_global", samples=30000, randomness="own",
                   confidence=0.999)  # not reproducible: a tight mechanism fails a 0.95 audit up to 5% of runs
    data = result.to_json()
    assert data["verdict"] in ("no violation found", "no power"), data["reason"]
    assert data["randomness"] == "own" and data["reproducible"] is False
    assert any(note.startswith("randomness:") for note in data["notes"])
    assert audit(spec, samples=3000).to_json()["reproducible"] is True


def test_under_own_randomness_an_implementation_need_not_take_rng(mechanisms):
    """Called without rng (file reference: sandboxed workers; callable: forked ones); with
    --randomness rng the probe still says where its randomness comes from."""
    spec = find_spec("laplace_mechanism")
    result = audit(spec, implementation=f"{mechanisms}:laplace_no_rng", samples=30000, randomness="own",
                   confidence=0.999)
    assert result.verdict in ("no violation found", "no power"), result.reason
    assert result.runs > 0 and result.samples_per_side == 30000

    def mean_no_rng(data, *, gamma):
        return float(np.mean(data)) + np.random.laplace(0.0, gamma)

    result = audit_mechanism(mean_no_rng, epsilon=1.0, relation="vector_l1", pairs=[([0.0], [1.0])],
                             params={"gamma": 1.0}, samples=30000, randomness="own", confidence=0.999)
    assert result.verdict in ("no violation found", "no power"), result.reason
    refused = audit(spec, implementation=f"{mechanisms}:laplace_no_rng", samples=3000)
    assert refused.verdict == "implementation error" and "randomness not from rng" in refused.reason


def test_a_constant_seed_is_an_implementation_error_in_own_mode(mechanisms):
    result = audit(find_spec("laplace_mechanism"), implementation=f"{mechanisms}:laplace_fixed_seed",
                   samples=3000, randomness="own")
    assert result.verdict == "implementation error"
    assert "randomness repeats: two worker processes" in result.reason


def test_the_verdict_is_the_same_statistics_in_own_mode():
    """The reference (which draws from rng) audited in own mode: the same rounds, the same power,
    the confidence asked for."""
    spec = find_spec("laplace_mechanism")
    mine = audit(spec, samples=200_000, randomness="own", confidence=0.99)
    ref = audit(spec, samples=200_000, confidence=0.99)
    assert mine.confidence == ref.confidence == 0.99
    assert mine.verdict == ref.verdict == "no violation found"
    assert mine.power["minimum_detectable_epsilon"] == pytest.approx(ref.power["minimum_detectable_epsilon"], rel=0.05)


def test_a_halved_scale_is_a_claim_violation_in_own_mode():
    def laplace_half(data, *, rng, epsilon, gamma):
        return np.asarray(data, float) + np.random.laplace(0.0, 0.5 * gamma / epsilon, size=np.shape(data))

    result = audit_mechanism(laplace_half, epsilon=1.0, relation="vector_l1", pairs=[([0.0], [1.0])],
                             params={"gamma": 1.0}, samples=30000, randomness="own", confidence=0.999)
    assert result.verdict == "violation"


def test_bad_randomness_is_refused():
    from dptestbed.audits.privacy import AuditError

    with pytest.raises(AuditError, match="randomness"):
        audit(find_spec("laplace_mechanism"), randomness="os")


def test_the_plugin_audits_own_randomness(mechanisms):
    laplace_global = f"{mechanisms}:laplace_global"  # (a callable is imported anew by the sandbox, as this is)
    checker = SpecChecker(alpha=0.001)
    result = checker.audit_claim(laplace_global, epsilon=1.0, relation="vector_l1", pairs=[([0.0], [1.0])],
                                 params={"gamma": 1.0}, samples=60000, randomness="own", allow=("no-power",))
    assert result["randomness"] == "own" and result["class"] in ("pass", "no power")
    with pytest.raises(pytest.fail.Exception, match="randomness not from rng"):
        checker.audit_claim(laplace_global, epsilon=1.0, relation="vector_l1", pairs=[([0.0], [1.0])],
                            params={"gamma": 1.0}, samples=3000)
    with pytest.raises(ValueError, match="randomness"):
        checker.audit("laplace_mechanism", laplace_global, randomness="entropy")


# ----------------------------------------------------------------------------- speed


def test_batch_call_limits_scale_with_the_batch_size_and_the_samplers_own_pace(mechanisms):
    assert batch_timeout(60.0, 100) == 60.0
    assert batch_timeout(60.0, 100_000) == 600.0
    assert batch_calls(10) == [10] and batch_calls(600) == [32, 128, 440]
    assert batch_calls(100_000) == [32, 128, 512, 2048, 8192, 32768, 56320]
    rng = np.random.default_rng
    with Runner(f"{mechanisms}:slow_batch", timeout=0.5, workers=1) as runner:
        # 40,000 runs at 100 us a run (4 s): a call of 29,088 runs takes 2.9 s, over 0.5 s per 10,000 runs
        # (1.45 s), within 4 times the pace of the task's earlier calls
        out = runner.sample(None, 40_000, rng=rng(0), params={"seconds_per_run": 100e-6})
        assert out.shape == (40_000,)
        # the same outputs from the same seed, however long each call took
        again = runner.sample(None, 40_000, rng=rng(0), params={"seconds_per_run": 0.0})
        assert np.array_equal(out, again)
        # a call that stalls far beyond the task's pace (the 8,192-run call) is stopped at its limit
        with pytest.raises(ImplementationError,
                           match=r"one call of the batch sampler \(8,192 of the task's 40,000 runs\) ran longer than"):
            runner.sample(None, 40_000, rng=rng(0), params={"seconds_per_run": 1e-6, "stall_above": 5000})
    with Runner(f"{mechanisms}:slow_batch", timeout=0.2, workers=1) as runner:
        # 10,000 runs at 1 ms a run keep their pace, but the task's ceiling is 10 call limits (2 s)
        with pytest.raises(ImplementationError, match=r"10,000 runs of the batch sampler ran longer than 2 s in all"):
            runner.sample(None, 10_000, rng=rng(0), params={"seconds_per_run": 1e-3})


def test_a_slow_per_call_mechanism_gets_a_one_line_note():
    class Slow:
        batched, n_workers = False, 2

    runs = _first_round_runs(100_000, 2)
    assert runs == 400_000  # two pairs: training and estimation on both sides of both
    note = _slow_note(Slow(), "mine.py:mech", 1e-3, runs)
    assert "no batch sampler" in note and "1 ms a call" in note and "about 3 min on 2 worker(s)" in note
    assert "\n" not in note
    assert _slow_note(Slow(), "mine.py:mech", 1e-6, runs) is None
    Slow.batched = True  # a batch sampler (a library's vectorised call, say): no advice to vectorise it
    note = _slow_note(Slow(), "mine.py:mech", 1e-3, runs)
    assert "batch sampler takes 1 ms a run" in note and "vectorise" not in note and "--time-budget" in note


def test_a_batch_samplers_pace_is_per_run_not_per_call():
    """A worker's first task (its start) and a call's fixed cost are not a run's: a batch sampler of 5 ms a call
    and 10 ns a run was taken for 2.5 us a run (a 2,000-run call), 20 s of warning on a 1-second audit."""
    import time

    class Batched:
        batched = True

        def __init__(self):
            self.calls = []

        def sample(self, data, n, *, rng, params):
            time.sleep(0.2 if not self.calls else 0.005)  # the first task: a worker starting
            self.calls.append(n)
            return np.zeros(n)

    runner = Batched()
    pace = _pace(runner, Pair(name="p", data=np.zeros(1), neighbour=np.ones(1), params={}, env={}), seed=0)
    assert runner.calls == [2, 2000, 20_000, 20_000]
    assert pace < 5e-7  # 5 ms / 20,000 runs = 0.25 us, not 2.5 us (nor 100 us with the start)


@pytest.mark.slow
def test_check_records_own_randomness_in_results_and_report(mechanisms, tmp_path):
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "dptestbed", "check", "laplace_mechanism", "--impl",
                           f"{mechanisms}:laplace_global", "--randomness", "own", "--samples", "20000",
                           "--out", str(out), "--no-plots", "--allow", "no-power"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Not reproducible: the implementation drew its own randomness" in proc.stdout
    document = json.loads((out / "results.json").read_text())
    assert document["run"]["randomness"] == "own" and document["run"]["reproducible"] is False
    assert all(r["randomness"] == "own" for r in document["privacy"])
    assert "Not reproducible" in (out / "report.md").read_text()
    assert 'id="reproducibility"' in (out / "index.html").read_text()


def test_the_check_help_states_the_contract_of_own_randomness():
    proc = subprocess.run([sys.executable, "-m", "dptestbed", "check", "--help"], capture_output=True, text=True,
                          timeout=60)
    assert "--randomness own" in proc.stdout and "not reproducible" in textwrap.dedent(proc.stdout)
