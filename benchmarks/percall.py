"""Correct implementations called one run at a time: ``dptestbed check`` at default flags, its exit code and wall time.

    python benchmarks/percall.py [--only SPEC ...] [--out DIR] [--markdown TABLE.md]

Each row is a correct implementation of tests/independent (written from the papers by people who never read
impl/), wrapped so that the engine sees a plain function without its ``.batch``: the code a user who skips the
optional speed-up hands in. A row is what a user of that code waits for, and the class they get (every row
should be exit 0, "pass"; issue: within 60 s on 2 idle cores). The wrapper only forwards the call: the same
signature, no attribute of the original function.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "independent"

ROWS = [  # (spec, corpus file:function): the correct file of each spec the issue names
    ("laplace_mechanism", "calibration/laplace_correct.py:laplace"),
    ("gaussian_mechanism", "calibration/gaussian_correct.py:gaussian"),
    ("randomized_response", "calibration/rr_correct.py:rr"),
    ("report_noisy_max", "calibration/rnm_correct.py:rnm"),
    ("sparse_vector", "model_agnostic/sv_correct.py:svt"),
    ("discrete_gaussian_mechanism", "calibration/discrete_gaussian_mechanism_percall_indep.py:discrete_gaussian"),
    ("ppm_halfspace_learner", "halfspace_mixtures/ppm_correct.py:learn"),
]

WRAPPER = '''"""{target} called one run at a time (its .batch, if any, hidden)."""
import importlib.util
import inspect
import sys

import os

_here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _here)
_spec = importlib.util.spec_from_file_location("_percall_target", os.path.join(_here, {name!r}))
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)
_fn = getattr(_module, {function!r})


def percall(*args, **kwargs):
    return _fn(*args, **kwargs)


percall.__signature__ = inspect.signature(_fn)
'''


def wrap(target: str, folder: Path) -> Path:
    """A module whose ``percall`` forwards to the corpus function ``target`` (FILE:FUNCTION), beside a copy of the
    file's corpus folder in ``folder`` (the sandbox shows an implementation its own folder only)."""
    file, function = target.split(":")
    path = CORPUS / file
    copy = folder / path.parent.name
    if not copy.exists():
        shutil.copytree(path.parent, copy)
    out = copy / f"percall_{path.stem}.py"
    out.write_text(WRAPPER.format(target=target, name=path.name, function=function))
    return out


def run(spec: str, target: str, folder: Path) -> dict:
    module = wrap(target, folder)
    out = folder / f"out_{spec}"
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "dptestbed", "check", spec, "--impl", f"{module}:percall",
                           "--no-plots", "--quiet", "--out", str(out)], capture_output=True, text=True)
    wall = time.perf_counter() - started
    items = []
    results = out / "results.json"
    if results.exists():
        document = json.loads(results.read_text())
        items = [(r["id"], r.get("class"), round(r.get("seconds") or 0.0, 1), r.get("samples_per_side"))
                 for r in document.get("privacy") or []]
    return {"spec": spec, "file": target, "exit": proc.returncode, "wall": wall, "audits": items}


def markdown(rows: list[dict]) -> str:
    lines = ["| spec | correct file (its .batch hidden) | exit | wall s | privacy audits: class, seconds, samples a side |",
             "|---|---|---|---|---|"]
    for r in rows:
        audits = "; ".join(f"{i.split('|')[-1].strip() if i.count('|') > 1 else 'default point'}: {c}, {s} s, "
                           f"{n:,}" for i, c, s, n in r["audits"] if n is not None)
        lines.append(f"| {r['spec']} | {r['file']} | {r['exit']} | {r['wall']:.0f} | {audits} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", help="only these specs")
    parser.add_argument("--out", help="folder for the wrappers and the runs (default: a new temporary one)")
    parser.add_argument("--markdown", type=Path, help="write the table here too")
    args = parser.parse_args()
    folder = Path(args.out or tempfile.mkdtemp(prefix="percall-"))
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for spec, target in ROWS:
        if args.only and spec not in args.only:
            continue
        rows.append(run(spec, target, folder))
        r = rows[-1]
        print(f"{r['spec']:<30} exit {r['exit']}  {r['wall']:7.1f} s  {r['audits']}", flush=True)
    table = markdown(rows)
    print(table)
    if args.markdown:
        args.markdown.write_text(table)


if __name__ == "__main__":
    main()
