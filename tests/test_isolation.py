"""The pieces behind the sandbox's promises (docs/isolation.md): what a namespaced worker can reach,
limits read back, signed results, CPU-time limits that load does not trip, output files that follow
the umask, the output lock for ``report``, and ``--isolation strict`` where namespaces are refused."""

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from dptestbed.audits import report
from dptestbed.audits.base import integrity
from dptestbed.audits.cli import main
from dptestbed.audits.run import output_folder, suite
from dptestbed.audits.sandbox import isolation
from dptestbed.audits.sandbox.cpulimit import CallClock, ItemClock
from dptestbed.audits.sandbox.runner import ImplementationError, Runner
from dptestbed.audits.sandbox.workers import SandboxWorker

PROBE = '''
import os, socket, numpy as np

def reach(data, *, rng):
    """1 for each thing the worker can do that it must not (see the test)."""
    def can(fn):
        try:
            fn()
            return 1
        except OSError:
            return 0
    def write(path):
        with open(path, "w") as fh:
            fh.write("x")
    def connect():
        socket.create_connection(("1.1.1.1", 53), timeout=1)
    def seen(fn):
        try:
            return len(fn())
        except OSError:
            return 0
    return np.array([can(lambda: write(os.environ["PROBE_SCRIPT_DIR"] + "/planted.py")),
                     seen(lambda: os.listdir(os.environ["PROBE_OUT"])),
                     seen(lambda: os.listdir(os.environ["PROBE_STATE"])),
                     seen(lambda: open("/etc/shadow").read()),
                     can(connect),
                     can(lambda: os.kill(int(os.environ["PROBE_PARENT"]), 0)),
                     1 - can(lambda: write("/tmp/scratch")),
                     len([p for p in os.listdir("/proc") if p.isdigit()]) > 3], dtype=float)
'''


def test_a_namespaced_worker_reaches_only_its_own_tmp(tmp_path, monkeypatch):
    impl = tmp_path / "probe.py"
    impl.write_text(PROBE)
    out, state = tmp_path / "out", tmp_path / "state"
    for folder in (out, state):
        folder.mkdir()
        (folder / "secret").write_text("x")
    monkeypatch.setenv("DPTESTBED_STATE_DIR", str(state))
    for name, value in (("SCRIPT_DIR", tmp_path), ("OUT", out), ("STATE", state), ("PARENT", os.getpid())):
        monkeypatch.setenv(f"PROBE_{name}", str(value))
    monkeypatch.setattr(isolation, "_hidden", [])
    isolation.hide(out)
    worker = SandboxWorker(f"{impl}:reach")
    try:
        if worker.level != isolation.STRONG:
            pytest.skip(f"no namespaces here ({isolation.reported_why})")
        worker.submit(("loop", np.zeros(1), 1, 0, {}), 30.0)
        while (answer := worker.result()) is None:
            worker._wait(0.05)
    finally:
        worker.close()
    assert answer[0] == "ok", answer
    # planted a file; saw something of the output folder, of the key's folder, of /etc/shadow; reached the
    # network; signalled the auditor; could not write its /tmp; saw other processes
    assert answer[1].tolist() == [[0.0] * 8]
    assert not (tmp_path / "planted.py").exists()


def test_a_worker_whose_limits_were_raised_is_refused():
    import resource

    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        resource.prlimit(proc.pid, resource.RLIMIT_AS, (1 << 30, 1 << 30))
        resource.prlimit(proc.pid, resource.RLIMIT_CPU, (60, 65))
        assert isolation.limits_raised([proc.pid], memory=1 << 30, cpu=60) is None
        assert "address space" in isolation.limits_raised([proc.pid], memory=1 << 29, cpu=60)
        assert "cpu time" in isolation.limits_raised([proc.pid], memory=1 << 30, cpu=30)
    finally:
        proc.kill()
        proc.wait()


def test_a_worker_past_its_memory_limit_is_a_one_line_error_and_the_default_leaves_half_the_machine(
        tmp_path, monkeypatch):
    from dptestbed.audits.sandbox import workers

    physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert workers._default_memory() <= max(physical // 2, 1)
    impl = tmp_path / "hog.py"
    impl.write_text("import numpy as np\n\ndef hog(data, *, rng):\n    return float(np.ones(1 << 30).sum())\n")
    monkeypatch.setattr(workers, "MEMORY_LIMIT", 2 << 30)  # 8 GiB asked for, 2 GiB allowed
    with Runner(f"{impl}:hog", workers=1) as runner, pytest.raises(ImplementationError, match="MemoryError"):
        runner.sample(None, 1, rng=np.random.default_rng(0))


@pytest.mark.parametrize("name, text, value, error", [
    ("DPTESTBED_WORKER_MEMORY", "8G", 8 << 30, None), ("DPTESTBED_WORKER_MEMORY", "1048576", 1 << 20, None),
    ("DPTESTBED_WORKER_MEMORY", "abc", None, "whole number > 0 of bytes"),
    ("DPTESTBED_WORKER_MEMORY", "-5", None, "whole number"), ("DPTESTBED_WORKER_CPU", "1.5", None, "of seconds"),
    ("DPTESTBED_WORKER_CPU", "600", 600, None)])
def test_a_worker_limit_from_the_environment_is_read_or_refused_in_one_line(monkeypatch, name, text, value, error):
    from dptestbed.audits.sandbox import workers

    monkeypatch.setenv(name, text)
    got, reason = workers._env_limit(name, 7, "bytes" if name.endswith("MEMORY") else "seconds")
    assert (got, reason is None) == ((value, True) if error is None else (7, False))
    if error:
        assert error in reason and name in reason and "\n" not in reason


def test_a_bad_worker_limit_is_a_usage_error_of_the_command_line():
    env = {**os.environ, "DPTESTBED_WORKER_MEMORY": "lots"}
    proc = subprocess.run([sys.executable, "-m", "dptestbed", "audit", "laplace_mechanism"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0, proc.stderr
    assert "DPTESTBED_WORKER_MEMORY='lots'" in proc.stderr


def test_a_signed_results_file_verifies_and_an_edited_one_does_not(tmp_path, monkeypatch):
    monkeypatch.setenv("DPTESTBED_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setattr(integrity, "_key", None)
    doc = {"format": "dptestbed-results/1", "run": {"command": "check", "suite": "quick", "seed": 0},
           "privacy": [{"id": "a", "verdict": "violation"}, {"id": "b", "verdict": "violation"}], "theorems": [],
           "by_number": {1: (0.5, -0.0)}}
    path = tmp_path / "results.json"
    suite.write_json_atomic(path, doc)
    assert (tmp_path / "state" / "results-key").stat().st_mode & 0o077 == 0
    again = json.loads(path.read_text())
    assert integrity.verify(again) is None
    again["privacy"][1]["verdict"] = "no violation found"
    assert "does not verify" in integrity.verify(again)
    again["privacy"][1]["verdict"] = "violation"
    again["run"]["seed"] = 1  # taken for another run
    assert "does not verify" in integrity.verify(again)
    del again["integrity"]
    assert "no signature" in integrity.verify(again)


@pytest.mark.slow
def test_resume_refuses_a_results_file_whose_items_were_edited(tmp_path, capsys):
    out = tmp_path / "out"
    args = ["verify", "--spec", "laplace_mechanism", "--out", str(out), "--quiet", "--no-plots"]
    assert main(args) == 0
    doc = json.loads((out / "results.json").read_text())
    controls = [r for r in doc["theorems"] if r["expected"]]
    for r in controls[:2]:
        r["verdict"], r["outcome"] = "consistent", "as expected"
    (out / "results.json").write_text(json.dumps(doc))
    capsys.readouterr()
    assert main([*args, "--resume"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "signature does not verify" in err


def test_report_waits_for_a_run_that_holds_the_folder(tmp_path, capsys):
    doc = {"format": "dptestbed-results/1", "run": {"command": "verify", "complete": True}, "summary": {"exit_code": 0},
           "privacy": [], "theorems": [], "specs": [], "not_checked": [], "family": {"statement": ""}}
    (tmp_path / "results.json").write_text(json.dumps(integrity.seal(doc)))
    with output_folder.output_lock(tmp_path):
        assert main(["report", str(tmp_path / "results.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "another dptestbed run" in err
    assert main(["report", str(tmp_path / "results.json")]) == 0


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_output_files_follow_the_umask(tmp_path, umask):
    doc = {"format": "dptestbed-results/1", "run": {"command": "verify"}, "summary": {"exit_code": 0},
           "privacy": [], "theorems": [], "specs": [], "not_checked": [], "family": {"statement": ""}}
    old = os.umask(umask)
    try:
        report.render(doc, tmp_path, plots=False)
        suite.write_json_atomic(tmp_path / "results.json", doc)
    finally:
        os.umask(old)
    for name in ("index.html", "report.md", "junit.xml", "results.json"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o666 & ~umask, name


SPIN = "import time\nt = time.process_time()\nwhile time.process_time() - t < {cpu}: pass\ntime.sleep(600)\n"


def _spinner(cpu: float, affinity: set | None = None) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", SPIN.format(cpu=cpu)])
    if affinity:
        os.sched_setaffinity(proc.pid, affinity)
    return proc


@pytest.mark.slow
def test_item_limits_count_cpu_seconds_not_waiting():
    sleeper, spinner = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"]), _spinner(600)
    try:
        idle, busy = ItemClock(sleeper.pid, 1.0), ItemClock(spinner.pid, 1.0)
        t0 = time.monotonic()
        while time.monotonic() - t0 < 60.0 and busy.expired() is None:  # a loaded machine gives the spinner its
            # 1 CPU second late (it once took more than 4 s at a load of 11); the sleeper is idle all the while
            time.sleep(0.1)
        assert "CPU seconds" in (busy.expired() or "")
        assert idle.expired() is None  # idle for longer than its limit: its processes used no CPU
    finally:
        for p in (sleeper, spinner):
            p.kill()
            p.wait()


@pytest.mark.slow
def test_a_call_that_waits_for_a_busy_cpu_is_not_timed_out():
    cpu = {sorted(os.sched_getaffinity(0))[0]}
    crowd = [_spinner(600, cpu) for _ in range(3)]
    worker = _spinner(1.0, cpu)  # computes 1 s, then sleeps: on a quarter of a CPU the first part takes ~4 s
    try:
        clock = CallClock(lambda: worker.pid, timeout=2.5)
        t0 = time.monotonic()
        while time.monotonic() - t0 < 3.0:
            assert clock.expired() is None, f"after {time.monotonic() - t0:.1f} s"
            time.sleep(0.1)
        while clock.expired() is None:  # once it sleeps, the busy clock runs like the wall clock
            assert time.monotonic() - t0 < 30
            time.sleep(0.1)
        assert "one call ran longer than 2.5 s" in clock.expired()
    finally:
        for p in [*crowd, worker]:
            p.kill()
            p.wait()


def test_progress_counts_calls_and_is_bounded():
    clock = CallClock(os.getpid, timeout=60.0, calls=3)
    assert clock.progress(1) and clock.progress(3)
    assert not clock.progress(3) and not clock.progress(4) and not clock.progress(2)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare(1) to refuse namespaces")
def test_strict_isolation_is_a_one_line_error_where_namespaces_are_refused(tmp_path):
    impl = tmp_path / "good.py"
    impl.write_text("import numpy as np\n\ndef laplace(data, *, rng, epsilon, gamma):\n"
                    "    return np.asarray(data, float) + rng.laplace(0.0, gamma / epsilon, np.shape(data))\n")
    script = textwrap.dedent(f"""
        echo 0 > /proc/sys/user/max_user_namespaces || exit 77
        for mode in strict auto; do
            {sys.executable} -c 'import sys; from dptestbed.audits.cli import main; sys.exit(main())' \\
                audit laplace_mechanism --impl {impl}:laplace --samples 20000 --allow no-power --isolation $mode
            echo "exit $?"
        done
    """)
    proc = subprocess.run(["unshare", "--user", "--map-root-user", "sh", "-c", script], capture_output=True, text=True,
                          timeout=120)
    if proc.returncode == 77 or "unshare failed" in proc.stderr:
        pytest.skip("cannot make a user namespace that refuses nested ones here")
    assert proc.stdout.count("exit ") == 2, proc.stdout + proc.stderr
    strict, auto = proc.stdout.split("exit ")[1:]
    assert strict.startswith("2") and proc.stderr.count("dptestbed: error: --isolation strict") == 1
    assert auto.startswith("0") and "isolation: process only" in proc.stdout


def test_a_runner_with_a_hostile_implementation_never_raises_anything_else(tmp_path):
    impl = tmp_path / "garbage.py"
    impl.write_text(textwrap.dedent('''
        import json, os
        def laplace(data, *, rng, epsilon, gamma):
            with open("/proc/self/cmdline", "rb") as fh:
                fd = json.loads(fh.read().split(b"\\0")[-2])["fd"]
            os.write(fd, b"DPTB" + b"P" + (3).to_bytes(8, "big") + b"abc")  # a progress frame of 3 bytes
            return 0.0
    '''))
    with pytest.raises(ImplementationError, match="broke the worker protocol"):
        with Runner(str(impl) + ":laplace", timeout=10.0) as runner:
            runner.sample(np.zeros(1), 4, rng=np.random.default_rng(0), params={"epsilon": 1.0, "gamma": 1.0})


def test_the_worker_environment_keeps_the_key_out(tmp_path, monkeypatch):
    monkeypatch.setenv("DPTESTBED_STATE_DIR", str(tmp_path / "s"))
    monkeypatch.setattr(integrity, "_key", None)
    key = integrity._load_key()
    assert key.hex() not in json.dumps(dict(os.environ))
    cmd = isolation.command("x.py:f", 3, memory=1, cpu=1, hidden=integrity.secret_paths())
    assert key.hex() not in " ".join(cmd)
    assert json.loads(cmd[-1])["hidden"][-2:] == [os.path.realpath(tmp_path / "s"),
                                                   os.path.realpath(tmp_path / "s" / "results-key")]


@pytest.mark.skipif(os.geteuid() != 0, reason="files of another user need root")
def test_what_a_killed_run_left_is_swept_by_the_next(tmp_path):
    """A run of root killed before its end (SIGKILL of the command line) leaves its sandbox folder and its workers'
    files owned by its user; the next run removes them once no process has that user and nothing of it is newer than
    a minute. A run starting beside it (a fresh entry) and anyone else's files are left alone."""
    import fcntl

    gone, starting, running = isolation.USER_BASE + 7, isolation.USER_BASE + 8, isolation.USER_BASE + 9
    for name, uid, age in (("left", gone, 3600), ("starting", starting, 0), ("running", running, 3600),
                           ("root", 0, 3600)):
        (tmp_path / name / "inner").mkdir(parents=True)
        os.chown(tmp_path / name, uid, uid)
        os.utime(tmp_path / name, (time.time() - age, time.time() - age))
    held = os.open(isolation.RUN_LOCK.format(uid=running), os.O_WRONLY | os.O_CREAT, 0o600)  # a live run's lock
    fcntl.flock(held, fcntl.LOCK_EX)
    try:
        assert isolation.sweep_stale([str(tmp_path)]) == [gone]
    finally:
        os.close(held)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["root", "running", "starting"]
    assert isolation.sweep_stale([str(tmp_path)]) == [running]  # its run is over: the lock is free
    assert not os.path.exists(isolation.RUN_LOCK.format(uid=running))
