"""The command line's entry point: the ``dptestbed`` script and ``python -m dptestbed``
(the commands themselves are :mod:`dptestbed.audits.cli`).

Before numpy loads, ``OPENBLAS_THREAD_TIMEOUT`` defaults to 4 (a value the user set is kept).
OpenBLAS (numpy's copy and scipy's) starts a pool of worker threads that spin for 2^28 CPU cycles,
about 0.1 s, at start-up and after every call before they sleep (the variable is the log2 of that
count, clamped to [4, 30]; OpenMathLib/OpenBLAS#5171). On two cores that spinning took a core from
the import and the sampling threads: ``import numpy, scipy.special`` used 0.28 s of CPU in 0.18 s,
and 0.12 s in 0.14 s with the variable at 4. BLAS calls still use every thread; idle ones sleep
at once. The setting reaches every process the command starts (sandboxes, suite workers).

Ctrl-C ends every command with one line on stderr and exit code 130, wherever it comes.
"""

import os
import sys

from dptestbed.audits.base.verdict import EXIT_INTERRUPTED


def main() -> int:
    """Runs the command line (``sys.argv``); returns its exit code."""
    os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")  # read once, when numpy loads OpenBLAS (below)
    try:
        from dptestbed.audits.cli import main as cli_main

        return cli_main()
    except KeyboardInterrupt:  # outside a command's own handling (its imports, its start, its exit): one line
        print(f"dptestbed: interrupted (exit {EXIT_INTERRUPTED})", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
