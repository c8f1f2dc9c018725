"""The worker's side of the isolation (:mod:`.isolation` describes the levels and is the auditor's
side): the supervisor a sandboxed worker starts as (``python -P -m dptestbed.audits.sandbox.confinement
CONFIG``), the namespaces, the new root, the small init of the PID namespace, the dropped privileges,
and then the worker that imports the implementation and serves the auditor (:func:`.workers.serve`)."""

from __future__ import annotations

import ctypes
import json
import os
import platform  # (imported before the sandbox's user may no longer read the standard library's folder)
import select
import signal
import sys
import time

from .isolation import (
    DEV_NODES,
    NPROC_LIMIT,
    PROCESS,
    SECRETS,
    SHM_SIZE,
    STRONG,
    SYSTEM_PATHS,
    TMP_SIZE,
    UID,
    names_a_file,
)
from .proctree import PR_SET_PDEATHSIG, become_subreaper, kill_descendants, prctl

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
MNT_DETACH = 2
MOUNT_ATTR_RDONLY, MOUNT_ATTR_NOSUID, MOUNT_ATTR_NODEV = 0x1, 0x2, 0x4
AT_FDCWD, AT_RECURSIVE = -100, 0x8000
SYS_MOUNT_SETATTR = 442  # the same on every architecture (added after the tables were unified)
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "arm64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}
PR_SET_SECUREBITS, PR_CAPBSET_DROP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 28, 24, 47, 4
PR_SET_NO_NEW_PRIVS = 38
SECUREBITS_LOCKED = 0xEF  # noroot, no setuid fixup, keep caps locked off, no ambient raise; all locked
CAPABILITY_VERSION_3 = 0x20080522
_MOUNT_OPTIONS = {"nosuid": MS_NOSUID, "nodev": MS_NODEV, "noexec": MS_NOEXEC, "noatime": 1024,
                  "nodiratime": 2048, "relatime": 1 << 21}


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"{what}: {os.strerror(code)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    source_, target_, fstype_, data_ = (None if s is None else s.encode() for s in (source, target, fstype, data))
    _check(_libc().mount(source_, target_, fstype_, ctypes.c_ulong(flags), data_), f"mount {target}")


def _syscall(number: int, *args) -> int:
    return _libc().syscall(ctypes.c_long(number), *args)


class _MountAttr(ctypes.Structure):
    _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64), ("propagation", ctypes.c_uint64),
                ("userns_fd", ctypes.c_uint64)]


def _readonly(target: str) -> None:
    """``target`` and every mount below it read-only, without setuid or devices
    (``mount_setattr``, Linux 5.12; before it, a bind remount of each mount, keeping its locked flags)."""
    attr = _MountAttr(MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0, 0, 0)
    if _syscall(SYS_MOUNT_SETATTR, ctypes.c_int(AT_FDCWD), target.encode(), ctypes.c_uint(AT_RECURSIVE),
                ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr))) == 0:
        return
    with open("/proc/self/mountinfo") as fh:
        mounts = [row.split() for row in fh]
    for fields in mounts:
        point = fields[4].encode().decode("unicode_escape")
        if point == target or point.startswith(target.rstrip("/") + "/"):
            flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV
            flags |= sum(_MOUNT_OPTIONS.get(opt, 0) for opt in fields[5].split(","))
            _mount(None, point, None, flags)


def _pivot_root(new: str, old: str) -> None:
    number = SYS_PIVOT_ROOT.get(platform.machine())
    if number is None:
        raise OSError(38, f"pivot_root: unknown system call number on {platform.machine()}")
    _check(_syscall(number, new.encode(), old.encode()), "pivot_root")


def _guard_parent(parent: int | None, life: int | None = None, sig: int = signal.SIGKILL) -> None:
    """Die with the parent: PR_SET_PDEATHSIG ``sig``, then exit at once if it is gone already
    (``parent``: its pid; ``life``: a pipe only the parent holds open, for a parent in another PID
    namespace)."""
    prctl(PR_SET_PDEATHSIG, sig)
    if parent is not None and os.getppid() != parent:
        os._exit(1)
    if life is not None and select.select([life], [], [], 0)[0]:
        os._exit(1)


def _orphaned(signum, frame) -> None:
    """The supervisor's parent died: end the worker and everything it started (it may have cleared
    its own death signal), then this process."""
    kill_descendants()
    os._exit(1)


def _set_limits(memory: int, cpu: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))  # SIGXCPU, then SIGKILL 5 s later
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _exit_like(status: int):
    """End this process as a child with wait status ``status`` ended (same signal or exit code)."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)  # a signal that does not end a process (or init, which ignores its own)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def main(argv: list[str]) -> None:
    """The supervisor (see the module docstring)."""
    cfg = json.loads(argv[0])
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the auditor decides when a worker stops
    signal.signal(signal.SIGUSR1, _orphaned)
    _guard_parent(cfg["parent"], sig=signal.SIGUSR1)
    _set_limits(cfg["memory"], cfg["cpu"])
    become_subreaper()
    me, level, tmp = os.getpid(), None, None
    why = f"--isolation {cfg['mode']}" if sys.platform.startswith("linux") else "not Linux"
    status_r, pipe_w = os.pipe()
    status_w: int | None = pipe_w
    if sys.platform.startswith("linux") and cfg["mode"] in ("auto", "strict"):
        go_r, go_w = os.pipe()  # the supervisor's answer once it wrote the child's id maps
        child = os.fork()
        if child == 0:
            os.close(status_r)
            os.close(go_w)
            _namespaced(cfg, pipe_w, me, go_r)
        os.close(go_r)
        word = _read_line(status_r, pipe_w)
        status_w = None
        if word == "map":  # root: the sandbox's uid 0 is the run's own user on the host
            word = _map_ids(child, cfg["user"], go_w) or _read_line(status_r)
        os.close(go_w)
        if word == "ok":
            level = STRONG
        else:
            os.waitpid(child, 0)
            why = word or "the namespace set-up ended without a word"
    if status_w is not None:
        os.close(status_w)
    if level is None:
        if cfg["mode"] == "strict":
            from .workers import send_frame

            send_frame(_channel(cfg), b"L", json.dumps({"level": None, "why": why}).encode())
            os._exit(1)
        import shutil
        import tempfile

        level = UID if os.geteuid() == 0 and cfg["mode"] != "process" else PROCESS
        tmp = tempfile.mkdtemp(prefix="dptestbed-sandbox-") if level == UID else None
        child = os.fork()
        if child == 0:
            os.close(status_r)
            _worker(cfg, level, why, tmp, me)
    os.close(cfg["fd"])
    _, status = os.waitpid(child, 0)
    if level == STRONG:  # init wrote the worker's own wait status
        status = int(_read_line(status_r).partition("exit ")[2] or status)
    kill_descendants()  # orphans of a worker without a PID namespace came back here
    _reap_children()
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    _exit_like(status)


def _reap_children(seconds: float = 1.0) -> None:
    """Wait for the children this supervisor adopted (killed orphans), so that none is left a zombie."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            time.sleep(0.01)


def _channel(cfg):
    import socket

    return socket.socket(fileno=cfg["fd"])


def _read_line(fd: int, close: int | None = None) -> str:
    """One line from the pipe ``fd`` ("" at its end); ``close``: this process's copy of the write end,
    closed first so that the end is seen when every writer is gone."""
    if close is not None:
        os.close(close)
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(fd, 1)
        if not chunk:
            break
        data += chunk
    return data.decode("utf-8", "replace").strip()


def _map_ids(child: int, user: int, go_w: int) -> str | None:
    """(The supervisor, as root.) Map the namespaced ``child``'s uid and gid 0 to ``user`` on the host, then
    let it go on; why not, or None."""
    try:
        for name in ("uid_map", "gid_map"):
            with open(f"/proc/{child}/{name}", "w") as fh:
                fh.write(f"0 {user} 1")
        os.write(go_w, b"1")
    except OSError as exc:
        return f"mapping the sandbox's user: {exc.strerror or exc}"
    return None


def _namespaced(cfg: dict, status_w: int, supervisor: int, go_r: int) -> None:
    """The child that enters the new namespaces and builds the root; its child is init. Run by root, it
    drops its groups, has the supervisor map its uid 0 to the run's own user (:func:`.isolation.run_user`),
    and opens what the root binds before it becomes that user, who may not look inside root's folders."""
    signal.signal(signal.SIGUSR1, signal.SIG_DFL)
    _guard_parent(supervisor)
    try:
        uid, gid = os.geteuid(), os.getegid()
        user = cfg.get("user") if uid == 0 else None
        if user is not None:
            os.setgroups([])
        _check(_libc().unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC
                               | CLONE_NEWUTS), "unshare")
        paths = _paths(cfg)  # resolved (and then opened) while this process is still its user on the host
        if user is None:
            for name, text in (("setgroups", "deny"), ("uid_map", f"0 {uid} 1"), ("gid_map", f"0 {gid} 1")):
                with open(f"/proc/self/{name}", "w") as fh:
                    fh.write(text)
            sources = None
        else:
            sources = {real: os.open(real, os.O_PATH | os.O_CLOEXEC) for _, real in paths}
            os.write(status_w, b"map\n")
            if os.read(go_r, 1) != b"1":
                os._exit(1)
            os.setresgid(0, 0, 0)
            os.setresuid(0, 0, 0)
        os.close(go_r)
        _build_root(cfg, paths, sources)
    except OSError as exc:
        os.write(status_w, f"{exc.strerror or exc}\n".encode())
        os._exit(1)
    life_r, life_w = os.pipe()
    init = os.fork()
    if init == 0:
        os.close(life_w)
        _init(cfg, status_w, life_r)
    for fd in (status_w, life_r, cfg["fd"]):
        os.close(fd)
    _, status = os.waitpid(init, 0)
    _exit_like(status)


def _paths(cfg: dict) -> list[tuple[str, str]]:
    """(path, real path) of everything a namespaced worker may read, outermost first, none below another."""
    import importlib.util

    wanted = [*cfg["read"], *SYSTEM_PATHS, sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix,
              os.path.dirname(os.path.realpath(sys.executable)), *(p for p in sys.path if p)]
    for name in ("dptestbed", "dptestbed.spec", "dptestbed.impl", "dptestbed.audits"):
        found = importlib.util.find_spec(name)
        for location in (found.submodule_search_locations or []) if found else []:
            wanted += [location, *_link_targets(location)]
    wanted += [target for p in sys.path if p for target in _linked_entries(p)]
    chosen: list[tuple[str, str]] = []
    for path in sorted({os.path.abspath(p) for p in wanted}):
        if path == "/" or not os.path.exists(path):
            continue
        real = os.path.realpath(path)
        if real == "/" or any((path + "/").startswith(p + "/") for p, _ in chosen):
            continue
        chosen.append((path, real))
    return chosen


def _link_targets(folder: str) -> set[str]:
    """The folders that the symbolic links below ``folder`` point into: a package installed as a tree
    of links (setuptools' strict editable mode) is read through them."""
    found = set()
    for top, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in dirs + files:
            path = os.path.join(top, name)
            if os.path.islink(path):
                real = os.path.realpath(path)
                found.add(real if os.path.isdir(real) else os.path.dirname(real))
    return found


def _linked_entries(folder: str) -> list[str]:
    """Where the links directly in an import folder point: a site-packages whose distributions are
    links to another environment's files (a venv assembled from links, a Nix-like store)."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    return [os.path.realpath(e.path) for e in entries if e.is_symlink()]


def _mask(target: str, null: str) -> None:
    if os.path.isdir(target):
        _mount("tmpfs", target, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0755")
    elif os.path.exists(target):
        _mount(null, target, None, MS_BIND)


def _build_root(cfg: dict, paths: list[tuple[str, str]], sources: dict[str, int] | None) -> None:
    """The new root (module docstring), built bwrap-style: a tmpfs base becomes the root with the
    old one under /old, and the new root is assembled under /new from /old (:func:`_enter_root` then
    makes it the root and detaches the old one). ``paths``: :func:`_paths`; ``sources``: a descriptor
    (O_PATH) of each real path, opened by root, to bind it through /proc (the sandbox's user may not
    pass root's folders on the way to it), or None."""
    binds = sorted({real for _, real in paths})
    binds = [r for i, r in enumerate(binds) if not any((r + "/").startswith(q + "/") for q in binds[:i])]
    links = [(p, real) for p, real in paths if p != real]
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    _mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0700")
    for name in ("old", "new"):
        os.mkdir(f"/tmp/{name}")
    os.chdir("/tmp")
    _pivot_root(".", "old")
    os.chdir("/")
    new = "/new"
    _mount("tmpfs", new, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
    os.mkdir(new + "/tmp")  # the private /tmp first: a folder bound below it lies on top of it
    _mount("tmpfs", new + "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, f"size={TMP_SIZE},mode=1777")
    for real in binds:
        source = "/old" + real if sources is None else f"/old/proc/self/fd/{sources[real]}"
        target = new + real
        if os.path.isdir(source):
            os.makedirs(target, mode=0o755, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
            open(target, "w").close()
        _mount(source, target, None, MS_BIND | MS_REC)
        _readonly(target)
    for fd in (sources or {}).values():
        os.close(fd)
    for path, real in links:
        if not os.path.lexists(new + path):
            os.makedirs(os.path.dirname(new + path), mode=0o755, exist_ok=True)
            os.symlink(real, new + path)
    dev = new + "/dev"
    os.makedirs(dev, exist_ok=True)
    _mount("tmpfs", dev, "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,mode=0755")
    for node in DEV_NODES:
        open(f"{dev}/{node}", "w").close()
        _mount(f"/old/dev/{node}", f"{dev}/{node}", None, MS_BIND)
    for k, name in enumerate(("stdin", "stdout", "stderr")):
        os.symlink(f"/proc/self/fd/{k}", f"{dev}/{name}")
    os.symlink("/proc/self/fd", f"{dev}/fd")
    os.mkdir(f"{dev}/shm")
    _mount("tmpfs", f"{dev}/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, f"size={SHM_SIZE},mode=1777")
    _mount(None, dev, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC)
    os.makedirs(new + "/proc", exist_ok=True)
    for path in [*cfg["hidden"], *SECRETS]:
        _mask(new + path, f"{dev}/null")
    os.mkdir(new + "/.old")


def _enter_root(cfg: dict) -> None:
    """In init (a new /proc belongs to a process of the new PID namespace, and the kernel mounts one
    only while a complete /proc is still in view): mount /proc in the new root, make the new root the
    root, detach the old one."""
    try:
        _mount("proc", "/new/proc", "proc", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)
    except OSError:  # a container that masks parts of its /proc forbids a new one: hide it instead
        _mount("tmpfs", "/new/proc", "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k")
    os.chdir("/new")
    _pivot_root(".", ".old")
    os.chdir("/")
    _check(_libc().umount2(b"/.old", MNT_DETACH), "umount /.old")
    os.rmdir("/.old")
    _mount(None, "/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    os.chdir(cfg["cwd"] if os.path.isdir(cfg["cwd"]) else "/")


def _init(cfg: dict, status_w: int, life_r: int) -> None:
    """Process 1 of the PID namespace: enters the new root (:func:`_enter_root`), starts the worker,
    reaps, and ends when the worker ends (which ends every other process of the namespace), writing
    the worker's wait status."""
    _guard_parent(None, life_r)
    try:
        _enter_root(cfg)
    except OSError as exc:
        os.write(status_w, f"{exc.strerror or exc}\n".encode())
        os._exit(1)
    os.write(status_w, b"ok\n")
    worker = os.fork()
    if worker == 0:
        os.close(status_w)
        _worker(cfg, STRONG, "", None, None)
    os.close(cfg["fd"])
    while True:
        pid, status = os.waitpid(-1, 0)
        if pid == worker:
            os.write(status_w, f"exit {status}\n".encode())
            os._exit(0)


def _drop_capabilities() -> None:
    """No capability left, none to regain (bounding set, ambient set, securebits locked), no_new_privs."""
    prctl(PR_SET_SECUREBITS, SECUREBITS_LOCKED)
    try:
        with open("/proc/sys/kernel/cap_last_cap") as fh:
            last = int(fh.read())
    except (OSError, ValueError):
        last = 63
    for cap in range(last + 1):
        prctl(PR_CAPBSET_DROP, cap)
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    header = (ctypes.c_uint32 * 2)(CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(_libc().capset(ctypes.byref(header), ctypes.byref(data)), "capset")


def _drop_to(user: int | None, tmp: str) -> None:
    """Become the run's own user ``user`` (:func:`.isolation.run_user`; else nobody), owner of ``tmp``: every
    uid non-zero, so the capabilities are cleared."""
    import pwd

    if user is None:
        try:
            entry = pwd.getpwnam("nobody")
            user, gid = entry.pw_uid, entry.pw_gid
        except KeyError:
            user = gid = 65534
    else:
        gid = user
    os.chown(tmp, user, gid)
    os.environ["TMPDIR"] = tmp
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(user, user, user)


def _worker(cfg: dict, level: str, why: str, tmp: str | None, supervisor: int | None) -> None:
    """The process that imports and runs the implementation, once everything the worker itself needs
    is imported (the unprivileged user may not read the interpreter's files) and its privileges are
    dropped. ``supervisor``: its parent, outside a PID namespace (inside one, init ends it)."""
    signal.signal(signal.SIGUSR1, signal.SIG_DFL)
    import resource

    import numpy.random  # noqa: F401 - numpy imports it lazily, and it reads the standard library

    from . import workers as sandbox  # numpy, the protocol and the contract checks

    if level == UID and tmp is not None:  # the supervisor made tmp for this level
        try:
            _drop_to(cfg.get("user"), tmp)
            resource.setrlimit(resource.RLIMIT_NPROC, (NPROC_LIMIT, NPROC_LIMIT))
        except OSError as exc:  # no such user in a user namespace, no CAP_SETUID: the process level
            level, why = PROCESS, f"{why}; no unprivileged uid: {exc.strerror or exc}"
    try:
        if level == STRONG:
            resource.setrlimit(resource.RLIMIT_NPROC, (NPROC_LIMIT, NPROC_LIMIT))
        if level != UID and (level == STRONG or os.geteuid() == 0):
            _drop_capabilities()
        prctl(PR_SET_NO_NEW_PRIVS, 1)
    except OSError as exc:
        sandbox.send_frame(_channel(cfg), b"L", json.dumps({"level": None, "why": f"dropping privileges: {exc}"}).encode())
        os._exit(1)
    if supervisor is not None:
        _guard_parent(supervisor)  # after the uid changed, which clears the death signal
    target = cfg["ref"].rpartition(":")[0]
    if not names_a_file(target):
        # a module reference is found where the auditor says (the pytest plugin's), then from the current folder
        sys.path[0:0] = [*cfg.get("path", []), cfg["cwd"]]
    sandbox.serve(_channel(cfg), cfg["ref"], level=level, why=why)


if __name__ == "__main__":
    main(sys.argv[1:])
