"""Budgeted multi-query prediction interface (002, DP prediction interface + Lemma 4).

Each answer costs epsilon out of epsilon_total and gets fresh Lap(gamma/epsilon) noise; refused
answers are +inf.  Repeated queries are answered from a cache at no cost (re-answering the same
query is post-processing).  The interface only sees the predictions, so the cache is keyed on
the prediction value (rounded to 1e-9, so float noise from the learner does not defeat it).
"""
import numpy as np


def _plan(preds, epsilon_total, epsilon):
    """For every position: index of the answer it reuses (or -1 if refused)."""
    key_to_slot = {}
    slot_of = np.full(len(preds), -1, int)
    left = float(epsilon_total)
    n_slots = 0
    for i, a in enumerate(preds):
        key = round(float(a), 9)
        if key in key_to_slot:
            slot_of[i] = key_to_slot[key]
            continue
        if left >= epsilon - 1e-12:
            left -= epsilon
            key_to_slot[key] = n_slots
            slot_of[i] = n_slots
            n_slots += 1
    return slot_of, n_slots


def session_memo(data, *, rng, epsilon_total, epsilon, gamma, **_):
    preds = np.atleast_1d(np.asarray(data, float))
    slot_of, n_slots = _plan(preds, epsilon_total, epsilon)
    noise = rng.laplace(0.0, gamma / epsilon, size=n_slots)
    first = {}
    out = np.full(len(preds), np.inf)
    for i, s in enumerate(slot_of):
        if s < 0:
            continue
        if s not in first:
            first[s] = preds[i] + noise[s]
        out[i] = first[s]
    return out


def _batch(data, n, *, rng, epsilon_total, epsilon, gamma, **_):
    preds = np.atleast_1d(np.asarray(data, float))
    slot_of, n_slots = _plan(preds, epsilon_total, epsilon)
    noise = rng.laplace(0.0, gamma / epsilon, size=(n, n_slots))
    out = np.full((n, len(preds)), np.inf)
    first_pos = {}
    for i, s in enumerate(slot_of):
        if s >= 0 and s not in first_pos:
            first_pos[s] = i
    for i, s in enumerate(slot_of):
        if s >= 0:
            out[:, i] = preds[first_pos[s]] + noise[:, s]
    return out


session_memo.batch = _batch
