"""Black-box privacy auditor: epsilon lower bounds with confidence, on neighbouring pairs.

``audit(spec, implementation=None, ...)`` checks one implementation of a spec against the
spec's privacy claim (epsilon, delta) and returns an :class:`AuditResult`.

Method (one *round*; a default audit of a batched implementation may run a second, larger round)
-----------------------------------------------------------------------------------------------
1. **Pairs.** The spec's stress cases, then pairs generated from them by the neighbouring
   relation's patterns (:mod:`.pairs`). With more than one pair, a *pilot* sample of each pair
   predicts how large a bound it can give; the best two are kept (all of them up to four).
2. **Training split** (1/3 of the round's samples per side, pilot samples included), cut in two
   halves. On the *select* half every view of the output is searched for events:

   * views: the output itself (scalars); for vectors and sequences each coordinate, the sum,
     the mean-difference direction and Fisher's discriminant (continuous; the latter when it differs), a naive-Bayes log-likelihood-ratio score
     fitted on the select half (a learned score), the whole row as one discrete outcome, and,
     for outputs with few symbols v, the count of v and the position of the first v; for
     outputs with integer and continuous columns, the row of the integer columns crossed with a
     quantile bin of the continuous columns' sum (an event such as "four bottoms, then a top
     released with a value in [0, 1]");
   * events on a view: threshold events ``{s >= t}``, ``{s <= t}`` (thresholds at quantiles
     reaching into both tails), and for discrete views likelihood-ratio ordered unions of
     outcomes (prefixes of the outcomes sorted by estimated P[D]/P[D']);
   * both orientations (D against D', and D' against D);
   * an event is scored by the lower bound it would give on the test split if the
     estimated probabilities were exact (:meth:`.claims.Claim.predicted`), which
     accounts for delta (the best event maximises (p1 - delta)/p2) and for the confidence
     interval widths (a tiny-probability event with a huge ratio does not win).

   The best event per (pair, view, orientation, event family) is re-scored on the *rank*
   half (honest estimates, shrunk to their one-sigma Clopper-Pearson bounds so that the
   maximum over many small-count events is not over-rated); the best candidate, and up to two
   close competitors from other (pair, orientation)s, are carried to the test split: K <= 3.
   With more than four pairs, the pair search ranks each pair by the same rank score on a
   pilot sample (1/20 of the round's samples, its events scored for twice its runs as the training
   selection's are for twice its own; without the per-coordinate views of continuous
   columns, the naive-Bayes score, and the integer-only views that the row's unions cover) and
   keeps the best two; up to four, all stay.
3. **Test split** (fresh 2/3 of the samples per side): for each carried candidate, counts
   k1, k2; one-sided Clopper-Pearson bounds p_lo (numerator side) and p_hi (other side),
   each at level alpha_round / (2K); eps_lb = ln((p_lo - delta) / p_hi).
4. **Verdict.** "violation" iff some carried candidate has eps_lb > claimed epsilon of its pair
   (+ a tolerance of 1e-9, for floating point only); the counterexample is that candidate.
   Otherwise "no violation found", with tightness eps_lb / epsilon, when the audit had power:
   some estimated event could have shown a loss AUDIT_RESOLUTION (5%) above its pair's claim
   (its smallest detectable epsilon, :meth:`.claims.Claim.minimum_detectable`, is at most
   1.05 x the claim); else "no power" (never a pass).

Soundness (:mod:`.budget`). alpha = 1 - confidence is split equally over the rounds the audit *may* run (fixed
before any sampling: three for a default audit of per-call code (two, and the round for power
alone), two for a batched one, one for ``samples=N``, plus one for the tight round when asked) and
Bonferroni-split over the K candidates of each round; a candidate's two intervals get half
each. Everything chosen (pairs, views, events, K) is chosen on data that the bound never uses.
So, whatever the mechanism, P[some reported bound exceeds the true privacy loss of its pair
at delta] <= alpha, and P["violation" | the mechanism keeps its claim] <= alpha. The bound
reported is the maximum over all candidates of all rounds run, covered by the same event.

Rounds. Default budget per side per kept pair: 10^6 (round 1), then 10^7 (round 2) for a
batched implementation (fewer for a wide output: budgets of output values); 10^5, then 10^6 for a
single-run (looped) one. Round 2 runs only when round 1 found no violation and either round 1's
test estimates predict that round 2 would bound the loss above 1.05 x the claim, or round 1 had
no power; then it is sized so that its event could show a loss 5% above the claim (and that event, fixed,
is estimated there beside round 2's own choices, in its Bonferroni count), up to
POWER_MAX_SAMPLES (CALL_MAX_SAMPLES, 3 x 10^7, for looped code) (a heuristic: it can change only the
time taken, never the error rate, since round 2's share of alpha is fixed before any sampling and
its samples are fresh). For looped code whose round 1 was short of power only, round 2 is a round
for power alone: the most sensitive event of round 1, fixed, estimated on all of round 2's samples
(no selection third). For looped code the last round is always one for power alone, and runs only when round 2
left power short (its fresh selection's most sensitive event can be rarer than round 1's, so the
sizing undershoots): that event, estimated on as many fresh samples as it needs, up to the same caps.
``samples=N`` runs a single round of N samples per side (full alpha).

Tight round (``tight=True``, ``dptestbed audit --tight``). After the verdict's rounds, a
selection of its own runs on fresh training samples (3 x round 1's budget, the pair search
keeping four pairs), every event scored for the tight round's largest size, so that a rare
event of high loss (Lyu et al.'s Algorithm 3: probability 4.9e-4 against 4.2e-5) can win where
at the verdict's size a common one of lower loss does. The best of its candidates (rank-half
estimates) and of the verdict's candidates (test-split estimates, shrunk to one-sigma bounds)
-- pair, event and orientation all fixed by data the new samples are independent of -- is
estimated once more on fresh samples (K = 1, its own share of alpha, as above), as many per
side as its estimated probabilities say the bound needs to reach
TIGHT_TARGET of its plug-in loss ln((p1 - delta)/p2), at most TIGHT_MAX_SAMPLES (and
TIGHT_MAX_ELEMENTS output values).
The reported bound is then typically within a few percent of the exact loss of the winning
event's pair; the default stays sized for verdicts.

Speed. Selection counts instead of sorting where it can: an integer-valued view spanning fewer
than SMALL_SPAN values is counted per value with ``np.bincount`` (both sides, one pass each);
its threshold and likelihood-ratio events are cumulative sums of those counts, and the rank
half counts every event of the view from one per-value count. Membership of an event's values
is a table lookup for small integers, binary search otherwise (never ``np.isin``). Views of the
integer columns alone (row, counts, first positions, integer coordinates) are computed once per
distinct row and counted with the rows' counts as weights (:meth:`.views.Featurizer.group`); a
sample's symbol indices and row codes are computed once and shared by its views; quantile bins
are found by one comparison pass per edge (faster than a binary search per value for a few
dozen edges). No selection step calls BLAS, whose idle threads would spin on the cores the
auditor's own threads use. The events of all views of a selection are screened with the Wilson
approximation and the best four of each group scored in one exact Clopper-Pearson call, and the
rank-half estimates in one more. With a trusted batch sampler (run in this process) the
work runs on two threads: the pair search's pairs (drawn and selected), the kept pairs'
training, the estimation batches, and within a draw of more than 100,000 runs its blocks
(:mod:`..sandbox.runner`); every draw has its own stream, so the result does not depend on the threads.
``result.timing`` gives the CPU seconds of each part, summed over the threads: selection,
sampling (the implementation's own time; for code in worker processes, the auditor's wait),
counting (the chosen events on the test split), statistics (the rest of the auditing thread)
and exact (the exact profiles); ``seconds`` is the wall time.

Reproducibility: one seed per audit; every (round, pair, side, split) draws from
``SeedSequence(seed, spawn_key=(round, pair, side, split))``, and the test split in batches of
ESTIMATE_BATCH runs, batch b > 0 from the key extended by b (:func:`.estimation.estimation_key`), so that an
estimation can be spread over a Dask cluster (``batches``) with the same counts.

Result (:meth:`AuditResult.to_json`): ``spec``, ``implementation``, ``params``, ``claim``
{epsilon, delta}, ``epsilon_lower_bound`` (of the carried candidate furthest above its pair's claim, clamped at 0; null
for an implementation error), ``exact_epsilon`` (exact loss, at the claimed delta, of the
*spec's* mechanism on the pair the bound was measured on; null when unknown),
``exact_epsilon_max`` (over the pairs tried), ``exact_exceeds_claim``, ``tightness``
(bound / claim), ``exact_tightness`` (bound / exact), ``minimum_detectable_epsilon`` and
``power`` (on the most sensitive estimated event: the smallest true loss this sample size could
have shown above the claim, the claim, the resolution, the pair and the event: violations below it
are invisible to this audit), ``confidence``, ``samples_per_side`` (per kept pair, all rounds),
``verdict`` ("violation" | "no violation found" | "no power" | "differs from the spec" (a user
implementation whose bound exceeds the spec mechanism's exact loss on a pair: it leaks more than
the spec's mechanism, though not above the claim) | "implementation error"; the outcome class of
each, :mod:`..base.verdict`), ``expected`` ("violation" for a spec marked broken), ``counterexample``
(null, or the violating candidate: ``pair`` {name, data, neighbour, ...}, ``event``,
``p_data``, ``p_neighbour``, counts, ``p_lo``, ``p_hi``, its bound, claim and exact epsilon),
``best`` (the same object for the best candidate, whatever the verdict), ``reason``,
``seconds``, ``timing`` (CPU seconds by part, see Speed), ``seed``, ``pairs_tried``,
``events_tried``, ``rounds`` (the tight round marked ``"tight": true``), ``candidates``, ``pairs``.

Implementation errors (raises, wrong type or shape, NaN, a hang past ``timeout``, a dead
worker) end the audit with verdict "implementation error" and the reason; they never
propagate. A spec that cannot be audited (no privacy claim, parameters outside the domain,
no neighbouring pairs) raises :class:`AuditError`.

Measured false-alarm rate (tests/test_privacy_audit.py): Laplace and randomized response at
their exact epsilon, 2000 seeds each, 2*10^4 samples per side: 3.0% at nominal 20% (both),
0.3% at nominal 5% (Laplace): the Clopper-Pearson bounds and the union bound are conservative.

Modules: :mod:`.procedure` (``audit``: probe, rounds, verdict, exact profiles), :mod:`.options`
(``AuditOptions``: the settings of one audit, their defaults and meaning), :mod:`.budget` (``AlphaBudget``:
the split of alpha fixed before any sample), :mod:`.rounds`
(one round: pair search, selection, choice), :mod:`.views` (statistics of the outputs),
:mod:`.events` (events on a view and their search; the candidates), :mod:`.estimation` (counts on
fresh samples, bounds), :mod:`.tight` (the tight round), :mod:`.result` (``AuditResult``,
verdicts), :mod:`.progress` (the progress bar).
"""

from .options import AuditOptions
from .procedure import audit
from .result import AUDIT_RESOLUTION, DIFFERS, IMPL_ERROR, NO_POWER, NO_VIOLATION, VIOLATION, AuditError, AuditResult

__all__ = ["audit", "AuditOptions", "AuditResult", "AuditError", "VIOLATION", "NO_VIOLATION", "NO_POWER", "IMPL_ERROR", "DIFFERS",
           "AUDIT_RESOLUTION"]
