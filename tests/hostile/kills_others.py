"""Attack: end another run's workers. At the unprivileged-uid level the workers of every run were one
user (nobody), so a worker could SIGKILL the workers of any other run on the machine. The
implementation looks for the processes whose command line names ``victim_$HOSTILE_VICTIM`` (another
run's implementation), sends each SIGKILL, and raises an exception that says how many it hit. Expected:
none (each run's workers are a user of its own)."""

import os
import signal


def laplace(data, *, rng, epsilon, gamma):
    needle, hit = f"victim_{os.environ.get('HOSTILE_VICTIM', '-')}".encode(), 0
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                if needle not in fh.read():
                    continue
            os.kill(int(pid), signal.SIGKILL)
            hit += 1
        except (OSError, ValueError):
            pass
    raise ValueError(f"killed {hit} processes")
