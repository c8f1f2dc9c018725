"""Loading an implementation and checking what it returns: the pieces that the auditor
(:mod:`.runner`) and the sandboxed worker (:mod:`.workers`) both use.

``load_implementation(ref)`` resolves ``"package.module:function"`` or ``"path/to/file.py:function"``
to the callable (importing a user file runs that file). ``validate_batch`` and ``validate_stack``
turn what an implementation returned into one numeric array, or raise
:class:`ImplementationError`, whose ``reason`` is one line of safe text (:func:`.sanitize.line`):
an implementation's messages end up on terminals and in reports.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import pickle
import sys
import traceback
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..base import sanitize
from .cpulimit import batch_calls
from .isolation import names_a_file

REASON_LIMIT = 2000  # characters of a reason (an implementation's message can be any length)


class ImplementationError(Exception):
    """An implementation that cannot be loaded or misbehaves; ``reason`` says how (one line)."""

    def __init__(self, reason: str):
        self.reason = sanitize.line(reason, REASON_LIMIT)
        super().__init__(self.reason)


_REFS: dict[int, str] = {}
BAD_REFERENCE = "implementation "  # how the reason of a reference naming no loadable function starts


def bad_reference(reason: str) -> bool:
    """Whether an :class:`ImplementationError`'s reason says that a reference names no function (a
    mistyped path, module or name: bad usage) rather than that the implementation failed (it raised or
    died while imported: an implementation error). The reasons of :func:`load_implementation` say so by
    their first word, also when a sandboxed worker relays them."""
    return reason.startswith(BAD_REFERENCE)


def implementation_ref(impl: Callable | str) -> str:
    """The reference an implementation was loaded by, else ``module:qualname``."""
    if isinstance(impl, str):
        return impl
    ref = _REFS.get(id(impl))
    if ref:
        return ref
    return f"{getattr(impl, '__module__', '?')}:{getattr(impl, '__qualname__', repr(impl))}"


def load_implementation(ref: str) -> Callable:
    """``"pkg.module:function"`` or ``"path/to/file.py:function"`` -> the function."""
    if not isinstance(ref, str) or ":" not in ref:
        raise ImplementationError(f"implementation {ref!r}: expected 'package.module:function' or 'path/to/file.py:function'")
    target, _, name = ref.rpartition(":")
    if not name.isidentifier():
        raise ImplementationError(f"implementation {ref!r}: {name!r} is not a function name")
    if names_a_file(target):
        path = Path(target).expanduser().resolve()
        try:
            if not path.is_file():
                what = "not a regular file" if path.exists() else "no such file"
                raise ImplementationError(f"implementation {ref!r}: {what} {str(path)!r}")
            with open(path, "rb"):
                pass
        except PermissionError:
            raise ImplementationError(
                f"implementation {ref!r}: the sandbox's user may not read {str(path)!r} (run by root, the sandbox is a "
                "user of its own: make the file and its folder readable by others)") from None
        if str(path.parent) not in sys.path:  # its sibling modules import, as under `python file.py` (appended:
            sys.path.append(str(path.parent))  # a file of the folder never shadows an installed module)
        module_name = f"dptestbed_user_{path.stem}_{abs(hash(str(path))) % 10**8}"
        module_spec = importlib.util.spec_from_file_location(module_name, path)
        if module_spec is None or module_spec.loader is None:
            raise ImplementationError(f"implementation {ref!r}: {str(path)!r} is not a Python module")
        try:
            module = importlib.util.module_from_spec(module_spec)
            sys.modules[module_name] = module
            module_spec.loader.exec_module(module)
        except BaseException as exc:  # noqa: BLE001 - user code may raise anything, even SystemExit
            sys.modules.pop(module_name, None)
            raise ImplementationError(f"importing {path.name} raised {describe(exc)}") from None
    else:
        try:
            module = importlib.import_module(target)
        except ModuleNotFoundError as exc:
            if exc.name and (target == exc.name or target.startswith(exc.name + ".")):
                raise ImplementationError(f"implementation {ref!r}: cannot import module {exc.name!r}") from None
            raise ImplementationError(f"importing {target} raised {describe(exc)}") from None  # a module it imports
        except BaseException as exc:  # noqa: BLE001
            raise ImplementationError(f"importing {target} raised {describe(exc)}") from None
    fn = getattr(module, name, None)
    if fn is None:
        raise ImplementationError(f"implementation {ref!r}: {target} has no attribute {name!r}")
    if not callable(fn):
        raise ImplementationError(f"implementation {ref!r}: {name} is not callable")
    fn = rng_optional(fn)
    _REFS[id(fn)] = ref
    return fn


def _takes_rng(fn: Callable) -> bool:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return True
    return "rng" in sig.parameters or any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values())


def rng_optional(fn: Callable) -> Callable:
    """``fn`` itself when it (and its ``batch`` sampler) take ``rng``; else the same function called
    without it. An implementation that draws its own randomness (``--randomness own``, a library's
    generator) need not take an ``rng`` it never uses; with ``--randomness rng`` the contract probe
    still holds every random draw to the ``rng`` (one from elsewhere makes two runs of the same seed
    differ: "randomness not from rng"), so only a function without randomness passes it without one."""
    batch = getattr(fn, "batch", None)
    if _takes_rng(fn) and (not callable(batch) or _takes_rng(batch)):
        return fn

    def drop(f: Callable) -> Callable:
        if _takes_rng(f):
            return f

        @functools.wraps(f)
        def without_rng(*args, rng=None, **params):
            return f(*args, **params)

        return without_rng

    adapted = drop(fn)
    if callable(batch):
        adapted.batch = drop(batch)  # type: ignore[attr-defined]
    return adapted


def describe(exc: BaseException) -> str:
    """``Type: first line of the message at file.py:line`` for an exception raised by an implementation."""
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" at {Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
    try:
        text = str(exc).strip()
    except BaseException:  # noqa: BLE001 - a hostile __str__ may raise anything
        text = "(its message could not be read)"
    msg = text.splitlines()[0] if text else ""
    return f"{type(exc).__name__}{': ' + msg if msg else ''}{where}"


def validate_stack(outputs: list, where: str) -> np.ndarray:
    """Single-run outputs -> stacked numeric array, or ImplementationError."""
    try:  # numpy stacks outputs of one shape in C; anything else goes the slow way, which names the call
        fast = np.asarray(outputs)
    except Exception:  # noqa: BLE001 - ragged, or an output that refuses to be an array
        fast = None
    if fast is not None and fast.dtype.kind in "biuf" and fast.ndim >= 1 and fast.shape[0] == len(outputs):
        _check_nan(fast, where)
        return fast
    first = None
    arrays = []
    for i, out in enumerate(outputs):
        arr = _numeric(out, f"{where}, call {i + 1}")
        if first is None:
            first = arr.shape
        elif arr.shape != first:
            raise ImplementationError(f"returned outputs of different shapes {first} and {arr.shape} ({where}, call {i + 1})")
        arrays.append(arr)  # types that tell the inputs apart (a flipped bit as a bool): .probes.probe_types
    stacked = np.stack(arrays) if arrays else np.zeros((0,))
    _check_nan(stacked, where)
    return stacked


def type_code(out) -> int:
    """A code of an output's type: a Python or numpy scalar's type, an array's dtype, a list's or tuple's element
    types (:func:`.probes.probe_types` compares them across calls)."""
    if isinstance(out, np.ndarray):
        sig: tuple = ("ndarray", out.dtype.str)
    elif isinstance(out, (list, tuple)):
        sig = (type(out).__qualname__, *sorted({type(e).__qualname__ for e in out}))
    else:
        sig = (type(out).__qualname__,)
    return zlib.crc32(repr(sig).encode("utf-8", "replace"))


def validate_typed(outputs: list, where: str) -> np.ndarray:
    """:func:`validate_stack` of the outputs, flattened to one row each, with each output's :func:`type_code` as
    a last column."""
    values = validate_stack(outputs, where)
    codes = np.array([type_code(out) for out in outputs], dtype=np.float64)
    return np.column_stack([values.reshape(len(outputs), -1).astype(np.float64), codes])


def validate_batch(out, n: int, where: str) -> np.ndarray:
    """A batch sampler's outputs -> a numeric array of ``n`` outputs on axis 0, or ImplementationError."""
    arr = _numeric(out, where)
    if arr.ndim == 0 or arr.shape[0] != n:
        raise ImplementationError(f"batch sampler returned shape {arr.shape}; expected {n} outputs on axis 0 ({where})")
    _check_nan(arr, where)
    return arr


INPUT_CHANGED = ("changed its input in place (the data it was given differ after its calls): a call must leave its "
                 "input as it found it, or the calls after it, and the caller's own data, see another input")


def unchanged(data, before: bytes) -> None:
    """ImplementationError unless ``data`` still pickles to ``before`` (what it pickled to before the task ran)."""
    if pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL) != before:
        raise ImplementationError(INPUT_CHANGED)


def run_batch(batch: Callable, data, runs: int, seed: int, kwargs: dict, done: Callable[[int], None]) -> np.ndarray:
    """A worker's batch task: ``runs`` runs of the batch sampler ``batch`` in the calls of
    :func:`.cpulimit.batch_calls` (the auditor limits each), each call from a generator of its own (a
    task of one call from ``seed`` itself), ``done(runs so far)`` after each; the outputs stacked."""
    sizes = batch_calls(runs)
    seeds: list = [seed] if len(sizes) == 1 else np.random.SeedSequence(seed).spawn(len(sizes))
    parts, finished = [], 0
    for size, part_seed in zip(sizes, seeds):
        parts.append(validate_batch(batch(data, size, rng=np.random.default_rng(part_seed), **kwargs), size,
                                    "batch sampler"))
        finished += size
        done(finished)
    if len({p.shape[1:] for p in parts}) > 1:
        raise ImplementationError("batch sampler returned outputs of different shapes across calls")
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _numeric(out, where: str) -> np.ndarray:
    if out is None:
        raise ImplementationError(f"returned None ({where})")
    if isinstance(out, (str, bytes, dict, set)):
        raise ImplementationError(f"returned {type(out).__name__} {str(out)[:40]!r}; expected a number or numeric array ({where})")
    try:
        arr = np.asarray(out)
    except Exception:  # noqa: BLE001
        raise ImplementationError(f"returned {type(out).__name__}, which is not a numeric array ({where})") from None
    if arr.dtype.kind not in "biuf":
        raise ImplementationError(f"returned {type(out).__name__} of dtype {arr.dtype}; expected numbers ({where})")
    return arr


def _check_nan(arr: np.ndarray, where: str) -> None:
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ImplementationError(f"returned NaN ({where})")
