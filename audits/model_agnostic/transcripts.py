"""Exact transcript laws of the seed-000 sparse-vector family, and the checks built on them.

Algorithms 1 (sparse vector), 3 (A_OQR), 4 (A_subSamp, printed and corrected; Sec. 4.1 and 004's
A_binClas on chunk votes), 6 (A_SL-Quer) and 8 (H_Priv) share one state machine: a noisy
threshold w_hat = w + Lap(lam), one comparison q + Lap(2 lam) > w_hat per (sub-)query, a re-draw
of w_hat and c += 1 after each bottom only, and a halt once c > T. The law of a whole transcript
is therefore a product over the segments between re-draws of one-dimensional integrals over the
segment's threshold noise, computed by Gauss-Legendre quadrature (``audits.exact.svt_segment``
on each segment). Three kinds of registered check use it, all sampling only through ``ctx.sample``:

* ``transcript`` (calibration): 3-4 queries placed near w; one cell per transcript, against its
  exact probability. The alternatives shown for power are lam x 1.3 and x 0.7 and the two
  state-rule changes (threshold re-drawn after every answer; never re-drawn). An output that is
  not a transcript of the algorithm (a wrong label, a value outside the encoding, an answer after
  the halt) falls in the cell "invalid", whose exact probability is 0.
* ``release-calibration`` (calibration): one query, P[release | dist = d] = S(w - d) at
  d = w - 2 lam, w - lam/2, w + lam (App. A2-A3), with the spec's lam and w, so an implementation
  with other constants is probed near its own threshold as well as near the paper's.
* ``delta-event`` (bound, a structural-zero test of the privacy claim): all m queries unstable
  (dist 0), and one neighbour D' changes every answer, so the event "some query is released" has
  probability 0 on D' and, by (epsilon, delta)-DP, at most delta on D whatever epsilon. Where the
  instance is a tie (vote counts, soft-label histograms), which answer is D's depends on the
  implementation's tie rule (any data-independent rule is valid, P11): each label's release is
  impossible on the neighbour that moves one vote to the other label, so the union of the two
  events is bounded by 2 delta. The proof's per-query budget (Lemma 3.8: delta/(2m); Alg 6:
  delta/(4m) per sub-query) is reported beside it; the reference's exact rate S(w) per (sub-)query
  is far below either bound.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np

from dptestbed.audits.api import (
    NOISE_FUDGE,
    Cell,
    Context,
    Control,
    experiment,
    scalar,
    svt_segment,
    svt_top_probability,
    transcript_cells,
)

QUERY_NOISE = 2.0                      # query noise Lap(2 lam) against threshold noise Lap(lam)
RULES = ("bottom", "every", "never")   # when w_hat is re-drawn: Alg 1 (after a bottom), and the two bugs
_MUT = "dptestbed.impl.model_agnostic.mutants"

# =========================================================================== exact laws


@lru_cache(maxsize=100_000)
def _segment(qs: tuple, outcomes: tuple, w: float, lam: float, nu_factor: float) -> float:
    """P[the comparisons of qs against one threshold w + Lap(lam) give ``outcomes``] (any length)."""
    return svt_segment(qs, outcomes, threshold=w, rho_scale=lam, nu_scale=nu_factor * lam)


def path_probability(path, *, w: float, lam: float, rule: str = "bottom", nu_factor: float = QUERY_NOISE) -> float:
    """Probability of a sequence of comparisons ``path`` = [(q, top), ...] under re-draw ``rule``."""
    prob, seg = 1.0, []
    for q, top in path:
        seg.append((float(q), int(top)))
        if rule == "every" or (rule == "bottom" and not top):
            prob *= _segment(tuple(s[0] for s in seg), tuple(s[1] for s in seg), w, lam, nu_factor)
            seg = []
    if seg:
        prob *= _segment(tuple(s[0] for s in seg), tuple(s[1] for s in seg), w, lam, nu_factor)
    return prob


def sequence_law(q, *, w: float, lam: float, T, rule: str = "bottom", count: str = "bottom",
                 nu_factor: float = QUERY_NOISE) -> dict:
    """Alg 1 / Alg 3 transcript law on answers (or distances) ``q``: {tuple of 1/0/-1: probability};
    ``count``: what the counter counts ("bottom", Alg 1; "top"), the run halting once it exceeds T;
    ``nu_factor``: the query noise Lap(nu_factor lam)."""
    out: dict[tuple, float] = {}

    def walk(i, transcript, path, c):
        if i == len(q) or c > T:
            out[transcript + (-1,) * (len(q) - i)] = path_probability(path, w=w, lam=lam, rule=rule,
                                                                      nu_factor=nu_factor)
            return
        for top in (1, 0):
            walk(i + 1, transcript + (top,), path + [(q[i], top)], c + (1 - top if count == "bottom" else top))

    walk(0, (), [], 0)
    return out


REGULAR, SHIFTED, BOTH_BOTTOM, NOT_ANSWERED = 0, 1, 2, 3  # Alg 6 per-query outcomes


def soft_law(reg, shifted, *, w: float, lam: float, T, rule: str = "bottom", count: str = "bottom",
             nu_factor: float = QUERY_NOISE) -> dict:
    """Alg 6 (H_Priv per query, shared state) transcript law; ``reg``/``shifted`` the two tests'
    distances per query: {tuple of REGULAR/SHIFTED/BOTH_BOTTOM/NOT_ANSWERED: probability};
    ``count`` and ``nu_factor`` as in :func:`sequence_law` (a sub-test is one comparison)."""
    out: dict[tuple, float] = {}
    steps = {REGULAR: lambda i: [(reg[i], 1)], SHIFTED: lambda i: [(reg[i], 0), (shifted[i], 1)],
             BOTH_BOTTOM: lambda i: [(reg[i], 0), (shifted[i], 0)]}
    cost = {REGULAR: 0, SHIFTED: 1, BOTH_BOTTOM: 2} if count == "bottom" else {REGULAR: 1, SHIFTED: 1, BOTH_BOTTOM: 0}

    def walk(i, transcript, path, c):
        if i == len(reg) or c > T:
            out[transcript + (NOT_ANSWERED,) * (len(reg) - i)] = path_probability(path, w=w, lam=lam, rule=rule,
                                                                                  nu_factor=nu_factor)
            return
        for o in (REGULAR, SHIFTED, BOTH_BOTTOM):
            walk(i + 1, transcript + (o,), path + steps[o](i), c + cost[o])

    walk(0, (), [], 0)
    return out


# =========================================================================== cells


def _alternatives(law_of) -> list[dict]:
    """The laws under lam x (1 +- 0.3) and the two state-rule changes."""
    return [law_of(1 + NOISE_FUDGE, "bottom"), law_of(1 - NOISE_FUDGE, "bottom"),
            law_of(1.0, "every"), law_of(1.0, "never")]


# =========================================================================== Algorithm 1


@experiment(
    "sparse_vector", "Theorem 2.7", "transcript", "calibration",
    title="exact law of 4-query transcripts near w (threshold re-drawn only after a bottom, halt after T + 1 "
          "bottoms)",
    instance="m = 4, T = 2, epsilon = 1, delta = 1e-6, w = 30: answers w, w + lam/2, w - lam/2, w; "
             "law by quadrature; alternatives lam x 1.3, x 0.7, re-draw after every answer, never re-draw",
    predicate="event per cell: the transcript (T top, B bottom, - not answered)",
    trials={"quick": 60_000, "full": 1_000_000},
    params={"m": 4, "T": 2, "w": 30.0, "epsilon": 1.0, "delta": 1e-6},
    controls=(Control("sparse_vector_redraw_every_answer", f"{_MUT}:sparse_vector_redraw_every_answer",
                      "threshold re-drawn after every answer"),
              Control("sparse_vector_never_redraw", f"{_MUT}:sparse_vector_never_redraw",
                      "threshold never re-drawn")),
)
def _sv_transcript(ctx: Context) -> dict:
    lam, w, T = scalar(ctx.env["lam"]), float(ctx.params["w"]), int(ctx.params["T"])
    q = w + lam * np.array([0.0, 0.5, -0.5, 0.0])
    out = ctx.sample(q, ctx.trials).reshape(ctx.trials, -1)

    def law_of(f, rule):
        return sequence_law(tuple(q), w=w, lam=lam * f, T=T, rule=rule)

    return {"cells": transcript_cells(out.astype(np.int64), law_of(1.0, "bottom"), _alternatives(law_of))}


# =========================================================================== Algorithms 3 and 4


def _release_codes(out: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """A_OQR outputs as transcripts: the row's label -> 1, -1 -> 0, -2 -> -1, anything else -> 9."""
    out = np.asarray(out)
    codes = np.full(out.shape, 9, dtype=np.int64)
    codes[out == labels[None, :]] = 1
    codes[out == -1] = 0
    codes[out == -2] = -1
    return codes


def _dist_printed(gap):
    """Alg 4 step 5 as printed: max(0, gap - 1)."""
    return max(0, gap - 1)


def _dist_corrected(gap):
    """Erratum E1: max(0, ceil(gap/2) - 1)."""
    return max(0, (gap + 1) // 2 - 1)


class Instance:
    """How a spec of the A_OQR family encodes one query whose distance is (about) d: rows
    [label, dist] (A_OQR) or binary vote counts over K chunks whose gap gives the distance."""

    def __init__(self, kind: str, dist=None):
        self.kind, self.dist = kind, dist

    def rows(self, targets, K: int):
        """(data, released labels (r,), exact distances (r,)) for target distances ``targets``."""
        targets = np.maximum(0.0, np.asarray(targets, dtype=float))
        if self.kind == "oqr":
            labels = np.arange(len(targets)) % 3 + 1
            return np.column_stack([labels, targets]), labels, targets
        # the smallest even gap (K is even) whose distance reaches round(target); modes alternate 0/1
        gaps = np.array([next(g for g in range(0, K + 1, 2) if self.dist(g) >= round(t)) for t in targets])
        modes = np.arange(len(targets)) % 2
        rows = np.zeros((len(targets), 2), dtype=np.int64)
        rows[np.arange(len(targets)), modes] = (K + gaps) // 2
        rows[np.arange(len(targets)), 1 - modes] = (K - gaps) // 2
        return rows.astype(float), np.argmax(rows, axis=1), np.array([float(self.dist(g)) for g in gaps])


_VOTES = 2000  # chunks K of the vote instances (enough for gaps up to w + 2 lam at the audit points)


def _family(spec: str, ref: str, inst: Instance, *, params: dict, controls: dict, delta_budget=None, trials=None):
    """Register the transcript, release-calibration and (with ``delta_budget`` = (text, env -> budget))
    delta-event checks of one A_OQR-family spec; ``controls[name]`` the controls of check ``name``."""
    trials = trials or {"quick": 60_000, "full": 1_000_000}

    @experiment(
        spec, ref, "transcript", "calibration",
        title="exact law of 4-query transcripts near w (shared threshold, re-drawn only after a bottom)",
        instance=f"{', '.join(f'{k} = {v:g}' for k, v in params.items())}: distances w, w + lam/2, w - lam/2, w "
                 "(rounded to what the input encoding allows); law by quadrature; alternatives lam x 1.3, "
                 "x 0.7, re-draw after every answer, never re-draw",
        predicate="event per cell: the transcript (T = the row's label released, B bottom, - not answered)",
        trials=trials, params=params, controls=tuple(controls.get("transcript", ())),
    )
    def transcript(ctx: Context) -> dict:
        lam, w, T = scalar(ctx.env["lam"]), scalar(ctx.env["w"]), int(ctx.params["T"])
        data, labels, dist = inst.rows(w + lam * np.array([0.0, 0.5, -0.5, 0.0]), _VOTES)
        codes = _release_codes(ctx.sample(data, ctx.trials).reshape(ctx.trials, -1), labels)

        def law_of(f, rule):
            return sequence_law(tuple(dist), w=w, lam=lam * f, T=T, rule=rule)

        return {"cells": transcript_cells(codes, law_of(1.0, "bottom"), _alternatives(law_of)),
                "instance": {"distances": dist.tolist()}}

    @experiment(
        spec, ref, "release-calibration", "calibration",
        title="single query: P[release | dist = d] = S(w - d) (App. A2-A3)",
        instance=f"{', '.join(f'{k} = {v:g}' for k, v in params.items())}: one query at dist = w - 2 lam, "
                 "w - lam/2, w + lam (rounded to what the input encoding allows)",
        predicate="event: the query's label is released",
        trials=trials, params=params, controls=tuple(controls.get("release-calibration", ())),
    )
    def release(ctx: Context) -> dict:
        lam, w = scalar(ctx.env["lam"]), scalar(ctx.env["w"])
        cells = []
        for mult in (-2.0, -0.5, 1.0):
            data, labels, dist = inst.rows([w + mult * lam], _VOTES)
            out = ctx.sample(data, ctx.trials).reshape(ctx.trials, -1)[:, 0]
            d = float(dist[0])
            cells.append(Cell(f"dist = {d:g} (w {'+' if mult >= 0 else '-'} {abs(mult):g} lam)", ctx.trials,
                              int(np.sum(out == labels[0])), float(svt_top_probability(w - d, lam)),
                              tuple(float(svt_top_probability(w - d, lam * f))
                                    for f in (1 + NOISE_FUDGE, 1 - NOISE_FUDGE))))
        return {"cells": cells}

    if delta_budget is None:
        return
    ties = inst.kind != "oqr"  # vote instances: dist 0 is a tie, released label set by the tie rule

    @experiment(
        spec, ref, "delta-event", "bound",
        title="structural-zero delta test of the (epsilon, delta) claim: m unstable queries (dist 0) that one "
              "neighbour all changes: P[some query released] <= " + ("2 delta (a tie: one neighbour per label)"
                                                                     if ties else "delta"),
        instance=f"{', '.join(f'{k} = {v:g}' for k, v in params.items())}: every one of the m queries has dist = 0"
                 + (f" (K = {_VOTES} votes tied K/2 : K/2; moving one vote towards either label flips every row)"
                    if ties else " (a neighbour may change every label)"),
        predicate="failure: some query's label is released (the proof's per-query budget "
                  f"{delta_budget[0]} and the exact rate S(w) per query are reported beside it)",
        trials={"quick": 400_000, "full": 4_000_000}, params=params,
        controls=tuple(controls.get("delta-event", ())),
        slack_definition="measured rate of the event divided by its bound",
    )
    def delta_event(ctx: Context) -> dict:
        m, lam, w = int(ctx.params["m"]), scalar(ctx.env["lam"]), scalar(ctx.env["w"])
        bound = (2.0 if ties else 1.0) * scalar(ctx.env["delta"])
        data, _, _ = inst.rows([0.0] * m, _VOTES)
        out = ctx.sample(data, ctx.trials).reshape(ctx.trials, -1)
        failures = int(np.sum(np.any(out >= 0, axis=1)))
        return {"failures": failures, "trials": ctx.trials, "beta": bound, "slack": failures / ctx.trials / bound,
                "instance": {"per_query_budget": delta_budget[1](ctx.env), "exact_rate_per_query":
                             float(svt_top_probability(w, lam)), "released_per_query": np.mean(out >= 0, axis=0).tolist()}}


def _ctrl(name: str, what: str) -> Control:
    return Control(name, f"{_MUT}:{name}", what)


_LEMMA_38 = ("delta/(2m), Lemma 3.8", lambda env: scalar(env["delta"]) / (2 * scalar(env["m"])))
_OQR_PARAMS = {"m": 4, "T": 2, "epsilon": 8.0, "delta": 1e-3}
def _controls(prefix: str) -> dict:
    return {"transcript": (_ctrl(f"{prefix}_redraw_every_answer", "threshold re-drawn after every answer"),
                           _ctrl(f"{prefix}_never_redraw", "threshold never re-drawn")),
            "release-calibration": (_ctrl(f"{prefix}_noise_double", "lam x 2"),
                                    _ctrl(f"{prefix}_threshold_shifted", "w shifted down by lam")),
            "delta-event": (_ctrl(f"{prefix}_threshold_halved", "w/2"),)}


_family("online_query_release", "Theorem 3.6", Instance("oqr"), params=_OQR_PARAMS, delta_budget=_LEMMA_38,
        controls={**_controls("online_query_release"),
                  "release-calibration": (_ctrl("online_query_release_lam_quarter", "lam/4 and w/4"),
                                          _ctrl("online_query_release_threshold_shifted", "w shifted down by lam"))})
_family("subsample_aggregate", "Corollary 3.10", Instance("votes", _dist_printed), params=_OQR_PARAMS,
        delta_budget=_LEMMA_38, controls=_controls("subsample_aggregate"))
_family("subsample_aggregate_corrected", "Corollary 3.10", Instance("votes", _dist_corrected), params=_OQR_PARAMS,
        delta_budget=_LEMMA_38,
        controls={**_controls("subsample_aggregate_corrected"),
                  "release-calibration": (_ctrl("subsample_aggregate_corrected_printed_dist",
                                                "printed dist gap - 1 (E1)"),)})
_family("private_classification_queries", "Corollary 3.10", Instance("votes", _dist_printed), params=_OQR_PARAMS,
        controls={"transcript": (_ctrl("private_classification_queries_never_redraw", "threshold never re-drawn"),),
                  "release-calibration": (_ctrl("private_classification_queries_noise_half", "lam/2"),)})
_family("private_classification_queries_conference", "Theorem 3.1 (conference)", Instance("votes", _dist_printed),
        params=_OQR_PARAMS,
        controls={"transcript": (_ctrl("private_classification_queries_conference_redraw_every_answer",
                                       "threshold re-drawn after every answer"),),
                  "release-calibration": (_ctrl("private_classification_queries_conference_noise_half", "lam/2"),)})


# =========================================================================== Algorithms 6 and 8


_SOFT_CODES = {REGULAR: "R", SHIFTED: "S", BOTH_BOTTOM: "B", NOT_ANSWERED: "-"}


def soft_multisets(reg_dists, sh_dists, gamma: float, K: int = 200):
    """Multisets S of K values (K even) whose regular test has distance ~reg_dists and shifted test
    ~sh_dists: a values at 1.25 gamma (regular bin 2, shifted bin 1), b at 1.75 gamma (bins 2, 2),
    c at 2.25 gamma (bins 3, 2). Regular gap gr = a + b - c (mode: bin 2, midpoint 1.5 gamma),
    shifted gap gs = b + c - a (mode: bin 2, midpoint 2 gamma), both even, dist = gap - 1:
    a = (K - gs)/2, b = (gr + gs)/2, c = (K - gr)/2. Returns (S (r, K), reg dists, shifted dists)."""
    rows, reg, sh = [], [], []
    for dr, ds in zip(reg_dists, sh_dists):
        gr, gs = (2 * math.ceil((max(d, 0.0) + 1) / 2) for d in (dr, ds))
        a, b, c = (K - gs) // 2, (gr + gs) // 2, (K - gr) // 2
        rows.append([1.25 * gamma] * a + [1.75 * gamma] * b + [2.25 * gamma] * c)
        reg.append(float(max(gr - 1, 0)))
        sh.append(float(max(gs - 1, 0)))
    return np.array(rows), np.array(reg), np.array(sh)


def soft_codes(out: np.ndarray, gamma: float) -> np.ndarray:
    """Alg 6 / H_Priv outputs [s_hat, Flag] as outcomes (REGULAR ... NOT_ANSWERED, 9 = invalid)."""
    s, f = out[..., 0], out[..., 1]
    codes = np.full(s.shape, 9, dtype=np.int64)
    codes[np.isclose(s, 1.5 * gamma) & (f == 0)] = REGULAR
    codes[np.isclose(s, 2.0 * gamma) & (f == 1)] = SHIFTED
    codes[(s == -1) & (f == 1)] = BOTH_BOTTOM
    codes[(s == -2) & (f == -1)] = NOT_ANSWERED
    return codes


def _soft_transcript(spec: str, *, controls=()):
    params = {"m": 4, "T": 2, "epsilon": 8.0, "delta": 1e-3, "gamma": 0.25}

    @experiment(
        spec, "Theorem 5.4", "transcript", "calibration",
        title="exact law of 4-query transcripts of Alg 6 near w (shared threshold across H_Priv's two tests, "
              "re-drawn after each sub-bottom, c += 1 per sub-bottom, halt once c > T)",
        instance="m = 4, T = 2, epsilon = 8, delta = 1e-3, gamma = 1/4, K = 200 values per multiset: regular "
                 "distances w, w + lam/2, w - lam/2, w and shifted distances w - lam/2, w, w + lam/2, w + lam "
                 "(rounded to odd integers); law by quadrature; alternatives lam x 1.3, x 0.7, re-draw after "
                 "every answer, never re-draw",
        predicate="event per cell: the transcript (R regular midpoint, S shifted midpoint, B bottom, - not "
                  "answered)",
        trials={"quick": 60_000, "full": 1_000_000}, params=params, controls=tuple(controls),
    )
    def transcript(ctx: Context) -> dict:
        lam, w, T, gamma = scalar(ctx.env["lam"]), scalar(ctx.env["w"]), int(ctx.params["T"]), ctx.params["gamma"]
        S, reg, sh = soft_multisets(w + lam * np.array([0.0, 0.5, -0.5, 0.0]),
                                    w + lam * np.array([-0.5, 0.0, 0.5, 1.0]), gamma)
        codes = soft_codes(ctx.sample(S, ctx.trials).reshape(ctx.trials, len(S), 2), gamma)

        def law_of(f, rule):
            return soft_law(tuple(reg), tuple(sh), w=w, lam=lam * f, T=T, rule=rule)

        return {"cells": transcript_cells(codes, law_of(1.0, "bottom"), _alternatives(law_of), _SOFT_CODES),
                "instance": {"regular_dist": reg.tolist(), "shifted_dist": sh.tolist()}}


def _soft_single(spec: str, ref: str, name: str, *, params: dict, w_of, T_of, controls=(), title_extra=""):
    """One multiset at a time: exact P[R], P[S], P[B] at three distance pairs near w."""

    @experiment(
        spec, ref, name, "calibration",
        title="single query of H_Priv: exact P[regular release], P[shifted release], P[bottom] near w "
              "(P[R] = S(w - dist_reg); the shifted test against a re-drawn threshold)" + title_extra,
        instance=f"{', '.join(f'{k} = {v:g}' for k, v in params.items())}, K = 200 values: (regular, shifted) "
                 "distances (w - 2 lam, w + lam), (w - lam/2, w - lam/2), (w + lam, w - 2 lam), rounded to odd "
                 "integers",
        predicate="event per cell: the outcome R, S or B of the query",
        trials={"quick": 60_000, "full": 1_000_000}, params=params, controls=tuple(controls),
    )
    def single(ctx: Context) -> dict:
        lam, w, gamma = scalar(ctx.env["lam"]), w_of(ctx), ctx.params["gamma"]
        cells = []
        for r_mult, s_mult in ((-2.0, 1.0), (-0.5, -0.5), (1.0, -2.0)):
            S, reg, sh = soft_multisets([w + r_mult * lam], [w + s_mult * lam], gamma)
            data = S if T_of(ctx) is not None else S[0]
            codes = soft_codes(ctx.sample(data, ctx.trials).reshape(ctx.trials, 1, 2), gamma)
            T = T_of(ctx) if T_of(ctx) is not None else math.inf
            law, *alts = (soft_law(tuple(reg), tuple(sh), w=w, lam=lam * f, T=T)
                          for f in (1.0, 1 + NOISE_FUDGE, 1 - NOISE_FUDGE))
            for o in (REGULAR, SHIFTED, BOTH_BOTTOM):
                t = (o,)
                cells.append(Cell(f"{_SOFT_CODES[o]} at dist ({reg[0]:g}, {sh[0]:g})", ctx.trials,
                                  int(np.sum(codes[:, 0] == o)), law.get(t, 0.0), tuple(a.get(t, 0.0) for a in alts)))
            cells.append(Cell(f"invalid at dist ({reg[0]:g}, {sh[0]:g})", ctx.trials,
                              int(np.sum(~np.isin(codes[:, 0], (REGULAR, SHIFTED, BOTH_BOTTOM)))), 0.0, (0.0, 0.0)))
        return {"cells": cells}


# widths whose boundaries are binary fractions: a decimal boundary (0.3 at gamma 0.1) is ambiguous in floating point
# (0.3 < 3 * 0.1 exactly, 0.3 * 10 = 3.0000000000000004), so valid readings of P13 bin it either way
BOUNDARY_GAMMAS = (0.25, 0.125)


def _bins_exact(x: Fraction, N: int, rule: str) -> tuple[int, int]:
    """(1-based regular bin, 1-based shifted bin or 0) of the value x (exact) in the partitions of width 1/N:
    the spec's (``spec``: a boundary value in the bin it opens, P13), a boundary value in the bin below
    (``below``: bins closed on the right), or the edges counted in the end shifted bins (``clamped``)."""
    t = x * N
    regular = min(math.floor(t) + 1, N) if rule != "below" else min(max(math.ceil(t), 1), N)
    v = math.floor(t + Fraction(1, 2)) if rule != "below" else math.ceil(t + Fraction(1, 2)) - 1
    if rule == "clamped":
        v = min(max(v, 1), N - 1)
    return regular, v if 1 <= v <= N - 1 else 0


def _histogram_test(values: list, N: int, rule: str) -> tuple[float, float, float, float]:
    """(regular midpoint, regular dist, shifted midpoint, shifted dist) of the multiset ``values`` ((Fraction,
    count) pairs) under ``rule`` (:func:`_bins_exact`): argmax ties to the smallest bin, dist = max(0, gap - 1)."""
    regular, shifted = np.zeros(N, dtype=np.int64), np.zeros(N - 1, dtype=np.int64)
    for x, count in values:
        r, v = _bins_exact(x, N, rule)
        regular[r - 1] += count
        if v:
            shifted[v - 1] += count

    def mode_dist(h):
        mode = int(np.argmax(h))
        second = np.sort(h)[-2] if h.size > 1 else 0
        return mode + 1, float(max(0, int(h[mode]) - int(second) - 1))

    (rm, rd), (sm, sd) = mode_dist(regular), mode_dist(shifted)
    return (2 * rm - 1) / (2 * N), rd, sm / N, sd


def boundary_cases(N: int, w: float) -> list[tuple[str, list]]:
    """(name, [(value, count)]) of the multisets on the boundaries of the width-1/N partitions: every regular
    boundary j/N (and 0, 1) held by all K values (K - 1 about 2w: the regular test passes); each shifted boundary
    (2v - 1)/(2N) beside the regular boundary v/N, half the values each (a regular tie, one shifted bin: the shifted
    test passes); and the two edges (values in no shifted bin) beside a shifted bin, half each, its distance about
    w (a count that moves the shifted test's rate)."""
    big, half = 2 * (math.ceil(w) + 1), math.ceil(w) + 1
    cases = [(f"all at {j}/{N}", [(Fraction(j, N), 2 * big)]) for j in range(N + 1)]
    cases += [(f"half at {2 * v - 1}/{2 * N}, half at {v}/{N}", [(Fraction(2 * v - 1, 2 * N), big), (Fraction(v, N), big)])
              for v in range(1, N)]
    cases += [(f"half at 0, half at 1/{N}", [(Fraction(0), half), (Fraction(1, N), half)]),
              (f"half at 1, half at {2 * N - 3}/{2 * N}", [(Fraction(1), half), (Fraction(2 * N - 3, 2 * N), half)])]
    return cases


def _boundary_rates(values: list, N: int, rule: str, spec_test: tuple, *, w: float, lam: float, T) -> dict:
    """The exact rates of the spec's cells (its regular midpoint, its shifted midpoint, bottom) when the multiset
    is binned by ``rule``; ``spec_test`` the spec's (:func:`_histogram_test`)."""
    rm, rd, sm, sd = _histogram_test(values, N, rule)
    law = soft_law((rd,), (sd,), w=w, lam=lam, T=T)
    return {REGULAR: law.get((REGULAR,), 0.0) * (rm == spec_test[0]),
            SHIFTED: law.get((SHIFTED,), 0.0) * (sm == spec_test[2]), BOTH_BOTTOM: law.get((BOTH_BOTTOM,), 0.0)}


def _soft_boundaries(spec: str, ref: str, *, params: dict, w_of, T_of, controls=()):
    """Multisets on the bins' boundaries at widths 1/4 and 1/8 (P13: x = j gamma in bin j + 1, x = 1 in the last,
    the edges in no shifted bin): the outcome's midpoint and rate against the exact law."""

    @experiment(
        spec, ref, "bin-boundaries", "calibration",
        title="GenHist on the boundaries (P13: x = j gamma belongs to bin j + 1, x = 1 to the last bin; values in "
              "[0, gamma/2) and [1 - gamma/2, 1] in no shifted bin): the released midpoint and its exact rate on "
              "multisets at the boundaries j/N and (2v - 1)/(2N) of gamma = 1/4 and 1/8 (binary fractions: every "
              "reading of 'x = j gamma' agrees on them, unlike 0.3 at gamma = 0.1)",
        instance="gamma = 1/4 and 1/8; per width: all K values at j/N (j = 0..N), half at (2v - 1)/(2N) and half at "
                 "v/N (v = 1..N-1: a regular tie inside one shifted bin), half at 0 or 1 beside a shifted bin "
                 "(distance about w); K about 4w (2w at the edges); one query a call; alternatives: boundary values in "
                 "the bin below, edge values in the end shifted bins",
        predicate="event per cell: the regular midpoint (Flag 0), the shifted midpoint (Flag 1), bottom, or any other "
                  "output (exact probability 0)",
        trials={"quick": 200, "full": 2_000}, params=params, controls=tuple(controls),
    )
    def boundaries(ctx: Context) -> dict:
        lam, w = scalar(ctx.env["lam"]), w_of(ctx)
        T = T_of(ctx) if T_of(ctx) is not None else math.inf
        cells = []
        for gamma in BOUNDARY_GAMMAS:
            N = round(1 / gamma)
            for name, values in boundary_cases(N, w):
                S = np.concatenate([np.full(count, float(x)) for x, count in values])
                out = ctx.sample(S[None, :] if T_of(ctx) is not None else S, ctx.trials, gamma=gamma)
                out = out.reshape(ctx.trials, 2)
                spec_test = _histogram_test(values, N, "spec")
                r_mid, s_mid = spec_test[0], spec_test[2]
                observed = {REGULAR: np.isclose(out[:, 0], r_mid, rtol=0, atol=1e-9) & (out[:, 1] == 0),
                            SHIFTED: np.isclose(out[:, 0], s_mid, rtol=0, atol=1e-9) & (out[:, 1] == 1),
                            BOTH_BOTTOM: (out[:, 0] == -1) & (out[:, 1] == 1)}

                exact, *alts = (_boundary_rates(values, N, rule, spec_test, w=w, lam=lam, T=T)
                                for rule in ("spec", "below", "clamped"))
                for o in (REGULAR, SHIFTED, BOTH_BOTTOM):
                    cells.append(Cell(f"gamma {gamma:g}, {name}: {_SOFT_CODES[o]}", ctx.trials,
                                      int(observed[o].sum()), exact[o], tuple(a[o] for a in alts)))
                other = ~(observed[REGULAR] | observed[SHIFTED] | observed[BOTH_BOTTOM])
                cells.append(Cell(f"gamma {gamma:g}, {name}: other", ctx.trials, int(other.sum()),
                                  max(0.0, 1.0 - sum(exact.values())),
                                  tuple(max(0.0, 1.0 - sum(a.values())) for a in alts)))
        return {"cells": cells}


_SOFT_PARAMS = {"m": 4, "T": 2, "epsilon": 8.0, "delta": 1e-3, "gamma": 0.25}
for _spec in ("soft_label_queries", "soft_label_queries_corrected"):
    _soft_transcript(_spec, controls=(_ctrl(f"{_spec}_never_redraw", "threshold never re-drawn"),
                                      _ctrl(f"{_spec}_redraw_every_answer", "threshold re-drawn after every answer")))
    _soft_single(_spec, "Theorem 5.4", "release-calibration", params=_SOFT_PARAMS,
                 w_of=lambda ctx: scalar(ctx.env["w"]), T_of=lambda ctx: int(ctx.params["T"]),
                 controls=(_ctrl(f"{_spec}_threshold_halved", "w/2"),))
_soft_boundaries("soft_label_queries_corrected", "Theorem 5.4", params=_SOFT_PARAMS,
                 w_of=lambda ctx: scalar(ctx.env["w"]), T_of=lambda ctx: int(ctx.params["T"]),
                 controls=(_ctrl("soft_label_queries_corrected_right_closed", "bins closed on the right"),
                           _ctrl("soft_label_queries_corrected_edge_clamped", "edges in the end shifted bins")))

_soft_single("soft_label_classifier", "Theorem 5.14", "release-law", params={},
             w_of=lambda ctx: float(ctx.params["w"]), T_of=lambda ctx: None,
             controls=(_ctrl("soft_label_classifier_never_redraw", "the shifted test reuses the first threshold"),
                       _ctrl("soft_label_classifier_threshold_halved", "w/2")))
_soft_boundaries("soft_label_classifier", "Theorem 5.14", params={},
                 w_of=lambda ctx: float(ctx.params["w"]), T_of=lambda ctx: None,
                 controls=(_ctrl("soft_label_classifier_right_closed", "bins closed on the right"),
                           _ctrl("soft_label_classifier_edge_clamped", "edges in the end shifted bins")))


def tied_multisets(m: int, gamma: float, K: int = 200) -> np.ndarray:
    """m multisets of K values, K/2 at 1.25 gamma and K/2 at 2.25 gamma: the regular histogram ties
    bins 2 and 3, the shifted one shifted bins 1 and 2 (both gaps 0), so moving one value towards
    either side flips both modes."""
    return np.tile(np.repeat([1.25 * gamma, 2.25 * gamma], K // 2), (m, 1))


@experiment(
    "soft_label_queries_corrected", "Theorem 5.4", "delta-event", "bound",
    title="structural-zero delta test of the (epsilon, delta) claim: m multisets whose regular and shifted "
          "histograms are ties, all flipped by one neighbour: P[some midpoint released] <= 2 delta (one neighbour "
          "per side of the tie)",
    instance="m = 4, T = 2, epsilon = 8, delta = 1e-3, gamma = 1/4: every row K = 200 values, 100 at 1.25 gamma and "
             "100 at 2.25 gamma (regular bins 2 : 3 and shifted bins 1 : 2 tied); the neighbour moving one value "
             "to 2.25 gamma makes both modes the upper bins in every row, the one moving a value to 1.25 gamma the "
             "lower ones, so each midpoint's release is impossible on one of them",
    predicate="failure: some row releases a midpoint, regular or shifted (the proof's budget delta/(4m) per "
              "sub-query and the exact rate S(w) are reported beside it)",
    trials={"quick": 400_000, "full": 4_000_000}, params=_SOFT_PARAMS,
    controls=(_ctrl("soft_label_queries_corrected_printed_threshold", "printed w = lam log(4m/delta) (E2)"),),
    slack_definition="measured rate of the event divided by its bound",
)
def _soft_delta_event(ctx: Context) -> dict:
    m, lam, w = int(ctx.params["m"]), scalar(ctx.env["lam"]), scalar(ctx.env["w"])
    bound = 2.0 * scalar(ctx.env["delta"])
    out = ctx.sample(tied_multisets(m, ctx.params["gamma"]), ctx.trials).reshape(ctx.trials, m, 2)
    failures = int(np.sum(np.any(out[..., 0] >= 0, axis=1)))
    return {"failures": failures, "trials": ctx.trials, "beta": bound, "slack": failures / ctx.trials / bound,
            "instance": {"per_subquery_budget": scalar(ctx.env["delta"]) / (4 * m),
                         "exact_rate_per_subquery": float(svt_top_probability(w, lam))}}
