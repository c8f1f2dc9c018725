"""Results the command line wrote, and can tell it wrote.

A results.json is signed whole (HMAC-SHA256 over its canonical JSON, every field but the signature)
with a key that only the command line reads: 32 random bytes in ``results-key`` of the state folder
(``$DPTESTBED_STATE_DIR``, else ``$XDG_STATE_HOME/dptestbed``, else ``~/.local/state/dptestbed``,
resolved to its real path whatever names it: relative, through symbolic links; mode 0600 in a 0700
folder), created before the first worker starts. A sandboxed worker never sees it: the key file and
its folder are hidden from workers (:func:`secret_paths`, masked by :mod:`..sandbox.isolation` at their real
paths, the file even when the folder holds the implementation's; at the unprivileged-uid level the
file is not readable by the worker's user), it is never in an environment variable, and a worker is a
fresh interpreter, never a fork of a process that read it.

What the signature covers includes the run's identity (``run``: command, suite, seed, the
implementation and the SHA-256 of its file, the SHA-256 of every spec file, the isolation level, the
dptestbed version and the digest of its code, :func:`code_digest`), so a signed document can be
neither edited nor taken for another run's. ``--resume`` and ``report`` accept only a document that
verifies (:func:`verify`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
from pathlib import Path

ALGORITHM = "HMAC-SHA256"
KEY_NAME = "results-key"
_key: bytes | None = None
_code: str | None = None


def key_dir() -> Path:
    """The real path of the key's folder (not created here)."""
    if os.environ.get("DPTESTBED_STATE_DIR"):
        folder = os.path.expanduser(os.environ["DPTESTBED_STATE_DIR"])
    else:
        base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
        folder = os.path.join(os.path.expanduser(base), "dptestbed")
    return Path(os.path.realpath(folder))


def _load_key() -> bytes:
    """The key, created on first use (written whole, then linked into place: a concurrent run reads
    either none or all of it; a key that others may read is made private first); a key of this
    process alone when the folder cannot be written (its results then verify only in this process)."""
    global _key
    if _key is None:
        path = key_dir() / KEY_NAME
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not path.exists():
                tmp = path.with_name(f".{KEY_NAME}-{os.getpid()}")
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
                with os.fdopen(fd, "w", encoding="ascii") as fh:
                    fh.write(os.urandom(32).hex())
                try:
                    os.link(tmp, path)
                except FileExistsError:
                    pass
                finally:
                    os.unlink(tmp)
            if stat.S_IMODE(path.stat().st_mode) & 0o077:
                path.chmod(0o600)
            _key = bytes.fromhex(path.read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            _key = os.urandom(32)
    return _key


def secret_paths() -> list[str]:
    """What no worker may see: the key file and its folder (real paths), the key created first, so that a
    worker started before the first results.json is written cannot find it appear later."""
    _load_key()
    folder = key_dir()
    return [str(folder), str(folder / KEY_NAME)]


def _canonical(document: dict) -> bytes:
    """The JSON text the signature covers: ``document`` as results.json holds it (a round trip through
    JSON first: tuples, integer keys), without its signature, keys sorted."""
    plain = json.loads(json.dumps({k: v for k, v in document.items() if k != "integrity"}, allow_nan=False))
    return json.dumps(plain, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode("ascii")


def _mac(document: dict) -> str:
    return hmac.new(_load_key(), _canonical(document), hashlib.sha256).hexdigest()


def seal(document: dict) -> dict:
    """``document`` with its signature (``integrity``); returns it."""
    document["integrity"] = {"algorithm": ALGORITHM, "signature": _mac(document)}
    return document


def verify(document) -> str | None:
    """Why ``document`` (a results.json) is not one this machine's dptestbed wrote as it is, or None."""
    if not isinstance(document, dict):
        return "not a JSON object"
    seal_ = document.get("integrity")
    signature = seal_.get("signature") if isinstance(seal_, dict) else None
    if not isinstance(signature, str):
        return "it carries no signature"
    try:
        good = hmac.compare_digest(signature, _mac(document))
    except (TypeError, ValueError):  # not JSON that results.json can hold
        good = False
    if not good:
        return ("its signature does not verify: it was changed after it was written, or written by another "
                "machine's dptestbed")
    return None


def file_digest(path) -> str | None:
    """The SHA-256 of a file's bytes, or None when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()
    except OSError:
        return None


def implementation_file(ref: str | None) -> str | None:
    """The file an implementation reference names (``path/to/file.py:fn``), or for a module reference
    (``package.module:fn``) the file Python would import it from (the current folder first, then
    ``sys.path``; found without importing anything); None when there is none."""
    if not ref or ":" not in ref:
        return None
    import sys

    target = ref.rpartition(":")[0]
    if target.endswith(".py") or "/" in target or os.sep in target:
        return os.path.realpath(os.path.expanduser(target))
    parts = target.split(".")
    for base in [os.getcwd(), *(p for p in sys.path if p)]:
        for candidate in (os.path.join(base, *parts) + ".py", os.path.join(base, *parts, "__init__.py")):
            if os.path.isfile(candidate):
                return os.path.realpath(candidate)
    return None


def code_digest() -> str:
    """A digest of dptestbed's own code and catalogue (every .py, .toml and .json file of its packages):
    results computed by other code than this do not verify as this code's."""
    global _code
    if _code is None:
        import importlib.util

        digest = hashlib.sha256()
        for name in ("dptestbed.spec", "dptestbed.impl", "dptestbed.audits"):
            found = importlib.util.find_spec(name)
            for location in (found.submodule_search_locations or []) if found else []:
                for top, dirs, files in os.walk(location):
                    dirs[:] = sorted(d for d in dirs if d != "__pycache__")
                    for file in sorted(f for f in files if f.endswith((".py", ".toml", ".json"))):
                        path = os.path.join(top, file)
                        digest.update(f"{name}/{os.path.relpath(path, location)}\0{file_digest(path)}\0".encode())
        _code = digest.hexdigest()
    return _code
