"""Observation 4.2 and Corollary 4.4 on the family under test, by linear programming: Q = the public
points outside the target halfspace h*, H_Q = the members of C~_pub containing Q. Observation 4.2
(with the hull claim before it): (cap H_Q) cap Aff misses h*. Corollary 4.4 (via Helly, Lemma 4.3):
some T of at most d sets from H_Q and Aff already misses h*. Lemma 4.3 itself (Helly's theorem) is a
fact of convex geometry about no implementation: its certificate, T plus h*, is what Corollary 4.4's
check finds, so it has no check of its own (it was the same check under a second name).
Feasibility is decided by scipy's HiGHS LP with the family's public-scale tolerance."""

from __future__ import annotations

from itertools import combinations

import numpy as np
from scipy.optimize import linprog

from dptestbed.audits.api import Context, experiment
from dptestbed.impl.halfspace_mixtures.family import affine_hull

from .common import data_rng
from .family_checks import _AXIS, SPEC, _family

MARGIN = 1e-7   # h* is taken as {u.x >= b + MARGIN}: Q lies strictly outside it


def _feasible(rows: np.ndarray, aff, target: np.ndarray, use_aff: bool) -> bool:
    """Is there x with w.x >= w_0 - tol for every row, x in Aff (if ``use_aff``), u.x >= b?"""
    d = target.size - 1
    A = np.concatenate([-rows[:, :d], -target[None, :d]])
    b = np.concatenate([-rows[:, d] + aff.tol, [-target[d] - MARGIN]])
    A_eq = b_eq = None
    if use_aff and aff.k < d:
        perp = np.linalg.svd(np.eye(d) - aff.B.T @ aff.B)[0][:, : d - aff.k].T
        A_eq, b_eq = perp, perp @ aff.u
    res = linprog(np.zeros(d), A_ub=A, b_ub=b, A_eq=A_eq, b_eq=b_eq, bounds=[(None, None)] * d, method="highs")
    return res.status == 0


def helly_instances(rng: np.random.Generator):
    """(name, X_pub, target (w, b)): public points outside the target."""
    for n_pub in (1, 3, 5):
        yield f"d1-npub{n_pub}", -rng.uniform(0.05, 1, (n_pub, 1)), np.array([1.0, 0.0])
    for n_pub in (1, 2, 4, 6):
        yield f"d2-npub{n_pub}", rng.uniform(-1, -0.05, (n_pub, 2)), np.array([1.0, 1.0, 0.0])
    t = -rng.uniform(0.1, 1, 5)
    yield "d2-collinear", np.c_[t, np.zeros(5)], np.array([1.0, 0.0, 0.0])
    yield "d2-collinear-oblique-target", np.c_[t, np.zeros(5)], np.array([1.0, 3.0, 0.05])


def _run(ctx: Context, which: str) -> dict:
    cases = failures = 0
    counterexample = None
    rng = data_rng(ctx)
    for _ in range(ctx.trials):
        for name, X_pub, target in helly_instances(rng):
            cases += 1
            d = X_pub.shape[1]
            W = _family(ctx, X_pub)
            aff = affine_hull(X_pub)
            H = W[np.all(X_pub @ W[:, :d].T >= W[:, d][None, :] - aff.tol, axis=0)]
            if which == "observation":
                bad = _feasible(H, aff, target, True)
            else:
                sets = [(a,) for a in range(H.shape[0])] + [()]
                small = [T for j in range(1, d + 1) for T in combinations(range(H.shape[0]), j)]
                options = [(T, False) for T in small] + [(T, True) for T in sets if len(T) <= d - 1]
                bad = all(_feasible(H[list(T)], aff, target, use) for T, use in options)
            if bad:
                failures += 1
                counterexample = counterexample or {"instance": name, "X_pub": X_pub.tolist(),
                                                    "target": target.tolist(), "members_containing_Q": int(H.shape[0])}
    return {"cases": cases, "failures": failures, "counterexample": counterexample}


_INSTANCE = ("per round 10 public sets with a target halfspace h* missing them: d = 1 with n_pub = 1, 3, 5; d = 2 "
             "with n_pub = 1, 2, 4, 6 (Aff a point, a line, the plane), 5 collinear points with an axis and an "
             "oblique target; the family is the implementation's, Aff and the tolerance the reference's")


@experiment(SPEC, "Observation 4.2", "hull-misses-erm", "property",
            title="(cap of the members of C~_pub containing Q) cap Aff is disjoint from h* (LP), Q = public points "
                  "outside h*",
            instance=_INSTANCE, predicate="failure: the LP finds a point of that intersection inside h*",
            trials={"quick": 2, "full": 20}, controls=(_AXIS,), params={"d": 2, "n_pub": 3})
def _observation42(ctx: Context) -> dict:
    return _run(ctx, "observation")


@experiment(SPEC, "Corollary 4.4", "t-at-most-d", "property",
            title="some T of at most d sets from {members containing Q} and Aff has (cap T) cap h* empty (LP)",
            instance=_INSTANCE, predicate="failure: every such T meets h*",
            trials={"quick": 1, "full": 10}, controls=(_AXIS,), params={"d": 2, "n_pub": 3})
def _corollary44(ctx: Context) -> dict:
    return _run(ctx, "corollary")
