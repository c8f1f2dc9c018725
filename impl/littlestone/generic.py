"""GenericLearner (Lemma 16): the exponential mechanism over a finite class (note 003 A9).

Pr[h] proportional to exp(-epsilon err_S(h)/2), err_S(h) = #{i : h(x_i) != y_i} (a count,
sensitivity 1 under replace-one), normalised with log-sum-exp (never 'uniform if all weights
underflow', P-M8). Output: the row index of the chosen hypothesis.
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from dptestbed.impl.contract import batched

from .soa import sequence


def errors(H: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """err_S(h) for every row h of H."""
    return (np.asarray(H)[:, x] != y).sum(axis=1)


def probabilities(H: np.ndarray, x: np.ndarray, y: np.ndarray, epsilon: float) -> np.ndarray:
    """The exact output law: softmax of -epsilon err_S(h)/2."""
    logits = -epsilon * errors(H, x, y) / 2
    return np.exp(logits - logsumexp(logits))


def _candidates(data):
    H = np.asarray(data["H"])
    if H.ndim != 2 or H.shape[0] == 0:
        raise ValueError(f"H must be a non-empty truth table (|H|, |X|), got shape {H.shape}")
    return H, *sequence(data, H.shape[1])


def _generic_batch(data, size, *, rng, epsilon):
    H, x, y = _candidates(data)
    return rng.choice(H.shape[0], size=size, p=probabilities(H, x, y, epsilon))


@batched(_generic_batch)
def generic_private_learner(data, *, rng, epsilon) -> int:
    """A row index of data['H'] drawn with Pr proportional to exp(-epsilon err_S(h)/2)."""
    return int(_generic_batch(data, 1, rng=rng, epsilon=epsilon)[0])
