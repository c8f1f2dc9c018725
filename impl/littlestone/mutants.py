"""Implementation mutants of seed 003: each is the reference with exactly one realistic bug
(note 003 Section 6.3: P-M1..P-M9, P-G1, P-G2)."""

from __future__ import annotations

import math

import numpy as np

from dptestbed.impl.contract import batched
from dptestbed.impl.mutant import Mutant, post_processed, with_params
from dptestbed.impl.noise import laplace

from . import generic, histogram, learner, soa, stable
from .classes import FAIL_ID, hypothesis_from_id
from .generic import generic_private_learner

_IMPL = "dptestbed.impl.littlestone.mutants:"

# --------------------------------------------------------------------------- Hist


def _release_lap_one_over_eps(counts, n, epsilon, delta, rng):
    noisy = counts + laplace(rng, 1 / epsilon, counts.shape)              # BUG: add/remove scale 1/epsilon
    released = (counts > 0) & (noisy >= histogram.threshold(epsilon, delta))
    return released, np.minimum(1.0, noisy / n)


def _release_threshold_without_one(counts, n, epsilon, delta, rng):
    noisy = counts + laplace(rng, 2 / epsilon, counts.shape)
    released = (counts > 0) & (noisy >= (2 / epsilon) * math.log(1 / delta))   # BUG: no "1 +"
    return released, np.minimum(1.0, noisy / n)


def _release_threshold_log_over_eps(counts, n, epsilon, delta, rng):
    noisy = counts + laplace(rng, 2 / epsilon, counts.shape)
    released = (counts > 0) & (noisy >= math.log(1 / delta) / epsilon)    # BUG: tau = ln(1/delta)/epsilon
    return released, np.minimum(1.0, noisy / n)


def _release_blurred(counts, n, epsilon, delta, rng):
    released, a = histogram.release(counts, n, epsilon, delta, rng)
    blurred = a + laplace(rng, 6 / epsilon, counts.shape) / n              # BUG: a second noise on the estimate
    return released, np.minimum(1.0, blurred)


def _release_true_counts(counts, n, epsilon, delta, rng):
    noisy = counts + laplace(rng, 2 / epsilon, counts.shape)
    released = (counts > 0) & (noisy >= histogram.threshold(epsilon, delta))
    return released, np.minimum(1.0, counts / n)                          # BUG: true frequencies released


def _encode_first_occurrence(S, ids, released, a, n):
    first = np.array([np.flatnonzero(S == i)[0] for i in ids])
    order = np.argsort(first, kind="stable")                              # BUG: dict insertion order
    out = histogram.encode(S, np.arange(ids.size), released[:, order], a[:, order], n)
    rows = out[:, :, 0] >= 0
    out[:, :, 0] = np.where(rows, ids[order][np.maximum(out[:, :, 0], 0).astype(np.int64)], -1)
    # encode sorted the positions 0..u-1, i.e. first-occurrence order; map them back to the ids
    return out


def _encode_by_estimate(S, ids, released, a, n):
    out = histogram.encode(S, ids, released, a, n)
    key = np.where(out[:, :, 0] >= 0, -out[:, :, 1], np.inf)              # BUG: rows by decreasing estimate, not id
    order = np.argsort(key, axis=1, kind="stable")
    return np.take_along_axis(out, order[:, :, None], axis=1)


def _encode_negative_zero_padding(S, ids, released, a, n):
    out = histogram.encode(S, ids, released, a, n)
    position = np.arange(n)[None, :]
    suppressed = (position >= released.sum(axis=1, keepdims=True)) & (position < ids.size)  # occurring, not released
    out[:, :, 1] = np.where(suppressed, -0.0, out[:, :, 1])               # BUG: their 'no estimate' written as -0.0
    return out


hist_laplace_one_over_epsilon = histogram.make_histogram(
    _release_lap_one_over_eps, doc="Hist with noise Lap(1/epsilon) (add/remove scale) instead of Lap(2/epsilon).")
hist_threshold_without_one = histogram.make_histogram(
    _release_threshold_without_one,
    doc="Hist with threshold (2/epsilon) ln(1/delta), the '1 +' dropped: a count-1 item is released with probability "
        "e^(epsilon/2) delta/2 instead of delta/2, still <= delta for epsilon <= 2 ln 2, and on every pair the only "
        "delta-event is such an item's release (the other changed count moves by 1, a ratio e^(epsilon/2)), so it "
        "keeps the claim (exact epsilon at the claimed delta, largest over the 52 pairs the audit tries: 0.96 against "
        "1, on a count shift, as the reference's; the delta-event 0.0165 <= delta = 0.02 at epsilon = 1; privacy "
        "audit epsilon_lb 0.89, smallest detectable 1.04): only the reference's release law sees it.")
hist_threshold_log_over_epsilon = histogram.make_histogram(
    _release_threshold_log_over_eps, doc="Hist with threshold ln(1/delta)/epsilon.")
hist_true_counts = histogram.make_histogram(
    _release_true_counts, doc="Hist releasing the true frequencies c_x/n of the released items.")
hist_estimates_blurred = histogram.make_histogram(
    _release_blurred,
    doc="Hist whose released estimates get a second, independent Lap(6/epsilon)/n added to the noisy frequency: "
        "post-processing of the spec's release, so it keeps the claim (epsilon, delta) exactly, but its estimates "
        "are about three times less accurate (0.9 quantile of the error 0.031 against 0.010 at n = 455).")
hist_epsilon_quartered = histogram.make_histogram(
    lambda counts, n, epsilon, delta, rng: histogram.release(counts, n, epsilon / 4, delta, rng),  # BUG: eps/4
    doc="Hist run at epsilon/4 (a composition it does not need): private (exact epsilon at the claimed delta, "
        "largest over the 52 pairs the audit tries: 0.21 against 1), but heavy items are lost.")
hist_negative_zero_padding = histogram.make_histogram(
    encode_fn=_encode_negative_zero_padding,
    doc="Hist writing the padding row of each occurring but suppressed item as (-1, -0.0) ('no estimate'), the "
        "other padding rows (-1, +0.0): the values compare equal, the sign bits count the suppressed items (the "
        "support size leaks without noise).")
hist_sorted_by_estimate = histogram.make_histogram(
    encode_fn=_encode_by_estimate,
    doc="Hist listing the released items by decreasing noisy estimate, not ascending id: post-processing of the spec's "
        "release (private), but an output the spec does not define (a user reading row j as the j-th id misreads it).")
hist_first_occurrence_order = histogram.make_histogram(
    encode_fn=_encode_first_occurrence, doc="Hist listing the released items in first-occurrence order.")

# --------------------------------------------------------------------------- GenericLearner

generic_missing_half = with_params(
    generic_private_learner, lambda p: {**p, "epsilon": 2 * p["epsilon"]},
    "GenericLearner with weights exp(-epsilon err_S(h)) (the 1/2 of the exponential mechanism dropped).")
def _fraction_batch(data, size, *, rng, epsilon):
    return generic_private_learner.batch(data, size, rng=rng, epsilon=epsilon / len(data["x"]))   # BUG: loss_S


@batched(_fraction_batch)
def generic_fraction_loss(data, *, rng, epsilon):
    """GenericLearner with weights exp(-epsilon loss_S(h)/2), the fraction instead of the count (private, useless)."""
    return int(_fraction_batch(data, 1, rng=rng, epsilon=epsilon)[0])
def _rounded_rates_batch(data, size, *, rng, epsilon):
    H, x, y = generic._candidates(data)
    n = len(x)
    counts = np.round(generic.errors(H, x, y) / n, 3) * n  # BUG: the error rate rounded to 3 decimals, back to a count
    logits = -epsilon * counts / 2
    return rng.choice(H.shape[0], size=size, p=np.exp(logits - np.logaddexp.reduce(logits)))


@batched(_rounded_rates_batch)
def generic_rounded_rates(data, *, rng, epsilon):
    """GenericLearner whose error rates are rounded to 3 decimals before the weights: a step of n/1000 mistakes, so
    above 1,000 records one record moves a count by 0 or by several."""
    return int(_rounded_rates_batch(data, 1, rng=rng, epsilon=epsilon)[0])


generic_constant = post_processed(
    generic_private_learner, lambda out, data, rng, params: np.zeros_like(out),
    "GenericLearner that always outputs the first candidate.")


# --------------------------------------------------------------------------- Ldim


class _MaxInsteadOfMin(soa.Class):
    """Ldim recursion with 1 + max(...) over the two sides instead of 1 + min(...)."""

    def ldim(self, mask=None):
        mask = self.full if mask is None else mask
        if mask in self._ldim:
            return self._ldim[mask]
        best = 0
        for pm in self.pos_mask:
            plus = mask & pm
            if plus and plus != mask:
                best = max(best, 1 + max(self.ldim(plus), self.ldim(mask ^ plus)))   # BUG: max
        self._ldim[mask] = best
        return best


def ldim_max_instead_of_min(data, *, rng=None) -> int:
    """Ldim with the recursion 1 + max(Ldim(V+), Ldim(V-)) (a shattered tree needs both sides)."""
    H = np.asarray(data)
    return -1 if H.shape[0] == 0 else _MaxInsteadOfMin(H).ldim()


WORD = 64  # points the word-packed mutant keeps (one 64-bit word per function)


def ldim_first_word_only(data, *, rng=None) -> int:
    """Ldim of the truth table packed into one 64-bit word per function: the points past the first 64 are lost
    (a shift by 64 or more gives 0), so a class that differs only there counts as one function."""
    H = np.asarray(data)
    return soa.littlestone_dimension(H[:, :WORD]) if H.ndim == 2 else soa.littlestone_dimension(H)


def soa_first_word_only(data, *, rng=None) -> np.ndarray:
    """SOA on the truth table packed into one 64-bit word per function: the points past the first 64 are lost, so
    the version space ignores the examples there and the predictor says -1 there."""
    H = np.asarray(data["H"])
    x = np.asarray(data["x"], dtype=np.int64)
    y = np.asarray(data["y"])
    seen = x < WORD
    out = soa.standard_optimal_algorithm({"H": H[:, :WORD], "x": x[seen], "y": y[seen]})
    width = min(H.shape[1], WORD)
    h, predictions = out[:width], np.full(x.size, -1, np.int64)
    predictions[seen] = out[width:width + int(seen.sum())]
    h = np.concatenate([h, -np.ones(H.shape[1] - width, np.int64)])
    return np.concatenate([h, predictions, [int(np.sum(predictions != y))]]).astype(np.int64)


class _BalancedSplits(soa.Class):
    """Ldim recursion that, past BEAM_ABOVE splitting points, tries only the BEAM most balanced ones."""

    BEAM_ABOVE, BEAM = 8, 4

    def ldim(self, mask=None):
        mask = self.full if mask is None else mask
        if mask in self._ldim:
            return self._ldim[mask]
        splits = {mask & pm for pm in self.pos_mask if mask & pm and mask & pm != mask}
        ranked = sorted(splits, key=lambda plus: abs(2 * plus.bit_count() - mask.bit_count()))
        if len(ranked) > self.BEAM_ABOVE:
            ranked = ranked[:self.BEAM]                                    # BUG: a beam of balanced splits
        self._ldim[mask] = max((1 + min(self.ldim(plus), self.ldim(mask ^ plus)) for plus in ranked), default=0)
        return self._ldim[mask]


def ldim_balanced_splits_only(data, *, rng=None) -> int:
    """Ldim searching, past 8 splitting points, only the 4 most balanced (the best split of a class can be
    unbalanced: a cube on 3 points beside co-point functions has Ldim 3, the beam finds 2)."""
    H = np.asarray(data)
    return -1 if H.shape[0] == 0 else _BalancedSplits(H).ldim()


class _WorstPoint(soa.Class):
    """Ldim recursion taking the worst splitting point instead of the best one."""

    def ldim(self, mask=None):
        mask = self.full if mask is None else mask
        if mask in self._ldim:
            return self._ldim[mask]
        values = [1 + min(self.ldim(mask & pm), self.ldim(mask ^ (mask & pm)))
                  for pm in self.pos_mask if mask & pm and mask & pm != mask]
        self._ldim[mask] = min(values, default=0)                          # BUG: min over x
        return self._ldim[mask]


def ldim_worst_point(data, *, rng=None) -> int:
    """Ldim with the outer max over points replaced by a min (an under-estimate)."""
    H = np.asarray(data)
    return -1 if H.shape[0] == 0 else _WorstPoint(H).ldim()


def ldim_empty_zero(data, *, rng=None) -> int:
    """Ldim with the convention Ldim(empty) = 0 (violates C1)."""
    return max(0, soa.littlestone_dimension(data))                       # BUG: empty class -> 0


# --------------------------------------------------------------------------- SOA and G


class _NoDefinition8(soa.Class):
    """SOA without Definition 8: an empty version space predicts from the empty set (all ties: +1)."""

    def run(self, state, x, y):
        mask, _h = state
        if len(x) == 0:
            return state
        live = self._to_bool(mask) & np.logical_and.reduce(self.pos[:, x] == (np.asarray(y) > 0)[None, :], axis=1)
        return self._to_int(live) or 0, None                              # BUG: mask 0 -> predictor(0)

    def hypothesis(self, state):
        return self.predictor(state[0])


class _TieToEmptySide(soa.ClassTiesMinus):
    """SOA breaking Ldim ties towards -1 with Ldim(empty) = 0 (P-G2): the empty side can win."""

    def ldim(self, mask=None):
        return 0 if mask == 0 else super().ldim(mask)                      # BUG: Ldim(empty) = 0


class _Halving(soa.Class):
    """The Halving learner in the SOA's place: each point predicted by the larger side of the version space."""

    def predictor(self, mask):
        h = np.empty(self.X, dtype=np.int8)
        for x, pm in enumerate(self.pos_mask):
            plus = mask & pm
            h[x] = 1 if plus.bit_count() >= (mask ^ plus).bit_count() else -1      # BUG: |V+| against |V-|, not Ldim
        return h


def _soa_with(cls_type):
    def mechanism(data, *, rng=None):
        cls = cls_type(data["H"])
        x, y = soa.sequence(data, cls.X)
        predictions, state = cls.trace(x, y)
        return np.concatenate([cls.hypothesis(state), predictions, [int(np.sum(predictions != y))]]).astype(np.int64)
    return mechanism


class _SharedMemo(soa.Class):
    """Ldim values memoised for the whole process, keyed by the version space's row mask only (not the class)."""

    MEMO: dict[int, int] = {0: -1}  # BUG: one memo for every class the process ever sees

    def __init__(self, H):
        super().__init__(H)
        self._ldim = self.MEMO


soa_without_definition_8 = _soa_with(_NoDefinition8)
soa_without_definition_8.__doc__ = "SOA whose predictor on a non-realizable prefix is the empty set's (no Definition 8)."
soa_empty_side_wins = _soa_with(_TieToEmptySide)
soa_empty_side_wins.__doc__ = "SOA with Ldim(empty) = 0 and ties to -1, so the empty side can win the argmax (P-G2)."
soa_halving = _soa_with(_Halving)
soa_halving.__doc__ = ("The Halving learner (the larger side of the version space) in the SOA's place: log2 |H| "
                       "mistakes, more than Ldim(H) on a class whose larger side is not the side of larger Ldim.")
soa_memo_across_classes = _soa_with(_SharedMemo)
soa_memo_across_classes.__doc__ = ("SOA whose Ldim memo is kept for the process, keyed by row masks only: a class "
                                   "after another reads the other's values.")


def _g_with_class(cls_type):
    def mechanism(data, *, rng, d, alpha, c):
        cls = cls_type(data["H"])
        x, y = soa.sequence(data, cls.X)
        n, N = stable.g_sizes(int(d), alpha, c)
        return stable.run_g(cls, x, y, d=int(d), n=n, N=N, coins=stable.RngCoins(rng), k=int(rng.integers(int(d) + 1)))
    return mechanism


g_soa_empty_side_wins = _g_with_class(_TieToEmptySide)
g_soa_empty_side_wins.__doc__ = "Algorithm G over an SOA with Ldim(empty) = 0 and ties to -1 (P-G2)."
def _g_level_off_by_one_batch(data, size, *, rng, d, alpha, c):
    return np.stack([g_level_off_by_one(data, rng=rng, d=d, alpha=alpha, c=c) for _ in range(int(size))])


@batched(_g_level_off_by_one_batch)
def g_level_off_by_one(data, *, rng, d, alpha, c):
    """Algorithm G drawing its level k from {0..d-1} instead of {0..d} (an off-by-one in rng.integers): level d,
    the only one whose tournaments can make the output stable when SOA(T) alone is not, is never run."""
    cls = stable.class_of(data["H"])
    x, y = soa.sequence(data, cls.X)
    n, N = stable.g_sizes(int(d), alpha, c)
    return stable.run_g(cls, x, y, d=int(d), n=n, N=N, coins=stable.RngCoins(rng), k=int(rng.integers(int(d))))  # BUG


def g_keeps_winner(data, *, rng, d, alpha, c):
    """Algorithm G whose step (v) keeps the side whose f_b(x) = y (a flipped comparison): the appended example
    forces no mistake, Observation 11(1) fails at every level k >= 1, and G's output law differs."""
    cls = stable.class_of(data["H"])
    x, y = soa.sequence(data, cls.X)
    n, N = stable.g_sizes(int(d), alpha, c)
    return stable.run_g(cls, x, y, d=int(d), n=n, N=N, coins=stable.RngCoins(rng), k=int(rng.integers(int(d) + 1)),
                        loser=False)  # BUG


g_constant = post_processed(
    stable.globally_stable_learner, lambda out, data, rng, params: -np.ones_like(out),
    "Algorithm G that always outputs the all -1 function.")

# --------------------------------------------------------------------------- M


def _mode_fallback_finish(cls, U, counts, xs, ys, *, epsilon, delta, eta, rng):
    keep = learner.prune(U, counts, epsilon=epsilon, delta=delta, eta=eta, rng=rng)
    out = learner.choose(cls, U, keep, xs, ys, epsilon_g=epsilon / 2, rng=rng)
    empty = ~keep.any(axis=1)
    out[empty] = hypothesis_from_id(U[counts[empty].argmax(axis=1)], cls.X)   # BUG: non-private fallback (P-M6)
    return out


def _no_half_finish(cls, U, counts, xs, ys, *, epsilon, delta, eta, rng):
    keep = learner.prune(U, counts, epsilon=epsilon, delta=delta, eta=eta, rng=rng)
    return learner.choose(cls, U, keep, xs, ys, epsilon_g=epsilon, rng=rng)    # BUG: weights exp(-eps_g err)


def _no_pruning_finish(cls, U, counts, xs, ys, *, epsilon, delta, eta, rng):
    return learner.finish(cls, U, counts, xs, ys, epsilon=epsilon, delta=delta, eta=0.0, rng=rng)  # BUG: no 2b


def _eta_from_data_finish(cls, U, counts, xs, ys, *, epsilon, delta, eta, rng):
    top = counts.max(axis=1) / counts[0].sum()
    out = np.empty((counts.shape[0], cls.X), dtype=np.int8)
    for value in np.unique(top):                                          # BUG: eta = modal frequency (P-M7)
        rows = top == value
        out[rows] = learner.finish(cls, U, counts[rows], xs, ys, epsilon=epsilon, delta=delta, eta=float(value), rng=rng)
    return out


def _assert_realizable_batch(data, size, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
    cls, _, k_, _, _, m, x, y = learner._setup(data, learner.sizes, d, alpha, c, k, n_prime)
    if not all(cls.run(cls.start(), x[s], y[s])[0] for s in learner.batches(k_, m)):
        return np.zeros((size, cls.X), dtype=np.int8)        # BUG: an exception, observed as the output (P-M5)
    return learner.private_littlestone_learner.batch(data, size, rng=rng, epsilon=epsilon, delta=delta, alpha=alpha,
                                                     d=d, eta=eta, c=c, k=k, n_prime=n_prime)


@batched(_assert_realizable_batch)
def m_exception_non_realizable(data, *, rng, epsilon, delta, alpha, d, eta, c, k, n_prime):
    """Algorithm M that asserts every batch is realizable (as Theorem 17 assumes of D) and raises otherwise; the
    exception is an output (P-M5: privacy must hold for non-realizable samples too), observed here as the all-zero
    row (measured: privacy audit epsilon_lb 11.7 against the claim 1 on batch1_last_example, where only the neighbour's
    batch 1 is non-realizable: the row never occurs on the other side, the exact loss is infinite)."""
    return _assert_realizable_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, alpha=alpha, d=d, eta=eta, c=c,
                                    k=k, n_prime=n_prime)[0]


m_mode_fallback = learner.make_learner(
    learner.ALGORITHM_G, learner.sizes, "Algorithm M that outputs the modal h_i instead of the fixed default "
    "when the pruned list is empty (P-M6).", _mode_fallback_finish)
_AUDIT_PAIRS = "largest over the 9 pairs the audit tries"   # tests/littlestone/test_mutant_labels.py recomputes it


def _generic_third_finish(cls, U, counts, xs, ys, *, epsilon, delta, eta, rng):
    keep = learner.prune(U, counts, epsilon=epsilon, delta=delta, eta=eta, rng=rng)
    return learner.choose(cls, U, keep, xs, ys, epsilon_g=epsilon / 6, rng=rng)    # BUG: sensitivity taken as 3


def _hist_without_noise_finish(cls, U, counts, xs, ys, *, epsilon, delta, eta, rng):
    k = counts[0].sum()
    kept = (counts >= histogram.threshold(epsilon / 2, delta)) & (counts / k >= 3 * eta / 4) & (U != FAIL_ID)   # BUG: no noise
    return learner.choose(cls, U, kept, xs, ys, epsilon_g=epsilon / 2, rng=rng)


m_hist_without_noise = learner.make_learner(
    learner.ALGORITHM_G, learner.sizes, "Algorithm M whose Hist compares the true counts of h_1..h_k with its "
    "threshold (no Laplace noise; estimates c/k): which hypotheses reach GenericLearner is then a deterministic "
    "function of the counts, so one batch moving a count across tau changes the output's support (measured: privacy "
    "audit epsilon_lb 11.2 against the claim 1 on pattern_threshold_crossing, where t_1's count is 28 on D and 29 "
    "on about half of D''s runs).", _hist_without_noise_finish)
m_generic_missing_half = learner.make_learner(
    learner.ALGORITHM_G, learner.sizes, "Algorithm M whose GenericLearner weights are exp(-(epsilon/2) err) "
    "instead of exp(-(epsilon/2) err/2) (P-M8): GenericLearner is then epsilon-DP, and since a change in S' moves "
    "only GenericLearner and one in a batch only Hist ((epsilon/2, delta)), M keeps the claim (epsilon, delta) on "
    "every pair, but not the parallel-composition epsilon/2 (exact epsilon at the claimed delta, "
    f"{_AUDIT_PAIRS}: 0.92 against 1, on pattern_final_sample_first_example, the reference's 0.44; privacy audit "
    "epsilon_lb 0.91 there at 1.1e7 samples per side: differs from the spec, within the claim).",
    _no_half_finish)
m_generic_whole_sample = learner.make_learner(
    learner.ALGORITHM_G, learner.sizes, "Algorithm M whose GenericLearner (step 3) scores the hypotheses on the whole "
    "sample (the k batches and S') instead of S' alone: an example of a batch is read by G and by GenericLearner, "
    "so M is epsilon- rather than epsilon/2-DP (sequential, not parallel composition): inside the claim (epsilon, "
    f"delta), a law that differs from the spec's (exact epsilon at the claimed delta, {_AUDIT_PAIRS}: 0.44 against "
    "1).", learner.finish, learner.batches, lambda x, y, k, m: (x, y))
m_generic_sensitivity_three = learner.make_learner(
    learner.ALGORITHM_G, learner.sizes, "Algorithm M whose GenericLearner weights are exp(-(epsilon/2) err/6) "
    "instead of exp(-(epsilon/2) err/2) (the score's sensitivity taken as 3): more private than claimed (step 3 is "
    f"epsilon/6-DP; exact epsilon at the claimed delta, {_AUDIT_PAIRS}: 0.17 against 1), and its choice on S' three "
    "times flatter: on scaled-d1's distribution at k = 128, n' = 400, eta = 0.2 it misses the target about 3.3 "
    "times as often as the reference.", _generic_third_finish)
m_no_pruning = learner.make_learner(
    learner.ALGORITHM_G, learner.sizes, "Algorithm M without the pruning step a_h >= 3 eta/4 (E11): "
    f"post-processing of Hist's release, so it keeps the claim (exact epsilon at the claimed delta, {_AUDIT_PAIRS}: "
    "0.44 against 1).", _no_pruning_finish)
m_eta_from_private_data = learner.make_learner(
    learner.ALGORITHM_G, learner.sizes, "Algorithm M that sets eta to the modal frequency of h_1..h_k "
    "(a 'pilot' on the private input, P-M7): the pruning threshold 3/4 of the true top count is not noised. Not "
    f"shown to break the claim (exact epsilon at the claimed delta, {_AUDIT_PAIRS}: 0.40 against 1; privacy audit "
    "epsilon_lb 0.38, smallest detectable 1.03): on those pairs G outputs at most three hypotheses, and the leak "
    "grows with the number of released hypotheses near the threshold, so a richer class may break it; no "
    "measurement shows it, so the label is utility.", _eta_from_data_finish)
m_overlapping_batches = learner.make_learner(
    learner.ALGORITHM_G, learner.sizes, "Algorithm M whose batches overlap by half (batch i starts at (i-1) m/2), so "
    "one example is read by two runs of G (P-M2): two h_i change, so Hist's loss doubles to epsilon and its "
    "delta-event becomes (delta/2) e^(epsilon/4) < delta: the (epsilon, delta) claim holds, the parallel-composition "
    f"epsilon/2 does not (exact epsilon at the claimed delta, {_AUDIT_PAIRS}: 0.44 against 1; privacy audit "
    "epsilon_lb 0.43, smallest detectable 1.03).",
    learner.finish,
    lambda k, m: [slice(i * (m // 2), i * (m // 2) + m) for i in range(k)])       # BUG: stride m/2
m_constant = post_processed(
    learner.private_littlestone_learner, lambda out, data, rng, params: -np.ones_like(out),
    "Algorithm M that always outputs the all -1 function.")


def _hist_domain_batch(data, size, *, rng, epsilon, delta, n):
    S = histogram.items(data, n)
    ids, counts = np.unique(S, return_counts=True)
    released, a = histogram.release(np.broadcast_to(counts, (size, ids.size)).astype(float), n, epsilon, delta, rng)
    out = histogram.encode(S, ids, released, a, n)
    # BUG: every id from 0 to the largest in the data gets a noisy count; each of the absent ones is released
    # with probability p = P[Lap(2/eps) >= tau], its estimate tau + Exp(2/eps) given that. Sampled without a
    # draw per id: K ~ Bin(absent, p) released a run, and of them only the n smallest can be shown, placed by
    # the order statistics of K uniforms (exponential spacings; positions rounded down to an absent id)
    tau, absent = histogram.threshold(epsilon, delta), int(S.max()) + 1 - ids.size if S.size else 0
    if absent <= 0:
        return out
    k = rng.binomial(absent, 0.5 * math.exp(-tau * epsilon / 2), size=size)
    shown = np.minimum(k, n)
    spacings = np.cumsum(rng.exponential(size=(size, n)), axis=1)
    rest = rng.gamma(np.maximum(k + 1 - shown, 1), size=size)
    total = np.take_along_axis(spacings, np.maximum(shown - 1, 0)[:, None], axis=1)[:, 0] + rest
    rank = np.minimum((spacings / total[:, None] * absent).astype(np.int64), absent - 1)
    gaps = ids - np.arange(ids.size)                  # the k-th absent id is k plus the present ids at or below it
    fresh = (rank + np.searchsorted(gaps, rank, side="right")).astype(float)
    fresh[np.arange(n)[None, :] >= shown[:, None]] = -1
    value = np.minimum(1.0, (tau + rng.exponential(2 / epsilon, size=(size, n))) / n)
    rows = np.concatenate([out, np.stack([fresh, np.where(fresh >= 0, value, 0.0)], axis=2)], axis=1)
    order = np.argsort(np.where(rows[:, :, 0] >= 0, rows[:, :, 0], np.inf), axis=1, kind="stable")[:, :n]
    return np.take_along_axis(rows, order[:, :, None], axis=1)


@batched(_hist_domain_batch)
def hist_domain_from_data(data, *, rng, epsilon, delta, n):
    """Hist with a noisy count on every id from 0 to the largest id in the data, absent ones included (a domain
    read from the data): an id of 10^6 in D' releases an absent id with probability 0.26 at epsilon 1."""
    return _hist_domain_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, n=n)[0]


LONG_TAIL = 100  # distinct ids above which the long-tail mutant prunes its singletons


def _hist_prune_batch(data, size, *, rng, epsilon, delta, n):
    S = histogram.items(data, n)
    ids, counts = np.unique(S, return_counts=True)
    if ids.size > LONG_TAIL:  # BUG: a long-tailed list's count-1 ids dropped before the noise
        ids, counts = ids[counts > 1], counts[counts > 1]
    released, a = histogram.release(np.broadcast_to(counts, (size, ids.size)).astype(float), n, epsilon, delta, rng)
    return histogram.encode(S, ids, released, a, n)


@batched(_hist_prune_batch)
def hist_prune_long_tail(data, *, rng, epsilon, delta, n):
    """Hist that drops the count-1 ids of a list with more than 100 distinct ids before the noise (a singleton is
    released only with probability delta/2 anyway): at 101 distinct ids against 100, every singleton of the
    neighbour may be released (probability delta/2 each) and none of the list's."""
    return _hist_prune_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, n=n)[0]


HUGE_ID = 2 ** 31  # ids from which the huge-id mutant counts on its second path


def _hist_huge_ids_batch(data, size, *, rng, epsilon, delta, n):
    S = histogram.items(data, n)
    ids, counts = np.unique(S, return_counts=True)
    scale = 1 / epsilon if S.size and int(S.max()) >= HUGE_ID else 2 / epsilon  # BUG: the second path's scale
    noisy = counts + laplace(rng, scale, (size, ids.size))
    released = (counts > 0) & (noisy >= histogram.threshold(epsilon, delta))
    return histogram.encode(S, ids, released, np.minimum(1.0, noisy / n), n)


@batched(_hist_huge_ids_batch)
def hist_huge_ids_half_noise(data, *, rng, epsilon, delta, n):
    """Hist whose lists with an id at or above 2^31 are counted on a second path (a dict of int64 ids) with
    Laplace noise of scale 1/epsilon instead of 2/epsilon: a count moved by one shows a loss of 2 epsilon there,
    and no move of one id (at most 10^6) reaches that path."""
    return _hist_huge_ids_batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, n=n)[0]


def _mutant(spec, name, breaks, killed_by, equivalent=""):
    fn = globals()[name]
    return Mutant(spec, name, _IMPL + name, breaks, " ".join((fn.__doc__ or "").split()), tuple(killed_by), equivalent)


_AUDIT = "privacy audit"
_LD, _SOA, _G, _H, _GEN, _M = ("littlestone_dimension", "standard_optimal_algorithm", "globally_stable_learner",
                              "stable_histogram", "generic_private_learner", "private_littlestone_learner")
_HIST_LAW = f"{_H}/Lemma 15 (privacy)/reference-release-law"
_M_LAW = f"{_M}/Theorem 17 (privacy)/exact-law"
MUTANTS = (
    _mutant(_LD, "ldim_max_instead_of_min", "utility", [f"{_LD}/Section 3.2 (Littlestone dimension)/definition",
                                                         f"{_LD}/Fact A5 (intervals)/intervals"]),
    _mutant(_LD, "ldim_empty_zero", "utility", [f"{_LD}/Section 3.2 (Littlestone dimension)/definition"]),
    _mutant(_LD, "ldim_first_word_only", "utility", [f"{_LD}/Section 3.2 (Littlestone dimension)/wide-domains"]),
    _mutant(_LD, "ldim_balanced_splits_only", "utility", [f"{_LD}/Section 3.2 (Littlestone dimension)/definition"]),
    _mutant(_SOA, "soa_memo_across_classes", "utility", [f"{_SOA}/Section 3.2 (SOA mistake bound)/history"]),
    _mutant(_SOA, "soa_first_word_only", "utility", [f"{_SOA}/Section 3.2 (SOA mistake bound)/adversary"]),
    _mutant(_LD, "ldim_worst_point", "utility", [f"{_LD}/Fact A6 (VC dimension)/vc-below-ldim"]),
    _mutant(_SOA, "soa_without_definition_8", "utility",
            [f"{_SOA}/Definition 8 (non-realizable extension)/statement",
             f"{_SOA}/Definition 8 (non-realizable extension)/reference-tie-rule"]),
    _mutant(_SOA, "soa_halving", "utility", [f"{_SOA}/Section 3.2 (SOA mistake bound)/adversary"]),
    _mutant(_SOA, "soa_empty_side_wins", "utility", [f"{_SOA}/Section 3.2 (SOA mistake bound)/adversary",
                                                     f"{_SOA}/Fact A1 (identification after d mistakes)/identification",
                                                     f"{_SOA}/Definition 8 (non-realizable extension)/statement",
                                                     f"{_SOA}/Observation 11/tournament-invariants"]),
    _mutant(_G, "g_soa_empty_side_wins", "utility", [f"{_G}/Fact A1 (universal frequency bound)/universal",
                                                     f"{_G}/Lemma 13/per-output", f"{_G}/Proposition 5/consistent-learner"]),
    _mutant(_G, "g_level_off_by_one", "utility", [f"{_G}/Theorem 10 (budget c)/conditional-tournament-d1"]),
    _mutant(_G, "g_keeps_winner", "utility", [f"{_G}/Theorem 10 (budget c)/law-vs-reference-points"]),
    _mutant(_G, "g_constant", "utility", [f"{_G}/Fact A1 (universal frequency bound)/universal",
                                          f"{_G}/Lemma 13/per-output", f"{_G}/Proposition 5/consistent-learner",
                                          f"{_G}/Theorem 10 (budget c)/conditional-d2"]),
    _mutant(_H, "hist_laplace_one_over_epsilon", "privacy", [_AUDIT, _HIST_LAW]),
    _mutant(_H, "hist_threshold_without_one", "utility", [_HIST_LAW]),
    _mutant(_H, "hist_threshold_log_over_epsilon", "privacy", [_AUDIT]),
    _mutant(_H, "hist_true_counts", "privacy", [_AUDIT, _HIST_LAW]),
    _mutant(_H, "hist_first_occurrence_order", "privacy", [_AUDIT]),
    _mutant(_H, "hist_negative_zero_padding", "privacy", [_AUDIT]),
    _mutant(_H, "hist_sorted_by_estimate", "utility", [f"{_H}/Lemma 15 (privacy)/canonical-order"]),
    _mutant(_H, "hist_epsilon_quartered", "utility", [f"{_H}/Lemma 15 (accuracy)/heavy-item"]),
    _mutant(_H, "hist_estimates_blurred", "utility", [f"{_H}/Lemma 15 (accuracy)/vs-reference-heavy-item"]),
    _mutant(_GEN, "generic_missing_half", "privacy", [_AUDIT, f"{_GEN}/Lemma 16 (privacy)/exact-softmax"]),
    _mutant(_GEN, "generic_fraction_loss", "utility", [f"{_GEN}/Lemma 16 (accuracy)/planted"]),
    _mutant(_GEN, "generic_constant", "utility", [f"{_GEN}/Lemma 16 (accuracy)/planted"]),
    _mutant(_GEN, "generic_rounded_rates", "privacy", [_AUDIT]),
    _mutant(_M, "m_exception_non_realizable", "privacy", [_AUDIT]),
    _mutant(_M, "m_mode_fallback", "privacy", [_AUDIT]),
    _mutant(_M, "m_hist_without_noise", "privacy", [_AUDIT]),
    _mutant(_M, "m_generic_missing_half", "utility", [_M_LAW]),
    _mutant(_M, "m_generic_whole_sample", "utility", [_M_LAW]),
    _mutant(_M, "m_no_pruning", "utility", [_M_LAW]),
    _mutant(_M, "m_eta_from_private_data", "utility", [_M_LAW]),
    _mutant(_M, "m_overlapping_batches", "utility", [_M_LAW]),
    _mutant(_M, "m_constant", "utility", [_M_LAW, f"{_M}/Theorem 17 (accuracy)/scaled-d1"]),
    _mutant(_H, "hist_domain_from_data", "privacy", [_AUDIT]),
    _mutant(_H, "hist_prune_long_tail", "privacy", [_AUDIT]),
    _mutant(_H, "hist_huge_ids_half_noise", "privacy", [_AUDIT]),
    _mutant(_M, "m_generic_sensitivity_three", "utility", [f"{_M}/Theorem 17 (accuracy)/vs-reference-d1", _M_LAW]),
)
