"""Exact privacy profiles of seed 003's building blocks (printed beside the audit's bound).

* GenericLearner: the output law is a finite softmax, so epsilon(delta) is the hockey-stick
  inversion of two exact distributions (:func:`dptestbed.audits.privacy.exact.discrete_epsilon`).
* Hist: the noise is independent per item, so only the (at most two) items whose counts differ
  matter, and the output law is their product. Per item the law is an atom (not released, mass
  P[c + Lap(2/eps) < tau]; all of it for a count of 0, which gets no noise) plus the released
  value c~ >= tau. Where both counts' densities have a constant ratio (outside [c, c']) the
  released values are merged into one atom each (exact); between c and c' the ratio varies and
  the values are binned into 256 cells (binning is post-processing, so the value is a lower
  bound on the true epsilon, off by at most the ratio's variation over one cell, 1/(256 b)).
* Algorithm M: exact output law when G's law on every distinct batch is enumerable
  (:func:`m_output_law`), then the hockey-stick inversion.
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy import stats

from dptestbed.audits.api import discrete_epsilon, register
from dptestbed.impl.littlestone.classes import (
    FAIL_ID,
    hypothesis_from_id,
    hypothesis_id,
)
from dptestbed.impl.littlestone.generic import probabilities
from dptestbed.impl.littlestone.histogram import threshold
from dptestbed.impl.littlestone.learner import sample, sizes, sizes_printed
from dptestbed.impl.littlestone.stable import class_of, output_law

CELLS = 256


@register("dptestbed.impl.littlestone.generic:generic_private_learner")
def generic_profile(data, neighbour, env, delta):
    eps = float(env["epsilon"])
    law = [probabilities(np.asarray(s["H"]), np.asarray(s["x"], dtype=np.int64), np.asarray(s["y"]), eps)
           for s in (data, neighbour)]
    return discrete_epsilon(law[0], law[1], delta)


def _item_laws(c: float, c2: float, tau: float, b: float) -> tuple[np.ndarray, np.ndarray]:
    """Laws of one item's output with counts c (D) and c2 (D'), on common outcomes."""
    inner = [v for v in sorted({c, c2}) if v > tau and c and c2]
    edges = [tau] + inner + [np.inf]
    cuts = [tau]
    for lo, hi in itertools.pairwise(edges):
        if np.isfinite(hi) and c and c2 and lo >= min(c, c2) and hi <= max(c, c2):
            cuts += list(np.linspace(lo, hi, CELLS + 1)[1:])            # varying ratio: binned
        else:
            cuts.append(hi)                                               # constant ratio: one atom
    cuts = np.array(cuts)

    def law(count):
        if count == 0:
            return np.concatenate([[1.0], np.zeros(cuts.size - 1)])
        cdf = stats.laplace.cdf(cuts, loc=count, scale=b)
        return np.concatenate([[cdf[0]], np.diff(cdf)])

    return law(c), law(c2)


def histogram_law_epsilon(data, neighbour, env, delta, tau: float | None = None, scale: float | None = None):
    """epsilon(delta) of Hist on a pair with release threshold ``tau`` and noise scale ``scale`` (default
    the spec's, 1 + (2/epsilon) ln(1/delta) and 2/epsilon), None beyond three changed items."""
    eps, dlt = float(env["epsilon"]), float(env["delta"])
    tau = threshold(eps, dlt) if tau is None else tau
    b = 2 / eps if scale is None else scale
    c1, c2 = _counts(data), _counts(neighbour)
    changed = [i for i in sorted(set(c1) | set(c2)) if c1.get(i, 0) != c2.get(i, 0)]
    if len(changed) > 3:
        return None
    P, Q = np.ones(1), np.ones(1)
    for i in changed:
        p, q = _item_laws(c1.get(i, 0), c2.get(i, 0), tau, b)
        P, Q = np.outer(P, p).ravel(), np.outer(Q, q).ravel()
    return discrete_epsilon(P, Q, delta)


def _counts(S) -> dict:
    ids, counts = np.unique(np.asarray(S, dtype=np.int64), return_counts=True)
    return dict(zip(ids.tolist(), counts.tolist()))


@register("dptestbed.impl.littlestone.histogram:stable_histogram")
def histogram_profile(data, neighbour, env, delta):
    return histogram_law_epsilon(data, neighbour, env, delta)


# --------------------------------------------------------------------------- Algorithm M

MAX_COUNT_STATES = 50_000


def m_output_law(data, env, sizes_fn=sizes, *, generic_epsilon: float | None = None, cut_from_counts=None,
                 stride: float = 1.0, whole_sample: bool = False) -> dict | None:
    """Exact output law {hypothesis id: probability} of Algorithm M (reference steps) on ``data``
    at ``env``, or None when too large. Step 1: G's exact law on each distinct batch, convolved
    into the law of the count vector; step 2: each item with count c is kept (released and
    a >= 3 eta/4) independently with probability P[c + Lap(4/epsilon) >= max(tau, 3 eta k/4)];
    step 3: the exact softmax on S' over every kept set (default when empty).
    The keywords give the laws of the mutants whose labels the tests back by exact computation:
    ``generic_epsilon`` (step 3's privacy, epsilon/2 in the spec), ``cut_from_counts(counts, tau)`` (a
    pruning cut on the noisy counts computed from the count vector and Hist's threshold tau), ``stride`` (batch i starts at i*stride*m: 1/2 overlaps
    them), ``whole_sample`` (step 3 scores the whole sample, not S' alone)."""
    eps, dlt, eta = float(env["epsilon"]), float(env["delta"]), float(env["eta"])
    d, k, n_prime = int(env["d"]), int(env["k"]), int(env["n_prime"])
    cls = class_of(data["H"])
    n_aux, N, m = sizes_fn(d, float(env["alpha"]), float(env["c"]))
    x, y = sample(data, cls.X, k * m + n_prime)
    starts = [int(i * (m * stride)) for i in range(k)]
    groups: dict[bytes, list[int]] = {}
    for i in range(k):
        s = slice(starts[i], starts[i] + m)
        groups.setdefault(x[s].tobytes() + y[s].tobytes(), []).append(i)
    counts = {(): 1.0}
    keys: list[int] = []
    for members in groups.values():
        s = slice(starts[members[0]], starts[members[0]] + m)
        law = output_law(cls, x[s], y[s], d=d, n=n_aux, N=N)
        if law is None:
            return None
        keys, old = sorted(set(keys) | set(law)), keys
        counts = {tuple(dict(zip(old, c)).get(u, 0) for u in keys): p for c, p in counts.items()}
        for _ in members:
            step: dict = {}
            for c, p in counts.items():
                for j, u in enumerate(keys):
                    q = law.get(u, 0.0)
                    if q:
                        c2 = c[:j] + (c[j] + 1,) + c[j + 1:]
                        step[c2] = step.get(c2, 0.0) + p * q
            counts = step
            if len(counts) > MAX_COUNT_STATES:
                return None
    cut = max(threshold(eps / 2, dlt), 3 * eta * k / 4) if 3 * eta / 4 <= 1 else np.inf
    xs, ys = (x, y) if whole_sample else (x[k * m:], y[k * m:])
    eps_g = eps / 2 if generic_epsilon is None else float(generic_epsilon)
    out: dict[int, float] = {}
    live = [j for j, u in enumerate(keys) if u != FAIL_ID]
    default = int(hypothesis_id(-np.ones(cls.X, dtype=np.int8)))
    for c, p in counts.items():
        at = cut if cut_from_counts is None else cut_from_counts(c, threshold(eps / 2, dlt))
        keep_p = {j: (float(stats.laplace.sf(at, loc=c[j], scale=4 / eps)) if c[j] else 0.0) for j in live}
        for subset in itertools.product((False, True), repeat=len(live)):
            chosen = [j for j, on in zip(live, subset) if on]
            w = p * np.prod([keep_p[j] if on else 1 - keep_p[j] for j, on in zip(live, subset)])
            if w == 0:
                continue
            if not chosen:
                out[default] = out.get(default, 0.0) + w
                continue
            ids = np.array([keys[j] for j in chosen], dtype=np.int64)
            probs = probabilities(hypothesis_from_id(ids, cls.X), xs, ys, eps_g)
            for u, q in zip(ids, probs):
                out[int(u)] = out.get(int(u), 0.0) + w * q
    return out


def m_pair_epsilon(data, neighbour, env, delta, sizes_fn=sizes, **options):
    """epsilon(delta) of Algorithm M on a pair (``options``: a mutant's law, see :func:`m_output_law`),
    None when either law is too large to compute."""
    laws = [m_output_law(s, env, sizes_fn, **options) for s in (data, neighbour)]
    if laws[0] is None or laws[1] is None:
        return None
    keys = sorted(set(laws[0]) | set(laws[1]))
    return discrete_epsilon([laws[0].get(u, 0.0) for u in keys], [laws[1].get(u, 0.0) for u in keys], delta)


def _m_profile(sizes_fn):
    def profile(data, neighbour, env, delta):
        return m_pair_epsilon(data, neighbour, env, delta, sizes_fn)
    return profile


register("dptestbed.impl.littlestone.learner:private_littlestone_learner")(_m_profile(sizes))
register("dptestbed.impl.littlestone.learner:private_littlestone_learner_printed")(_m_profile(sizes_printed))
