"""Hostile input gives one line and exit 2, never a traceback or a hang: special files in a spec
folder, TOML that defeats the parser, huge literals, out-of-range run flags, a spec that names a
file as its implementation, an infinite privacy claim, a results.json that is not ours."""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dptestbed.spec import SpecError, load_catalogue, load_spec, spec_file


def _cli(*args, cwd=None, timeout=60):
    proc = subprocess.run([sys.executable, "-c", "import sys; from dptestbed.audits.cli import main; sys.exit(main())",
                           *args], capture_output=True, text=True, timeout=timeout, cwd=cwd)
    return proc.returncode, proc.stderr.strip()


def _one_line_exit_2(code, err):
    assert code == 2, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err


@pytest.mark.parametrize("make", ["fifo", "dev_zero", "deep_arrays", "huge_integer", "too_large"])
def test_special_and_malformed_spec_files(tmp_path, make):
    path = tmp_path / "x.toml"
    if make == "fifo":
        os.mkfifo(path)
    elif make == "dev_zero":
        path.symlink_to("/dev/zero")
    elif make == "deep_arrays":
        path.write_text("x = " + "[" * 100_000 + "]" * 100_000)
    elif make == "huge_integer":
        path.write_text("x = " + "9" * 5000)
    else:
        path.write_text("# " + "x" * (2 << 20))
    with pytest.raises(SpecError):
        load_spec(path)
    _one_line_exit_2(*_cli("specs", "--dir", str(tmp_path), timeout=30))


def _variant(tmp_path, old, new):
    text = spec_file("laplace_mechanism").read_text()
    assert old in text
    (tmp_path / "laplace_mechanism.toml").write_text(text.replace(old, new, 1))
    return tmp_path


@pytest.mark.parametrize("old,new", [("min = 0", "min = " + "9" * 400), ("default = 1.0", "default = " + "9" * 400),
                                     ("min = 0", "min = nan")])
def test_parameter_numbers_beyond_float64_are_one_line_errors(tmp_path, old, new):
    folder = _variant(tmp_path, old, new)
    with pytest.raises(SpecError, match="finite"):
        load_catalogue(folder)
    _one_line_exit_2(*_cli("show", "laplace_mechanism", "--dir", str(folder)))


@pytest.mark.slow
def test_a_spec_never_names_a_file_as_its_implementation(tmp_path):
    folder = _variant(tmp_path, 'implementation = "dptestbed.impl.calibration.laplace:laplace_mechanism"',
                      'implementation = "evil.py:run"')
    (tmp_path / "evil.py").write_text("open('PWNED', 'w').close()\ndef run(data, *, rng): return 0\n")
    code, err = _cli("audit", "laplace_mechanism", "--dir", str(folder), cwd=tmp_path)
    _one_line_exit_2(code, err)
    assert "module path" in err and not (tmp_path / "PWNED").exists()


def test_a_stress_case_at_a_huge_dimension_is_a_one_line_error(tmp_path):
    folder = _variant(tmp_path, "params = { p = 1 }", "params = { p = 1000000000000 }")
    code, err = _cli("audit", "laplace_mechanism", "--dir", str(folder))
    _one_line_exit_2(code, err)
    assert "more than the auditor handles" in err


def test_a_formula_with_a_huge_literal_is_refused_at_load(tmp_path):
    folder = _variant(tmp_path, 'formula = "gamma/epsilon"', 'formula = "gamma/epsilon + ' + "9" * 400 + '"')
    with pytest.raises(SpecError, match="too large"):
        load_catalogue(folder)


@pytest.mark.slow
def test_an_infinite_claim_is_not_audited(tmp_path):
    folder = _variant(tmp_path, 'epsilon = "epsilon"', 'epsilon = "inf"')
    code, err = _cli("audit", "laplace_mechanism", "--dir", str(folder))
    _one_line_exit_2(code, err)
    assert "not a finite epsilon" in err


@pytest.mark.slow
@pytest.mark.parametrize("args", [["verify", "--call-timeout", "nan"], ["verify", "--timeout-scale", "inf"],
                                  ["verify", "--jobs", "100000"], ["verify", "--seed", "-1"],
                                  ["audit", "laplace_mechanism", "--param", "p=1e300"],
                                  ["audit", "laplace_mechanism", "--param", "p=1000000000"],
                                  ["show", "laplace_mechanism", "--param", "epsilom=1"], ["show", "laplace_mechanizm"]])
def test_run_flags_and_parameters_are_validated(args):
    _one_line_exit_2(*_cli(*args))


def test_report_refuses_a_results_file_that_is_not_ours(tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"format": "dptestbed-results/1", "privacy": [{"verdict": "violation"}]}))
    _one_line_exit_2(*_cli("report", str(path)))


@pytest.mark.slow
def test_one_run_per_output_folder_and_no_write_through_symlinks(tmp_path):
    from dptestbed.audits.base.outfiles import write
    from dptestbed.audits.run import output_folder

    out = tmp_path / "out"
    with output_folder.output_lock(out):
        code, err = _cli("verify", "--spec", "laplace_mechanism", "--out", str(out))
        _one_line_exit_2(code, err)
        assert "another dptestbed run" in err
        (out / ".dptestbed-results.json-x1y2z3w4.tmp").write_text("half")  # as a run interrupted while writing
    (out / ".results.json.tmp").write_text("the user's")
    with output_folder.output_lock(out):  # free again; leftovers of an interrupted run are removed, nothing else
        assert not (out / ".dptestbed-results.json-x1y2z3w4.tmp").exists()
        assert (out / ".results.json.tmp").read_text() == "the user's"
    target = tmp_path / "victim.html"
    target.write_text("keep")
    (out / "index.html").symlink_to(target)
    write(out / "index.html", b"new")
    assert target.read_text() == "keep" and (out / "index.html").read_text() == "new"


def test_the_lock_file_is_left_only_as_the_mark_of_a_run_that_wrote_no_results(tmp_path, monkeypatch):
    """A run that leaves its results.json (or nothing) removes its lock file: the folder holds only what the run
    wrote; one interrupted before its results.json leaves the lock file, which marks the folder as dptestbed's. A
    lock taken on a lock file that the run before removed as it ended is taken anew on the file the path names."""
    import fcntl

    from dptestbed.audits.run import output_folder

    done, cut = tmp_path / "done", tmp_path / "cut"
    with output_folder.output_lock(done):
        assert (done / output_folder.LOCK_NAME).is_file()
        (done / "results.json").write_text('{"format": "dptestbed-results/1"}')
    with output_folder.output_lock(cut):
        (cut / "plots").mkdir()
    with output_folder.output_lock(tmp_path / "nothing"):
        pass
    assert os.listdir(done) == ["results.json"] and output_folder.is_output(done)
    assert sorted(os.listdir(cut)) == [output_folder.LOCK_NAME, "plots"] and output_folder.is_output(cut)
    assert os.listdir(tmp_path / "nothing") == []
    real, raced = fcntl.flock, []

    def flock(fd, how):  # the run before removes the file between this run's open and its flock
        if not raced:
            os.unlink(done / output_folder.LOCK_NAME)
        raced.append(fd)
        return real(fd, how)

    (done / output_folder.LOCK_NAME).touch()
    monkeypatch.setattr(fcntl, "flock", flock)
    fd = output_folder._locked(done / output_folder.LOCK_NAME)
    try:
        assert len(raced) == 2 and os.fstat(fd).st_ino == os.stat(done / output_folder.LOCK_NAME).st_ino
    finally:
        os.close(fd)


# ----------------------------------------------------------------- fuzzed spec folders through the CLI

NASTY_VALUES = ["9" * 400, "1e400", "-1e400", "inf", "nan", "-0", "0", "true", '"x"', "[1, [2]]", "{a = 1}", '"""',
                "'", '"10 ** 10 ** 10"', '"epsilon ** 1e9"', '"1 / 0"', '"log(0)"', '"sqrt(-1)"', '"exp(1e6)"',
                '"epsilon * (" ', '"__import__(\'os\')"', '"9' + "9" * 400 + '"', '"ceil(1e300) * 2"', "[]", '""']


SPARSE_VECTOR = spec_file("sparse_vector").read_text()


def _run_cli_in_process(args, seconds=20):
    """``main(args)`` here, with an alarm for hangs; (exit code, stderr)."""
    import contextlib
    import io
    import signal

    from dptestbed.audits.cli import main

    def hang(*_):
        raise TimeoutError(f"dptestbed {' '.join(args)} hung for {seconds} s")

    err, out = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(seconds)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            try:
                code = main(args)
            except SystemExit as exc:  # argparse
                code = exc.code
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return code, err.getvalue().strip()


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_fuzzed_spec_folders_give_one_line_and_exit_2_through_the_cli(tmp_path, data):
    lines = SPARSE_VECTOR.splitlines()
    op = data.draw(st.sampled_from(["value", "delete", "duplicate", "truncate", "insert"]))
    k = data.draw(st.integers(0, len(lines) - 1))
    if op == "value":
        assignments = [i for i, line in enumerate(lines) if " = " in line and not line.lstrip().startswith("#")]
        k = data.draw(st.sampled_from(assignments))
        lines[k] = lines[k].split(" = ", 1)[0] + " = " + data.draw(st.sampled_from(NASTY_VALUES))
    elif op == "delete":
        del lines[k]
    elif op == "duplicate":
        lines.insert(k, lines[k])
    elif op == "truncate":
        lines[k] = lines[k][: data.draw(st.integers(0, len(lines[k])))]
        del lines[k + 1:]
    else:
        lines.insert(k, data.draw(st.text(max_size=40)))
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    (folder / "sparse_vector.toml").write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    for args in (["specs", "--dir", str(folder)], ["show", "sparse_vector", "--dir", str(folder)],
                 ["show", "sparse_vector", "--param", "epsilon=0.5", "--dir", str(folder)]):
        code, err = _run_cli_in_process(args)
        assert code in (0, 2), (args, code, err)
        if code == 2:
            _one_line_exit_2(code, err)
