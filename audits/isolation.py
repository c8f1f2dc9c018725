"""Where an untrusted implementation runs: the isolation of sandboxed workers (threat model and
promises per level: docs/isolation.md).

A worker is started as ``python -P -m dptestbed.audits.confinement CONFIG`` (:func:`command`; never
with a ``preexec_fn``). That process, the *supervisor*, runs only that module's code (the worker's side;
this module is the auditor's): it sets its
own limits (address space, CPU time, no core files), becomes a subreaper, and asks for a signal
when its parent dies (``PR_SET_PDEATHSIG``), on which it kills every process below it before it
ends. Then it starts the worker at the strongest level the system allows:

``namespaces``
    a child enters new user, mount, PID, network, IPC and UTS namespaces (``unshare(2)``) and
    builds a new root file system: a read-only bind of what Python needs (the system's /usr,
    /lib, /etc without its secrets, the interpreter's prefixes, every ``sys.path`` entry, the
    packages of dptestbed, the implementation's folder), a private /tmp and /dev/shm (tmpfs), a
    /dev of five harmless devices, a fresh /proc, and empty folders over the paths given to
    :func:`hide` (the output folder) that lie inside; ``pivot_root`` leaves nothing else
    reachable. No network (a new network namespace has only a loopback that is down). Process 1
    of the new PID namespace is a small init of this module (never user code): when it ends,
    the kernel kills every process of the namespace however it forked, and it ends with the
    supervisor (``PR_SET_PDEATHSIG``, which user code cannot clear in another process). The
    worker itself drops every capability (bounding set, ambient, securebits locked) and sets
    ``no_new_privs``.
``unprivileged-uid``
    (root, no namespaces) the worker drops to the user ``nobody``, which clears its
    capabilities: it cannot write what root owns, raise its limits or signal the run's other
    processes; it keeps a private temporary folder (``TMPDIR``) and can write world-writable
    folders. Orphans come back to the supervisor (a subreaper), which kills them.
``process``
    (neither) a process of the same user with the limits above and ``no_new_privs``: bounded in
    time and memory and killed with the run, but not confined.

``--isolation`` (:func:`require`, one of :data:`MODES`): ``auto`` (default) takes the strongest
level; ``strict`` makes a worker refuse to start below ``namespaces`` (the auditor then raises
:class:`IsolationUnavailable`, a usage error, not the implementation's); ``uid`` and ``process``
lower the level on purpose (an implementation that needs what namespaces hide), ``uid`` meaning the
unprivileged-uid level when root and the process level otherwise.
The first frame a worker sends, before user code is imported, names its level (:data:`reported`
in the auditor's process).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence

STRONG, UID, PROCESS = "namespaces", "unprivileged-uid", "process"
DESCRIPTION = {
    STRONG: "namespaces (user, mount, PID, network; read-only file system, private /tmp, no capabilities)",
    UID: "unprivileged uid (root without namespaces: the worker runs as nobody, without capabilities)",
    PROCESS: "process only (no namespaces, no unprivileged uid: limits and no_new_privs; the file system is not "
             "protected)",
}
TMP_SIZE = "512m"       # the private /tmp of a namespaced worker
SHM_SIZE = "64m"
NPROC_LIMIT = 4096      # processes and threads of a confined worker's user
DEV_NODES = ("null", "zero", "full", "random", "urandom")
SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/sys/devices/system/cpu")
SECRETS = ("/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers", "/etc/sudoers.d",
           "/etc/ssh", "/etc/ssl/private", "/etc/security")
READ_ENV = "DPTESTBED_SANDBOX_READ"  # further folders a worker may read, os.pathsep-separated

MODES = ("auto", "strict", "uid", "process")
_mode = "auto"
_hidden: list[str] = []
reported: str | None = None  # the level of the last worker that started in this process
reported_why = ""  # why it is not the strongest


class IsolationUnavailable(RuntimeError):
    """``--isolation strict`` asked for namespaces and the system does not allow them."""


def require(mode: str) -> None:
    """The ``--isolation`` mode of the workers started from now on (in this process and its forks)."""
    global _mode
    if mode not in MODES:
        raise ValueError(f"isolation mode {mode!r}: choose one of {', '.join(MODES)}")
    _mode = mode


def hide(path) -> None:
    """Workers started from now on cannot see ``path`` (the output folder) at the namespaces level."""
    real = os.path.realpath(path)
    if real not in _hidden:
        _hidden.append(real)


def summary() -> str:
    """The level of this process's workers as the output states it."""
    if reported is None:
        return "none (a trusted reference implementation, run by the auditor)"
    return DESCRIPTION[reported] + (f"; namespaces not used: {reported_why}" if reported != STRONG else "")


def _inside(path: str, folder: str) -> bool:
    return (path.rstrip("/") + "/").startswith(folder.rstrip("/") + "/")


def command(ref: str, fd: int, *, memory: int, cpu: int, hidden: Sequence[str] = ()) -> list[str]:
    """The command line that starts a sandboxed worker for ``ref`` talking on the inherited ``fd``.
    Every path in it is real (symbolic links and relative names resolved): the worker's root binds
    folders at their real paths, so a path is masked there only under its real name. A hidden folder
    that holds a folder the worker reads is not masked (what it reads stays readable), but a hidden
    file always is (the signing key in the implementation's own folder)."""
    target = ref.rpartition(":")[0]
    is_file = target.endswith(".py") or "/" in target or os.sep in target
    cwd = os.getcwd()
    read = [os.path.dirname(os.path.realpath(os.path.expanduser(target))) if is_file else cwd]
    read += [os.path.realpath(p) for p in os.environ.get(READ_ENV, "").split(os.pathsep) if p]
    masks = []
    for path in dict.fromkeys(os.path.realpath(os.path.expanduser(h)) for h in [*_hidden, *hidden]):
        if not (os.path.isdir(path) and any(_inside(r, path) for r in read)):
            masks.append(path)
    config = {"ref": ref, "fd": fd, "parent": os.getpid(), "mode": _mode, "memory": int(memory),
              "cpu": int(cpu), "read": read, "hidden": masks, "cwd": cwd}
    return [sys.executable, "-P", "-m", "dptestbed.audits.confinement", json.dumps(config)]


def limits_raised(pids: list[int], memory: int, cpu: int) -> str | None:
    """Why a worker's processes are refused: one of them has an address-space or CPU-time limit
    above the sandbox's (read from /proc/PID/limits), else None."""
    wanted = {"Max address space": memory, "Max cpu time": cpu + 5}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/limits") as fh:
                rows = fh.read().splitlines()
        except OSError:
            continue
        for row in rows:
            for name, most in wanted.items():
                if row.startswith(name):
                    values = row[len(name):].split()[:2]
                    if any(v == "unlimited" or int(v) > most for v in values):
                        return f"the implementation raised its {name.lower()} limit above the sandbox's ({most})"
    return None
