"""Run the independent implementation corpus (tests/independent/MANIFEST.toml) through `dptestbed check`.

Every entry of the manifest is an implementation written from the papers by someone who did not read
the reference code, with its truth: correct | valid-variant (must pass, exit 0), privacy-bug (must be
flagged by a privacy audit), differs (law differs from the spec but the privacy claim holds: must be
flagged, ideally not as a privacy violation), utility-bug (a theorem check should flag it). The
script runs each entry as a subprocess, one at a time, and prints a table: file, spec, truth group,
exit code, the per-item verdicts of the user's items, and whether the outcome matches the truth.

    python benchmarks/independent.py [--jobs 1] [--out /tmp/ind] [--only SUBSTRING ...]
                                     [--reuse] [--json summary.json] [--markdown table.md]

--reuse takes an existing OUT/<name>/results.json instead of running the check again (it must be
complete). Exit code 0 when every outcome matches its truth, 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "independent"
PASS_GROUPS = {"correct", "valid-variant"}
# an audit's reasons for state kept across calls (the history probe, the serial test): a privacy bug's right class
STATE_PHRASES = ("state kept across calls", "consecutive calls depend on each other")
GROUPS = PASS_GROUPS | {"privacy-bug", "differs", "utility-bug"}


def entry_name(entry: dict) -> str:
    base = Path(entry["file"]).with_suffix("").as_posix().replace("/", "__")
    return entry.get("name") or f"{base}__{entry['spec']}"


def dptestbed_cmd() -> list[str]:
    exe = Path(sys.executable).parent / "dptestbed"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("dptestbed")
    return [found] if found else [sys.executable, "-m", "dptestbed"]


def run_entry(entry: dict, out: Path, jobs: int, nice: bool, reuse: bool, timeout: float) -> dict:
    name = entry_name(entry)
    out_dir = out / name
    results = out_dir / "results.json"
    impl = f"{(CORPUS / entry['file']).relative_to(ROOT).as_posix()}:{entry['function']}"
    cmd = dptestbed_cmd() + ["check", entry["spec"], "--impl", impl, "--jobs", str(jobs),
                             "--out", str(out_dir), "--quiet", "--no-plots"]
    for p in entry.get("params", []):
        cmd += ["--param", p]
    cmd += entry.get("extra_args", [])
    if nice and shutil.which("nice"):
        cmd = ["nice"] + cmd
    rec = {"name": name, "file": entry["file"], "function": entry["function"], "spec": entry["spec"],
           "group": entry["group"], "truth": entry.get("truth", ""), "command": " ".join(cmd)}
    t0 = time.monotonic()
    if reuse and results.exists():
        data = json.loads(results.read_text())
        rec["exit_code"] = data.get("summary", {}).get("exit_code")
        rec["stderr_tail"] = ""
        rec["reused"] = True
    else:
        if out_dir.exists():
            shutil.rmtree(out_dir)
        try:
            proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
            rec["exit_code"] = proc.returncode
            rec["stderr_tail"] = "\n".join((proc.stderr or "").strip().splitlines()[-6:])
            rec["stdout_tail"] = "\n".join((proc.stdout or "").strip().splitlines()[-4:])
        except subprocess.TimeoutExpired:
            rec["exit_code"] = None
            rec["stderr_tail"] = f"timed out after {timeout} s"
        data = json.loads(results.read_text()) if results.exists() else None
    rec["seconds"] = round(time.monotonic() - t0, 1)
    rec["items"] = items_of(data) if data else []
    classify(rec)
    return rec


_KINDS: dict[str, dict[str, str]] = {}


def theorem_kinds(spec_id: str) -> dict[str, str]:
    """ref -> kind ('privacy', 'utility', ...) of the spec's theorems, read from its TOML file."""
    if spec_id not in _KINDS:
        kinds = {}
        for f in (ROOT / "spec").glob("*/*.toml"):
            d = tomllib.loads(f.read_text())
            if d.get("id") == spec_id:
                kinds = {t["ref"]: t["kind"] for t in d.get("theorems", [])}
                break
        _KINDS[spec_id] = kinds
    return _KINDS[spec_id]


def items_of(data: dict) -> list[dict]:
    items = []
    for kind in ("privacy", "theorems"):
        for it in data.get(kind) or []:
            if it.get("target") != "user":
                continue
            if kind == "privacy":
                label = "privacy" + (f" @ {fmt_point(it['audit_point'])}" if it.get("audit_point") else "")
                extra = ""
                if it.get("epsilon_lower_bound") is not None:
                    extra = f" (eps_lb {it['epsilon_lower_bound']:.3g}"
                    if it.get("exact_epsilon") is not None:
                        extra += f", spec exact {it['exact_epsilon']:.3g}"
                    extra += f", claim {it.get('claim', {}).get('epsilon')})"
            else:
                tkind = theorem_kinds(it.get("spec", "")).get(it.get("ref"), "?")
                label = f"{it.get('ref')} [{tkind}] · {it.get('check')}"
                extra = ""
            items.append({"kind": kind if kind == "privacy" else
                          ("privacy-theorem" if tkind == "privacy" else "theorem"), "item": label, "verdict": it.get("verdict"),
                          "outcome": it.get("outcome"), "error": it.get("error"),
                          "reason": it.get("reason"), "extra": extra})
    return items


def fmt_point(point: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items())


def is_flag(verdict: str | None) -> bool:
    v = (verdict or "").lower()
    return v.startswith("violat") or "differs" in v


def classify(rec: dict) -> None:
    items = rec["items"]
    audit_violation = any(i["kind"] == "privacy" and (i["verdict"] or "").lower().startswith("violation")
                          for i in items)
    privacy_theorem_violated = any(i["kind"] == "privacy-theorem" and is_flag(i["verdict"]) for i in items)
    privacy_violation = audit_violation or privacy_theorem_violated
    privacy_differs = any(i["kind"] == "privacy" and "differs" in (i["verdict"] or "").lower() for i in items)
    theorem_flag = any(i["kind"] == "theorem" and is_flag(i["verdict"]) for i in items)
    rec["audit_violation"] = audit_violation
    rec["privacy_theorem_violated"] = privacy_theorem_violated
    errors = [i for i in items if i["error"] or (i["verdict"] or "").lower() in ("error", "could not run")]
    rec["privacy_violation"] = privacy_violation
    rec["privacy_differs"] = privacy_differs
    rec["theorem_flag"] = theorem_flag
    rec["item_errors"] = len(errors)
    code = rec.get("exit_code")
    group = rec["group"]
    stateful = any(phrase in f"{i['reason'] or ''} {i['error'] or ''}" for i in items for phrase in STATE_PHRASES)
    if code == 5 and group == "privacy-bug" and stateful:  # state across calls is an implementation error (issue 34)
        rec["match"] = "yes (implementation error: state kept across calls)"
        rec["mismatch_class"] = None
        return
    if code is None or code not in (0, 1, 3, 4):       # 2 usage, 5 implementation error, 6 run error
        rec["match"] = "no (could not run)"
        rec["mismatch_class"] = "d"
        return
    flagged = code in (1, 3)                           # claim violated, differs from the spec
    if group in PASS_GROUPS:
        rec["match"] = "yes" if code == 0 else "no"
        rec["mismatch_class"] = None if code == 0 else "a"
    elif group == "privacy-bug":
        if audit_violation:
            rec["match"] = "yes"
            rec["mismatch_class"] = None
        elif privacy_theorem_violated:
            rec["match"] = "yes (by a privacy theorem check, not the audit)"
            rec["mismatch_class"] = None
        elif flagged:
            rec["match"] = "partly (flagged, not as a privacy violation)"
            rec["mismatch_class"] = "c"
        else:
            rec["match"] = "no"
            rec["mismatch_class"] = "b"
    elif group == "differs":
        if not flagged:
            rec["match"] = "no (passed)"
            rec["mismatch_class"] = "b"
        elif audit_violation:
            rec["match"] = "partly (privacy audit says 'violation')"
            rec["mismatch_class"] = "c"
        elif privacy_theorem_violated:
            rec["match"] = "partly (a privacy theorem check says 'violated')"
            rec["mismatch_class"] = "c"
        else:
            rec["match"] = "yes"
            rec["mismatch_class"] = None
    elif group == "utility-bug":
        if theorem_flag and not audit_violation:
            rec["match"] = "yes"
            rec["mismatch_class"] = None
        elif flagged:
            rec["match"] = "partly (flagged" + (" as a privacy violation)" if audit_violation else ")")
            rec["mismatch_class"] = "c" if audit_violation else None
        else:
            rec["match"] = "no (passed)"
            rec["mismatch_class"] = "b"
    else:
        rec["match"] = "unknown group"
        rec["mismatch_class"] = None


def verdict_text(rec: dict) -> str:
    parts = []
    for i in rec["items"]:
        v = i["verdict"] or "?"
        if i["error"]:
            v += f" [error: {str(i['error']).splitlines()[0][:120]}]"
        parts.append(f"{i['item']}: {v}{i['extra']}")
    if not parts:
        parts.append((rec.get("stderr_tail") or rec.get("stdout_tail") or "no results").replace("\n", " / ")[:400])
    return "; ".join(parts)


def markdown(records: list[dict]) -> str:
    lines = ["| file | spec | truth | exit | what check said | match? |", "|---|---|---|---|---|---|"]
    for r in records:
        said = verdict_text(r).replace("|", "\\|")
        lines.append(f"| {r['file']}:{r['function']} | {r['spec']} | {r['group']} | {r.get('exit_code')} | "
                     f"{said} | {r['match']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--manifest", default=str(CORPUS / "MANIFEST.toml"))
    ap.add_argument("--out", default="/tmp/ind")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", nargs="*", default=[], help="run entries whose file, function or spec contains one of these")
    ap.add_argument("--group", nargs="*", default=[], help="run only these truth groups")
    ap.add_argument("--reuse", action="store_true", help="reuse OUT/<name>/results.json when present")
    ap.add_argument("--no-nice", action="store_true")
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds per check (default 3600)")
    ap.add_argument("--json", help="write the records here")
    ap.add_argument("--markdown", help="write the table here")
    args = ap.parse_args(argv)

    manifest = tomllib.loads(Path(args.manifest).read_text())
    entries = manifest.get("entry", [])
    for e in entries:
        for key in ("file", "function", "spec", "group"):
            if key not in e:
                raise SystemExit(f"MANIFEST entry {e}: missing '{key}'")
        if e["group"] not in GROUPS:
            raise SystemExit(f"MANIFEST entry {e['file']}: unknown group {e['group']!r}")
        if not (CORPUS / e["file"]).exists():
            raise SystemExit(f"MANIFEST entry {e['file']}: no such file under {CORPUS}")
    if args.only:
        entries = [e for e in entries if any(s in e["file"] or s in e["function"] or s == e["spec"]
                                             or s in entry_name(e) for s in args.only)]
    if args.group:
        entries = [e for e in entries if e["group"] in args.group]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    records = []
    for n, e in enumerate(entries, 1):
        rec = run_entry(e, out, args.jobs, not args.no_nice, args.reuse, args.timeout)
        records.append(rec)
        print(f"[{n}/{len(entries)}] {e['file']}:{e['function']} {e['spec']} ({e['group']}): exit "
              f"{rec.get('exit_code')}, match {rec['match']} ({rec['seconds']} s)", file=sys.stderr, flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps(records, indent=1))
    table = markdown(records)
    print(table)
    mism = [r for r in records if r["mismatch_class"]]
    names = {"a": "valid implementations flagged", "b": "bugs passed", "c": "wrong class",
             "d": "could not run"}
    print()
    for cls in "abcd":
        rs = [r for r in mism if r["mismatch_class"] == cls]
        print(f"({cls}) {names[cls]}: {len(rs)}")
        for r in rs:
            print(f"  - {r['file']}:{r['function']} on {r['spec']} ({r['group']}): exit {r.get('exit_code')}; "
                  f"{verdict_text(r)[:300]}")
    if args.markdown:
        Path(args.markdown).write_text(table + "\n")
    if args.json:
        Path(args.json).write_text(json.dumps(records, indent=1))
    return 0 if not mism else 1


if __name__ == "__main__":
    sys.exit(main())
