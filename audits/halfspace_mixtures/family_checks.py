"""Checks of Algorithm 1 (halfspace_family): the size facts and Lemma 4.5 (the Helly step).

The family under test is sampled through ``ctx.sample(X_pub, 1)``; Aff, the membership test
(closed, public-scale tolerance) and G's enumeration are the reference's (Aff is not part of
the numeric output encoding, see the spec)."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np

from dptestbed.audits.api import Context, Control, experiment
from dptestbed.impl.halfspace_mixtures.family import affine_hull
from dptestbed.impl.halfspace_mixtures.geometry import Setup, erm_mistakes

from .common import (
    IMPL,
    data_rng,
    halfspace_mistakes,
    min_mistakes,
    public_part,
    random_halfspaces,
    wedge,
)

SPEC = "halfspace_family"
_AXIS = Control("family_axis_step5", f"{IMPL}.mutants:family_axis_step5",
                "Step 5 takes the last coordinate axis orthogonal to aff(S^), ignoring Aff (trap U1)")
_OPP = Control("family_opposite_not_negated", f"{IMPL}.mutants:family_opposite_not_negated",
               "Step 6 adds h twice instead of h and its opposite h_-")


def _family(ctx: Context, X_pub: np.ndarray) -> np.ndarray:
    """The family on ``X_pub``, with the parameters d and n_pub its shape says (the spec's input is (n_pub, d): an
    implementation may read either)."""
    n_pub, d = X_pub.shape
    return np.asarray(ctx.sample(X_pub, 1, d=d, n_pub=n_pub)[0], float).reshape(-1, d + 1)


def _size_points(rng: np.random.Generator):
    """(d, X_pub) with n_pub = 0..6, duplicates, collinear and coplanar points."""
    for d in (1, 2, 3):
        for n_pub in range(7 if d < 3 else 5):
            X = rng.normal(size=(n_pub, d))
            yield d, X
            if n_pub >= 2:
                dup = X.copy()
                dup[1] = dup[0]
                yield d, dup
                flat = X.copy()
                flat[:, -1] = 0.0
                yield d, flat


@experiment(SPEC, "Section 4 (size of W and C~_pub)", "counts-and-support", "property",
            title="|C~_pub| = 2 sum_{i<=d} C(n_pub, i) rows, rows in opposite pairs, each subset's points on "
                  "its hyperplane, unit normals",
            instance="d = 1, 2, 3; n_pub = 0..6 (0..4 for d = 3); random, duplicated and collinear/coplanar points",
            predicate="failure: wrong row count, a pair not opposite, a subset point off its hyperplane (beyond the "
                      "public-scale tolerance), or a zero normal",
            trials={"quick": 1, "full": 5}, controls=(_OPP,), params={"d": 2, "n_pub": 3})
def _sizes(ctx: Context) -> dict:
    cases = failures = 0
    counterexample = None
    rng = data_rng(ctx)
    for _ in range(ctx.trials):
        for d, X in _size_points(rng):
            cases += 1
            W = _family(ctx, X)
            n_pub = X.shape[0]
            expected = int(ctx.bind(d=d, n_pub=n_pub)["C_count"])
            problem = None
            if W.shape[0] != expected:
                problem = f"{W.shape[0]} rows, expected {expected}"
            elif n_pub:
                tol = affine_hull(X).tol
                subsets = [s for r in range(d + 1) for s in combinations(range(n_pub), r)]
                if not np.allclose(W[1::2], -W[0::2], rtol=0, atol=tol):
                    problem = "rows 2s + 1 are not the opposites of rows 2s"
                elif np.any(np.linalg.norm(W[:, :d], axis=1) < 1e-12):
                    problem = "a zero normal"
                else:
                    for s, S in enumerate(subsets):
                        if S and np.any(np.abs(X[list(S)] @ W[2 * s, :d] - W[2 * s, d]) > tol * np.linalg.norm(W[2 * s, :d])):
                            problem = f"subset {S} is not on the boundary of row {2 * s}"
                            break
            if problem:
                failures += 1
                counterexample = counterexample or {"d": d, "X_pub": X.tolist(), "problem": problem}
    return {"cases": cases, "failures": failures, "counterexample": counterexample}


@experiment(SPEC, "Section 4 (size of G)", "enumerated-G", "property",
            title="|G| enumerated from the family (index sets of 1..d rows + constant 1) = 1 + sum_j C(|C~_pub|, j) "
                  "<= 3^d (n_pub + 1)^(d^2); depends on the implementation through |C~_pub| only",
            instance="d = 1, 2 (n_pub = 0..12), d = 3 (n_pub = 0..5), random public points",
            predicate="failure: the enumerated count differs from G_size or exceeds the explicit bound",
            trials={"quick": 1, "full": 1}, params={"d": 2, "n_pub": 3})
def _g_size(ctx: Context) -> dict:
    cases = failures = 0
    counterexample = None
    rng = data_rng(ctx)
    for d, top in ((1, 12), (2, 12), (3, 5)):
        for n_pub in range(top + 1):
            cases += 1
            M = _family(ctx, rng.normal(size=(n_pub, d))).shape[0]
            enumerated = 1 + sum(comb(M, j) for j in range(1, d + 1)) if M else 1
            env = ctx.bind(d=d, n_pub=n_pub)
            if enumerated != int(env["G_count"]) or enumerated > 3 ** d * (n_pub + 1) ** (d * d):
                failures += 1
                counterexample = counterexample or {"d": d, "n_pub": n_pub, "enumerated": enumerated,
                                                    "G_size": int(env["G_count"])}
    return {"cases": cases, "failures": failures, "counterexample": counterexample}


# --------------------------------------------------------------------------- Lemma 4.5


def _ppm(X: np.ndarray, y: np.ndarray, public: np.ndarray | None = None) -> dict:
    y = np.asarray(y, np.int64)
    p = y.copy() if public is None else np.where(public, 0, 1)
    return {"X": np.asarray(X, float), "y": y, "p": p}


def _target(X, w, w0):
    return (X @ np.asarray(w, float) >= w0).astype(np.int64)


def lemma45_instances(rng: np.random.Generator):
    """(name, data, target (w, w0) or None): the families of the review's B.1 row."""
    for n_pub in (0, 1, 2, 5):
        X = np.r_[-rng.random((n_pub, 1)), rng.random((8, 1))]
        yield f"d1-realizable-npub{n_pub}", _ppm(X, _target(X, [1.0], 0.0)), ([1.0], 0.0)
    yield "d1-noisy", Setup(d=1, eta=0.2).sample(16, rng), None
    setup = Setup(d=2, phi=rng.uniform(0, 6.28), b=rng.uniform(-0.6, 0.2))
    X = rng.uniform(-1, 1, (20, 2))
    yield "d2-realizable", _ppm(X, _target(X, setup.u, setup.b)), (setup.u, setup.b)
    yield "d2-noisy", Setup(d=2, b=-0.2, eta=0.2).sample(18, rng), None
    t_pub, t_priv = -rng.uniform(0.1, 1, 5), rng.uniform(0, 1, 7)
    X = np.c_[np.r_[t_pub, t_priv], np.zeros(12)]
    yield "d2-collinear-all-on-line", _ppm(X, _target(X, [1.0, 0.0], 0.0)), ([1.0, 0.0], 0.0)
    X = np.r_[np.c_[t_pub, np.zeros(5)], np.c_[t_priv, rng.uniform(-1, 1, 7)]]
    yield "d2-collinear-private-off-line", _ppm(X, _target(X, [1.0, 0.0], 0.0)), ([1.0, 0.0], 0.0)
    for n_pub in (0, 1, 2):
        X = np.r_[rng.uniform(-1, -0.2, (n_pub, 2)), rng.uniform(0, 1, (9, 2))]
        yield f"d2-npub{n_pub}", _ppm(X, _target(X, [1.0, 1.0], 0.0)), ([1.0, 1.0], 0.0)
    g = np.array([(i, j) for i in range(5) for j in range(5)], float)
    yield "d2-grid", _ppm(g, _target(g, [1.0, 0.5], 2.2)), ([1.0, 0.5], 2.2)
    yield "d2-wedge", wedge(rng, apex=3, copies=4), None      # g* needs the intersection of two halfspaces
    X = rng.uniform(-1, 1, (14, 2))
    X[7:10] = X[0]                                           # duplicated points (public or private)
    yield "d2-duplicates", _ppm(X, _target(X, [0.3, 1.0], -0.1)), ([0.3, 1.0], -0.1)
    X = rng.uniform(-1, 1, (16, 2))
    w, w0 = np.array([1.0, 0.7]), 0.1
    y = _target(X, w, w0)
    Xs = X * [1e3, 1e-3] + 5e3                              # badly scaled (trap U2)
    yield "d2-badly-scaled", _ppm(Xs, y), (w / [1e3, 1e-3], w0 + 5e3 * np.sum(w / [1e3, 1e-3]))
    X = rng.uniform(-1, 1, (16, 2))
    y = _target(X, [1.0, -0.4], 0.0)
    public = (y == 0) | (rng.random(16) < 0.4)              # relaxation (ii): public rows of both labels
    yield "d2-relaxation-ii", _ppm(X, y, public), ([1.0, -0.4], 0.0)
    private = np.c_[rng.uniform(0.3, 1, 8), rng.uniform(-1, 1, (8, 2))]     # x_1 + 0.2 x_2 >= 0.1: label 1
    X = np.r_[np.c_[rng.uniform(-1, 0, (4, 2)), np.zeros(4)], private]      # the 4 public points on x_3 = 0
    yield "d3-coplanar", _ppm(X, _target(X, [1.0, 0.2, 0.0], 0.05)), ([1.0, 0.2, 0.0], 0.05)


@experiment(SPEC, "Lemma 4.5", "helly-zero-tolerance", "property",
            title="min over G of m(g) <= m(h) for the target h*, the exact ERM halfspace (d <= 2) and 40 random "
                  "halfspaces (so 0 on realizable data)",
            instance="per round 18 instances: d = 1 realizable with n_pub = 0, 1, 2, 5 and noisy; d = 2 realizable, "
                     "noisy, collinear public points with all data on the line and with private points off it, "
                     "n_pub = 0, 1, 2, a 5 x 5 grid, a wedge (g* an intersection of 2 halfspaces), duplicated points, "
                     "badly scaled (x 10^3 / 10^-3, offset 5 10^3), relaxation (ii) (public rows of both labels); d = 3 "
                     "coplanar public points",
            predicate="failure: some comparator halfspace makes fewer mistakes on S' than every g in G",
            trials={"quick": 3, "full": 30}, controls=(_AXIS, _OPP), params={"d": 2, "n_pub": 3})
def _lemma45(ctx: Context) -> dict:
    cases = failures = 0
    counterexample = None
    rng = data_rng(ctx)
    for _ in range(ctx.trials):
        for name, data, target in lemma45_instances(rng):
            cases += 1
            X, y = data["X"], data["y"]
            X_pub = public_part(data)
            W = _family(ctx, X_pub)
            best_g = min_mistakes(data, family=lambda _, W=W: W)
            w, w0 = random_halfspaces(X, 20, ctx.rng)
            comparators = {"random": int(halfspace_mistakes(w, w0, X, y).min())}
            if target is not None:
                comparators["target"] = int(halfspace_mistakes(np.asarray(target[0], float), [target[1]], X, y)[0])
            if X.shape[1] <= 2:
                comparators["ERM"] = erm_mistakes(X, y)
            if best_g > min(comparators.values()):
                failures += 1
                counterexample = counterexample or {"instance": name, "min_G_m": best_g, "comparators": comparators,
                                                    "X": X.tolist(), "y": y.tolist(), "p": data["p"].tolist()}
    return {"cases": cases, "failures": failures, "counterexample": counterexample}
