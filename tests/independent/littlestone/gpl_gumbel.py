"""GenericLearner via Gumbel-max over the scores -eps * err_S(h)/2, errors counted with a Python loop.

VALID VARIANT: same law as the softmax.
"""
import numpy as np


def learn(data, *, rng, epsilon):
    H = np.asarray(data["H"])
    xs = [int(v) for v in np.asarray(data["x"]).reshape(-1)]
    ys = [int(v) for v in np.asarray(data["y"]).reshape(-1)]
    scores = []
    for row in H:
        err = sum(1 for x, y in zip(xs, ys) if int(row[x]) != y)
        scores.append(-0.5 * epsilon * err)
    return int(np.argmax(np.asarray(scores) + rng.gumbel(size=len(scores))))
