"""Attack: close the worker's channel in the middle of a call. Expected: an implementation error
that says so (never "stdout closed"), exit as for any implementation error."""

import json
import os
import time


def laplace(data, *, rng, epsilon, gamma):
    with open("/proc/self/cmdline", "rb") as fh:
        config = json.loads(fh.read().split(b"\0")[-2])
    os.close(config["fd"])
    time.sleep(3600)
