# BUG: the reported bit is the right value with the right probabilities, but a flipped bit is built as
# `not bit` (a Python bool) while a kept bit stays an int. The type tells whether the answer was flipped,
# so together with the value it reveals the true bit: (int 0) only occurs for input 0.
import numpy as np


def rr(data, *, rng, epsilon):
    bit = int(data)
    keep = np.exp(epsilon) / (1.0 + np.exp(epsilon))
    if rng.random() < keep:
        return bit
    return not bit
