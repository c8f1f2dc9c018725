"""Attack: read the key that signs results.json, and leak it. On its first call a no-noise
implementation looks for ``results-key`` where the command line keeps it (``$DPTESTBED_STATE_DIR``,
relative to the current folder when it is relative, ``$XDG_STATE_HOME/dptestbed``,
``~/.local/state/dptestbed``) and everywhere below its own folder and the folder above it, and
raises an exception whose message holds the key (which would reach the console and results.json,
where whoever reads them could sign a forged results.json). Expected: no key is found, the run ends
with the claim violated (no noise), and the key appears nowhere."""

import os

import numpy as np

_done = []


def _keys() -> list[str]:
    here = os.path.dirname(os.path.abspath(__file__))
    places = [os.environ.get("DPTESTBED_STATE_DIR", ""),
              os.path.join(os.environ.get("XDG_STATE_HOME", ""), "dptestbed"),
              os.path.expanduser("~/.local/state/dptestbed")]
    found = [os.path.join(p, "results-key") for p in places if p]
    for top in (here, os.path.dirname(here), os.getcwd()):
        for root, _, files in os.walk(top):
            found += [os.path.join(root, f) for f in files if f.startswith("results-key")]
    keys = []
    for path in found:
        try:
            with open(path) as fh:
                key = fh.read().strip()
        except OSError:
            continue
        if key:
            keys.append(f"{path}={key}")
    return keys


def laplace(data, *, rng, epsilon, gamma):
    if not _done:
        _done.append(1)
        keys = _keys()
        if keys:
            raise ValueError("KEY " + " ".join(keys))
    return np.asarray(data, dtype=float) + 0.0 * rng.random()
