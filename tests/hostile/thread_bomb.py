"""Attack: more processes than the sandbox allows. On its first call the implementation starts threads
(small stacks, so that memory is not what stops them) until one fails or 4,600 run, and raises an
exception that says how many it started. A worker that keeps root's uid on the host is exempt from the
limit of 4,096 processes and threads. Expected: an implementation error saying at most 4,096."""

import threading

_started: list[int] = []


def laplace(data, *, rng, epsilon, gamma):
    if not _started:
        threading.stack_size(1 << 16)
        stop, n = threading.Event(), 0
        try:
            while n < 4600:
                threading.Thread(target=stop.wait, daemon=True).start()
                n += 1
        except RuntimeError:  # "can't start new thread"
            pass
        _started.append(n)
        stop.set()
    raise ValueError(f"started {_started[0]} threads")
