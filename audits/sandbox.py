"""Untrusted implementations run in sandboxed worker processes.

A user's implementation (any reference outside ``dptestbed.impl``) is never imported by the
auditor. It is loaded and called only in a worker: a fresh interpreter
(``python -m dptestbed.audits.sandbox FD REF``, never a fork of the auditor) in a session and
process group of its own, killed with the auditor (``PR_SET_PDEATHSIG`` on Linux) and with an
address-space limit (``DPTESTBED_WORKER_MEMORY`` bytes, default 16 GiB). Its standard output
goes to the auditor's standard error.

Protocol, on one dedicated socket: frames ``MAGIC | kind (1 byte) | length (8 bytes, big
endian) | payload``. The auditor sends tasks (``T``: a pickle, the auditor being trusted by
the worker) and ``Q`` (quit); the worker answers ``H`` (hello, JSON, after the import), ``P``
(progress: a call finished), ``A`` (the outputs, an ``.npy`` payload read with
``allow_pickle=False``) or ``E`` (an error, UTF-8 text). Nothing the worker sends is unpickled,
and every read has a deadline, so garbage, silence or a closed socket becomes an
:class:`~dptestbed.audits.runner.ImplementationError` ("timed out", "broke the protocol",
"died"), never a hang.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import random
import select
import signal
import socket
import struct
import subprocess
import sys
import time

import numpy as np

MAGIC = b"DPTB"
HEADER = struct.Struct(">4scQ")
MAX_FRAME = 1 << 34  # 16 GiB: larger is garbage
IMPORT_TIMEOUT = 30.0  # seconds allowed for importing the implementation
PROGRESS_EVERY = 0.05  # seconds between progress frames of a running loop
MEMORY_LIMIT = int(os.environ.get("DPTESTBED_WORKER_MEMORY", str(16 << 30)))
PR_SET_PDEATHSIG = 1


class ProtocolError(Exception):
    """The worker sent something that is not a frame of the protocol, or nothing in time."""


def encode(kind: bytes, payload: bytes) -> bytes:
    return HEADER.pack(MAGIC, kind, len(payload)) + payload


def array_bytes(arr: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.asarray(arr), allow_pickle=False)
    return buf.getvalue()


def _read_exact(sock: socket.socket, size: int, deadline: float | None) -> bytes:
    chunks, got = [], 0
    while got < size:
        wait = None if deadline is None else deadline - time.monotonic()
        if wait is not None and wait <= 0:
            raise TimeoutError
        ready, _, _ = select.select([sock], [], [], wait)
        if not ready:
            raise TimeoutError
        chunk = sock.recv(min(size - got, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_frame(sock: socket.socket, deadline: float | None) -> tuple[bytes, bytes]:
    """One frame ``(kind, payload)``; TimeoutError past ``deadline`` (monotonic), EOFError when the
    peer closed, ProtocolError on anything that is not a frame."""
    magic, kind, size = HEADER.unpack(_read_exact(sock, HEADER.size, deadline))
    if magic != MAGIC or size > MAX_FRAME:
        raise ProtocolError(f"sent {len(magic) + 1 + 8} bytes that are not a protocol frame")
    return kind, _read_exact(sock, size, deadline)


# --------------------------------------------------------------------------- the auditor's side


PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> bool:
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(option, value) == 0
    except (OSError, AttributeError):
        return False


def become_subreaper() -> bool:
    """Linux: orphaned descendants of this process (a process that user code forked and left
    behind) are re-parented to it instead of init, so :func:`kill_descendants` finds them."""
    return _prctl(PR_SET_CHILD_SUBREAPER, 1)


def kill_descendants() -> int:
    """SIGKILL every descendant of this process and its process group (Linux, through
    /proc/<pid>/task/<tid>/children); returns how many were signalled."""
    killed, todo, seen = 0, [os.getpid()], set()
    while todo:
        pid = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/children") as fh:
                    children = [int(c) for c in fh.read().split()]
            except (OSError, ValueError):
                continue
            for child in children:
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
    for pid in seen:
        for kill in (lambda p: os.killpg(p, signal.SIGKILL), lambda p: os.kill(p, signal.SIGKILL)):
            try:
                kill(pid)
                killed += 1
            except OSError:
                pass
    return killed


def die_with_parent() -> None:
    """Linux: this process is SIGKILLed when its parent dies, however the parent dies (elsewhere a
    no-op: the parent still kills its children's process groups on every exit path it sees)."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _limit_child() -> None:
    """In the worker, between fork and exec: die with the auditor; cap the address space."""
    die_with_parent()
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ImportError, ValueError, OSError):
        pass


def _stderr_fd() -> int:
    """The auditor's standard error (fd 2 when ``sys.stderr`` is replaced, e.g. under pytest)."""
    try:
        return sys.stderr.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return 2


class SandboxWorker:
    """One worker process running the implementation ``ref``.

    ``result(timeout)`` waits for the answer to a submitted task: ``("ok", array)`` or
    ``("error", reason)``; the per-call deadline restarts with every progress frame. With
    ``wait=False`` the process starts and :meth:`hello` is left to the caller (so that several
    workers start at once)."""

    def __init__(self, ref: str, import_timeout: float = IMPORT_TIMEOUT, *, wait: bool = True):
        parent, child = socket.socketpair()
        self.sock = parent
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "dptestbed.audits.sandbox", str(child.fileno()), ref],
                pass_fds=[child.fileno()], stdin=subprocess.DEVNULL, stdout=_stderr_fd(),
                start_new_session=True, preexec_fn=_limit_child, close_fds=True)
        finally:
            child.close()
        self.started = time.monotonic()
        self.info = self.hello(import_timeout) if wait else None

    def hello(self, timeout: float = IMPORT_TIMEOUT) -> dict:
        """Wait for the import (at most ``timeout`` s since the start); what the worker reports."""
        from .runner import ImplementationError

        try:
            kind, payload = read_frame(self.sock, self.started + timeout)
        except TimeoutError:
            self.kill()
            raise ImplementationError(f"importing the implementation took longer than {timeout:g} s") from None
        except (EOFError, ProtocolError, OSError) as exc:
            reason = self._death(exc)
            self.kill()
            raise ImplementationError(reason) from None
        if kind == b"E":
            self.kill()
            raise ImplementationError(payload.decode("utf-8", "replace")[:2000])
        if kind != b"H":
            self.kill()
            raise ImplementationError("the worker broke the protocol while importing the implementation")
        self.info = json.loads(payload)
        return self.info

    def submit(self, task: tuple) -> None:
        self.sock.sendall(encode(b"T", pickle.dumps(task, protocol=pickle.HIGHEST_PROTOCOL)))
        self.deadline_base = time.monotonic()

    def waitables(self) -> list:
        return [self.sock]

    def result(self, timeout: float) -> tuple[str, object] | None:
        """The task's answer, or None while it runs (at most ``timeout`` s since its last sign of
        life; after that the worker is killed and the answer is a timeout)."""
        while True:
            deadline = self.deadline_base + timeout
            if not select.select([self.sock], [], [], 0)[0]:
                if self.proc.poll() is not None:
                    return "error", self._death(None)
                if time.monotonic() > deadline:
                    self.kill()
                    return "error", f"timed out: one call ran longer than {timeout:g} s"
                return None
            try:
                kind, payload = read_frame(self.sock, max(deadline, time.monotonic() + 5.0))
            except TimeoutError:
                self.kill()
                return "error", "timed out while sending its outputs"
            except (EOFError, ProtocolError, OSError) as exc:
                reason = self._death(exc)
                self.kill()
                return "error", reason
            if kind == b"P":
                self.deadline_base = time.monotonic()
                continue
            if kind == b"E":
                return "error", payload.decode("utf-8", "replace")[:2000]
            if kind == b"A":
                try:
                    return "ok", np.load(io.BytesIO(payload), allow_pickle=False)
                except (ValueError, OSError, EOFError):
                    self.kill()
                    return "error", "the worker sent outputs that are not a numeric array"
            self.kill()
            return "error", "the worker broke the protocol (unknown frame)"

    def _death(self, exc: BaseException | None) -> str:
        if isinstance(exc, ProtocolError):
            return f"the implementation broke the worker protocol: it {exc}"
        try:
            code = self.proc.wait(0.5)
        except subprocess.TimeoutExpired:
            return "the worker closed its channel while running the implementation"
        if code is not None and code < 0:
            return f"the worker process died (signal {-code}: {signal.Signals(-code).name}) while running the implementation"
        return f"the worker process died (exit code {code}) while running the implementation"

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # the worker and everything it started
        except (ProcessLookupError, PermissionError, OSError):
            pass
        try:
            self.proc.kill()
            self.proc.wait(2.0)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.sock.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.sock.sendall(encode(b"Q", b""))
                self.proc.wait(0.5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()


# --------------------------------------------------------------------------- the worker's side


def _send(sock: socket.socket, kind: bytes, payload: bytes) -> None:
    sock.sendall(encode(kind, payload))


def _serve(sock: socket.socket, ref: str) -> None:
    from .runner import ImplementationError, _accepted, _describe, _validate_batch, _validate_stack, load_implementation

    try:
        impl = load_implementation(ref)
    except ImplementationError as exc:
        _send(sock, b"E", exc.reason.encode("utf-8"))
        return
    has_batch = callable(getattr(impl, "batch", None))
    _send(sock, b"H", json.dumps({"has_batch": has_batch}).encode("utf-8"))
    while True:
        kind, payload = read_frame(sock, None)
        if kind != b"T":
            return
        mode, data, n, seed, params = pickle.loads(payload)  # from the auditor: trusted
        try:
            rng = np.random.default_rng(seed)
            if mode == "batch":
                out = impl.batch(data, n, rng=rng, **_accepted(impl.batch, params, positional=2))
                result = _validate_batch(out, n, "batch sampler")
            else:
                kwargs = _accepted(impl, params)
                outs, last = [], time.monotonic()
                for _ in range(n):
                    outs.append(impl(data, rng=rng, **kwargs))
                    if time.monotonic() - last > PROGRESS_EVERY:
                        _send(sock, b"P", b"")
                        last = time.monotonic()
                result = _validate_stack(outs, "single-run function")
            _send(sock, b"A", array_bytes(result))
        except ImplementationError as exc:
            _send(sock, b"E", exc.reason.encode("utf-8"))
        except BaseException as exc:  # noqa: BLE001 - user code may raise anything, even SystemExit
            _send(sock, b"E", f"raised {_describe(exc)}".encode())


def main(argv: list[str]) -> None:
    sock = socket.socket(fileno=int(argv[0]))
    os.dup2(2, 1)  # user prints go to the auditor's stderr, never into its --json output
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the auditor decides when a worker stops
    # global generators get fresh entropy: an implementation that draws from them instead of its
    # rng neither repeats blocks across workers nor passes the contract probe
    np.random.seed(int.from_bytes(os.urandom(4), "little"))
    random.seed(os.urandom(16))
    try:
        _serve(sock, argv[1])
    except (EOFError, OSError, ProtocolError):
        pass
    finally:
        sock.close()
        os._exit(0)  # no atexit handlers or non-daemon threads of the implementation keep it alive


if __name__ == "__main__":
    main(sys.argv[1:])
