"""Untrusted implementations run in sandboxed worker processes.

A user's implementation (any reference outside ``dptestbed.impl``) is never imported by the
auditor. It is loaded and called only in a worker: a fresh interpreter
(``python -m dptestbed.audits.sandbox FD REF``, never a fork of the auditor) in a session and
process group of its own, killed with the auditor (``PR_SET_PDEATHSIG`` on Linux), with an
address-space limit (``DPTESTBED_WORKER_MEMORY`` bytes, default 16 GiB) and a CPU-time limit
(``DPTESTBED_WORKER_CPU`` seconds over the worker's life, default 7200: above the full suite's
longest item; a worker past it gets SIGXCPU, which ends it (SIGKILL 5 s later if it ignores
that), and its call is an implementation error). Its standard output goes to the auditor's standard error.

Protocol, on one dedicated socket: frames ``MAGIC | kind (1 byte) | length (8 bytes, big
endian) | payload``. The auditor sends tasks (``T``: a pickle, the auditor being trusted by
the worker) and ``Q`` (quit); the worker answers ``H`` (hello, JSON, after the import), ``P``
(progress: a call finished), ``A`` (the outputs: a JSON description of a numeric dtype and a
shape, then the raw buffer, read straight into a new array) or ``E`` (an error, UTF-8 text).
Nothing the worker sends is unpickled or becomes an object,
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
CPU_LIMIT = int(os.environ.get("DPTESTBED_WORKER_CPU", "7200"))
PR_SET_PDEATHSIG = 1


class ProtocolError(Exception):
    """The worker sent something that is not a frame of the protocol, or nothing in time."""


def encode(kind: bytes, payload: bytes) -> bytes:
    return HEADER.pack(MAGIC, kind, len(payload)) + payload


META = struct.Struct(">I")  # length of an array frame's JSON description (dtype, shape)
ARRAY_DTYPES = "biuf"  # numbers only: nothing the worker sends is ever turned into an object


def send_array(sock: socket.socket, arr: np.ndarray) -> None:
    """An ``A`` frame: the JSON description, then the raw buffer (no copy of the data)."""
    arr = np.ascontiguousarray(arr)
    meta = json.dumps({"dtype": arr.dtype.str, "shape": list(arr.shape)}).encode("utf-8")
    sock.sendall(HEADER.pack(MAGIC, b"A", META.size + len(meta) + arr.nbytes) + META.pack(len(meta)) + meta)
    if arr.nbytes:
        sock.sendall(memoryview(arr).cast("B"))


def _read_into(sock: socket.socket, view: memoryview, deadline: float | None) -> None:
    got = 0
    while got < len(view):
        wait = None if deadline is None else deadline - time.monotonic()
        if wait is not None and wait <= 0:
            raise TimeoutError
        if not select.select([sock], [], [], wait)[0]:
            raise TimeoutError
        n = sock.recv_into(view[got:], min(len(view) - got, 1 << 22))
        if not n:
            raise EOFError
        got += n


def _read_exact(sock: socket.socket, size: int, deadline: float | None) -> bytes:
    buf = bytearray(size)
    _read_into(sock, memoryview(buf), deadline)
    return bytes(buf)


def read_frame(sock: socket.socket, deadline: float | None) -> tuple[bytes, object]:
    """One frame ``(kind, payload)``: bytes, or for ``A`` a numeric array read straight into its
    buffer. TimeoutError past ``deadline`` (monotonic), EOFError when the peer closed,
    ProtocolError on anything that is not a frame."""
    magic, kind, size = HEADER.unpack(_read_exact(sock, HEADER.size, deadline))
    if magic != MAGIC or size > MAX_FRAME:
        raise ProtocolError(f"sent {HEADER.size} bytes that are not a protocol frame")
    if kind != b"A":
        return kind, _read_exact(sock, size, deadline)
    (meta_size,) = META.unpack(_read_exact(sock, META.size, deadline))
    if meta_size > 4096 or meta_size + META.size > size:
        raise ProtocolError("sent an array frame with a bad description")
    try:
        meta = json.loads(_read_exact(sock, meta_size, deadline))
        dtype, shape = np.dtype(str(meta["dtype"])), tuple(int(s) for s in meta["shape"])
    except (ValueError, TypeError, KeyError) as exc:
        raise ProtocolError(f"sent an array frame with a bad description ({exc})") from None
    if dtype.kind not in ARRAY_DTYPES or dtype.itemsize * int(np.prod(shape)) != size - META.size - meta_size:
        raise ProtocolError("sent an array frame whose size does not match its description")
    arr = np.empty(shape, dtype=dtype)
    if arr.nbytes:
        _read_into(sock, memoryview(arr).cast("B"), deadline)
    return kind, arr


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
    """In the worker, between fork and exec: die with the auditor; cap the address space and the CPU time."""
    die_with_parent()
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT + 5))
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
                return "ok", payload
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
            if -code == signal.SIGXCPU:
                return (f"the worker exceeded its CPU-time limit of {CPU_LIMIT} s (raise it with the environment "
                        "variable DPTESTBED_WORKER_CPU)")
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
    from dptestbed.impl.contract import accepted_params

    from .runner import ImplementationError, _describe, _validate_batch, _validate_stack, load_implementation

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
                out = impl.batch(data, n, rng=rng, **accepted_params(impl.batch, params, positional=2))
                result = _validate_batch(out, n, "batch sampler")
            else:
                kwargs = accepted_params(impl, params)
                outs, last = [], time.monotonic()
                for _ in range(n):
                    outs.append(impl(data, rng=rng, **kwargs))
                    if time.monotonic() - last > PROGRESS_EVERY:
                        _send(sock, b"P", b"")
                        last = time.monotonic()
                result = _validate_stack(outs, "single-run function")
            send_array(sock, result)
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
