"""Results the command line wrote, and can tell it wrote.

Every item of a results.json is signed (HMAC-SHA256) with a key that only the command line reads:
32 random bytes in ``results-key`` of the state folder (``$DPTESTBED_STATE_DIR``, else
``$XDG_STATE_HOME/dptestbed``, else ``~/.local/state/dptestbed``; mode 0600 in a 0700 folder),
created on first use. A sandboxed worker never sees it: the folder is hidden from workers
(:func:`.isolation.hide`; at the unprivileged-uid level the file is not readable by the worker's
user), it is never in an environment variable, and a worker is a fresh interpreter, never a fork
of a process that read it. The signature covers the item's result and the run it belongs to
(command, suite, seed, implementation, tight), so an item can neither be edited nor moved to
another run; ``--resume`` re-uses only items that verify (:func:`unverified`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

ALGORITHM = "HMAC-SHA256"
RUN_FIELDS = ("command", "suite", "seed", "implementation", "tight")
_key: bytes | None = None


def key_dir() -> Path:
    """The folder of the key (not created here)."""
    if os.environ.get("DPTESTBED_STATE_DIR"):
        return Path(os.environ["DPTESTBED_STATE_DIR"]).expanduser()
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "dptestbed"


def _load_key() -> bytes:
    """The key, created on first use (written whole, then linked into place: a concurrent run reads
    either none or all of it); a key of this process alone when the folder cannot be written (its
    results then verify only in this process)."""
    global _key
    if _key is None:
        path = key_dir() / "results-key"
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not path.exists():
                tmp = path.with_name(f".results-key-{os.getpid()}")
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
                with os.fdopen(fd, "w", encoding="ascii") as fh:
                    fh.write(os.urandom(32).hex())
                try:
                    os.link(tmp, path)
                except FileExistsError:
                    pass
                finally:
                    os.unlink(tmp)
            _key = bytes.fromhex(path.read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            _key = os.urandom(32)
    return _key


def _mac(run: dict, item: dict) -> str:
    import hashlib
    import hmac

    identity = {k: run.get(k) for k in RUN_FIELDS}
    message = json.dumps([identity, item], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hmac.new(_load_key(), message.encode("ascii"), hashlib.sha256).hexdigest()


def _items(document: dict) -> list[dict]:
    return [r for part in ("privacy", "theorems") for r in document.get(part) or [] if isinstance(r, dict)]


def seal(document: dict) -> dict:
    """``document`` with the signature of every item (``integrity``); returns it."""
    run = document.get("run") or {}
    document["integrity"] = {"algorithm": ALGORITHM,
                             "items": {str(r.get("id")): _mac(run, r) for r in _items(document)}}
    return document


def unverified(document: dict) -> list[str]:
    """The ids of the items of ``document`` whose signature is missing or does not verify."""
    run = document.get("run")
    run = run if isinstance(run, dict) else {}
    seals = (document.get("integrity") or {}).get("items") if isinstance(document.get("integrity"), dict) else None
    seals = seals if isinstance(seals, dict) else {}
    import hmac

    return [str(r.get("id")) for r in _items(document)
            if not hmac.compare_digest(str(seals.get(str(r.get("id")), "")), _mac(run, r))]
