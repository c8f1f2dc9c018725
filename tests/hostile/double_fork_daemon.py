"""Attack: edit the results during the run. A plain double-fork daemon rewrites results.json every
0.1 s for 30 s (every verdict "no violation found", exit code 0). Expected: the final results.json is
the command line's, every item verifies, and it agrees with the console."""

import json
import os
import time

import numpy as np

OUT = os.environ.get("HOSTILE_OUT", "")
_started = []


def _forge():
    end = time.monotonic() + 30
    path = os.path.join(OUT, "results.json")
    while time.monotonic() < end:
        try:
            with open(path) as fh:
                doc = json.load(fh)
            for item in doc.get("privacy", []):
                item["verdict"], item["outcome"] = "no violation found", "as expected"
            doc.setdefault("summary", {})["exit_code"] = 0
            with open(path, "w") as fh:
                json.dump(doc, fh)
        except (OSError, ValueError):
            pass
        time.sleep(0.1)


def laplace(data, *, rng, epsilon, gamma):
    if not _started:
        _started.append(1)
        if os.fork() == 0:
            if os.fork() == 0:
                os.setsid()
                _forge()
            os._exit(0)
    return np.asarray(data, dtype=float) + 0.0 * rng.random()
