"""Errata of seed 001 settled by measurement (note 001 section 8, review 001-003 B.1).

- 001-E1 (proof): Theorem 4.10 eq. (2) is printed without the square-root term of Lemma 4.8.
- 001-E2 (proof): Lemma 4.8 applied with k = d^2 ignores Aff (up to d more points) and the side
  information ((d + 1) 2^d choices) the reconstruction of g from its points needs.
- 001-E3 (utility): Step 5's "arbitrary" supported halfspace (trap U1): a degenerate choice breaks
  Lemma 4.5 (permanent deterministic counterexample).
- 001-E4: closed membership without a tolerance (trap U2): on badly scaled data public points fall off
  their own hyperplanes and Lemma 4.5 fails. A floating-point pitfall of implementations, which the
  paper (exact arithmetic) does not commit: not an erratum, listed apart.
"""

from __future__ import annotations

import math

import numpy as np

from dptestbed.audits.api import erratum
from dptestbed.impl.halfspace_mixtures.geometry import Setup, erm_mistakes, population_error
from dptestbed.impl.halfspace_mixtures.mutants import axis_family, strict_inside

from .common import Law, min_mistakes, public_part
from .learner_checks import compression_bound, side_info_bound

PPM, FAMILY = "ppm_halfspace_learner", "halfspace_family"


def _uniform_deviation(setup: Setup, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, Law]:
    """(err, err^, the learner's law) of every g in G on one fresh S ~ D^n."""
    data = setup.sample(n, rng)
    law = Law(data)
    X_pub = public_part(data)
    return population_error(setup, X_pub, law.J), law.m / n, law


# the exact law over G at n = 10^5 (|G| about 28,000 with this label noise) takes 6.6 GB: 5 10^4 takes 1.7 GB
E1_SIZES = {"quick": (10_000, 30_000), "full": (10_000, 30_000, 50_000)}
E1_EPSILON, E1_BETA = 0.9, 0.05


@erratum("001-E1", kind="proof", printed=PPM,
         printed_text="|err(g^) - err^(g^; S')| <= 8 d^2 log(4n/beta)/n + 2 d^2/n (eq. (2))",
         corrected_text="|err(g^) - err^(g^; S')| <= sqrt(err^(g^; S') 4 d^2 log(4n/beta)/n) + 8 d^2 log(4n/beta)/n "
                        "+ 2 d^2/n (Lemma 4.8)")
def e1_eq2(ctx) -> dict:
    """Eq. (2) printed: |err - err^| <= 8 d^2 L/n + 2 d^2/n, L = ln(4n/beta); Lemma 4.8 has
    sqrt(err^ 4 d^2 L/n) on top. Measured on what the paper states it of: the learner's own output
    g^. On each sample S the learner's law over G is exact (Step 9 at epsilon), so P[|err(g^) -
    err^(g^)| > bound] is computed exactly per S, for the printed and the corrected bound; eq. (2)
    claims it at most beta."""
    setup, d = Setup(d=1, pi_pub=0.05, eta=0.1), 1
    rng = np.random.default_rng(ctx.seed + 1)
    rows = []
    for n in E1_SIZES[ctx.suite]:
        err, err_hat, law = _uniform_deviation(setup, n, rng)
        L = math.log(4 * n / E1_BETA)
        gap = np.abs(err - err_hat)
        prob = np.exp(law.logp(E1_EPSILON))
        printed = compression_bound(0.0, n, d * d, L)
        corrected = compression_bound(err_hat, n, d * d, L)
        rows.append({"n": n, "G_size": int(err.size), "printed_bound": float(printed),
                     "p_exceed_printed": float(prob[gap > printed].sum()),
                     "p_exceed_corrected": float(prob[gap > corrected].sum()),
                     "gap_of_the_mode": float(gap[int(np.argmax(prob))])})
    fails = [r for r in rows if r["p_exceed_printed"] > E1_BETA]
    holds = all(r["p_exceed_corrected"] <= E1_BETA for r in rows)
    # where the printed form still holds on g^ (its law concentrates on hypotheses of error near the noise
    # rate, whose deviation sqrt(err (1 - err)/n) overtakes 8 L/n only near n = 10^6 for d = 1, beyond what
    # the exact law over G holds in memory here), the erratum stands on the argument, not on a measurement
    verdict = "confirmed" if fails and holds else ("analytic" if holds else "inconclusive")
    text = (f"d = 1, label noise 0.1, public mass 0.05, epsilon = {E1_EPSILON}, beta = {E1_BETA}; on the learner's "
            "own output g^ (its exact law over G on one sample per n): " + "; ".join(
                f"n = {r['n']:,} (|G| = {r['G_size']:,}): P[|err - err^| > printed {r['printed_bound']:.4f}] = "
                f"{r['p_exceed_printed']:.3g}, P[> corrected] = {r['p_exceed_corrected']:.3g}" for r in rows)
            + ". The printed form decays like log(n)/n, the deviation of a hypothesis of error about the noise rate "
              "like 1/sqrt(n) (at d = 1 the two cross near n = 10^6: sqrt(0.09/n) z against 8 log(4n/beta)/n), so "
              "it fails once n is large; the exact law over G at such n does not fit in memory here, so where the "
              "sizes measured show the printed bound holding the verdict rests on that argument; the paper's next "
              "sentence (n = O((d^2 log(d/alpha) + log(1/beta))/alpha^2)) is the rate of the corrected form.")
    return {"verdict": verdict, "measurement": text,
            "deciding": "the probability, under the learner's exact law, that its output's |err - err^| exceeds the "
                        "printed eq. (2) bound, against beta",
            "details": {"rows": rows}}


@erratum("001-E2", kind="proof", involves=(PPM,),
         printed_text="Lemma 4.8 applied with compression size k = d^2 (the points of g^)",
         corrected_text="k = d^2 + d with (d + 1) 2^d choices of side information (Aff and the orientation)")
def e2_compression_size(ctx) -> dict:
    """k = d^2 against k = d^2 + d with side information, both uniformly over G (slack): the gap is
    in the proof, nothing here can show it (analytic)."""
    rng = np.random.default_rng(ctx.seed + 2)
    rows = []
    for d, setup, n in ((1, Setup(d=1), 400), (2, Setup(d=2, b=-1.0383210567), 700)):
        err, err_hat, _ = _uniform_deviation(setup, n, rng)
        beta = 0.05
        L = math.log(n / beta)
        stated = compression_bound(err_hat, n, d * d, L)
        rigorous = side_info_bound(err_hat, n, d, beta)
        over = err - err_hat
        rows.append({"d": d, "n": n, "G_size": int(err.size), "max_gap": float(over.max()),
                     "min_slack_stated": float((stated - over).min()), "min_slack_side_info": float((rigorous - over).min()),
                     "bound_stated_at_0": float(stated.min()), "bound_side_info_at_0": float(rigorous.min())})
    text = "; ".join(f"d = {r['d']}, n = {r['n']}, |G| = {r['G_size']:,}: max over G of err - err^ = {r['max_gap']:.4f}, "
                     f"smallest slack {r['min_slack_stated']:.3f} (k = d^2 as stated, bound {r['bound_stated_at_0']:.3f} at "
                     f"err^ = 0) and {r['min_slack_side_info']:.3f} (k = d^2 + d with (d + 1) 2^d side information, "
                     f"{r['bound_side_info_at_0']:.3f})" for r in rows)
    return {"verdict": "analytic",
            "measurement": text + ". Both bounds hold with wide slack: the gap is in the proof (g is a function of "
                                  "its d^2 points only together with Aff and the orientation bits); no measurement "
                                  "can show a missing side-information term, so the slack above only illustrates it.",
            "deciding": "analytic (the reconstruction map B needs Aff and the side information); the measured slack "
                        "shows no consequence at these sizes",
            "details": {"rows": rows}}


@erratum("001-E3", kind="utility", printed=FAMILY)
def e3_step5(ctx) -> dict:
    """Trap U1 (note 001 section 6): collinear public points, all data on their line."""
    t_pub = -np.linspace(0.1, 1.0, 5)
    t_priv = np.linspace(0.05, 1.0, 8)
    X = np.c_[np.r_[t_pub, t_priv], np.zeros(13)]
    y = np.r_[np.zeros(5, np.int64), np.ones(8, np.int64)]
    data = {"X": X, "y": y, "p": y.copy()}
    n = y.size
    generic = min_mistakes(data)
    axis = min_mistakes(data, family=axis_family)
    erm = erm_mistakes(X, y)
    verdict = "confirmed" if axis > erm and generic <= erm else "refuted"
    return {"verdict": verdict,
            "measurement": f"d = 2, 5 public and 8 private points on the line x_2 = 0 (realizable by x_1 >= 0): "
                           f"min over G of err^ = {generic / n:.3f} with the generic Step-5 rule, {axis / n:.3f} with "
                           f"axis-aligned normals chosen in R^d (singletons get the line itself as boundary), ERM "
                           f"halfspace {erm / n:.3f}. Lemma 4.5 holds only for a non-degenerate Step-5 choice.",
            "deciding": "deterministic counterexample: min_G err^ > err^(h_ERM) under the degenerate choice",
            "details": {"min_G_generic": generic, "min_G_axis": axis, "erm": erm, "n": n}}


def _exact_ge(W, aff, X):
    X = np.asarray(X, float)
    if aff is None or W.shape[0] == 0:
        return np.zeros((W.shape[0], X.shape[0]), bool)
    return (W[:, :-1] @ X.T >= W[:, -1:]) & aff.contains(X)[None, :]


@erratum("001-E4", kind="utility", involves=(FAMILY,),
         printed_text="membership of the public points in their supported halfspaces, exact (the paper's arithmetic)",
         corrected_text="in floating point: membership with a tolerance at the public points' scale")
def e4_membership(ctx) -> dict:
    """Trap U2: 30 badly scaled realizable instances, three membership tests."""
    rng = np.random.default_rng(ctx.seed + 4)
    counts = {"tolerance": 0, "exact >=": 0, "strict >": 0}
    for _ in range(30):
        X = rng.uniform(-1, 1, (16, 2))
        y = (X @ [1.0, 0.7] >= 0.1).astype(np.int64)
        data = {"X": X * [1e3, 1e-3] + 5e3, "y": y, "p": y.copy()}
        counts["tolerance"] += min_mistakes(data) > 0
        counts["exact >="] += min_mistakes(data, membership=_exact_ge) > 0
        counts["strict >"] += min_mistakes(data, membership=strict_inside) > 0
    # the paper works in exact arithmetic: a floating-point pitfall of implementations, not of the paper
    verdict = "not an erratum" if counts["strict >"] > 0 and counts["tolerance"] == 0 else "inconclusive"
    return {"verdict": verdict,
            "measurement": "30 realizable d = 2 instances scaled by (10^3, 10^-3) and offset by 5 10^3: Lemma 4.5 fails "
                           f"(min_G m > 0) on {counts['strict >']}/30 with strict membership, {counts['exact >=']}/30 with "
                           f"an exact >= test, {counts['tolerance']}/30 with the public-scale tolerance.",
            "deciding": "deterministic counterexamples: realizable instances where no g in G is consistent",
            "details": counts}
