"""Where an untrusted implementation runs: the isolation of sandboxed workers (threat model and
promises per level: docs/isolation.md).

A worker is started as ``python -P -m dptestbed.audits.sandbox.confinement CONFIG`` (:func:`command`; never
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
    :func:`hide` (the output folder; every path at its real path) that lie inside; ``pivot_root``
    leaves nothing else reachable. Run by root, the sandbox's uid 0 is the run's own user on the host
    (:func:`run_user`). No network (a new network namespace has only a loopback that is down). Process 1
    of the new PID namespace is a small init of this module (never user code): when it ends,
    the kernel kills every process of the namespace however it forked, and it ends with the
    supervisor (``PR_SET_PDEATHSIG``, which user code cannot clear in another process). The
    worker itself drops every capability (bounding set, ambient, securebits locked) and sets
    ``no_new_privs``.
``unprivileged-uid``
    (root, no namespaces) the worker drops to the run's own user (:func:`run_user`), which clears
    its capabilities: it cannot write what root owns, raise its limits or signal the processes of
    this run's auditor or of any other run; it keeps a private temporary folder (``TMPDIR``) and can
    write world-writable folders, whose files of its user are removed when the run ends
    (:func:`end_run`). Orphans come back to the supervisor (a subreaper), which kills them.
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

import contextlib
import json
import os
import sys
from collections.abc import Sequence

STRONG, UID, PROCESS = "namespaces", "unprivileged-uid", "process"
DESCRIPTION = {
    STRONG: "namespaces (user, mount, PID, network; read-only file system, private /tmp, no capabilities)",
    UID: "unprivileged uid (root without namespaces: the worker runs as a user of the run's own, without "
         "capabilities)",
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

USER_BASE, USER_SPAN = 0x5D000000, 1 << 24  # the uids a run of root may take for its workers (no account's)
WORLD_WRITABLE = ("/tmp", "/var/tmp", "/dev/shm")  # where a worker at the unprivileged-uid level may leave files
# a run of root holds an exclusive lock on this file (root's, mode 0600) from the choice of its user to its end: the kernel
# releases it when the run's last process dies, however it dies, so that a later run tells a live run's user from a
# killed one's (:func:`sweep_stale`)
RUN_LOCK = "/tmp/dptestbed-run-{uid}.lock"

MODES = ("auto", "strict", "uid", "process")
_mode = "auto"
_hidden: list[str] = []
_imports: list[str] = []  # folders a worker imports a module reference from (the pytest plugin's callables)
_user: int | None = None
_lock: int | None = None  # the file descriptor holding RUN_LOCK of this run's user
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


def import_from(folders) -> None:
    """Workers started from now on find a module reference in ``folders`` too (before the current
    folder), which they may read: where the pytest plugin's callables are imported from anew."""
    for folder in folders:
        real = os.path.realpath(folder)
        if os.path.isdir(real) and real not in _imports:
            _imports.append(real)


def run_user() -> int | None:
    """When this command line runs as root, the host uid (and gid) of its workers: one of its own, that no
    account and no process has, chosen once and inherited by its forks (the items); else None (and None when
    this process's user namespace maps no such id). At the namespaces level the sandbox's uid 0 is this uid
    on the host (its processes count against their limit, root's do not), at the unprivileged-uid level the
    worker's uid: one run's workers cannot signal another's, and what they leave is found by owner
    (:func:`end_run`)."""
    global _user
    if _user is None and os.geteuid() == 0:
        import pwd
        import random

        from .proctree import user_processes

        spans = _mapped_ids()
        draw = random.SystemRandom()
        for _ in range(1000):
            lo, hi = max(spans, key=lambda span: span[1] - span[0], default=(0, 0))
            if (lo, hi) != (0, 0) and lo <= USER_BASE and USER_BASE + USER_SPAN <= hi:
                lo, hi = USER_BASE, USER_BASE + USER_SPAN
            lo = max(lo, min(hi - 1, 1000))  # (above the system's accounts when it can)
            if hi <= lo:
                break
            uid = draw.randrange(lo, hi)
            if uid in (65534, 65535):
                continue
            try:
                pwd.getpwuid(uid)
            except KeyError:
                if not user_processes(uid) and _hold_lock(uid):
                    _user = uid
                    _end_at_exit(os.getpid())
                    sweep_stale()
                    break
    return _user


def _hold_lock(uid: int) -> bool:
    """Create and lock :data:`RUN_LOCK` of ``uid`` (False when it exists: another run's, or a stale one's)."""
    import fcntl

    global _lock
    try:
        fd = os.open(RUN_LOCK.format(uid=uid), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except OSError:
        return False
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    _lock = fd
    return True


def _has_account(uid: int) -> bool:
    """Whether ``uid`` is an account's (a run never takes one: its files are never a run's leftovers)."""
    import pwd

    try:
        pwd.getpwuid(uid)
    except KeyError:
        return False
    return True


def _run_alive(uid: int) -> bool:
    """Whether a run holds the lock of ``uid`` (:data:`RUN_LOCK`); a lock file nobody holds is removed."""
    import fcntl

    path = RUN_LOCK.format(uid=uid)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(path)
    return False


STALE_SECONDS = 60.0  # what a killed run left is removed when no entry of its user is younger than this


def sweep_stale(folders: Sequence[str] = WORLD_WRITABLE) -> list[int]:
    """What earlier runs of root left when they were killed before :func:`end_run` (SIGKILL of the command line):
    the entries in ``folders`` (and in the world-writable folders below them) and the System V IPC objects of a run's
    user (:data:`USER_BASE`, no account's) that no process has, when none of its entries is younger than :data:`STALE_SECONDS` (a
    run starting beside this one); the uids swept."""
    import time

    from .proctree import process_uids

    alive = set().union(*process_uids().values())
    newest: dict[int, float] = {}

    def owners(folder: str) -> None:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if USER_BASE <= info.st_uid < USER_BASE + USER_SPAN and info.st_uid not in alive and info.st_uid != _user:
                newest[info.st_uid] = max(newest.get(info.st_uid, 0.0), info.st_mtime)
            elif entry.is_dir(follow_symlinks=False) and info.st_mode & 0o002:
                owners(entry.path)

    for top in folders:
        owners(top)
    swept = [uid for uid, when in newest.items()
             if time.time() - when > STALE_SECONDS and not _has_account(uid) and not _run_alive(uid)]
    for uid in swept:
        for top in folders:
            _remove_owned(top, uid)
        _remove_ipc(uid)
    return swept


def _end_at_exit(pid: int) -> None:
    """:func:`end_run` when the process that chose the run's user exits (a Python-API run, a test session:
    the command line ends its run itself), never in a fork of it that exits through Python: an item's
    process must not kill the workers of the items beside it."""
    import atexit

    def at_exit() -> None:
        if os.getpid() == pid:
            end_run()

    atexit.register(at_exit)


def _mapped_ids() -> list[tuple[int, int]]:
    """The ranges [lo, hi) of ids that are both uids and gids of this process's user namespace."""
    def spans(name: str) -> list[tuple[int, int]]:
        try:
            with open(f"/proc/self/{name}") as fh:
                rows = [row.split() for row in fh]
            return [(int(r[0]), int(r[0]) + int(r[2])) for r in rows if len(r) == 3]
        except (OSError, ValueError):
            return [(0, 1 << 32)] if not sys.platform.startswith("linux") else []

    return [(max(a, c), min(b, d)) for a, b in spans("uid_map") for c, d in spans("gid_map") if max(a, c) < min(b, d)]


def end_run() -> None:
    """After a run of root: every process of its user killed, and what that user left in the world-writable
    folders (:data:`WORLD_WRITABLE`) removed; a no-op otherwise."""
    if _user is None:
        return
    from .proctree import kill_user

    kill_user(_user)
    for top in WORLD_WRITABLE:
        _remove_owned(top, _user)
    _remove_ipc(_user)
    with contextlib.suppress(OSError):
        os.unlink(RUN_LOCK.format(uid=_user))


def _remove_ipc(uid: int) -> None:
    """Remove the System V shared memory segments, message queues and semaphore sets that ``uid`` owns (they
    outlive their processes; a namespaced worker has an IPC namespace of its own)."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return
    remove = {"shm": lambda i: libc.shmctl(i, 0, None), "msg": lambda i: libc.msgctl(i, 0, None),
              "sem": lambda i: libc.semctl(i, 0, 0)}  # IPC_RMID
    for kind, rm in remove.items():
        try:
            with open(f"/proc/sysvipc/{kind}") as fh:
                header, *rows = [row.split() for row in fh]
            column, ident = header.index("uid"), header.index({"shm": "shmid", "msg": "msqid", "sem": "semid"}[kind])
        except (OSError, ValueError):
            continue
        for row in rows:
            if len(row) > column and row[column] == str(uid):
                rm(int(row[ident]))


def _remove_owned(folder: str, uid: int) -> None:
    """Remove the entries below ``folder`` that ``uid`` owns, looking only where it could have made one
    (folders anyone may write to); symbolic links are removed, never followed."""
    import shutil

    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if info.st_uid == uid:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
        elif entry.is_dir(follow_symlinks=False) and info.st_mode & 0o002:
            _remove_owned(entry.path, uid)


def summary() -> str:
    """The level of this process's workers as the output states it."""
    if reported is None:
        return "none (a trusted reference implementation, run by the auditor)"
    return DESCRIPTION[reported] + (f"; namespaces not used: {reported_why}" if reported != STRONG else "")


def _inside(path: str, folder: str) -> bool:
    return (path.rstrip("/") + "/").startswith(folder.rstrip("/") + "/")


_staged: dict[str, str] = {}  # a real implementation file -> its copy readable by the sandbox's user


def staged(path: str) -> str:
    """The implementation file the worker loads: ``path`` itself, or, run by root (the sandbox's user is then an
    unprivileged one) when that user could not read it or enter its folder (a private temporary folder, mode
    0700), a copy made once a run: the Python files of its folder, readable by others, in a folder of their own
    removed when the run ends. What the user sees and what is signed stay the file's own name and content."""
    folder = os.path.dirname(path)
    try:
        readable = os.stat(path).st_mode & 0o004 and os.stat(folder).st_mode & 0o001
    except OSError:
        return path  # the worker reports what is wrong with it
    if readable or os.geteuid() != 0 or _mode == "process":
        return path
    if path not in _staged:
        import atexit
        import shutil
        import tempfile

        copy = tempfile.mkdtemp(prefix="dptestbed-implementation-")
        atexit.register(shutil.rmtree, copy, ignore_errors=True)
        for entry in os.scandir(folder):
            if entry.name.endswith(".py") and entry.is_file(follow_symlinks=False):
                shutil.copyfile(entry.path, os.path.join(copy, entry.name))
                os.chmod(os.path.join(copy, entry.name), 0o644)
        os.chmod(copy, 0o755)
        _staged[path] = os.path.join(copy, os.path.basename(path))
    return _staged[path]


def names_a_file(target: str) -> bool:
    """Whether the target of a reference ``TARGET:function`` is a file (``path/to/file.py``), not a module."""
    return target.endswith(".py") or "/" in target or os.sep in target


def command(ref: str, fd: int, *, memory: int, cpu: int, hidden: Sequence[str] = ()) -> list[str]:
    """The command line that starts a sandboxed worker for ``ref`` talking on the inherited ``fd``.
    Every path in it is real (symbolic links and relative names resolved): the worker's root binds
    folders at their real paths, so a path is masked there only under its real name. A hidden folder
    that holds a folder the worker reads is not masked (what it reads stays readable), but a hidden
    file always is (the signing key in the implementation's own folder)."""
    target, _, name = ref.rpartition(":")
    is_file = names_a_file(target)
    cwd = os.getcwd()
    if is_file:
        ref = staged(os.path.realpath(os.path.expanduser(target))) + ":" + name
        target = ref.rpartition(":")[0]
    read = [os.path.dirname(target) if is_file else cwd]
    if not is_file:
        read += _imports
    read += [os.path.realpath(p) for p in os.environ.get(READ_ENV, "").split(os.pathsep) if p]
    masks = []
    for path in dict.fromkeys(os.path.realpath(os.path.expanduser(h)) for h in [*_hidden, *hidden]):
        if not (os.path.isdir(path) and any(_inside(r, path) for r in read)):
            masks.append(path)
    config = {"ref": ref, "fd": fd, "parent": os.getpid(), "mode": _mode, "memory": int(memory),
              "cpu": int(cpu), "read": read, "hidden": masks, "cwd": cwd, "user": run_user(),
              "path": [] if is_file else _imports}
    return [sys.executable, "-P", "-m", "dptestbed.audits.sandbox.confinement", json.dumps(config)]


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
