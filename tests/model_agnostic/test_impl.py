"""Reference implementations of seed 000's online algorithms: A_OQR (Alg 3), A_subSamp (Alg 4, as
printed and corrected), the classification instantiation (000 Sec. 4.1, 004 Alg 2), A_Priv (Alg 5),
A_SL-Quer / H_Priv / A_PrvLearn (Algs 6-8), the record-level chunk pipeline, and the shared
sparse-vector core.

Every statistical check compares frequencies with exact probabilities computed HERE, independently
of the implementation (closed forms of notes App. A2-A3, 1-D quadrature over each shared threshold
for transcripts, App. A4), and every one has power: the same check rejects a variant with wrong
noise (query noise Lap(lam) instead of Lap(2 lam), patched into the shared core), a threshold
handled the wrong way (kept after a bottom, re-drawn after a top, not re-drawn between H_Priv's
tests, copied by value (P14), not initialised (E3)), or the other distance (E1) / threshold (E2).
Deterministic checks (E1, GenHist boundaries, halting, chunk locality) run against a broken
counterpart too. Seeds are fixed; ALPHA is tiny, so a correct implementation fails a check with
probability ~1e-6 while the broken variants give p-values far below it.
"""

from __future__ import annotations

import inspect
import itertools
import math

import numpy as np
import pytest
from scipy import stats

from dptestbed.impl import learners as L
from dptestbed.impl.model_agnostic import classification as cl
from dptestbed.impl.model_agnostic import online_query_release as oqr
from dptestbed.impl.model_agnostic import soft_label as sl
from dptestbed.impl.model_agnostic import sparse_vector as sv
from dptestbed.impl.model_agnostic import subsample_aggregate as sa
from dptestbed.spec import load_catalogue
from dptestbed.spec.schema import resolve_stress_values

ALPHA = 1e-6
N = 100_000
CATALOGUE = load_catalogue()


def rng(seed):
    return np.random.default_rng(seed)


# --------------------------------------------------------------------------- exact laws (independent of impl)


def S(t, lam):
    """App. A2: P[Lap(2 lam) - Lap(lam) > t] = (2/3)e^{-t/(2 lam)} - (1/6)e^{-t/lam} for t >= 0."""
    pos = (2 / 3) * math.exp(-abs(t) / (2 * lam)) - (1 / 6) * math.exp(-abs(t) / lam)
    return pos if t >= 0 else 1 - pos


def lap_sf(x, b):
    x = np.asarray(x, dtype=float)
    return np.where(x >= 0, 0.5 * np.exp(-np.abs(x) / b), 1 - 0.5 * np.exp(-np.abs(x) / b))


U_GRID = {}


def group_probability(tests, lam, w, noisy=True, query_factor=2.0):
    """P[all (dist, top) comparisons of one shared threshold w + Lap(lam) come out as given]
    (quadrature over the threshold noise; ``noisy=False``: the threshold is exactly w)."""
    if not noisy:
        p = 1.0
        for d, top in tests:
            q = float(lap_sf(w - d, query_factor * lam))
            p *= q if top else 1 - q
        return p
    u = U_GRID.setdefault(lam, np.linspace(-40 * lam, 40 * lam, 20_001))
    integrand = 0.5 / lam * np.exp(-np.abs(u) / lam)
    for d, top in tests:
        q = lap_sf(w + u - d, query_factor * lam)
        integrand = integrand * (q if top else 1 - q)
    return float(np.trapezoid(integrand, u))


def transcript_probability(groups, lam, w, **kw):
    """Product over the independent thresholds: ``groups`` = list of (tests, noisy)."""
    return math.prod(group_probability(t, lam, w, noisy=n, **kw) for t, n in groups)


def oqr_law(dists, labels, lam, w, T, rule="bottom"):
    """Exact law of A_OQR's transcript: threshold re-drawn after each bottom (``rule='bottom'``),
    after each top (``'top'``) or never (``'never'``); halting while c <= T."""
    law = {}

    def rec(i, out, groups, current, c):
        if i == len(dists) or c > T:
            key = tuple(out) + (-2,) * (len(dists) - i)
            law[key] = law.get(key, 0.0) + transcript_probability(groups + [(current, True)], lam, w)
            return
        for top in (True, False):
            tests = current + [(dists[i], top)]
            redraw = (rule == "bottom" and not top) or (rule == "top" and top)
            g, cur = (groups + [(tests, True)], []) if redraw else (groups, tests)
            rec(i + 1, out + [labels[i] if top else -1], g, cur, c + (not top))

    rec(0, [], [], [], 0)
    return law


def soft_law(rows, lam, w, T, gamma, rule="shared", initialised=True):
    """Exact law of A_SL-Quer's transcript for rows of (d_regular, d_shifted, regular midpoint,
    shifted midpoint). Rules for the shared threshold: 'shared' (the paper with P14: re-drawn after
    every sub-bottom, H_Priv and Alg 6 share it), 'no_refresh_between' (H_Priv step 7 omitted),
    'copy' (H_Priv re-draws a private copy: the outer threshold is re-drawn only by Alg 6)."""
    law = {}

    def rec(i, out, groups, current, c):
        if i == len(rows) or c > T:
            key = tuple(out) + ((-2.0, -1.0),) * (len(rows) - i)
            all_groups = groups + [(current, True)]
            if not initialised:
                all_groups[0] = (all_groups[0][0], False)
            law[key] = law.get(key, 0.0) + transcript_probability(all_groups, lam, w)
            return
        d1, d2, mid, smid = rows[i]
        # first test passes: Flag 0, threshold kept
        rec(i + 1, out + [(mid, 0.0)], groups, current + [(d1, True)], c)
        for second in (True, False):
            answer = (smid, 1.0) if second else (-1.0, 1.0)
            if rule == "shared":
                g = groups + [(current + [(d1, False)], True)]
                if second:
                    rec(i + 1, out + [answer], g, [(d2, True)], c + 1)
                else:
                    rec(i + 1, out + [answer], g + [([(d2, False)], True)], [], c + 2)
            elif rule == "no_refresh_between":
                tests = current + [(d1, False), (d2, second)]
                if second:
                    rec(i + 1, out + [answer], groups, tests, c + 1)
                else:
                    rec(i + 1, out + [answer], groups + [(tests, True)], [], c + 2)
            else:  # copy: the second test has a private threshold; the outer one survives a release
                g = groups + [([(d2, second)], True)]
                if second:
                    rec(i + 1, out + [answer], g, current + [(d1, False)], c + 1)
                else:
                    rec(i + 1, out + [answer], g + [(current + [(d1, False)], True)], [], c + 2)

    rec(0, [], [], [], 0)
    return law


# --------------------------------------------------------------------------- statistics helpers


def _rows(x):
    x = np.asarray(x)
    return x.reshape(len(x), -1)


def binom_p(k, n, p):
    return stats.binomtest(int(k), int(n), p).pvalue


def gof_p(samples, probs):
    """Chi-square goodness of fit of discrete samples (rows) to exact ``{tuple: p}``; small
    expected cells pooled; any output outside the law gives p = 0."""
    rows = _rows(samples)
    keys = [tuple(np.ravel(k)) for k in probs]
    index = {k: i for i, k in enumerate(keys)}
    obs = np.zeros(len(keys))
    cats, counts = np.unique(rows, axis=0, return_counts=True)
    for cat, count in zip(map(tuple, cats.tolist()), counts):
        if cat not in index:
            return 0.0
        obs[index[cat]] += count
    p = np.array([probs[k] for k in probs])
    assert abs(p.sum() - 1) < 1e-4, p.sum()
    exp = p / p.sum() * len(rows)
    keep = exp >= 5
    o = np.append(obs[keep], obs[~keep].sum())
    e = np.append(exp[keep], exp[~keep].sum())
    if e[-1] < 1e-12:
        if o[-1] > 0:
            return 0.0
        o, e = o[:-1], e[:-1]
    if len(o) < 2:
        return 1.0
    return stats.chisquare(o, e * o.sum() / e.sum()).pvalue


def two_sample_p(a, b):
    a, b = _rows(a), _rows(b)
    cats, inv = np.unique(np.concatenate([a, b]), axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    table = np.stack([np.bincount(inv[: len(a)], minlength=len(cats)),
                      np.bincount(inv[len(a):], minlength=len(cats))]).astype(float)
    expected = table.sum(0) * min(len(a), len(b)) / (len(a) + len(b))
    small = expected < 5
    if small.any():
        table = np.concatenate([table[:, ~small], table[:, small].sum(1, keepdims=True)], axis=1)
    table = table[:, table.sum(0) > 0]
    return 1.0 if table.shape[1] < 2 else stats.chi2_contingency(table)[1]


def assert_batch_agrees_with_single_runs(fn, data, n_single=2_000, seed=7, **params):
    """The batch sampler and repeated single runs (one generator) draw from one law: a sampler
    that leaks state across runs (a threshold re-drawn for all runs when one bottoms, a counter
    shared by runs, ...) makes the two differ."""
    g = rng(seed)
    single = np.array([fn(data, rng=g, **params) for _ in range(n_single)])
    batch = np.asarray(fn.batch(data, 40_000, rng=rng(seed + 1), **params))
    assert batch.shape[1:] == single.shape[1:] and batch.dtype.kind == single.dtype.kind
    p = two_sample_p(single, batch)
    assert p > ALPHA, f"{fn.__name__}: batch and single runs disagree (p = {p:.2g})"
    return single, batch


@pytest.fixture
def wrong_query_noise(monkeypatch):
    """The shared core with query noise Lap(lam) instead of Lap(2 lam) (trap P5)."""
    monkeypatch.setattr(sv.SparseVectorRuns, "QUERY_NOISE_FACTOR", 1.0)


# --------------------------------------------------------------------------- A_OQR (Alg 3)

OQR = dict(epsilon=2.0, delta=0.2, T=1, m=1)   # lam = 4.29, w = 2 lam log 10 = 19.8: leak S(w) = 0.065


def test_oqr_constants_match_the_spec():
    for spec_id in ("online_query_release", "subsample_aggregate", "private_classification_queries_conference"):
        env = CATALOGUE[spec_id].bind({})
        lam = oqr.oqr_lambda(env["epsilon"], env["delta"], env["T"])
        assert math.isclose(lam, env["lam"], rel_tol=1e-12)
        assert math.isclose(oqr.oqr_threshold(lam, env["m"], env["delta"]), env["w"], rel_tol=1e-12)
        assert math.isclose(S(env["w"], lam), env["leak_exact"], rel_tol=1e-9)


def test_oqr_single_query_release_probability_is_S_of_w_minus_dist_and_the_check_has_power():
    lam = oqr.oqr_lambda(OQR["epsilon"], OQR["delta"], OQR["T"])
    w = oqr.oqr_threshold(lam, OQR["m"], OQR["delta"])
    for k, d in enumerate((0.0, w - 2 * lam, round(w), w + lam)):
        out = oqr.online_query_release.batch([[3, d]], N, rng=rng(10 + k), **OQR)
        assert out.shape == (N, 1) and out.dtype == np.int64 and set(np.unique(out)) <= {3, -1}
        assert binom_p((out == 3).sum(), N, S(w - d, lam)) > ALPHA, d
    # power: 30% less noise everywhere (epsilon / 0.7) is rejected where the law depends on lam
    low = oqr.online_query_release.batch([[3, w - 2 * lam]], N, rng=rng(20), **{**OQR, "epsilon": OQR["epsilon"] / 0.7})
    assert binom_p((low == 3).sum(), N, S(2 * lam, lam)) < ALPHA


def test_oqr_delta_leak_per_unstable_query():
    """Lemma 3.8 / App. A3 at the spec's audit point (stress case delta_event_single_query): an
    unstable query (dist 0, label flips on D') is released with probability S(w) = (2/3)(delta/2m)
    - (1/6)(delta/2m)^2 <= delta/(2m); D' never releases D's label."""
    spec = CATALOGUE["online_query_release"]
    case = next(c for c in spec.stress_cases if c.name == "delta_event_single_query")
    env = spec.bind(case.params)
    params = {k: env[k] for k in ("epsilon", "delta", "T", "m")}
    data = resolve_stress_values(case.data, env)
    n = 1_000_000
    out = oqr.online_query_release.batch(data, n, rng=rng(30), **params)
    leak = S(env["w"], env["lam"])
    assert leak <= env["delta"] / (2 * env["m"])
    assert binom_p((out[:, 0] == 0).sum(), n, leak) > ALPHA
    neighbour = oqr.online_query_release.batch(resolve_stress_values(case.neighbour, env), 200_000, rng=rng(31),
                                               **params)
    assert not (neighbour[:, 0] == 0).any()


def test_oqr_delta_leak_rejects_wrong_query_noise(wrong_query_noise):
    spec = CATALOGUE["online_query_release"]
    case = next(c for c in spec.stress_cases if c.name == "delta_event_single_query")
    env = spec.bind(case.params)
    params = {k: env[k] for k in ("epsilon", "delta", "T", "m")}
    n = 1_000_000
    out = oqr.online_query_release.batch(resolve_stress_values(case.data, env), n, rng=rng(30), **params)
    assert binom_p((out[:, 0] == 0).sum(), n, S(env["w"], env["lam"])) < ALPHA


def test_oqr_threshold_kept_after_release_redrawn_after_bottom_with_halting():
    """Three queries at the threshold, T = 1: exact transcript law (quadrature over each shared
    threshold) fits; laws with the threshold re-drawn after releases or never re-drawn do not."""
    params = dict(epsilon=2.0, delta=0.2, T=1, m=3)
    lam = oqr.oqr_lambda(2.0, 0.2, 1)
    w = oqr.oqr_threshold(lam, 3, 0.2)
    dists, labels = [w, w - lam, w + lam], [4, 5, 6]
    data = [[lab, d] for lab, d in zip(labels, dists)]
    out = oqr.online_query_release.batch(data, N, rng=rng(40), **params)
    exact = oqr_law(dists, labels, lam, w, T=1)
    assert abs(sum(exact.values()) - 1) < 1e-4
    assert gof_p(out, exact) > ALPHA
    assert gof_p(out, oqr_law(dists, labels, lam, w, T=1, rule="top")) < ALPHA
    assert gof_p(out, oqr_law(dists, labels, lam, w, T=1, rule="never")) < ALPHA
    assert gof_p(out, oqr_law(dists, labels, lam, w, T=2)) < ALPHA          # halting at c > T, not T + 1


def test_oqr_halting_semantics():
    """Up to T + 1 bottoms (while c <= T, E11), then -2 for every later query, never before."""
    T = 3
    params = dict(epsilon=1.0, delta=1e-12, T=T, m=12)   # S(w) ~ 1e-13: dist 0 is a bottom, 1e9 a release
    data = [[7, 0]] * 2 + [[8, 1e9]] + [[7, 0]] * 3 + [[9, 1e9]] * 6
    expected = [-1, -1, 8, -1, -1, -2] + [-2] * 6
    out = oqr.online_query_release.batch(data, 500, rng=rng(50), **params)
    assert (out == expected).all()
    assert np.array_equal(oqr.online_query_release(data, rng=rng(51), **params), expected)
    g = rng(52)
    lam = oqr.oqr_lambda(1.0, 0.1, T)
    w = oqr.oqr_threshold(lam, 15, 0.1)
    data = np.stack([np.arange(15), np.clip(g.normal(w, 2 * lam, 15), 0, None)], axis=1)
    out = oqr.online_query_release.batch(data, 20_000, rng=rng(53), epsilon=1.0, delta=0.1, T=T, m=15)
    bottoms_before = np.cumsum(out == -1, axis=1) - (out == -1)
    assert ((out == -1).sum(1) <= T + 1).all() and ((out == -1).sum(1) == T + 1).any()
    assert np.array_equal(out == -2, bottoms_before >= T + 1)
    released = out >= 0
    assert np.array_equal(np.where(released, out, 0), np.where(released, np.arange(15), 0))
    with pytest.raises(ValueError):               # P9: more rows than the declared m
        oqr.online_query_release(data, rng=rng(0), epsilon=1.0, delta=0.1, T=T, m=14)


def test_oqr_online_session_matches_the_batch_law_and_refuses_query_m_plus_1():
    params = dict(epsilon=2.0, delta=0.2, T=1, m=3)
    lam = oqr.oqr_lambda(2.0, 0.2, 1)
    w = oqr.oqr_threshold(lam, 3, 0.2)
    rows = [[4, w], [5, w - lam], [6, w + lam]]
    g = rng(60)
    outs = []
    for _ in range(3_000):
        session = oqr.OnlineQueryRelease(rng=g, **params)
        outs.append([session.ask(*r) for r in rows])
    assert gof_p(np.array(outs), oqr_law([r[1] for r in rows], [4, 5, 6], lam, w, T=1)) > ALPHA
    with pytest.raises(ValueError):
        session.ask(1, 0)


# --------------------------------------------------------------------------- A_subSamp (Alg 4), E1


def _histograms(K, Lab):
    for cut in itertools.combinations(range(K + Lab - 1), Lab - 1):
        parts = np.diff([-1, *cut, K + Lab - 1]) - 1
        yield parts


def _moves(h):
    for a, b in itertools.permutations(range(len(h)), 2):
        if h[a] > 0:
            g = h.copy()
            g[a] -= 1
            g[b] += 1
            yield g


def _e1_scan(dist):
    """Max |dist change| over single-vote moves, and the largest dist(D) among moves that flip the mode."""
    worst_change, worst_flip = 0, 0
    for K in range(1, 9):
        for Lab in (2, 3, 4):
            for h in _histograms(K, Lab):
                mode = np.argmax(h)
                for g in _moves(h):
                    worst_change = max(worst_change, abs(int(dist(h)) - int(dist(g))))
                    if np.argmax(g) != mode:
                        worst_flip = max(worst_flip, int(dist(h)), int(dist(g)))
    return worst_change, worst_flip


def test_e1_printed_dist_is_not_a_distance_to_instability_and_the_corrected_one_is():
    """Exhaustive over K <= 8 chunks, L in {2, 3, 4} labels, every single-vote move: the printed
    max(0, gap - 1) moves by 2 and is positive on histograms whose mode one move flips; dist* =
    max(0, ceil(gap/2) - 1) moves by at most 1 and is 0 on both sides of every mode flip."""
    assert _e1_scan(lambda h: sa.dist_printed(h[None])[0]) == (2, 1)
    assert _e1_scan(lambda h: sa.dist_corrected(h[None])[0]) == (1, 0)
    assert list(sa.dist_corrected(np.array([[1, 0], [2, 0], [3, 0], [4, 0], [5, 0], [6, 1]]))) == [0, 0, 1, 1, 2, 2]
    # ties go to the smallest label; the gap is to the best other label
    mode, gap = sa.mode_and_gap(np.array([[3, 5, 5], [5, 5, 0], [0, 2, 7], [4, 1, 1]]))
    assert list(mode) == [1, 0, 2, 0] and list(gap) == [0, 0, 5, 3]


@pytest.mark.parametrize("votes", [[5, 4], [4, 6], [9, 2], [3, 9, 1], [6, 6, 1], [2, 2, 9]])
def test_subsample_release_probability_printed_vs_corrected(votes):
    """P[release the mode] = S(w - dist) with the printed dist in the printed variant and dist* in
    the corrected one; each variant's frequencies reject the other's law where they differ."""
    params = dict(epsilon=2.0, delta=0.2, T=1, m=1)
    lam = oqr.oqr_lambda(2.0, 0.2, 1)
    w = oqr.oqr_threshold(lam, 1, 0.2)
    h = np.array(votes)
    mode, gap = int(np.argmax(h)), int(np.sort(h)[-1] - np.sort(h)[-2])
    d_printed, d_star = max(0, gap - 1), max(0, math.ceil(gap / 2) - 1)
    for k, (fn, d, other) in enumerate(((sa.subsample_aggregate, d_printed, d_star),
                                        (sa.subsample_aggregate_corrected, d_star, d_printed))):
        out = fn.batch(h[None], 200_000, rng=rng(70 + k), **params)
        assert set(np.unique(out)) <= {mode, -1}
        assert binom_p((out == mode).sum(), 200_000, S(w - d, lam)) > ALPHA
        if d != other:
            assert binom_p((out == mode).sum(), 200_000, S(w - other, lam)) < ALPHA


def test_subsample_tie_break_exposure_leaks_S_of_w_minus_1_printed_and_S_of_w_corrected():
    """Stress case tie_break_exposure (E1 (ii)) at the audit point: label 1 is released on D with
    probability S(w - 1) (printed dist 1) resp. S(w) (dist* 0), and never on D' (tie -> label 0)."""
    n = 1_000_000
    for spec_id, fn, shift in (("subsample_aggregate", sa.subsample_aggregate, 1),
                               ("subsample_aggregate_corrected", sa.subsample_aggregate_corrected, 0)):
        spec = CATALOGUE[spec_id]
        case = next(c for c in spec.stress_cases if c.name == "tie_break_exposure")
        env = spec.bind(case.params)
        params = {k: env[k] for k in ("epsilon", "delta", "T", "m")}
        out = fn.batch(resolve_stress_values(case.data, env), n, rng=rng(80 + shift), **params)
        assert binom_p((out[:, 0] == 1).sum(), n, S(env["w"] - shift, env["lam"])) > ALPHA
        nb = fn.batch(resolve_stress_values(case.neighbour, env), 100_000, rng=rng(82), **params)
        assert not (nb[:, 0] == 1).any()


# --------------------------------------------------------------------------- record-level pipeline, P1


def _chunk_sets(index, ids):
    return [frozenset(ids[row[row >= 0]].tolist()) for row in index]


def _changed(a, b):
    return sum(x != y for x, y in zip(a, b))


def test_chunk_locality_replace_one_and_add_remove_and_the_check_has_power():
    g = rng(90)
    n, k = 1_003, 10
    X, y = g.random(n), g.integers(0, 2, n)
    # replace-one: slots; replacing record i changes only the chunk holding slot i
    index = sa.chunk_index(n, k)
    assert index.shape == (k, n // k) and np.unique(index).size == index.size
    for i in (0, 57, 999, 1_002):
        X2 = X.copy()
        X2[i] = -1e9                                   # sorts first: a value-dependent split would move
        a, _ = sa.chunk_data(X, y, index)
        b, _ = sa.chunk_data(X2, y, sa.chunk_index(n, k))
        assert (a != b).any(axis=1).sum() == (1 if i < k * (n // k) else 0)
    # add/remove: keyed hash of ids, public capacity; a record added (sorting first, at position 0)
    # or removed changes at most one chunk, also when chunks overflow their capacity
    ids = g.permutation(10 * n)[:n]
    key = sa.draw_hash_key(g)
    changed = {}
    for n_prime in (120, 90):
        base = _chunk_sets(sa.chunk_index(n, k, relation="add_remove", ids=ids, key=key, n_prime=n_prime), ids)
        new_id = 10 * n + 5
        ids_add = np.concatenate([[new_id], ids])
        kw = dict(relation="add_remove", key=key, n_prime=n_prime)
        added = _chunk_sets(sa.chunk_index(n + 1, k, ids=ids_add, **kw), ids_add)
        assert _changed(base, added) <= 1
        ids_rm = np.delete(ids, 321)
        removed = _chunk_sets(sa.chunk_index(n - 1, k, ids=ids_rm, **kw), ids_rm)
        assert _changed(base, removed) <= 1
        changed[n_prime] = _changed(base, added) + _changed(base, removed)
    assert changed[120] == 2
    # power: positional blocks and a split sorted by value move many chunks under the same edit
    blocks = lambda ids_: [frozenset(c.tolist()) for c in np.array_split(ids_, k)]  # noqa: E731
    assert _changed(blocks(ids), blocks(ids_add)) > 1
    by_value = lambda ids_, x: [frozenset(c.tolist()) for c in np.array_split(ids_[np.argsort(x)], k)]  # noqa: E731
    assert _changed(by_value(ids, X), by_value(ids_add, np.concatenate([[-1e9], X]))) > 1
    with pytest.raises(ValueError):
        sa.chunk_index(n, k, relation="add_remove", ids=ids, key=key)     # capacity from n is refused


def test_votes_move_by_at_most_one_vote_per_query_when_one_record_is_added():
    g = rng(91)
    n, k, m = 1_000, 40, 200
    ids = np.arange(n)
    X = g.random(n)
    y = (X >= 0.5).astype(int) ^ (g.random(n) < 0.2)
    q = np.linspace(0, 1, m)
    key = sa.draw_hash_key(g)
    kw = dict(relation="add_remove", key=key, n_prime=60)
    base = sa.vote_counts(X, y, q, k, "threshold_erm", ids=ids, **kw)
    moved = 0
    for t in range(20):
        x_new = g.random()
        v = sa.vote_counts(np.append(X, x_new), np.append(y, int(x_new < 0.5)), q, k, "threshold_erm",
                           ids=np.append(ids, n + t), **kw)
        diff = np.abs(v - base).sum(axis=1)
        assert set(np.unique(diff)) <= {0, 2} and (v.sum(1) == k).all()
        moved += diff.sum() > 0
    assert moved > 0


def test_vote_counts_match_per_chunk_training_and_padding_is_neutral():
    g = rng(92)
    n, k, m = 600, 12, 9
    X, y = g.random(n), g.integers(0, 2, n)
    q = g.random(m)
    for name, fit, predict in (("threshold_erm", L.threshold_erm, L.predict_threshold),
                               ("interval_erm", L.interval_erm, L.predict_interval)):
        v = sa.vote_counts(X, y, q, k, name)
        index = sa.chunk_index(n, k)
        brute = np.zeros((m, 2), dtype=int)
        for j in range(k):
            model = fit(X[index[j]][None], y[index[j]][None])
            np.add.at(brute, (np.arange(m), predict(model, q)[0]), 1)
        assert np.array_equal(v, brute)
        # add/remove: short chunks padded with the learner's neutral record fit like unpadded ones
        ids = np.arange(n)
        idx = sa.chunk_index(n, k, relation="add_remove", ids=ids, key=123, n_prime=70)
        assert (idx < 0).any()
        padded = fit(*sa.chunk_data(X, y, idx, sa.LEARNERS[name].pad))
        for j in range(k):
            alone = fit(X[idx[j][idx[j] >= 0]][None], y[idx[j][idx[j] >= 0]][None])
            assert np.array_equal(predict(padded[j:j + 1], q), predict(alone, q))


def test_multiclass_votes_and_release():
    """A 3-label chunk learner (constant majority label of its chunk): votes count labels per query,
    the released value is the vote mode (ties to the smallest label)."""
    def fit(X, y):
        return np.argmax(np.stack([(y == c).sum(1) for c in range(3)], axis=1), axis=1)
    majority = sa.ChunkLearner(fit, lambda t, x: np.repeat(t[:, None], len(x), axis=1), n_labels=3)
    g = rng(93)
    n, k = 3_000, 300
    y = g.choice(3, n, p=[0.2, 0.5, 0.3])
    v = sa.vote_counts(g.random(n), y, [0.1, 0.9], k, majority)
    index = sa.chunk_index(n, k)
    chunk_modes = np.argmax(np.stack([(y[index] == c).sum(1) for c in range(3)], axis=1), axis=1)
    assert np.array_equal(v[0], np.bincount(chunk_modes, minlength=3)) and np.array_equal(v[0], v[1])
    out = sa.subsample_aggregate.batch(v, 1_000, rng=rng(94), epsilon=8.0, delta=1e-3, T=1, m=2)
    assert set(np.unique(out)) <= {int(np.argmax(v[0])), -1, -2} and (out == np.argmax(v[0])).any()


def test_classify_records_releases_the_true_labels_of_stable_queries():
    """000 Sec. 4.1 end to end at the paper's k (454 chunks at the audit point) on realizable 1-D
    thresholds: queries far from t* are answered by every chunk alike and released correctly."""
    g = rng(95)
    params = dict(epsilon=8.0, delta=1e-3, T=1, m=4, beta=0.1)
    k = sa.k_chunks(cl.k_000(8.0, 1e-3, 1, 4, 0.1))
    assert k == math.ceil(CATALOGUE["private_classification_queries"].bind({})["k"])
    X = g.random(k * 40)
    y = (X >= 0.5).astype(int)
    q = np.array([0.05, 0.95, 0.1, 0.9])
    out = cl.classify_records(X, y, q, rng=rng(96), **params)
    assert np.array_equal(out, [0, 1, 0, 1])
    ids = g.permutation(10 * len(X))[: len(X)]
    out = cl.classify_records(X, y, q, rng=rng(97), conference=True, relation="add_remove", ids=ids,
                              n_prime=30, **params)
    assert np.array_equal(out, [0, 1, 0, 1])


def test_chunk_counts_match_the_specs():
    for spec_id, fn in (("subsample_aggregate", sa.k_printed), ("subsample_aggregate_corrected", sa.k_corrected),
                        ("private_classification_queries", cl.k_000),
                        ("private_classification_queries_conference", cl.k_conference)):
        env = CATALOGUE[spec_id].bind({})
        k = fn(env["epsilon"], env["delta"], env["T"], env["m"], env["beta"])
        assert math.isclose(k, env["k"], rel_tol=1e-12) and sa.k_chunks(k) == env["k_chunks"]
    for spec_id, fn, name in (("private_classification_queries", cl.cutoff_000, "T_cor41"),
                              ("private_classification_queries_conference", cl.cutoff_conference, "T_thm32")):
        for point in ({}, {"gamma": 0.1, "alpha": 0.02, "m": 1000, "beta": 0.01}):
            env = CATALOGUE[spec_id].bind(point)
            assert math.isclose(fn(env["gamma"], env["alpha"], env["m"], env["beta"]), env[name], rel_tol=1e-12)


# --------------------------------------------------------------------------- classification, A_Priv


def test_conference_is_binary_and_equals_the_000_instantiation_on_binary_votes():
    votes = [[6, 5], [2, 9], [8, 3]]
    params = dict(epsilon=2.0, delta=0.2, T=1, m=3)
    a = cl.private_classification_queries_conference.batch(votes, 50_000, rng=rng(100), **params)
    b = cl.private_classification_queries.batch(votes, 50_000, rng=rng(101), **params)
    assert two_sample_p(a, b) > ALPHA
    with pytest.raises(ValueError):
        cl.private_classification_queries_conference([[3, 2, 1]], rng=rng(0), **params)
    assert cl.private_classification_queries([[3, 2, 1]], rng=rng(0), **params).dtype == np.int64


def _erm_threshold(x, labels):
    """Brute-force ERM over 1[x >= t], t in the points or +inf, ties to the smallest t."""
    cands = sorted(x) + [np.inf]
    errors = [int(((np.asarray(x) >= t).astype(int) != labels).sum()) for t in cands]
    return cands[int(np.argmin(errors))]


def test_label_private_learner_coins_for_bottom_and_halted_points_exact_law():
    """All queries unstable (gap 1, delta = 1e-12: bottom w.p. 1 - 1e-13): the first T+1 are
    bottoms, the rest not answered, and all become fair coins; t_hat then has the law of ERM
    over uniform labels. Filling with 0 (or with the chunk majority, P16) is rejected."""
    x = [0.2, 0.4, 0.6, 0.8]
    data = {"x": x, "votes": [[5, 4], [4, 5], [5, 4], [4, 5]]}
    params = dict(epsilon=8.0, delta=1e-12, T=1, m=4)
    exact = {}
    for labels in itertools.product((0, 1), repeat=4):
        t = _erm_threshold(x, np.array(labels))
        exact[(t,)] = exact.get((t,), 0) + 1 / 16
    out = cl.label_private_learner.batch(data, N, rng=rng(110), **params)
    assert out.shape == (N,) and out.dtype == np.float64
    assert gof_p(out, exact) > ALPHA
    assert gof_p(out, {(np.inf,): 1.0}) < ALPHA                                   # bottom -> 0
    assert gof_p(out, {(_erm_threshold(x, np.array([0, 1, 0, 1])),): 1.0}) < ALPHA  # bottom -> majority
    # stable votes: labels released exactly, t_hat deterministic
    stable = {"x": x, "votes": [[900, 0], [900, 0], [0, 900], [0, 900]]}
    assert np.all(cl.label_private_learner.batch(stable, 1_000, rng=rng(111), **params) == 0.6)
    assert cl.label_private_learner(stable, rng=rng(112), **params) == 0.6


def test_private_learner_records_end_to_end():
    g = rng(113)
    params = dict(epsilon=8.0, delta=1e-3, T=1, beta=0.1)
    public = np.array([0.1, 0.3, 0.7, 0.9])
    k = sa.k_chunks(cl.k_000(8.0, 1e-3, 1, 4, 0.1))
    X = g.random(k * 40)
    assert cl.private_learner_records(X, (X >= 0.5).astype(int), public, rng=rng(114), **params) == 0.7


# --------------------------------------------------------------------------- GenHist (Def 5.1, P13)


def test_genhist_boundaries_are_exact_for_every_1_over_gamma():
    for Nb in range(2, 41):
        gamma = 1 / Nb
        j = np.arange(Nb)
        for x in (j * gamma, j / Nb, j * (1.0 / Nb), np.array([k * gamma for k in j])):
            assert np.array_equal(sl.regular_bin(x, gamma), j + 1)          # x = j gamma -> bin j + 1
            assert np.array_equal(sl.regular_bin(x[1:] - 1e-7, gamma), j[1:])
        assert sl.regular_bin(1.0, gamma) == Nb and sl.regular_bin(1 - 1e-7, gamma) == Nb
        v = np.arange(1, Nb)
        assert np.array_equal(sl.shifted_bin((v - 0.5) * gamma, gamma), v)  # [(v - 1/2) gamma, ...
        assert np.array_equal(sl.shifted_bin((v + 0.5) * gamma - 1e-7, gamma), v)   # ..., (v + 1/2) gamma)
        edges = np.array([0.0, gamma / 2 - 1e-7, 1 - gamma / 2, 1 - gamma / 2 + 1e-7, 1.0])
        assert np.all(sl.shifted_bin(edges, gamma) == 0)                     # [0, g/2) and [1 - g/2, 1]
        assert sl.shifted_bin(gamma / 2, gamma) == 1
    # histograms; values outside [0, 1] are clipped
    S = np.array([[0.0, 0.12, 0.125, 0.25, 0.5, 0.875, 1.0, 1.3, -0.2]])
    assert gen_list(S, 0) == [4, 1, 1, 3] and gen_list(S, 1) == [2, 1, 0]
    for bad in (0.3, 0.6, 0.0, 1 / 2.5):
        with pytest.raises(ValueError):
            sl.bins_per_unit(bad)
    # power: naive floor(x / gamma) puts x = 3 * 0.1 into bin 3, not 4
    assert int(np.floor(0.3 / 0.1)) + 1 == 3 and sl.regular_bin(0.3, 0.1) == 4


def gen_list(S, flag):
    return sl.gen_hist(S, 0.25, flag)[0].tolist()


def test_stress_case_edge_exclusion_histograms():
    spec = CATALOGUE["soft_label_queries"]
    case = next(c for c in spec.stress_cases if c.name == "edge_exclusion")
    env = spec.bind(case.params)
    D, D2 = (np.asarray(resolve_stress_values(v, env)) for v in (case.data, case.neighbour))
    reg, reg2 = sl.gen_hist(D, 0.25, 0), sl.gen_hist(D2, 0.25, 0)
    sh, sh2 = sl.gen_hist(D, 0.25, 1), sl.gen_hist(D2, 0.25, 1)
    assert np.array_equal(reg, reg2)                                   # the regular mode does not move
    assert np.argmax(sh[0]) == 1 and np.argmax(sh2[0]) == 0            # the shifted mode flips (tie -> bin 1)


# --------------------------------------------------------------------------- A_SL-Quer / H_Priv (Algs 6, 8)


def _soft_row(A, B, K=None):
    """A values at 0.3 (regular bin 2, shifted bin 1), B at 0.05 (regular bin 1, no shifted bin):
    regular dist A - B - 1, shifted dist A - 1 (gamma = 1/4); padded to K with 0.95 (bin 4)."""
    row = [0.3] * A + [0.05] * B
    return row + [0.95] * ((K or len(row)) - len(row))


def test_soft_label_single_query_law_printed_and_corrected_with_power():
    """One query: P[(0.375, 0)] = S(w - d1), P[(0.25, 1)] = (1 - S(w - d1)) S(w - d2) (fresh
    threshold between the tests), bottom otherwise. Rejected: no re-draw between the tests, no
    initial threshold noise (E3), and the other variant's w (E2)."""
    T, m, gamma = 1, 1, 0.25
    for k, (fn, corrected) in enumerate(((sl.soft_label_queries, False), (sl.soft_label_queries_corrected, True))):
        lam = sl.soft_label_lambda(8.0, 0.1, T)
        w = sl.soft_label_threshold(lam, m, 0.1, corrected)
        A = round(w) + 1
        rows = [(A - 3, A - 1, 0.375, 0.25)]
        data = [_soft_row(A, 2)]
        out = fn.batch(data, N, rng=rng(120 + k), epsilon=8.0, delta=0.1, T=T, m=m, gamma=gamma)
        assert out.shape == (N, 1, 2) and out.dtype == np.float64
        exact = soft_law(rows, lam, w, T, gamma)
        assert abs(exact[((0.375, 0.0),)] - S(w - (A - 3), lam)) < 1e-6
        assert gof_p(out, exact) > ALPHA
        assert gof_p(out, soft_law(rows, lam, w, T, gamma, rule="no_refresh_between")) < ALPHA
        assert gof_p(out, soft_law(rows, lam, w, T, gamma, initialised=False)) < ALPHA
        w_other = sl.soft_label_threshold(lam, m, 0.1, not corrected)
        assert gof_p(out, soft_law(rows, lam, w_other, T, gamma)) < ALPHA


def test_soft_label_rejects_wrong_query_noise(wrong_query_noise):
    lam = sl.soft_label_lambda(8.0, 0.1, 1)
    w = sl.soft_label_threshold(lam, 1, 0.1, False)
    A = round(w) + 1
    out = sl.soft_label_queries.batch([_soft_row(A, 2)], N, rng=rng(120), epsilon=8.0, delta=0.1, T=1, m=1, gamma=0.25)
    assert gof_p(out, soft_law([(A - 3, A - 1, 0.375, 0.25)], lam, w, 1, 0.25)) < ALPHA


def test_soft_label_threshold_is_shared_state_of_alg6_and_hpriv():
    """Two queries, T = 2: the exact transcript law with ONE mutable threshold (re-drawn after every
    sub-bottom, including between H_Priv's tests, and seen by the next query) fits; a copy of the
    threshold inside H_Priv (P14) and a missing re-draw between the tests do not."""
    T, m, gamma = 2, 2, 0.25
    lam = sl.soft_label_lambda(8.0, 0.1, T)
    w = sl.soft_label_threshold(lam, m, 0.1, False)
    A = round(w) + 1
    rows = [(A - 2, A - 1, 0.375, 0.25), (A - 2, A - 1, 0.375, 0.25)]
    data = [_soft_row(A, 1), _soft_row(A, 1)]
    out = sl.soft_label_queries.batch(data, 200_000, rng=rng(130), epsilon=8.0, delta=0.1, T=T, m=m, gamma=gamma)
    exact = soft_law(rows, lam, w, T, gamma)
    assert gof_p(out, exact) > ALPHA
    for rule in ("copy", "no_refresh_between"):
        assert gof_p(out, soft_law(rows, lam, w, T, gamma, rule=rule)) < ALPHA, rule


def test_soft_label_costs_and_halting():
    """Flag 0 costs 0, Flag 1 with a release 1, Flag 1 with bottom 2; the loop runs while c <= T,
    so up to T + 2 sub-bottoms; rows after the halt are (-2, -1)."""
    params = dict(epsilon=8.0, delta=1e-30, m=6, gamma=0.25)          # gap 0 fails, gap 1e4 passes, surely
    K = 10_000
    stable = [0.3] * K                                                  # regular bin 2: (0.375, 0)
    shifted = [0.24] * (K // 2) + [0.26] * (K // 2)                    # regular tie, shifted bin 1: (0.25, 1)
    double = [0.24] * (K // 2) + [0.40] * (K // 2)                     # ties in both partitions: bottom
    R, F, B, NA = (0.375, 0.0), (0.25, 1.0), (-1.0, 1.0), (-2.0, -1.0)
    cases = [
        (2, [stable, shifted, shifted, double, stable, stable], [R, F, F, B, NA, NA]),     # c: 0 1 2 4
        (2, [double, shifted, stable, stable, stable, stable], [B, F, NA, NA, NA, NA]),    # c: 2 3
        (1, [shifted, double, stable, stable, stable, stable], [F, B, NA, NA, NA, NA]),    # c: 1 3 (E13)
        (3, [double, double, stable, stable, stable, stable], [B, B, NA, NA, NA, NA]),     # c: 2 4
        (2, [stable] * 6, [R] * 6),
    ]
    for T, rows, expected in cases:
        for fn in (sl.soft_label_queries, sl.soft_label_queries_corrected):
            out = fn.batch(rows, 300, rng=rng(140 + T), T=T, **params)
            assert np.array_equal(out, np.broadcast_to(np.array(expected), out.shape)), (T, out[0])
            assert np.array_equal(fn(rows, rng=rng(150), T=T, **params), expected)


def test_soft_label_e2_first_test_leak_at_the_audit_point():
    """Stress case first_test_delta_leak (E2) at the spec defaults: the first query releases D's
    regular midpoint (0.375, Flag 0) with probability S(w): 5.3e-3 with the printed w, about
    (2/3) delta/(4m) = 4.2e-5 with the corrected w; D' never does."""
    n = 200_000
    leaks = {}
    for spec_id, fn in (("soft_label_queries", sl.soft_label_queries),
                        ("soft_label_queries_corrected", sl.soft_label_queries_corrected)):
        spec = CATALOGUE[spec_id]
        case = next(c for c in spec.stress_cases if c.name == "first_test_delta_leak")
        env = spec.bind(case.params)
        params = {k: env[k] for k in ("epsilon", "delta", "T", "m", "gamma")}
        assert math.isclose(sl.soft_label_lambda(env["epsilon"], env["delta"], env["T"]), env["lam"], rel_tol=1e-12)
        assert math.isclose(sl.soft_label_threshold(env["lam"], env["m"], env["delta"], "corrected" in spec_id),
                            env["w"], rel_tol=1e-12)
        out = fn.batch(resolve_stress_values(case.data, env), n, rng=rng(160), **params)
        hit = ((out[:, 0, 0] == 0.375) & (out[:, 0, 1] == 0)).sum()
        leaks[spec_id] = S(env["w"], env["lam"])
        assert math.isclose(leaks[spec_id], env["leak_per_subquery"], rel_tol=1e-9)
        assert binom_p(hit, n, leaks[spec_id]) > ALPHA
        nb = fn.batch(resolve_stress_values(case.neighbour, env), 50_000, rng=rng(161), **params)
        assert not ((nb[:, :, 0] == 0.375) & (nb[:, :, 1] == 0)).any()
    assert leaks["soft_label_queries"] > 5 * CATALOGUE["soft_label_queries"].bind({})["delta"]
    assert leaks["soft_label_queries_corrected"] < CATALOGUE["soft_label_queries"].bind({})["delta"] / 16


def test_soft_label_classifier_law_and_bottom_encoding():
    lam, w, gamma = 2.0, 10.0, 0.25
    A = 11
    out = sl.soft_label_classifier.batch(_soft_row(A, 2), N, rng=rng(170), gamma=gamma, lam=lam, w=w)
    assert out.shape == (N, 2)
    exact = {(k[0][0], k[0][1]): p for k, p in soft_law([(A - 3, A - 1, 0.375, 0.25)], lam, w, 10, gamma).items()}
    assert set(exact) == {(0.375, 0.0), (0.25, 1.0), (-1.0, 1.0)}
    assert gof_p(out, exact) > ALPHA
    wrong = {(k[0][0], k[0][1]): p for k, p in
             soft_law([(A - 3, A - 1, 0.375, 0.25)], lam, w, 10, gamma, rule="no_refresh_between").items()}
    assert gof_p(out, wrong) < ALPHA
    assert np.array_equal(sl.soft_label_classifier([0.5] * 3 + [0.0] * 3, rng=rng(171), gamma=0.5, lam=1e-3, w=50.0),
                          [-1.0, 1.0])


# --------------------------------------------------------------------------- A_PrvLearn (Alg 7)


def test_soft_label_learner_chunks_by_slot_and_trains_each_chunk_alone():
    g = rng(180)
    k, n_prime = 6, 40
    X = g.normal(size=k * n_prime)
    y = (X + g.normal(scale=0.5, size=X.size) > 0).astype(int)
    p = dict(k=k, n_prime=n_prime, eta=0.1, reg=0.01, radius=10.0)
    w = sl.soft_label_learner({"X": X, "y": y}, rng=rng(0), learner="sgd_logistic_one_pass", **p)
    assert w.shape == (k, 2)
    np.testing.assert_array_equal(w, L.sgd_logistic(X.reshape(k, n_prime), y.reshape(k, n_prime), eta=0.1,
                                                    reg=0.01, radius=10.0))
    X2 = X.copy()
    X2[3 * n_prime + 7] = 50.0                                          # a record of chunk 3 replaced
    w2 = sl.soft_label_learner({"X": X2, "y": y}, rng=rng(0), learner="sgd_logistic_one_pass", **p)
    assert np.flatnonzero((w2 != w).any(axis=1)).tolist() == [3]
    # permutation SGD: own coins per chunk; batch and single runs agree
    data = {"X": X, "y": y}
    single = np.array([sl.soft_label_learner(data, rng=g, learner="sgd_logistic_permutation", **p) for _ in range(300)])
    batch = sl.soft_label_learner.batch(data, 300, rng=rng(181), learner="sgd_logistic_permutation", **p)
    assert batch.shape == (300, k, 2)
    assert stats.ks_2samp(single[:, 0, 1], batch[:, 0, 1]).pvalue > ALPHA
    assert np.ptp(batch[:, 0, 1]) > 0 and not np.allclose(batch[:, 0], w[0])
    with pytest.raises(ValueError):
        sl.soft_label_learner({"X": X[:-1], "y": y[:-1]}, rng=rng(0), learner="sgd_logistic_one_pass", **p)


# --------------------------------------------------------------------------- batch vs single, spec contract

AGREE = [
    (oqr.online_query_release, [[2, 30.0], [3, 34.0], [1, 0.0], [4, 32.0]], dict(epsilon=2.0, delta=0.2, T=1, m=4)),
    (sa.subsample_aggregate, [[40, 10, 0], [45, 5, 0], [25, 25, 0], [50, 0, 0]],
     dict(epsilon=2.0, delta=0.2, T=1, m=4)),
    (sa.subsample_aggregate_corrected, [[66, 0], [60, 6], [33, 33], [50, 16]], dict(epsilon=2.0, delta=0.2, T=1, m=4)),
    (cl.private_classification_queries, [[40, 10], [45, 5], [25, 25], [50, 0]], dict(epsilon=2.0, delta=0.2, T=1, m=4)),
    (cl.private_classification_queries_conference, [[40, 10], [45, 5], [25, 25], [50, 0]],
     dict(epsilon=2.0, delta=0.2, T=1, m=4)),
    (cl.label_private_learner, {"x": [0.2, 0.4, 0.6, 0.8], "votes": [[60, 10], [40, 30], [30, 40], [10, 60]]},
     dict(epsilon=2.0, delta=0.2, T=1, m=4)),
    (sl.soft_label_queries, [_soft_row(10, 2, 14), _soft_row(11, 1, 14), _soft_row(8, 4, 14)],
     dict(epsilon=8.0, delta=0.1, T=2, m=3, gamma=0.25)),
    (sl.soft_label_queries_corrected, [_soft_row(20, 2), _soft_row(21, 1), _soft_row(18, 4)],
     dict(epsilon=8.0, delta=0.1, T=2, m=3, gamma=0.25)),
    (sl.soft_label_classifier, _soft_row(11, 2), dict(gamma=0.25, lam=2.0, w=10.0)),
]


@pytest.mark.parametrize("fn,data,params", AGREE, ids=[a[0].__name__ for a in AGREE])
def test_batch_and_single_run_agree(fn, data, params):
    single, batch = assert_batch_agrees_with_single_runs(fn, data, **params)
    assert len(np.unique(_rows(batch), axis=0)) > 2          # a non-degenerate law


def test_agreement_check_has_power():
    """A sampler whose runs share one threshold draw is caught by the same agreement check."""
    def coupled(data, n, *, rng, epsilon, delta, T, m):
        out = oqr.online_query_release.batch(data, 1, rng=rng, epsilon=epsilon, delta=delta, T=T, m=m)
        return np.repeat(out, n, axis=0)
    fn, data, params = AGREE[0]
    g = rng(7)
    single = np.array([fn(data, rng=g, **params) for _ in range(2_000)])
    assert two_sample_p(single, coupled(data, 40_000, rng=rng(8), **params)) < ALPHA


MY_SPECS = """sparse_vector distance_to_instability online_query_release subsample_aggregate subsample_aggregate_corrected private_classification_queries
private_classification_queries_conference label_private_learner soft_label_queries soft_label_queries_corrected
soft_label_classifier soft_label_learner""".split()


@pytest.mark.parametrize("spec_id", MY_SPECS)
def test_spec_implementation_contract(spec_id):
    """Imports, names only spec parameters (and rng) in the function and its batch sampler, runs on
    every stress case (or a small input) at the spec's defaults with the documented encoding."""
    import importlib
    spec = CATALOGUE[spec_id]
    module, name = spec.implementation.split(":")
    fn = getattr(importlib.import_module(module), name)
    for f in (fn, fn.batch):
        names = [p.name for p in inspect.signature(f).parameters.values() if p.kind is p.KEYWORD_ONLY]
        assert "rng" in names and set(names) - {"rng"} <= set(spec.parameters), (f, names)
    cases = [(c.params, c.data, c.neighbour) for c in spec.stress_cases]
    if spec_id == "soft_label_classifier":
        cases = [({}, [0.1] * 30 + [0.6] * 2, [0.1] * 29 + [0.6] * 3)]
    if spec_id == "soft_label_learner":
        g = rng(3)
        X = g.normal(size=300 * 100)
        cases = [({"k": 300, "n_prime": 100}, {"X": X, "y": (X > 0).astype(int)}, {"X": X, "y": (X > 0.1).astype(int)})]
    for case_params, *sides in cases:
        env = spec.bind(case_params)
        params = {k: env[k] for k in inspect.signature(fn).parameters if k in spec.parameters}
        for side in sides:
            data = resolve_stress_values(side, env)
            one = np.asarray(fn(data, rng=rng(0), **params))
            many = np.asarray(fn.batch(data, 5, rng=rng(1), **params))
            assert many.shape == (5,) + one.shape and not np.isnan(many).any()
            kind = spec.input["kind"]
            if kind == "query_answers":  # sparse vector: {1, 0, -1}^m
                assert one.dtype == np.int8 and one.shape == (len(data),) and np.isin(many, (-1, 0, 1)).all()
            elif kind == "value_and_distance":  # A_stab: the value or bottom
                assert one.shape == () and np.isin(many, (data[0], -1)).all()
            elif kind in ("labels_and_distances", "vote_counts"):
                assert one.dtype == np.int64 and one.shape == (len(data),)
                assert set(np.unique(many)) <= set(range(-2, 64))
            elif kind == "soft_predictions":
                assert one.dtype == np.float64 and one.shape == (len(data), 2)
                assert set(np.unique(many[..., 1])) <= {0.0, 1.0, -1.0}
            elif kind == "soft_predictions_one_query":
                assert one.shape == (2,)
            elif kind == "public_points_and_votes":
                assert one.shape == () and np.isin(many, list(data["x"]) + [np.inf]).all()
            else:
                assert one.shape == (params["k"], 2)
