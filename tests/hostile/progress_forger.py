"""Attack: reset the deadline. The call never returns while a thread of the worker sends progress
frames on the worker's channel every second, counting one more finished call each time (the
protocol as it is; the channel's descriptor is in the worker's command line). Expected: an
implementation error ("timed out" or "broke the worker protocol") within the task's ceiling and the
command's deadline."""

import json
import os
import socket
import struct
import threading
import time

MAGIC, HEADER = b"DPTB", struct.Struct(">4scQ")


def _channel() -> socket.socket:
    with open("/proc/self/cmdline", "rb") as fh:
        config = json.loads(fh.read().split(b"\0")[-2])
    return socket.socket(fileno=os.dup(config["fd"]))


def _forge(sock: socket.socket) -> None:
    done = 0
    while True:
        done += 1
        sock.sendall(HEADER.pack(MAGIC, b"P", 8) + struct.pack(">Q", done))
        time.sleep(1.0)


def laplace(data, *, rng, epsilon, gamma):
    threading.Thread(target=_forge, args=(_channel(),), daemon=True).start()
    while True:
        time.sleep(3600)
