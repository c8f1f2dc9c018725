"""Untrusted implementations run sandboxed (audits/sandbox/workers.py): a hostile implementation gets a
named verdict, never a hang, a crash of the auditor or a process that outlives the run."""

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from dptestbed.audits.sandbox import workers as sandbox
from dptestbed.audits.sandbox.runner import ImplementationError, Runner

HOSTILE = '''
import os, time, numpy as np
MODE = os.environ.get("HOSTILE", "")
if MODE == "exit_at_import":
    os._exit(0)
if MODE == "hang_at_import":
    time.sleep(600)
if MODE == "patch_auditor":  # tries to silence the auditor from inside the implementation
    import dptestbed.audits.privacy.claims as s
    s.Claim.bound = lambda *a, **k: 0.0

def noiseless(data, *, rng, epsilon, gamma):
    return np.asarray(data, dtype=float) + 0.0 * rng.random()

def spins(data, *, rng, epsilon, gamma):
    while True:
        pass

def forks(data, *, rng, epsilon, gamma):
    if os.fork() == 0:
        time.sleep(600)
        os._exit(0)
    time.sleep(600)
'''


def _alive(pgid: int) -> list[int]:
    """Live (non-zombie) processes of process group ``pgid`` (Linux /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                out.append(int(entry))
    return out


@pytest.fixture
def hostile(tmp_path):
    path = tmp_path / "hostile.py"
    path.write_text(HOSTILE)
    return path


def _cli(*args, env=None, timeout=120):
    return subprocess.run([sys.executable, "-c", "import sys; from dptestbed.audits.cli import main; sys.exit(main())",
                           *args], capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})})


@pytest.mark.slow
def test_exit_at_import_is_an_implementation_error_not_a_pass(hostile):
    proc = _cli("audit", "laplace_mechanism", "--impl", f"{hostile}:noiseless", env={"HOSTILE": "exit_at_import"})
    assert proc.returncode == 5 and "IMPLEMENTATION ERROR" in proc.stdout and "died" in proc.stdout


def test_a_hang_at_import_meets_the_import_time_limit(hostile, monkeypatch):
    monkeypatch.setenv("HOSTILE", "hang_at_import")
    t0 = time.monotonic()
    with pytest.raises(ImplementationError, match="importing the implementation ran longer than 2 s"):
        sandbox.SandboxWorker(f"{hostile}:noiseless", import_timeout=2.0)
    assert time.monotonic() - t0 < 20


@pytest.mark.slow
def test_a_worker_past_its_cpu_time_limit_is_an_implementation_error(hostile, monkeypatch):
    monkeypatch.setattr(sandbox, "CPU_LIMIT", 1)
    worker = sandbox.SandboxWorker(f"{hostile}:spins")
    try:
        worker.submit(("single", np.zeros(1), 1, 0, {"epsilon": 1.0, "gamma": 1.0}), 60.0)
        t0 = time.monotonic()
        while (answer := worker.result()) is None:
            time.sleep(0.05)
            assert time.monotonic() - t0 < 30
    finally:
        worker.close()
    assert answer == ("error", "the worker exceeded its CPU-time limit of 1 s (raise it with the environment "
                               "variable DPTESTBED_WORKER_CPU)")


@pytest.mark.slow
def test_user_code_cannot_patch_the_auditor(hostile):
    proc = _cli("audit", "laplace_mechanism", "--impl", f"{hostile}:noiseless", "--samples", "20000",
                env={"HOSTILE": "patch_auditor"})
    assert proc.returncode == 1 and "CLAIM VIOLATED" in proc.stdout


def test_garbage_on_the_channel_is_a_protocol_error_not_a_hang():
    a, b = socket.socketpair()
    b.sendall(b"garbage that is not a frame at all")
    with pytest.raises(sandbox.ProtocolError):
        sandbox.read_frame(a, time.monotonic() + 2)
    c, d = socket.socketpair()
    d.sendall(sandbox.HEADER.pack(sandbox.MAGIC, b"A", 10**6))  # announces a megabyte, sends nothing
    t0 = time.monotonic()
    with pytest.raises(TimeoutError):
        sandbox.read_frame(c, time.monotonic() + 1)
    assert time.monotonic() - t0 < 5


def test_arrays_cross_the_channel_exactly_and_objects_never():
    a, b = socket.socketpair()
    x = np.arange(12, dtype=np.int8).reshape(3, 4)
    sandbox.send_array(b, x)
    kind, y = sandbox.read_frame(a, time.monotonic() + 2)
    assert kind == b"A" and y.dtype == np.int8 and np.array_equal(x, y)
    meta = b'{"dtype": "|O", "shape": [1]}'
    b.sendall(sandbox.HEADER.pack(sandbox.MAGIC, b"A", sandbox.META.size + len(meta) + 8)
              + sandbox.META.pack(len(meta)) + meta + b"\0" * 8)
    with pytest.raises(sandbox.ProtocolError):
        sandbox.read_frame(a, time.monotonic() + 2)


def test_a_timed_out_worker_and_the_children_it_forked_are_killed(hostile):
    runner = Runner(f"{hostile}:forks", timeout=2.0)
    pgids = [os.getpgid(w.proc.pid) for w in runner._workers]
    with pytest.raises(ImplementationError, match="timed out"):
        runner.sample(np.zeros(1), 4, rng=np.random.default_rng(0), params={"epsilon": 1.0, "gamma": 1.0})
    runner.close()
    time.sleep(0.5)
    assert not [p for pgid in pgids for p in _alive(pgid)]


@pytest.mark.slow
def test_sigterm_ends_a_check_like_ctrl_c_with_exit_130_and_no_survivors(hostile, tmp_path):
    script = textwrap.dedent(f"""
        import sys
        from dptestbed.audits.cli import main
        sys.argv = ["dptestbed", "check", "laplace_mechanism", "--impl", "{hostile}:forks",
                    "--out", "{tmp_path / 'out'}", "--quiet"]
        sys.exit(main())
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(8)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "interrupted" in err, err
    time.sleep(1)
    assert not _alive(proc.pid)  # nothing of the run's process group is left
    leftover = subprocess.run(["pgrep", "-f", f"{hostile}:forks"], capture_output=True, text=True).stdout.split()
    assert not leftover


def test_an_implementation_file_imports_the_modules_beside_it(tmp_path):
    """As under `python mech.py`, a module in the implementation file's folder imports (in the sandboxed worker:
    a helper reported it as an implementation error, ModuleNotFoundError)."""
    from dptestbed.audits.privacy import audit
    from dptestbed.spec import find_spec

    (tmp_path / "noise.py").write_text("def draw(rng, b, shape):\n    return rng.laplace(0.0, b, size=shape)\n")
    (tmp_path / "mech.py").write_text(textwrap.dedent('''
        import numpy as np
        from noise import draw

        def laplace(data, *, rng, epsilon, gamma):
            f = np.atleast_1d(np.asarray(data, dtype=float))
            return f + draw(rng, gamma / epsilon, f.shape)
    '''))
    result = audit(find_spec("laplace_mechanism"), f"{tmp_path / 'mech.py'}:laplace", samples=3000)
    assert result.verdict in ("no violation found", "no power"), result.reason


def test_an_implementation_that_changes_its_input_in_place_is_an_implementation_error(tmp_path):
    """Clipping the caller's array in place: every later call of a task sees another input (a bounded sum drifted from
    30 to 6 over three calls), so the task's answer is refused whichever path ran it; a copy passes."""
    (tmp_path / "mech.py").write_text(textwrap.dedent('''
        import numpy as np

        def in_place(data, *, rng):
            np.clip(data, -1.0, 1.0, out=data)
            data *= 0.5
            return float(data.sum() + rng.laplace())

        def _in_place_batch(data, n, *, rng):
            data *= 0.5
            return data.sum() + rng.laplace(size=n)

        in_place.batch = _in_place_batch

        def copy(data, *, rng):
            data = np.clip(data, -1.0, 1.0) * 0.5
            return float(data.sum() + rng.laplace())
    '''))
    data = np.full(10, 3.0)
    for per_call in (True, False):
        with Runner(f"{tmp_path / 'mech.py'}:in_place", workers=1) as runner, \
                pytest.raises(ImplementationError, match="changed its input in place"):
            runner.sample(data, 5, rng=np.random.default_rng(0), per_call=per_call)
    with Runner(f"{tmp_path / 'mech.py'}:copy", workers=1) as runner:
        assert runner.sample(data, 5, rng=np.random.default_rng(0)).shape == (5,)
    assert (data == 3.0).all()  # the auditor's own copy is never touched


def test_a_calibration_cached_under_part_of_the_parameters_is_state_across_calls(tmp_path):
    """A scale cached by epsilon alone: the first call's delta serves every later call at that epsilon (after a call
    at delta/10, runs at delta come out with the stale scale); caches keyed by every parameter, and code that
    refuses some moved points, pass."""
    from dptestbed.audits.privacy.procedure import history_points
    from dptestbed.audits.sandbox.probes import probe_history
    from dptestbed.spec import load_spec, spec_file

    (tmp_path / "mech.py").write_text(textwrap.dedent('''
        import functools, math

        _SCALE = {}

        def stale(data, *, rng, epsilon, delta):
            if epsilon not in _SCALE:
                _SCALE[epsilon] = math.sqrt(2 * math.log(1.25 / delta)) / epsilon
            return float(data) + _SCALE[epsilon] * rng.standard_normal()

        @functools.lru_cache(maxsize=None)
        def _scale(epsilon, delta):
            return math.sqrt(2 * math.log(1.25 / delta)) / epsilon

        def keyed(data, *, rng, epsilon, delta):
            if delta < 1e-5:
                raise ValueError("delta below 1e-5 refused")
            return float(data) + _scale(epsilon, delta) * rng.standard_normal()
    '''))
    spec = load_spec(spec_file("gaussian_mechanism_classical"))
    params = {"epsilon": 0.5, "delta": 1e-5, "sensitivity": 1.0, "p": 1}
    for fn, fails in (("stale", True), ("keyed", False)):
        with Runner(f"{tmp_path / 'mech.py'}:{fn}", workers=1) as runner:
            cases = [(0.0, params, history_points(spec, params, runner.accepts))]
            assert [name for name, _ in cases[0][2]] == ["epsilon", "delta"]
            if fails:
                with pytest.raises(ImplementationError, match="state kept across calls.*epsilon, delta"):
                    probe_history(runner, cases)
            else:
                probe_history(runner, cases)


def test_a_permutation_test_tells_dependent_consecutive_calls_at_its_level():
    """serial.py's test: on independent sequences (continuous, and sparse binary ones with atoms and ties, where a
    normal approximation of the serial correlation fails) its p-value falls below 0.05 at most about 5% of the time;
    antithetic pairs (z, -z, z', -z', ...) and a draw repeated on the next call give the smallest p-value."""
    from dptestbed.audits.privacy.serial import serial_p_value

    rng = np.random.default_rng(7)
    below = [serial_p_value(x, rng, 199)[1] <= 0.05 for x in
             [rng.laplace(size=400) for _ in range(150)] + [(rng.random(400) < 0.004).astype(float) for _ in range(150)]]
    assert sum(below) <= 30  # 5% of 300 is 15; the binomial's 0.9999 quantile is 30
    z = rng.laplace(size=1000)
    antithetic = np.ravel(np.column_stack([z, -z]))
    repeated = np.repeat(z, 2)
    # calls 4j + 2 and 4j + 3 answer with the noises of calls 4j and 4j + 1, negated: independent neighbours, a lag of 2
    two_on = np.ravel(np.column_stack([z[0::2], z[1::2], -z[0::2], -z[1::2]]))
    for x, sign in ((antithetic, -1), (repeated, 1), (two_on, -1)):
        corr, p = serial_p_value(x, rng, 999)
        assert p == 1 / 1000 and np.sign(corr) == sign and abs(corr) > 0.4


def test_an_audit_calls_a_function_pairing_each_call_with_the_next_an_implementation_error(tmp_path):
    """Antithetic Laplace noise kept per generator: every call alone has the spec's law (the rounds pass), two calls
    together release the sum of the answers; the audit's serial test names it. A plain per-call Laplace passes it (at
20,000 samples a side the rounds themselves have no power: only the serial test is asserted)."""
    from dptestbed.audits.privacy import IMPL_ERROR, audit
    from dptestbed.spec import load_spec, spec_file

    (tmp_path / "mech.py").write_text(textwrap.dedent('''
        import numpy as np

        _SPARE = {}

        def antithetic(data, *, rng, epsilon, gamma):
            f = np.atleast_1d(np.asarray(data, dtype=float))
            spare = _SPARE.pop(id(rng), None)
            if spare is not None and spare.shape == f.shape:
                return f - spare
            z = rng.laplace(0.0, gamma / epsilon, f.shape)
            _SPARE.clear()
            _SPARE[id(rng)] = z
            return f + z

        def plain(data, *, rng, epsilon, gamma):
            f = np.atleast_1d(np.asarray(data, dtype=float))
            return f + rng.laplace(0.0, gamma / epsilon, f.shape)
    '''))
    spec = load_spec(spec_file("laplace_mechanism"))
    bad = audit(spec, f"{tmp_path / 'mech.py'}:antithetic", samples=20_000, seed=1, line_search=False)
    assert bad.verdict == IMPL_ERROR and "consecutive calls depend on each other" in bad.reason
    good = audit(spec, f"{tmp_path / 'mech.py'}:plain", samples=20_000, seed=1, line_search=False)
    assert good.verdict != IMPL_ERROR and good.serial["runs"] == 2000 and good.serial["worst_p"] > 0.0025


HOG = """
import time

import numpy as np


def square_or_hog(x):
    \"\"\"x squared; "hog": 600 MB held; "sleep": 60 s; "raise": ValueError.\"\"\"
    if x == "hog":
        block = np.ones(600 * 2**20 // 8)
        time.sleep(10)
        return float(block[0])
    if x == "sleep":
        time.sleep(60)
    if x == "raise":
        raise ValueError("no")
    return x * x
"""


def test_bounded_map_stops_an_item_too_large_and_answers_the_rest(tmp_path, monkeypatch):
    """In a forked child, or a spawned one when this process runs threads (the function is then imported by name)."""
    import importlib

    from dptestbed.audits.sandbox.bounded import DONE, LIMIT, RAISED, bounded_map

    (tmp_path / "bounded_hog.py").write_text(HOG)
    monkeypatch.syspath_prepend(str(tmp_path))
    hog = importlib.import_module("bounded_hog")
    out = bounded_map(hog.square_or_hog, [2, "hog", 3, "raise", "sleep", 4], limit_mb=300, seconds=8)
    assert out[0] == (DONE, 4) and out[2] == (DONE, 9) and out[5] == (DONE, 16), out
    assert out[1][0] == LIMIT and "300 MB" in out[1][1], out
    assert out[3] == (RAISED, "ValueError: no"), out
    assert out[4][0] == LIMIT and "8 s" in out[4][1], out


UNGUARDED = """
import threading, time
from dptestbed.audits.sandbox.bounded import bounded_map
from dptestbed.audits.sandbox.proctree import PASSING
threading.Thread(target=time.sleep, args=(1.0,), name=PASSING + "-import", daemon=True).start()
print(bounded_map(abs, [-2, 3], limit_mb=300, seconds=60))
"""


def test_a_background_import_is_waited_for_before_a_script_without_a_main_guard_forks(tmp_path):
    """The command line imports scipy in a passing thread; were it still importing when a child starts, the child
    was spawned, ran the main script again (a script or console wrapper without ``if __name__ == "__main__"``)
    and printed a traceback (seen in CI on a loaded machine)."""
    script = tmp_path / "unguarded.py"
    script.write_text(UNGUARDED)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.strip() == "[('done', 2), ('done', 3)]", done.stdout


def test_outputs_that_are_booleans_in_some_calls_and_numbers_in_others_stack_as_numbers():
    """One call's type is no evidence: a bool whose type follows the value (False for 0, numpy.float32(1) for 1), or
    is drawn at random, is a correct randomized response; a type that tells the inputs apart is the type probe's
    (test below)."""
    from dptestbed.audits.sandbox.contract_checks import validate_stack

    assert validate_stack([True, False, np.bool_(True)], "f").dtype == bool
    assert validate_stack([1, 0, np.int64(1)], "f").shape == (3,)
    assert validate_stack([1, 0, True], "f").tolist() == [1, 0, 1]


TYPED_RR = """
import math

import numpy as np

E = math.exp(1.0) / (1.0 + math.exp(1.0))


def leaks(data, *, rng, epsilon=1.0):  # a flipped bit returned as a float: the type tells the true bit
    bit = int(data[0])
    return bit if rng.random() < E else 1.0 - bit


def leaks_bool(data, *, rng, epsilon=1.0):  # a flipped bit returned as a bool
    bit = int(data[0])
    return bit if rng.random() < E else not bit


def follows_bool(data, *, rng, epsilon=1.0):  # False for a released 0, numpy.float32(1) for a released 1
    bit = int(data[0])
    out = bit if rng.random() < E else 1 - bit
    return False if out == 0 else np.float32(1.0)


def follows(data, *, rng, epsilon=1.0):  # max(0, x) style: an int 0, a float otherwise; the type is the value's
    bit = int(data[0])
    out = bit if rng.random() < E else 1 - bit
    return 0 if out == 0 else 1.0


def at_random(data, *, rng, epsilon=1.0):  # a type drawn at random whatever the input: no information
    bit = int(data[0])
    out = bit if rng.random() < E else 1 - bit
    return float(out) if rng.random() < 0.5 else out
"""


def test_a_type_that_tells_what_the_value_does_not_breaks_the_contract_and_one_that_follows_the_value_does_not(
        tmp_path, monkeypatch):
    """The type probe (probes.probe_types), on the sandboxed single-run function: the int 1 (kept on [1]) and the
    float 1.0 (flipped on [0]) agree as values, so only the two inputs' calls compared value by value show it; a
    type that is a function of the value, or drawn at random alike on both inputs, passes."""
    from dptestbed.audits.sandbox import probes
    from dptestbed.audits.sandbox.probes import probe_types

    monkeypatch.setattr(probes, "TYPE_SECONDS", 600.0)  # all 200 calls a side, however loaded the machine
    (tmp_path / "typed_rr.py").write_text(TYPED_RR)
    for leak in ("leaks", "leaks_bool"):
        with Runner(f"{tmp_path / 'typed_rr.py'}:{leak}", isolate=True, workers=1) as runner:
            with pytest.raises(ImplementationError, match="type of an output carries information"):
                probe_types(runner, np.array([1]), np.array([0]), {})
    for valid in ("follows", "follows_bool", "at_random"):
        with Runner(f"{tmp_path / 'typed_rr.py'}:{valid}", isolate=True, workers=1) as runner:
            probe_types(runner, np.array([1]), np.array([0]), {})
