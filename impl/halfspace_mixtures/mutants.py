"""Implementation mutants of seed 001's references: each is the reference with ONE realistic bug
(see impl/mutant.py). Privacy-breaking ones are killed by the privacy audit's stress pairs, except the two
left to its input-space search (no hand-written pair targets them): float64_linear_weights (found by the
large_n generator's balanced copy) and tolerance_from_all_rows (found by the magnitude generator). Every ``breaks`` label is measured: the exact loss on the stated pair (or the audit's bound)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from dptestbed.impl.contract import batched
from dptestbed.impl.mutant import Mutant, with_params

from .family import (
    RELATIVE_TOL,
    affine_hull,
    build_family,
    halfspace_family,
    inside,
    public_points,
    step5_directions,
)
from .learner import (
    histogram,
    ppm_data,
    ppm_halfspace_learner,
    prepare,
    sample_sets,
    to_output,
)

# --------------------------------------------------------------------------- halfspace_family


def _family_batch(build):
    def sampler(data, n, *, rng=None):
        W = build(data)
        return np.broadcast_to(W, (int(n),) + W.shape).copy()
    return sampler


def axis_family(data):
    X = public_points(data)
    d = X.shape[1]
    aff = affine_hull(X)
    if aff is not None:                                     # the bug: Aff ignored when choosing normals
        aff = type(aff)(u=aff.u, B=np.eye(d), tol=aff.tol)
    return build_family(X, np.eye(d)[::-1], aff)           # ... and axis-aligned defaults, last axis first


@batched(_family_batch(axis_family))
def family_axis_step5(data, *, rng=None):
    """Step 5 takes the last coordinate axis orthogonal to aff(S^), ignoring Aff (trap U1)."""
    return axis_family(data)


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


# --------------------------------------------------------------------------- ppm_halfspace_learner


def _learner(prepare_fn=prepare, draw=sample_sets, **step9):
    """A learner whose Steps 1-8 are ``prepare_fn(data)`` and Step 9 ``draw`` (default the
    reference's two-pass sampler) with ``step9`` (select's mutant hooks)."""

    def sampler(data, n, *, rng, epsilon):
        inst = prepare_fn(data)
        return to_output(draw(inst, n, rng, float(epsilon), **step9), inst.public, inst.d)

    @batched(sampler)
    def mechanism(data, *, rng, epsilon):
        return sampler(data, 1, rng=rng, epsilon=epsilon)[0]

    return mechanism


def strict_inside(W, aff, X):
    X = np.asarray(X, float)
    if aff is None or W.shape[0] == 0:
        return np.zeros((W.shape[0], X.shape[0]), bool)
    return (W[:, :-1] @ X.T > W[:, -1:]) & aff.contains(X)[None, :]     # the bug: strict, no tolerance


def _no_aff(W, aff, X):
    X = np.asarray(X, float)
    if aff is None or W.shape[0] == 0:
        return np.zeros((W.shape[0], X.shape[0]), bool)
    return W[:, :-1] @ X.T >= W[:, -1:] - aff.tol                        # the bug: "and x in Aff" dropped


def _one_side(X_pub):
    W = halfspace_family(X_pub)
    W[1::2] = W[0::2]                       # the bug: h_- never added (duplicates keep |G| and the indices)
    return W


def _private_rows(data):
    return prepare(data, scored=ppm_data(data)[2] == 1)                  # the bug: public rows not scored


def _by_label(data):
    return prepare(data, public=ppm_data(data)[1] == 0)                  # the bug: partition by y, not p


def _direction_from_all_rows(data):
    X = ppm_data(data)[0]
    v = X.mean(axis=0)                                     # the bug: Step 5's "generic" direction from S'
    directions = step5_directions(X.shape[1])
    directions = np.r_[v[None, :] / np.linalg.norm(v), directions] if np.linalg.norm(v) > 0 else directions
    return prepare(data, family=lambda X_pub: build_family(X_pub, directions, affine_hull(X_pub)))


def _all_rows(data):
    return prepare(data, public=np.ones(ppm_data(data)[0].shape[0], bool))   # the bug: private x's in C~_pub


def _float32_law(hist, eps):
    """Level law with linear-space float32 weights c_m exp(-eps m/2) (uniform over G when they
    all underflow): the same law as float32 weights per hypothesis, which depend on m only."""
    w = np.exp(np.float32(-eps / 2) * np.arange(hist.size, dtype=np.float32))   # the bug: float32, linear
    if np.sum(w[hist > 0]) == 0:
        w = np.ones_like(w)                                              # ... with a "safe" uniform fallback
    return hist * w.astype(float)


def _float64_sets(inst, count, rng, epsilon):
    """Step 9 with linear-space float64 weights c_m exp(-epsilon m/2), the first minimiser of m
    when they all underflow (every member of G makes >= 1,491 mistakes at epsilon = 1)."""
    hist = histogram(inst)
    w = hist * np.exp(-epsilon / 2 * np.arange(hist.size))                   # the bug: linear space
    if w.sum() > 0:
        return sample_sets(inst, count, rng, epsilon, law=lambda hist, eps: w)
    lowest = (np.arange(w.size) == np.flatnonzero(hist)[0]).astype(float)
    return sample_sets(inst, count, rng, epsilon, law=lambda hist, eps: lowest,  # ... argmin fallback
                       uniform_within=False)


def _single_sets(inst, count, rng, epsilon):
    J = sample_sets(replace(inst, d=1), count, rng, epsilon)      # the bug: G from j = 1 only (and constant 1)
    return np.pad(J, ((0, 0), (0, inst.d - 1)), constant_values=-1)


def _tolerance_from_all_rows(data):
    tol = RELATIVE_TOL * max(1.0, float(np.max(np.abs(ppm_data(data)[0]))))    # the bug: private rows set the scale
    return prepare(data, membership=lambda W, aff, X: inside(W, None if aff is None else replace(aff, tol=tol), X))


MAX_ROWS = 1000


def _first_rows(data):
    X, y, p = ppm_data(data)
    return prepare({"X": X[:MAX_ROWS], "y": y[:MAX_ROWS], "p": p[:MAX_ROWS]})  # the bug: a fixed buffer of rows


def _distinct_rows(B: np.ndarray) -> np.ndarray:
    packed = np.ascontiguousarray(np.packbits(B > 0, axis=1))
    keys = packed.view(np.dtype((np.void, packed.shape[1]))).ravel()
    return np.sort(np.unique(keys, return_index=True)[1])


def _dedup_sampler(data, n, *, rng, epsilon):
    inst = prepare(data)
    keep = _distinct_rows(np.concatenate([inst.pos, inst.neg], axis=1))  # the bug: classes depend on private x
    small = replace(inst, W=inst.W[keep], pos=inst.pos[keep], neg=inst.neg[keep])
    J = sample_sets(small, n, rng, float(epsilon))
    return to_output(np.r_[keep, -1][J], inst.public, inst.d)                  # J = -1: unused


@batched(_dedup_sampler)
def learner_dedup_by_pattern(data, *, rng, epsilon):
    """C~_pub deduplicated by the members' labelling pattern on S' before G is formed (Step 8)."""
    return _dedup_sampler(data, 1, rng=rng, epsilon=epsilon)[0]


_REF = ppm_halfspace_learner
learner_exponent_full = with_params(_REF, lambda p: {**p, "epsilon": 2 * p["epsilon"]},
                                    "Step 9 with weights exp(-epsilon m) (the factor 1/2 dropped)")
learner_temperature_eighth = with_params(_REF, lambda p: {**p, "epsilon": p["epsilon"] / 8},
                                         "Step 9 with weights exp(-epsilon m/16) (epsilon/8 in the exponent)")
learner_constant_one = _learner(draw=lambda inst, count, rng, epsilon: np.full((count, inst.d), -1))  # the bug: Step 9 skipped
learner_family_from_all_rows = _learner(_all_rows)
learner_partition_by_label = _learner(_by_label)
learner_step5_direction_from_data = _learner(_direction_from_all_rows)
learner_strict_membership = _learner(lambda data: prepare(data, membership=strict_inside))
learner_aff_omitted = _learner(lambda data: prepare(data, membership=_no_aff))
learner_opposite_missing = _learner(lambda data: prepare(data, family=_one_side))
learner_score_private_only = _learner(_private_rows)
learner_float32_weights = _learner(law=_float32_law)
learner_first_in_level = _learner(uniform_within=False)                  # the bug: always the level's first J
learner_epsilon_thirtieth = with_params(_REF, lambda p: {**p, "epsilon": p["epsilon"] / 30},
                                        "Step 9 with weights exp(-epsilon m/60) (a selection 30 times too flat)")
learner_epsilon_third = with_params(_REF, lambda p: {**p, "epsilon": p["epsilon"] / 3},
                                    "Step 9 with weights exp(-epsilon m/6) (the score's sensitivity taken as 3/n)")
learner_single_halfspaces = _learner(draw=_single_sets)
learner_float64_linear_weights = _learner(draw=_float64_sets)
learner_tolerance_from_all_rows = _learner(_tolerance_from_all_rows)
learner_first_1000_rows = _learner(_first_rows)

_PPM = "ppm_halfspace_learner"
_L46 = f"{_PPM}/Lemma 4.6/exact-law"
MUTANTS += (
    Mutant(_PPM, "exponent_full", f"{_M}:learner_exponent_full", "privacy",
           "Step 9 weights exp(-epsilon m) instead of exp(-epsilon m/2) (exact loss 1.93 > 1 on N1_label_flip_deep_private, "
           "epsilon = 1; audit bound 7.17 > 4 on N1_q01_eps4)", killed_by=("privacy audit",)),
    Mutant(_PPM, "family_from_all_rows", f"{_M}:learner_family_from_all_rows", "privacy",
           "C~_pub and Aff built from all rows (private points leak into the family; exact loss 2.20 > 1 on "
           "N3_on_aff_to_off_aff, audit bound 1.55 on N2_relocation_between_public_and_origin)", killed_by=("privacy audit",),
           # recorded beside the audit: on its large-n pairs |G| can pass memory (a MemoryError ended one run's audit)
           exact_loss="2.20 against 1 on N3_on_aff_to_off_aff (epsilon = 1)"),
    Mutant(_PPM, "step5_direction_from_data", f"{_M}:learner_step5_direction_from_data", "privacy",
           "Step 5's generic direction is the mean of all rows' x (private points steer the family; exact loss 3.33 > 1, "
           "audit bound 3.28, both on N4_private_point_on_public_point)",
           killed_by=("privacy audit",)),
    Mutant(_PPM, "partition_by_label", f"{_M}:learner_partition_by_label", "privacy",
           "S_pub = rows with y = 0 instead of p = 0 (exact loss infinite on 9 of the 14 stress pairs; audit bound 11.1 on "
           "N5_no_public_points, epsilon = 1)", killed_by=("privacy audit",)),
    Mutant(_PPM, "dedup_by_pattern", f"{_M}:learner_dedup_by_pattern", "privacy",
           "C~_pub deduplicated by the members' labelling pattern on S' before G is formed (exact loss infinite, audit "
           "bound 10.2, on N2_relocation_between_public_and_origin, epsilon = 1)",
           killed_by=("privacy audit",)),
    Mutant(_PPM, "float32_weights", f"{_M}:learner_float32_weights", "both",
           "linear-space float32 weights, uniform over G when all underflow (exact loss infinite, audit bound 11.1, on "
           "N8_weight_underflow_boundary, epsilon = 1)",
           killed_by=("privacy audit", f"{_PPM}/Claim 4.7/vs-erm-large-noise")),
    Mutant(_PPM, "temperature_eighth", f"{_M}:learner_temperature_eighth", "utility",
           "Step 9 weights exp(-epsilon m/16)", killed_by=(f"{_PPM}/Lemma 4.6/em-gap",)),
    Mutant(_PPM, "constant_one", f"{_M}:learner_constant_one", "utility", "always outputs constant 1",
           killed_by=(f"{_PPM}/Lemma 4.6/em-gap", f"{_PPM}/Theorem 4.9/realizable-d1")),
    Mutant(_PPM, "strict_membership", f"{_M}:learner_strict_membership", "utility",
           "strict w.x > w_0 membership without tolerance in the score (trap U2)", killed_by=(_L46,)),
    Mutant(_PPM, "aff_omitted", f"{_M}:learner_aff_omitted", "utility",
           "membership ignores Aff (degenerate public support, trap U4)", killed_by=(_L46,)),
    Mutant(_PPM, "opposite_missing", f"{_M}:learner_opposite_missing", "utility",
           "G built from one side of each hyperplane (h_- missing)", killed_by=(_L46,)),
    Mutant(_PPM, "score_private_only", f"{_M}:learner_score_private_only", "utility",
           "m(g) counted on the private rows only (trap U5)", killed_by=(f"{_PPM}/Theorem 4.9/realizable-d1",)),
    Mutant(_PPM, "first_in_level", f"{_M}:learner_first_in_level", "both",
           "J is the first set of the drawn mistake level, not uniform within it (which set is first moves with the private "
           "rows: exact loss infinite on 11 of the 14 stress pairs, audit bound 11.2 > 1 on N5_tiny_single_public_point)",
           killed_by=("privacy audit", _L46)),
    Mutant(_PPM, "epsilon_thirtieth", f"{_M}:learner_epsilon_thirtieth", "utility",
           "Step 9 weights exp(-epsilon m/60): a selection 30 times too flat (at Theorem 4.9's d = 1 point, epsilon = "
           "0.9, n = 1499: mean population error 36x, 0.95 quantile 30x the reference's)",
           killed_by=(f"{_PPM}/Theorem 4.9/realizable-d1", f"{_PPM}/Lemma 4.6/em-gap")),
    Mutant(_PPM, "epsilon_third", f"{_M}:learner_epsilon_third", "utility",
           "Step 9 weights exp(-epsilon m/6), the score's sensitivity taken as 3/n: still epsilon-DP, but 2.6-2.9 times "
           "the reference's error on the d = 1 competitive checks' instances (0.9 quantile 0.057 against 0.021 at "
           "Theorem 4.9's d = 1 point, 0.031 against 0.011 at Theorem 4.10's; every paper bound still holds there)",
           killed_by=(f"{_PPM}/Theorem 4.9/vs-reference-d1", f"{_PPM}/Theorem 4.10/vs-reference-agnostic-d1")),
    Mutant(_PPM, "single_halfspaces", f"{_M}:learner_single_halfspaces", "utility",
           "Step 8 forms only j = 1 (single halfspaces and constant 1): Lemma 4.5's g* may need an intersection of d",
           killed_by=(f"{_PPM}/Claim 4.7/helly-wedge", _L46)),
    Mutant(_PPM, "float64_linear_weights", f"{_M}:learner_float64_linear_weights", "privacy",
           "Step 9 with linear-space float64 weights exp(-epsilon m/2), the first minimiser when they all underflow "
           "(every member of G with >= 1,491 mistakes at epsilon = 1); left to the audit's input-space search (no stress "
           "pair): its large_n generator's balanced copy of N1 (4,096 private rows, each x with both labels: every "
           "member of G makes >= 2,048 mistakes, two tie) with one label moved 1 -> 0 breaks the tie: infinite loss, "
           "audit bound 11.8 > 1 on search/large_n/balanced_label_down/N1_label_flip_deep_private, epsilon = 1",
           killed_by=("privacy audit",)),
    Mutant(_PPM, "first_1000_rows", f"{_M}:learner_first_1000_rows", "utility",
           "reads only its first 1,000 rows (a fixed buffer): the reference's law up to n = 1,000, the accuracy of n = "
           "1,000 beyond (still epsilon-DP: rows past the buffer are ignored); at n = 30,000 (d = 1, public mass 0.02, "
           "epsilon = 0.9) its median population error is about 22 times, its mean 16 times the reference's; every "
           "paper bound still holds (the checks at n <= 1,500 see at most 1.5 times the reference's error)",
           killed_by=(f"{_PPM}/Theorem 4.9/vs-reference-large-n",)),
    Mutant(_PPM, "tolerance_from_all_rows", f"{_M}:learner_tolerance_from_all_rows", "privacy",
           "the membership tolerance 1e-9 max(1, max|x|) taken over all rows, not the public ones (exact loss 2.25 > 1 when "
           "the N1 data's private record at 6 moves to 1e10, epsilon = 1); left to the audit's input-space search (no "
           "stress pair)", killed_by=("privacy audit",)),
)
