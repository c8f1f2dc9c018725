"""Randomized response (epsilon form) as the forced-response design: with probability
q = 2/(1 + e^epsilon) answer a fair coin, otherwise the true bit. Then P[report = bit] = 1 - q/2 =
e^epsilon/(1 + e^epsilon), the spec's keep probability: the same law. Two uniforms are drawn on every call
(the coin is drawn even when unused). The bit may come as 0/1, True/False or 1.0; returned as a numpy int32
scalar. Batch: the same design vectorised, int8 (N,). Law: the spec's."""
import math

import numpy as np


def rr(data, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0] != 0)
    q = 2.0 / (1.0 + math.exp(epsilon))
    u_force, u_coin = rng.random(2)
    if u_force < q:
        return np.int32(1 if u_coin < 0.5 else 0)
    return np.int32(bit)


def _batch(data, N, *, rng, epsilon):
    bit = int(np.asarray(data).reshape(-1)[0] != 0)
    q = 2.0 / (1.0 + math.exp(epsilon))
    u = rng.random((N, 2))
    out = np.where(u[:, 0] < q, (u[:, 1] < 0.5).astype(np.int8), np.int8(bit))
    return out.astype(np.int8)


rr.batch = _batch
