"""Untrusted implementations run in sandboxed worker processes.

A user's implementation (any reference outside ``dptestbed.impl``) is never imported by the
auditor. It is loaded and called only in a worker: a fresh interpreter started by
:mod:`.isolation` (never a fork of the auditor), confined at the strongest level the system
allows (namespaces, an unprivileged uid, or a bare process; see docs/isolation.md), with an
address-space limit (``DPTESTBED_WORKER_MEMORY`` bytes, default half the machine's memory and at most
16 GiB: two workers that fill theirs leave the auditor its share, instead of waking the kernel's
out-of-memory killer, which may end any process) and a CPU-time limit
(``DPTESTBED_WORKER_CPU`` seconds over the worker's life, default 7200: above the full suite's
longest item; a worker past it gets SIGXCPU, which ends it (SIGKILL 5 s later if it ignores
that), and its call is an implementation error). The worker sets these limits itself before
anything of the implementation is imported, and the auditor reads them back from /proc after the
import: a worker whose limits were raised is refused. What the worker prints reaches the
auditor's standard error through a pipe, sanitised (:mod:`.sanitize`), each line marked
``[implementation]``, at most :data:`OUTPUT_LIMIT` bytes of it.

Protocol, on one dedicated socket: frames ``MAGIC | kind (1 byte) | length (8 bytes, big
endian) | payload``. The auditor sends tasks (``T``: a pickle, the auditor being trusted by the
worker) and ``Q`` (quit); the worker answers ``L`` (its isolation level, JSON, sent before the
implementation is imported), ``H`` (hello, JSON, after the import), ``P`` (progress: how many calls
of the task have finished, 8 bytes), ``A`` (the outputs: a JSON description of a numeric dtype and
a shape, then the raw buffer, read straight into a new array) or ``E`` (an error, UTF-8 text).
Nothing the worker sends is unpickled or becomes an object; every frame kind has a size limit
(an array's: the task's number of runs, the output shape once known, and :data:`MAX_ARRAY_BYTES`),
and every read has a deadline, so garbage, silence, a flood or a closed socket becomes an
:class:`~.contract_checks.ImplementationError` ("timed out", "broke the protocol", "died"), never a
hang or an allocation the worker chose. Time limits of calls: :class:`.cpulimit.CallClock`.
"""

from __future__ import annotations

import codecs
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

from ..base import sanitize
from ..base.integrity import secret_paths
from . import isolation
from .contract_checks import (
    ImplementationError,
    describe,
    load_implementation,
    run_batch,
    unchanged,
    validate_stack,
    validate_typed,
)
from .cpulimit import CallClock
from .proctree import children, descendants, kill_tree

MAGIC = b"DPTB"
HEADER = struct.Struct(">4scQ")
PROGRESS = struct.Struct(">Q")  # a P frame: calls of the task finished so far
META = struct.Struct(">I")  # length of an array frame's JSON description (dtype, shape)
ARRAY_DTYPES = "biuf"  # numbers only: nothing the worker sends is ever turned into an object
MAX_ARRAY_BYTES = 1 << 30  # one task's outputs (10^5 runs of 1,342 float64 values)
LIMITS = {b"L": 4096, b"H": 4096, b"E": 1 << 16, b"P": PROGRESS.size, b"A": MAX_ARRAY_BYTES + 4096 + META.size}
TASK_LIMITS = {b"T": 1 << 34, b"Q": 0}  # what the worker accepts from the auditor (trusted)
IMPORT_TIMEOUT = 30.0  # busy seconds allowed for importing the implementation
PROGRESS_EVERY = 0.2  # seconds between progress frames of a running loop
FRAME_SECONDS = 30.0  # a frame that has begun must arrive in full within this many seconds
OUTPUT_LIMIT = 1 << 20  # bytes of a worker's printed output shown on the auditor's standard error


def _default_memory() -> int:
    """Half the machine's memory, at most 16 GiB (16 GiB where the system does not say)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 16 << 30
    return int(min(16 << 30, total // 2))


_BINARY = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def _env_limit(name: str, default: int, what: str) -> tuple[int, str | None]:
    """The limit the environment variable ``name`` sets, else ``default``; with a one-line reason when
    its value is not a whole number > 0 (of bytes, with an optional K, M, G or T suffix, for memory)."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default, None
    digits, scale = (text[:-1], _BINARY[text[-1].upper()]) if what == "bytes" and text[-1].upper() in _BINARY \
        else (text, 1)
    value = int(digits) * scale if digits.isdigit() else 0
    if value <= 0:
        suffix = " (a K, M, G or T suffix allowed)" if what == "bytes" else ""
        return default, f"{name}={text!r}: must be a whole number > 0 of {what}{suffix}"
    return value, None


MEMORY_LIMIT, _MEMORY_ERROR = _env_limit("DPTESTBED_WORKER_MEMORY", _default_memory(), "bytes")
CPU_LIMIT, _CPU_ERROR = _env_limit("DPTESTBED_WORKER_CPU", 7200, "seconds")


def configuration_error() -> str | None:
    """Why a worker limit set in the environment cannot be used (one line), or None."""
    return _MEMORY_ERROR or _CPU_ERROR


class ProtocolError(Exception):
    """The worker sent something that is not a frame of the protocol, or nothing in time."""


def encode(kind: bytes, payload: bytes) -> bytes:
    return HEADER.pack(MAGIC, kind, len(payload)) + payload


def send_frame(sock: socket.socket, kind: bytes, payload: bytes) -> None:
    sock.sendall(encode(kind, payload))


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


def read_frame(sock: socket.socket, deadline: float | None, limits: dict = LIMITS, rows: int | None = None,
               row_shape: tuple | None = None) -> tuple[bytes, object]:
    """One frame ``(kind, payload)``: bytes, or for ``A`` a numeric array read straight into its
    buffer. A frame kind missing from ``limits`` or larger than its limit, and an array of other
    than ``rows`` outputs (each of shape ``row_shape``, when given), is a ProtocolError, before
    anything is allocated for it. TimeoutError past ``deadline`` (monotonic), EOFError when the
    peer closed."""
    magic, kind, size = HEADER.unpack(_read_exact(sock, HEADER.size, deadline))
    if magic != MAGIC:
        raise ProtocolError(f"sent {HEADER.size} bytes that are not a protocol frame")
    if kind not in limits or size > limits[kind]:
        raise ProtocolError(f"sent a frame of kind {kind!r} and {size:,} bytes (allowed: "
                            + ", ".join(f"{k.decode()} up to {v:,}" for k, v in limits.items()) + ")")
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
    if dtype.kind not in ARRAY_DTYPES or min(shape, default=0) < 0:
        raise ProtocolError("sent an array frame whose description is not a numeric array")
    if rows is not None and (not shape or shape[0] != rows):
        raise ProtocolError(f"sent an array of shape {shape} for a task of {rows} runs")
    if row_shape is not None and shape[1:] != tuple(row_shape):
        raise ProtocolError(f"sent outputs of shape {shape[1:]} after outputs of shape {tuple(row_shape)}")
    if dtype.itemsize * int(np.prod(shape, dtype=object)) != size - META.size - meta_size:
        raise ProtocolError("sent an array frame whose size does not match its description")
    try:
        arr = np.empty(shape, dtype=dtype)
    except (MemoryError, ValueError):
        raise ProtocolError(f"announced an array of {size:,} bytes that cannot be allocated") from None
    if arr.nbytes:
        _read_into(sock, memoryview(arr).cast("B"), deadline)
    return kind, arr


# --------------------------------------------------------------------------- the auditor's side


def _stderr_fd() -> int:
    """The auditor's standard error (fd 2 when ``sys.stderr`` is replaced, e.g. under pytest)."""
    try:
        return sys.stderr.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return 2


class _Output:
    """A worker's standard output and error (one pipe), shown on the auditor's standard error,
    sanitised, each line marked, at most OUTPUT_LIMIT bytes."""

    MARK = "[implementation] "

    def __init__(self, fd: int):
        self.fd, self.left, self.at_start = fd, OUTPUT_LIMIT, True
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        os.set_blocking(fd, False)

    def drain(self) -> None:
        while self.fd >= 0:
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self.close()
                return
            if self.left > 0:
                text = self.decoder.decode(chunk[: self.left])
                self.left -= len(chunk)
                if self.left <= 0:
                    text += "\n[dptestbed: the rest of the implementation's output is not shown]\n"
                self._show(sanitize.text(text))

    def _show(self, text: str) -> None:
        out = []
        for part in text.splitlines(keepends=True):
            out.append((self.MARK if self.at_start else "") + part)
            self.at_start = part.endswith("\n")
        try:
            os.write(_stderr_fd(), "".join(out).encode("utf-8", "replace"))
        except OSError:
            pass

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


class SandboxWorker:
    """One worker process running the implementation ``ref``.

    ``submit(task, timeout)`` hands it a task of ``task[2]`` calls, each allowed ``timeout`` busy
    seconds (:class:`.cpulimit.CallClock`); ``result()`` is ``("ok", array)``, ``("error", reason)``
    or None while the task runs. With ``wait=False`` the process starts and :meth:`hello` is left to
    the caller (so that several workers start at once). ``level``: its isolation level, known from
    its first frame."""

    def __init__(self, ref: str, import_timeout: float = IMPORT_TIMEOUT, *, wait: bool = True):
        if configuration_error():
            raise ValueError(configuration_error())
        parent, child = socket.socketpair()
        out_r, out_w = os.pipe()
        self.sock = parent
        self.sock.settimeout(FRAME_SECONDS)  # a worker that stops reading cannot block a send
        try:
            self.proc = subprocess.Popen(
                isolation.command(ref, child.fileno(), memory=MEMORY_LIMIT, cpu=CPU_LIMIT, hidden=secret_paths()),
                pass_fds=[child.fileno()], stdin=subprocess.DEVNULL, stdout=out_w, stderr=out_w,
                start_new_session=True, close_fds=True)
        finally:
            child.close()
            os.close(out_w)
        self.output = _Output(out_r)
        self.level: str | None = None
        self.info: dict | None = None
        self.rows: int | None = None
        self.broken: str | None = None
        self._worker_pid: int | None = None
        self.clock = CallClock(self._leaf, import_timeout, what="importing the implementation")
        if wait:
            self.hello(import_timeout)

    def _leaf(self) -> int:
        """The process that runs the implementation (the supervisor's child; at the namespaces
        level the child of its init), or the deepest of them that exists yet (until the first frame
        names the level no user code has run, so no process but these exists)."""
        if self._worker_pid is not None:
            return self._worker_pid
        pid = self.proc.pid
        for _ in range(1 if self.level not in (None, isolation.STRONG) else 3):
            found = children(pid)
            if not found:
                return pid
            pid = found[0]
        if self.level is not None:
            self._worker_pid = pid
        return pid

    def _frame(self, rows: int | None = None, row_shape: tuple | None = None):
        """The next frame when one has begun to arrive, else None."""
        self.output.drain()
        if not select.select([self.sock], [], [], 0)[0]:
            return None
        return read_frame(self.sock, time.monotonic() + FRAME_SECONDS, LIMITS, rows, row_shape)

    def hello(self, timeout: float = IMPORT_TIMEOUT) -> dict:
        """Wait for the import (``timeout`` busy seconds since the start); what the worker reports.
        Raises ImplementationError, or IsolationUnavailable when it refused its level."""
        phase = "while importing the implementation"
        while self.info is None:
            try:
                frame = self._frame()
            except (EOFError, OSError, ProtocolError) as exc:
                frame, reason = None, self._death(exc, phase)
            else:
                if frame is None and self.proc.poll() is not None:  # it may write its last frame and end between
                    try:  # the two looks (a mistyped function's one-line reason, then exit): read what it wrote
                        frame = self._frame()
                    except (EOFError, OSError, ProtocolError):
                        frame = None
                reason = None if frame is not None or self.proc.poll() is None else self._death(None, phase)
            if frame is None and reason is None:
                reason = self.clock.expired()
            if reason is not None:
                self.kill()
                raise ImplementationError(reason)
            if frame is None:
                self._wait(0.1)
                continue
            try:
                self._greet(*frame)
            except (ImplementationError, isolation.IsolationUnavailable):
                self.kill()
                raise
        return self.info

    def _greet(self, kind: bytes, payload) -> None:
        if kind == b"L" and self.level is None:
            said = _json(payload)
            if not said.get("level"):
                raise isolation.IsolationUnavailable(f"--isolation strict: no namespaces here ({said.get('why')})")
            self.level = isolation.reported = str(said["level"])
            isolation.reported_why = sanitize.line(said.get("why") or "", 300)
        elif kind == b"H" and self.level is not None:
            info = _json(payload)
            raised = isolation.limits_raised([self.proc.pid, *descendants(self.proc.pid)], MEMORY_LIMIT, CPU_LIMIT)
            if raised:
                raise ImplementationError(raised)
            self.info = info
        elif kind == b"E":
            raise ImplementationError(payload.decode("utf-8", "replace"))
        else:
            raise ImplementationError(f"the worker broke the protocol while importing the implementation (frame {kind!r})")

    def submit(self, task: tuple, timeout: float) -> None:
        self.rows = int(task[2])
        self.clock = CallClock(self._leaf, timeout, calls=self.rows, batch=task[0] == "batch")
        try:
            self.sock.sendall(encode(b"T", pickle.dumps(task, protocol=pickle.HIGHEST_PROTOCOL)))
        except OSError as exc:
            self.broken = self._death(exc, "while receiving its task")

    def waitables(self) -> list:
        return [self.sock] + ([self.output.fd] if self.output.fd >= 0 else [])

    def _wait(self, timeout: float) -> None:
        select.select(self.waitables(), [], [], timeout)

    def result(self, row_shape: tuple | None = None) -> tuple[str, object] | None:
        """The task's answer, or None while it runs. ``row_shape``: the shape every output must
        have (known from earlier answers)."""
        phase = "while running the implementation"
        if self.broken is None:
            try:
                while (frame := self._frame(self.rows, row_shape)) is not None:
                    kind, payload = frame
                    if kind == b"A":
                        return "ok", payload
                    if kind == b"E":
                        return "error", payload.decode("utf-8", "replace")
                    done = PROGRESS.unpack(payload)[0] if kind == b"P" and len(payload) == PROGRESS.size else None
                    if done is None or not self.clock.progress(done):
                        raise ProtocolError(f"sent progress {done} for a task of {self.rows} calls" if kind == b"P"
                                            else f"sent a frame of kind {kind!r} while running")
            except (EOFError, OSError, ProtocolError) as exc:
                self.broken = self._death(exc, phase)
            else:
                if self.proc.poll() is not None:
                    self.broken = self._death(None, phase)
                else:
                    self.broken = self.clock.expired()
        if self.broken is None:
            return None
        self.kill()
        return "error", self.broken

    def _death(self, exc: BaseException | None, phase: str) -> str:
        if isinstance(exc, ProtocolError):
            return f"the implementation broke the worker protocol {phase}: it {exc}"
        if isinstance(exc, TimeoutError):
            return f"timed out {phase}: a frame did not arrive in full within {FRAME_SECONDS:g} s"
        try:
            code = self.proc.wait(0.5)
        except subprocess.TimeoutExpired:
            return f"the implementation closed the worker's channel {phase}"
        if code < 0:
            if -code == signal.SIGXCPU:
                return (f"the worker exceeded its CPU-time limit of {CPU_LIMIT} s (raise it with the environment "
                        "variable DPTESTBED_WORKER_CPU)")
            oom = (f"; the kernel sends it when the machine runs out of memory (a worker may use {MEMORY_LIMIT / 2**30:.3g} "
                   "GiB: DPTESTBED_WORKER_MEMORY)") if -code == signal.SIGKILL else ""
            return f"the worker process died (signal {-code}: {signal.Signals(-code).name}) {phase}{oom}"
        return f"the worker process died (exit code {code}) {phase}"

    def kill(self) -> None:
        """End the worker and everything it started. Its descendants go first, so the supervisor
        reaps them and leaves no zombie behind (a supervisor that has ended took them with it)."""
        if self.proc.poll() is None:
            kill_tree(self.proc.pid, include_root=False)
            try:
                self.proc.wait(2.0)
            except subprocess.TimeoutExpired:
                kill_tree(self.proc.pid)
                self.proc.wait()
        self.output.drain()
        self.output.close()
        self.sock.close()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.sock.sendall(encode(b"Q", b""))
                self.proc.wait(1.0)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()


def _json(payload: bytes) -> dict:
    try:
        value = json.loads(payload)
    except ValueError:
        raise ImplementationError("the worker broke the protocol: a frame that should hold JSON does not") from None
    if not isinstance(value, dict):
        raise ImplementationError("the worker broke the protocol: a frame that should hold an object does not")
    return value


# --------------------------------------------------------------------------- the worker's side


def serve(sock: socket.socket, ref: str, *, level: str, why: str) -> None:
    """The worker's loop (called by :mod:`.isolation` once the process is confined): say the level,
    import the implementation, run tasks until ``Q`` or the end of the channel; never returns."""
    from dptestbed.impl.contract import accepted_params, named_params

    for stream in (sys.stdout, sys.stderr):  # user prints reach the auditor line by line
        stream.reconfigure(line_buffering=True)
    # global generators get fresh entropy: an implementation that draws from them instead of its
    # rng neither repeats blocks across workers nor passes the contract probe
    np.random.seed(int.from_bytes(os.urandom(4), "little"))
    random.seed(os.urandom(16))
    try:
        send_frame(sock, b"L", json.dumps({"level": level, "why": why}).encode())
        try:
            impl = load_implementation(ref)
        except ImplementationError as exc:
            send_frame(sock, b"E", exc.reason.encode("utf-8"))
            return
        send_frame(sock, b"H", json.dumps({"has_batch": callable(getattr(impl, "batch", None)),
                                           "params": named_params(impl)}).encode())
        while True:
            kind, payload = read_frame(sock, None, TASK_LIMITS)
            if kind != b"T":
                return
            mode, data, n, seed, params = pickle.loads(payload)  # from the auditor: trusted
            try:
                before = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
                if mode == "batch":
                    result = run_batch(impl.batch, data, n, seed, accepted_params(impl.batch, params, positional=2),
                                       lambda done: send_frame(sock, b"P", PROGRESS.pack(done)))
                else:
                    rng = np.random.default_rng(seed)
                    kwargs = accepted_params(impl, params)
                    outs, last = [], time.monotonic()
                    for i in range(n):
                        outs.append(impl(data, rng=rng, **kwargs))
                        if time.monotonic() - last > PROGRESS_EVERY:
                            send_frame(sock, b"P", PROGRESS.pack(i + 1))
                            last = time.monotonic()
                    result = (validate_typed if mode == "typed" else validate_stack)(outs, "single-run function")
                unchanged(data, before)
                send_array(sock, result)
            except ImplementationError as exc:
                send_frame(sock, b"E", exc.reason.encode("utf-8"))
            except BaseException as exc:  # noqa: BLE001 - user code may raise anything, even SystemExit
                send_frame(sock, b"E", ImplementationError(f"raised {describe(exc)}").reason.encode("utf-8"))
    except (EOFError, OSError, ProtocolError):
        pass
    finally:
        sock.close()
        os._exit(0)  # no atexit handlers or non-daemon threads of the implementation keep it alive
