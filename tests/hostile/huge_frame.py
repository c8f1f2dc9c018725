"""Attack: choose the auditor's memory. The implementation writes, on the worker's channel, the
header of an array frame announcing 8 GiB of float64 outputs, then sleeps. Expected: an
implementation error ("broke the worker protocol"), nothing allocated, no traceback."""

import json
import os
import socket
import struct
import time

MAGIC, HEADER, META = b"DPTB", struct.Struct(">4scQ"), struct.Struct(">I")


def laplace(data, *, rng, epsilon, gamma):
    with open("/proc/self/cmdline", "rb") as fh:
        config = json.loads(fh.read().split(b"\0")[-2])
    sock = socket.socket(fileno=os.dup(config["fd"]))
    meta = json.dumps({"dtype": "<f8", "shape": [1 << 30]}).encode()
    sock.sendall(HEADER.pack(MAGIC, b"A", META.size + len(meta) + (8 << 30)) + META.pack(len(meta)) + meta)
    time.sleep(3600)
