"""Exact privacy losses of the seed-000 mutants whose law is an exact sparse-vector law, on every pair the
privacy audit would try: the figures behind their "keeps the claim" labels (``impl.model_agnostic.mutants.
KEEPS_CLAIM``) and the "privacy" labels they contradict.

A mutant of the sparse-vector family that scales lam, w or the query noise, re-draws the threshold after
every answer or never, counts tops, moves the cutoff or uses the other distance of Alg 4 has an exact
transcript law (:mod:`.transcripts`, by quadrature). :func:`pair_losses` evaluates its exact epsilon at the
claimed delta, both directions, on

* every pair :func:`audited_pairs` returns (the audit's stress, generated and searched pairs) at every audit
  point of the suite (:func:`dptestbed.audits.run.planning.audit_points`: the defaults, with each stress case's own
  parameters, and the spec's audit points): the stress cases, the relation's generated moves and the
  input-space search, placed at the reference's lam and w as the audit places them;
* the stress cases placed at the mutant's own lam and w (their formulas evaluated with them) and the
  relation's moves from those: the pairs an audit centred on the implementation's threshold tries.

A label "keeps the claim" needs every such loss within its pair's claim, and its figure is the largest
ratio's loss; the computation reruns whenever the pair search changes
(``python benchmarks/mutant_labels.py``; the slow test ``tests/model_agnostic/test_mutant_labels.py``
asserts it). Mutants outside these laws (one query noise per run, leaked values, other outputs) are
backed by the audit alone, or by an exact computation of their own (:mod:`.errata`'s style).
"""

from __future__ import annotations

import math

import numpy as np

from dptestbed.audits.api import (
    MAX_PAIRS,
    MAX_SEARCHED,
    Pair,
    audit_points,
    candidate_pairs,
    claim,
    dist_epsilon,
    generated_pairs,
)
from dptestbed.impl.model_agnostic import mutants as M
from dptestbed.impl.model_agnostic.online_query_release import oqr_lambda, oqr_threshold
from dptestbed.impl.model_agnostic.soft_label import histogram_tests, soft_label_lambda, soft_label_threshold
from dptestbed.impl.model_agnostic.sparse_vector import sparse_vector_lambda
from dptestbed.impl.model_agnostic.subsample_aggregate import dist_corrected, dist_printed, mode_and_gap
from dptestbed.spec import Spec, load_catalogue
from dptestbed.spec.schema import resolve_stress_values

from .transcripts import BOTH_BOTTOM, NOT_ANSWERED, REGULAR, SHIFTED, sequence_law, soft_law

LN10 = math.log(10.0)
VOTES = {"subsample_aggregate": "printed", "subsample_aggregate_corrected": "corrected",
         "private_classification_queries": "printed", "private_classification_queries_conference": "printed"}
SPECS = ("sparse_vector", "online_query_release", *VOTES, "soft_label_queries_corrected")

# the rule of each mutant with an exact law (MutatedRuns attributes; DIST: the distance of Alg 4)
RULES = {name: rule for name, rule, _ in M.CORE_BUGS + M.THRESHOLD_BUGS if not rule.get("SHARED_NOISE")}
EXTRA = {
    ("sparse_vector", "log10"): {"LAM_FACTOR": 1 / math.sqrt(LN10)},                 # w is an input
    ("sparse_vector", "noise_30pct_more"): {"LAM_FACTOR": 1.3},
    ("online_query_release", "log10"): {"LAM_FACTOR": 1 / math.sqrt(LN10), "W_FACTOR": 1 / LN10 ** 1.5},
    ("online_query_release", "lam_quarter"): {"LAM_FACTOR": 0.25, "W_FACTOR": 0.25},
    ("subsample_aggregate", "lam_quarter"): {"LAM_FACTOR": 0.25, "W_FACTOR": 0.25},
    ("subsample_aggregate", "corrected_dist"): {"DIST": "corrected"},
    ("subsample_aggregate_corrected", "printed_dist"): {"DIST": "printed"},
    ("private_classification_queries", "epsilon_third"): {"LAM_FACTOR": 3.0, "W_FACTOR": 3.0},
    ("soft_label_queries_corrected", "printed_threshold"): {"W_FACTOR": 0.5},          # lam log(4m/delta)
}


def rule_of(mutant) -> dict | None:
    """The exact-law rule of ``mutant``, or None when its law is not one of these."""
    if (mutant.spec, mutant.name) in EXTRA:
        return EXTRA[mutant.spec, mutant.name]
    return RULES.get(mutant.name) if mutant.implementation.endswith(f":{mutant.spec}_{mutant.name}") else None


def exact_mutants() -> list:
    return [m for m in M.MUTANTS if m.spec in SPECS and rule_of(m) is not None]


def _lam_w(spec_id: str, env: dict) -> tuple[float, float]:
    eps, delta, T, m = (float(env[k]) for k in ("epsilon", "delta", "T", "m"))
    if spec_id == "sparse_vector":
        return sparse_vector_lambda(eps, delta, T), float(env["w"])
    if spec_id == "soft_label_queries_corrected":
        lam = soft_label_lambda(eps, delta, T)
        return lam, soft_label_threshold(lam, m, delta, True)
    lam = oqr_lambda(eps, delta, T)
    return lam, oqr_threshold(lam, m, delta)


def core(spec_id: str, env: dict, rule: dict) -> tuple[float, float]:
    """(lam, w) of the core the mutant runs with at ``env``."""
    lam, w = _lam_w(spec_id, env)
    lam_m = lam * rule.get("LAM_FACTOR", 1.0)
    return lam_m, w * rule.get("W_FACTOR", 1.0) + rule.get("W_SHIFT", 0.0) * lam_m


def output_law(spec_id: str, data, env: dict, rule: dict) -> dict:
    """Exact law of the outputs of ``spec_id``'s reference run with the core ``rule`` on ``data``."""
    lam, w = core(spec_id, env, rule)
    kw = dict(w=w, lam=lam, T=int(env["T"]) + rule.get("HALT_OFFSET", 0), rule=rule.get("REDRAW", "bottom"),
              count=rule.get("COUNT", "bottom"), nu_factor=rule.get("QUERY_NOISE_FACTOR", 2.0))
    x = np.asarray(data, dtype=float)
    if spec_id == "sparse_vector":
        return sequence_law(tuple(x), **kw)
    if spec_id == "soft_label_queries_corrected":
        gamma = float(env["gamma"])
        reg_mode, reg_dist, sh_mode, sh_dist = histogram_tests(x, gamma)
        law = soft_law(tuple(reg_dist.astype(float)), tuple(sh_dist.astype(float)), **kw)
        value: list[dict] = [{REGULAR: ((2 * r - 1) * gamma / 2, 0.0), SHIFTED: (s * gamma, 1.0), BOTH_BOTTOM: (-1.0, 1.0),
                  NOT_ANSWERED: (-2.0, -1.0)} for r, s in zip(reg_mode, sh_mode)]
    else:
        if spec_id == "online_query_release":
            labels, dist = x[:, 0].astype(int), x[:, 1]
        else:
            counts = x.astype(np.int64)
            labels = mode_and_gap(counts)[0]
            dist = {"printed": dist_printed, "corrected": dist_corrected}[rule.get("DIST", VOTES[spec_id])](counts)
        law = sequence_law(tuple(np.asarray(dist, dtype=float)), **kw)
        value = [{1: int(lab), 0: -1, -1: -2} for lab in labels]
    out: dict[tuple, float] = {}
    for transcript, p in law.items():
        key = tuple(value[i][o] for i, o in enumerate(transcript))
        out[key] = out.get(key, 0.0) + p
    return out


def audited_pairs(spec: Spec, point: dict) -> list[Pair]:
    """The pairs the privacy audit of ``spec`` tries at ``point`` before its implementation-guided moves: the
    stress cases and generated pairs (at most MAX_PAIRS), then the input-space search's (at most MAX_SEARCHED),
    as :func:`dptestbed.audits.privacy.procedure.audit` takes them from :func:`candidate_pairs`."""
    pairs = candidate_pairs(spec, point, max_generated=max(MAX_PAIRS - len(spec.stress_cases), 0),
                            max_searched=MAX_SEARCHED)
    return [p for p in pairs if p.source != "search"][:MAX_PAIRS] + [p for p in pairs if p.source == "search"]


def _mutant_placed(spec: Spec, rule: dict, point: dict) -> list[Pair]:
    """The stress cases with their formulas evaluated at the mutant's lam and w (where it differs from the
    reference's), and the relation's moves from them."""
    out = []
    for case in spec.stress_cases:
        try:
            env = spec.bind({**case.params, **point})
        except ValueError:
            continue
        lam, w = core(spec.id, env, rule)
        if (lam, w) == _lam_w(spec.id, env):
            continue
        where = {**env, "lam": lam, "w": w}
        data, neighbour = (np.asarray(resolve_stress_values(v, where)) for v in (case.data, case.neighbour))
        out.append(Pair(name=f"{case.name} at the mutant's w", data=data, neighbour=neighbour,
                        params={k: env[k] for k in spec.parameters if k in env}, env=env, source="mutant"))
    return out + [Pair(name=f"{p.name} at the mutant's w", data=p.data, neighbour=p.neighbour, params=p.params,
                       env=p.env, source="mutant") for p in generated_pairs(spec, out, max_generated=10**6)]


_ANSWERS = ("sparse_vector", "online_query_release")  # rows are answers or distances (any value), not vote gaps


def _row_pair(spec_id: str, values, moves) -> tuple[np.ndarray, np.ndarray]:
    """A neighbouring pair of rows at the distances (or vote gaps) ``values``, each row moved by one step of the
    relation in the direction ``moves`` (+-1): one vote from runner-up to mode or back (gap +-2), or the distance
    (answer) +-1."""
    if spec_id == "sparse_vector":
        return np.array(values, float), np.array([v + s for v, s in zip(values, moves)], float)
    if spec_id == "online_query_release":
        return (np.array([[1, v] for v in values], float), np.array([[1, v + s] for v, s in zip(values, moves)], float))
    base = 1000
    return (np.array([[base + v, base] for v in values]),
            np.array([[base + v + s, base - s] for v, s in zip(values, moves)]))


def _searched(spec_id: str, rule: dict, env: dict, m: int) -> tuple[str, float]:
    """The largest exact loss found by a coordinate search over m rows placed on a grid of half a noise scale (at
    least 1), 5 steps either side of the reference's and of the mutant's w, each row moved by one step of the
    relation (:func:`_row_pair`), from all-up, all-down and alternating starts: the pairs an audit centred on
    either threshold can reach."""
    delta = float(env["delta"])

    def loss(values, moves):
        d1, d2 = (output_law(spec_id, side, env, rule) for side in _row_pair(spec_id, values, moves))
        return max(dist_epsilon(d1, d2, delta), dist_epsilon(d2, d1, delta))

    best = ("", -math.inf)
    lam_m, w_m = core(spec_id, env, rule)
    lam_r, w_r = _lam_w(spec_id, env)
    step = max(1, round(0.5 * min(lam_m, lam_r)))  # grid of half a noise scale, 5 steps either side
    for centre in sorted({round(w_m), round(w_r)}):
        grid = [v for v in range(centre - 5 * step, centre + 5 * step + 1, step) if spec_id in _ANSWERS or v >= 2]
        for start in ((1,) * m, (-1,) * m, tuple(1 if i % 2 else -1 for i in range(m))):
            values, moves = [centre] * m, list(start)
            current, improved = loss(values, moves), True
            while improved:
                improved = False
                for i in range(m):
                    for v in grid:
                        for s in (1, -1):
                            trial_v, trial_s = values[:i] + [v] + values[i + 1:], moves[:i] + [s] + moves[i + 1:]
                            e = loss(trial_v, trial_s)
                            if e > current + 1e-9:
                                current, values, moves, improved = e, trial_v, trial_s, True
            if current > best[1]:
                best = (f"searched rows {values} moved {moves} (m = {m})", current)
    return best


def pair_losses(spec_id: str, rule: dict, suite: str = "full") -> list[tuple[str, float, float]]:
    """(pair, exact epsilon at the pair's claimed delta (larger direction), the pair's claimed epsilon) on every
    pair of :func:`audited_pairs` at every audit point of ``suite``, on the pairs placed at the mutant's lam and w,
    and on the best pair of a coordinate search at the stress cases' m (:func:`_searched`; not for the soft-label
    spec, whose rows are histograms) (module doc)."""
    spec = load_catalogue()[spec_id]
    rows, seen = [], []
    for point in audit_points(spec, suite):
        if spec_id != "soft_label_queries_corrected":
            env = spec.bind({**spec.stress_cases[0].params, **point})
            name, eps = _searched(spec_id, rule, env, int(env["m"]))
            rows.append((name, eps, float(claim(spec, env).value)))
        for pair in audited_pairs(spec, point) + _mutant_placed(spec, rule, point):
            key = (np.asarray(pair.data).tobytes(), np.asarray(pair.neighbour).tobytes(), sorted(pair.params.items()))
            if key in seen:
                continue
            seen.append(key)
            stated = claim(spec, pair.env)
            eps_claim, delta = stated.value, stated.delta
            d1, d2 = (output_law(spec_id, side, pair.env, rule) for side in (pair.data, pair.neighbour))
            rows.append((pair.name, max(dist_epsilon(d1, d2, delta), dist_epsilon(d2, d1, delta)), float(eps_claim)))
    return rows


def worst_pair(spec_id: str, rule: dict, suite: str = "full") -> tuple[str, float, float]:
    """The pair of :func:`pair_losses` with the largest loss relative to its claim."""
    return max(pair_losses(spec_id, rule, suite), key=lambda r: r[1] / r[2])


# =========================================================================== the two privacy labels computed here

# subsample_aggregate/lam_quarter: m = 6 rows of gap 10 (printed dist 9; the mutant's w is 9.16 at m = 6), one vote
# moved in each, gaps 8, 8, 12, 8, 8, 12 (found by a coordinate search over per-row gaps and directions)
LAM_QUARTER_PAIR: dict = {"m": 6, "gaps": (10,) * 6, "moves": (-1, -1, 1, -1, -1, 1)}


def lam_quarter_loss() -> float:
    """Exact epsilon (delta = 1e-3, both directions) of Alg 4 with lam/4 (w scaled with it) on LAM_QUARTER_PAIR."""
    spec = load_catalogue()["subsample_aggregate"]
    env = spec.bind({"m": LAM_QUARTER_PAIR["m"]})
    rule = EXTRA["subsample_aggregate", "lam_quarter"]
    base = 200
    data = np.array([[base + g, base] for g in LAM_QUARTER_PAIR["gaps"]])
    neighbour = np.array([[base + g + s, base - s] for g, s in zip(LAM_QUARTER_PAIR["gaps"], LAM_QUARTER_PAIR["moves"])])
    d1, d2 = (output_law("subsample_aggregate", side, env, rule) for side in (data, neighbour))
    delta = float(env["delta"])
    return max(dist_epsilon(d1, d2, delta), dist_epsilon(d2, d1, delta))


def fresh_laplace_delta(m: int, scale: float, epsilon: float, cells: int = 400) -> float:
    """A lower bound on delta(epsilon) of m values q_i + Lap(scale) against q_i + 1 + Lap(scale) (the m-fold
    Laplace privacy loss distribution, each loss rounded down to a grid of ``cells`` per 1/scale, composed by
    FFT): the fresh noisy answers sparse_vector/leaks_noisy_answer releases when every answer is a top.

    One value's privacy loss ln(p(x)/p'(x)) is 1/scale where x <= q (probability 1/2), -1/scale where
    x >= q + 1 (probability e^(-1/scale)/2), and (1 - 2 s)/scale at x = q + s in between."""
    h = 1.0 / (scale * cells)
    one = np.zeros(2 * cells + 1)
    one[-1] += 0.5
    one[0] += 0.5 * math.exp(-1 / scale)
    for j in range(-cells, cells):  # loss in [j h, (j + 1) h) <-> s in ((1 - (j + 1) h scale)/2, (1 - j h scale)/2]
        s_lo, s_hi = (1 - (j + 1) * h * scale) / 2, (1 - j * h * scale) / 2
        one[j + cells] += 0.5 * (math.exp(-max(s_lo, 0.0) / scale) - math.exp(-min(s_hi, 1.0) / scale))
    n = m * 2 * cells + 1
    size = 1 << math.ceil(math.log2(n))
    law = np.maximum(np.fft.irfft(np.fft.rfft(one, size) ** m, size)[:n], 0.0)
    loss = (np.arange(n) - m * cells) * h
    return float(np.sum(law * np.clip(1 - np.exp(epsilon - loss), 0.0, None)))


def leaks_noisy_answer_loss(m: int = 120) -> float:
    """The epsilon at which :func:`fresh_laplace_delta` reaches sparse_vector's claimed delta, at its defaults
    (epsilon = 1, delta = 1e-6, T = 1: lam = 21.03, the fresh values Lap(2 lam)) with m answers far above w
    (every one a top but with probability below e^-50), each moved up by 1: a lower bound on the mutant's loss."""
    from scipy.optimize import brentq

    env = load_catalogue()["sparse_vector"].bind({"m": m})
    lam, delta = float(env["lam"]), float(env["delta"])
    return float(brentq(lambda e: fresh_laplace_delta(m, 2 * lam, e) - delta, 0.01, 10.0))
