"""Attack: survive a SIGKILL of the command line. The implementation clears its parent-death
signal (prctl), forks two children that clear theirs too, and never returns. Expected: 2 s after
the command line's process group is SIGKILLed, no process of the run is alive."""

import ctypes
import os
import time

PR_SET_PDEATHSIG = 1


def _clear():
    ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0)


def laplace(data, *, rng, epsilon, gamma):
    _clear()
    for _ in range(2):
        if os.fork() == 0:
            _clear()
            os.setsid()
            while True:
                time.sleep(3600)
    while True:
        time.sleep(3600)
