"""The private learner M (Theorem 17 with G = Algorithm G: Theorem 1), box at l.585.

Input {'H', 'x', 'y'} (dense, length n_M = k m + n') or sparse ({'fill_x', 'fill_y', 'idx'} plus
'x', 'y' at the positions 'idx'; a fill may be a periodic pattern), split by POSITION: batch i = [(i-1) m, i m), S' = [k m, n_M).
1. h_i = G(S_i), independent coins; G reads only S_i and outputs Fail rather than read past it.
2. (L, a) = Hist(h_1..h_k) at privacy (epsilon/2, delta) on canonical hypothesis ids.
2b. (pruning, proof of Theorem 17, E11) keep h in L with a_h >= 3 eta/4, drop Fail; if nothing
    is left output the fixed default, the all -1 function (data-independent, P-M6).
3. h_hat = GenericLearner(S'; L) at privacy epsilon/2.
G runs at accuracy alpha/2: n_aux = ceil(2^(d+3)/alpha), N = floor(c 4^(d+1) n_aux), m = N + n_aux
(E2, E6); the printed variant uses m = floor(c 4^(d+1) d/alpha) with G's budget m - n_aux.

The batch sampler is the same mechanism in law: Hist sees only the counts of h_1..h_k, and for a
group of identical batches those counts are multinomial over G's exact output law on that batch
(:func:`stable.output_law`); steps 2-3 then run vectorised over the runs. G's (k, y) coins are independent across batches and runs, so
this is exact; it falls back to running G when the law is too large to enumerate.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dptestbed.impl.contract import batched

from .classes import FAIL_ID, hypothesis_from_id, hypothesis_id
from .generic import probabilities
from .histogram import release
from .soa import Class, sequence
from .stable import RngCoins, class_of, output_law, run_g

CHUNK_ELEMENTS = 1 << 22  # the batch sampler's counts (runs x hypotheses) at a time: 32 MB (it held 7.9 GB at
# 100,000 runs in the full suite's audit)


def sizes(d: int, alpha: float, c: float) -> tuple[int, int, int]:
    """(n_aux, N, m) of G at accuracy alpha/2 (E2 and E6 corrected)."""
    n_aux = math.ceil(2 ** (d + 3) / alpha)
    N = math.floor(c * 4 ** (d + 1) * n_aux)
    return n_aux, N, N + n_aux


def sizes_printed(d: int, alpha: float, c: float) -> tuple[int, int, int]:
    """(n_aux, N, m) with the batch size printed in the proof of Theorem 1 (E6)."""
    n_aux = math.ceil(2 ** (d + 3) / alpha)
    m = math.floor(c * 4 ** (d + 1) * d / alpha)
    return n_aux, m - n_aux, m


def sample(data, X: int, n_M: int) -> tuple[np.ndarray, np.ndarray]:
    """Dense (x, y) of length n_M from the dense or the sparse input form."""
    if "fill_x" in data:
        idx = np.asarray(data.get("idx", []), dtype=float).reshape(-1)
        if not np.all(idx == np.round(idx)) or (idx.size and (idx.min() < 0 or idx.max() >= n_M)):
            raise ValueError(f"idx must hold integer positions in 0..{n_M - 1}")
        fx, fy = np.atleast_1d(data["fill_x"]), np.atleast_1d(data["fill_y"])
        if fx.shape != fy.shape or fx.ndim != 1 or fx.size == 0:
            raise ValueError("sparse form: fill_x and fill_y must be numbers or arrays of the same length")
        x = np.resize(fx.astype(np.int64), n_M)                 # position j gets fill[j mod P]
        y = np.resize(fy.astype(np.int8), n_M)
        px, py = sequence({"x": data["x"], "y": data["y"]}, X)
        if px.size != idx.size:
            raise ValueError("sparse form: x and y must have one entry per idx position")
        x[idx.astype(np.int64)], y[idx.astype(np.int64)] = px, py
        return sequence({"x": x, "y": y}, X)
    x, y = sequence(data, X)
    if x.size != n_M:
        raise ValueError(f"the sample has {x.size} examples but k*m + n_prime = {n_M}")
    return x, y


@dataclass(frozen=True)
class GRoutine:
    """How M runs G on a batch: one run, and its exact output law (None when unknown)."""

    run: Callable     # (cls, x, y, rng, d, n_aux, N) -> truth table
    law: Callable     # (cls, x, y, d, n_aux, N) -> {id: probability} | None


def _g_run(cls, x, y, rng, d, n_aux, N):
    return run_g(cls, x, y, d=d, n=n_aux, N=N, coins=RngCoins(rng), k=int(rng.integers(d + 1)))


def _g_law(cls, x, y, d, n_aux, N):
    return output_law(cls, x, y, d=d, n=n_aux, N=N)


ALGORITHM_G = GRoutine(_g_run, _g_law)


def prune(U: np.ndarray, counts: np.ndarray, *, epsilon, delta, eta, rng) -> np.ndarray:
    """Steps 2-2b for each run: ``counts`` (runs, |U|) are the counts of the sorted hypothesis
    ids ``U`` among h_1..h_k (all Hist looks at); Hist at (epsilon/2, delta), then keep
    a_h >= 3 eta/4 and drop Fail. Returns the kept mask (runs, |U|)."""
    k = int(counts[0].sum())
    released, a = release(counts, k, epsilon / 2, delta, rng)                # step 2
    return released & (a >= 3 * eta / 4) & (U != FAIL_ID)                    # step 2b (E11)


def choose(cls: Class, U: np.ndarray, keep: np.ndarray, xs, ys, *, epsilon_g, rng) -> np.ndarray:
    """Step 3 for each run: GenericLearner at privacy ``epsilon_g`` on S' over the kept
    hypotheses; the fixed default (all -1) when nothing is kept."""
    out = np.full((keep.shape[0], cls.X), -1, dtype=np.int8)
    patterns, which = np.unique(keep, axis=0, return_inverse=True)
    for j, pattern in enumerate(patterns):
        rows = np.flatnonzero(which.reshape(-1) == j)
        if not pattern.any():
            continue
        L = hypothesis_from_id(U[pattern], cls.X)                            # canonical order
        out[rows] = L[rng.choice(len(L), size=rows.size, p=probabilities(L, xs, ys, epsilon_g))]
    return out


def finish(cls: Class, U, counts, xs, ys, *, epsilon, delta, eta, rng) -> np.ndarray:
    """Steps 2-3: Hist and pruning, then GenericLearner at epsilon/2 on S'."""
    keep = prune(U, counts, epsilon=epsilon, delta=delta, eta=eta, rng=rng)
    return choose(cls, U, keep, xs, ys, epsilon_g=epsilon / 2, rng=rng)


def _setup(data, sizes_fn, d, alpha, c, k, n_prime):
    if int(d) != d or d < 1 or int(k) != k or k < 1 or int(n_prime) != n_prime or n_prime < 1:
        raise ValueError(f"d, k and n_prime must be integers >= 1, got d={d!r}, k={k!r}, n_prime={n_prime!r}")
    cls = class_of(data["H"])
    n_aux, N, m = sizes_fn(int(d), alpha, c)
    x, y = sample(data, cls.X, int(k) * m + int(n_prime))
    return cls, int(d), int(k), n_aux, N, m, x, y


def batches(k: int, m: int) -> list[slice]:
    """The fixed positional partition of step 1: batch i = positions [(i-1) m, i m) (P-M1, P-M2)."""
    return [slice(i * m, (i + 1) * m) for i in range(k)]


def final_sample(x: np.ndarray, y: np.ndarray, k: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """S' of step 3: the n' examples after the k batches."""
    return x[k * m:], y[k * m:]


def make_learner(g: GRoutine, sizes_fn=sizes, doc: str = "", finish_fn=finish, batches_fn=batches,
                 final_fn=final_sample):
    """Algorithm M around the G routine ``g``, steps 2-3 ``finish_fn``, the step-1 partition
    ``batches_fn`` and step 3's sample ``final_fn`` (single run and exact batch sampler)."""

    def batch(data, size, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
        cls, d, k, n_aux, N, m, x, y = _setup(data, sizes_fn, d, alpha, c, k, n_prime)
        laws, runs = [], []
        groups: dict[bytes, list[int]] = {}
        parts = batches_fn(k, m)
        for i, s in enumerate(parts):
            groups.setdefault(x[s].tobytes() + y[s].tobytes(), []).append(i)
        for members in groups.values():
            s = parts[members[0]]
            law = g.law(cls, x[s], y[s], d, n_aux, N) if size * len(members) >= 32 else None
            if law is None:                                                  # step 1, run G
                runs += [(i, [hypothesis_id(g.run(cls, x[parts[i]], y[parts[i]], rng, d, n_aux, N))
                              for _ in range(size)]) for i in members]
            else:
                laws.append((members, law))
        U = np.unique([key for _, law in laws for key in law] + [h for _, hs in runs for h in hs])
        group_laws = []
        for members, law in laws:                                            # step 1, G's exact law:
            p = np.array([law.get(int(u), 0.0) for u in U])                  # the counts of a group of
            group_laws.append((len(members), p / p.sum()))                   # identical batches
        final = final_fn(x, y, k, m)
        rows = max(1, CHUNK_ELEMENTS // max(U.size, 1))  # runs at a time: the counts of a chunk stay small
        out = []
        for a in range(0, size, rows):
            b = min(size, a + rows)
            counts = np.zeros((b - a, U.size))
            for count, p in group_laws:
                counts += rng.multinomial(count, p, size=b - a)
            for _, hs in runs:
                counts[np.arange(b - a), np.searchsorted(U, hs[a:b])] += 1
            out.append(finish_fn(cls, U, counts, *final, epsilon=epsilon, delta=delta, eta=eta, rng=rng))
        return out[0] if len(out) == 1 else np.concatenate(out)

    @batched(batch)
    def learner(data, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
        cls, d, k, n_aux, N, m, x, y = _setup(data, sizes_fn, d, alpha, c, k, n_prime)
        ids = [hypothesis_id(g.run(cls, x[s], y[s], rng, d, n_aux, N)) for s in batches_fn(k, m)]   # step 1
        U, counts = np.unique(ids, return_counts=True)
        return finish_fn(cls, U, counts[None].astype(float), *final_fn(x, y, k, m), epsilon=epsilon, delta=delta,
                         eta=eta, rng=rng)[0]

    learner.__doc__ = doc
    return learner


private_littlestone_learner = make_learner(
    ALGORITHM_G, sizes, "Algorithm M with G = Algorithm G at accuracy alpha/2 (see the module doc).")
private_littlestone_learner_printed = make_learner(
    ALGORITHM_G, sizes_printed, "Algorithm M with the batch size printed in the proof of Theorem 1 (E6).")


# --------------------------------------------------------------------------- the marker stub G


def _marker_table(cls, x, y):
    marked = bool(np.any((x == cls.X - 1) & (y == -1)))
    return np.full(cls.X, 1 if marked else -1, dtype=np.int8)


MARKER_G = GRoutine(lambda cls, x, y, rng, d, n_aux, N: _marker_table(cls, x, y),
                    lambda cls, x, y, d, n_aux, N: {int(hypothesis_id(_marker_table(cls, x, y))): 1.0})

private_learner_marker_stub = make_learner(
    MARKER_G, sizes,
    "Algorithm M around a deterministic stub G that outputs the all +1 function when its batch holds the "
    "marker example (|X|-1, -1) and the all -1 function otherwise (note 003 Section 6.4 (iv)): a marker in "
    "one batch is a count-1 item in Hist, so it drives Hist's delta-event through the whole pipeline.")
