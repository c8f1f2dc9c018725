"""Implementation mutants of seed 001's references: each is the reference with ONE realistic bug
(see impl/mutant.py). Privacy-breaking ones are killed by the privacy audit's stress pairs."""

from __future__ import annotations

import numpy as np

from ..contract import batched
from ..mutant import Mutant
from .family import affine_hull, build_family, halfspace_family, public_points

# --------------------------------------------------------------------------- halfspace_family


def _family_batch(build):
    def sampler(data, n, *, rng=None):
        W = build(data)
        return np.broadcast_to(W, (int(n),) + W.shape).copy()
    return sampler


def _axis_family(data):
    X = public_points(data)
    d = X.shape[1]
    aff = affine_hull(X)
    if aff is not None:                                     # the bug: Aff ignored when choosing normals
        aff = type(aff)(u=aff.u, B=np.eye(d), tol=aff.tol)
    return build_family(X, np.eye(d)[::-1], aff)           # ... and axis-aligned defaults, last axis first


@batched(_family_batch(_axis_family))
def family_axis_step5(data, *, rng=None):
    """Step 5 takes the last coordinate axis orthogonal to aff(S^), ignoring Aff (trap U1)."""
    return _axis_family(data)


def _same_side_family(data):
    W = halfspace_family(data)
    W[1::2] = W[0::2]                                       # the bug: h_- = h instead of its opposite
    return W


@batched(_family_batch(_same_side_family))
def family_opposite_not_negated(data, *, rng=None):
    """Step 6 adds the supported halfspace twice instead of h and its opposite h_-."""
    return _same_side_family(data)


_M = "dptestbed.impl.halfspace_mixtures.mutants"
_FAM = "halfspace_family"

MUTANTS = (
    Mutant(_FAM, "axis_step5", f"{_M}:family_axis_step5", "utility",
           "Step 5 uses axis-aligned normals chosen in R^d, not inside Aff (collinear public points get their own line)",
           killed_by=(f"{_FAM}/Lemma 4.5/helly-zero-tolerance",)),
    Mutant(_FAM, "opposite_not_negated", f"{_M}:family_opposite_not_negated", "utility",
           "Step 6 adds h twice instead of h and its opposite",
           killed_by=(f"{_FAM}/Section 4 (size of W and C~_pub)/counts-and-support", f"{_FAM}/Lemma 4.5/helly-zero-tolerance")),
)
