"""Privacy claims as curves: what an event's two probabilities show about each kind of claim.

A claim is a family of constraints on every event E of a mechanism's outputs on a neighbouring pair, one
constraint per point of a curve. An event with probability p1 on the side where it is likelier and p2 on the
other is one point (alpha, beta) = (p2, 1 - p1) of the pair's trade-off curve (Dong, Roth and Su, "Gaussian
differential privacy", JRSS-B 2022, Definition 2.1); a claim holds on the pair only if every such point lies on
or above the curve the claim implies. Each kind has one parameter theta, and :meth:`Claim.bound` turns an
event's confident probabilities (``p_lo`` below p1, ``p_hi`` above p2) into ``theta_lb``: the data show the
mechanism is not theta-private for any theta below it (so "claim violated" iff ``theta_lb`` > the claim's
theta). Every bound is monotone (increasing in p_lo, decreasing in p_hi), so a confidence statement on the two
probabilities is one on the bound.

==========  ============================  ====================================================================
kind        theta (claim)                 bound from (p_lo, p_hi), and its source
==========  ============================  ====================================================================
``dp``      epsilon at delta              ln((p_lo - delta) / p_hi): P[M(D) in E] <= e^eps P[M(D') in E] + delta
                                          (Dwork and Roth 2014, Definition 2.4)
``curve``   scale s of the (eps_i,        max_i ln((p_lo - delta_i) / p_hi) / eps_i: (s eps_i, delta_i)-DP for
            delta_i) points (claim: 1)    every point i (a privacy profile, Balle et al. 2018)
``gdp``     mu                            Phi^-1(p_lo) - Phi^-1(p_hi): mu-GDP iff beta >= G_mu(alpha) =
                                          Phi(Phi^-1(1 - alpha) - mu) (Dong, Roth and Su, Definition 2.6)
``zcdp``    rho                           sup_a D_a / a with D_a >= (a ln p_lo + (1 - a) ln p_hi) / (a - 1), the
                                          Renyi divergence of the event's cell alone (data processing;
                                          Bun and Steinke, TCC 2016, Definition 1.1)
``renyi``   scale s of the (alpha_i,      max_i D_{alpha_i} / eps_i, D as for zcdp (Mironov, CSF 2017,
            eps_i) points (claim: 1)      Definition 4)
==========  ============================  ====================================================================

Power (:meth:`Claim.minimum_detectable`): the smallest theta above the claim that an event of probability p1
on its likelier side could show on n fresh samples a side at level a, were its other probability the one that
theta gives it. The resolution (:attr:`Claim.resolution`) is the fraction above the claim an audit with power
must be able to show: 5% for epsilon, a scale of epsilons and mu (each inversely proportional to a noise scale),
10.25% for rho and Renyi epsilons (inversely proportional to its square: 5% less noise).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..base.stats import cp_lower, cp_upper, wilson_bounds

RESOLUTION = 0.05  # a loss this fraction above an epsilon or mu claim must be detectable (5% less noise)
QUADRATIC_RESOLUTION = (1 + RESOLUTION) ** 2 - 1  # the same for rho and Renyi epsilons


def _log(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(np.where(np.asarray(x, dtype=float) > 0, x, 0.0))


def _dp(p_lo, p_hi, eps_scale, delta):
    """ln((p_lo - delta) / p_hi) / eps_scale, -inf where p_lo <= delta."""
    p_lo, p_hi = np.asarray(p_lo, dtype=float), np.asarray(p_hi, dtype=float)
    num = p_lo - delta
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(num > 0, _log(num) - _log(p_hi), -np.inf)
    return out / eps_scale


def _renyi_cell(p_lo, p_hi, a):
    """The Renyi divergence of order ``a`` that one cell (p_lo on one side, p_hi on the other) shows:
    (a ln p_lo + (1 - a) ln p_hi) / (a - 1), -inf where p_lo = 0."""
    p_lo, p_hi = np.asarray(p_lo, dtype=float), np.asarray(p_hi, dtype=float)
    with np.errstate(invalid="ignore"):
        out = (a * _log(p_lo) + (1 - a) * _log(p_hi)) / (a - 1)
    return np.where(p_lo > 0, out, -np.inf)


@dataclass(frozen=True)
class Claim:
    """One privacy claim on a pair (module doc). ``points``: the (eps, delta) points of a ``curve`` claim or
    the (alpha, eps) points of a ``renyi`` one."""

    kind: str
    value: float
    delta: float = 0.0
    points: tuple = field(default_factory=tuple)

    # ------------------------------------------------------------------ what the claim is
    @property
    def name(self) -> str:
        return {"dp": "epsilon", "gdp": "mu", "zcdp": "rho"}.get(self.kind, "scale")

    @property
    def symbol(self) -> str:
        return {"dp": "ε", "gdp": "μ", "zcdp": "ρ"}.get(self.kind, "s")

    @property
    def resolution(self) -> float:
        return QUADRATIC_RESOLUTION if self.kind in ("zcdp", "renyi") else RESOLUTION

    def describe(self) -> str:
        if self.kind == "dp":
            return f"epsilon = {self.value:g}, delta = {self.delta:g}"
        if self.kind == "gdp":
            return f"{self.value:g}-GDP (mu = {self.value:g})"
        if self.kind == "zcdp":
            return f"{self.value:g}-zCDP (rho = {self.value:g})"
        if self.kind == "curve":
            return "(epsilon, delta)-DP at " + ", ".join(f"({e:g}, {d:g})" for e, d in self.points)
        return "Renyi DP at " + ", ".join(f"(alpha {a:g}, epsilon {e:g})" for a, e in self.points)

    def to_json(self) -> dict:
        out: dict = {"kind": self.kind, self.name: self.value}
        if self.kind == "dp":
            out["delta"] = self.delta
        if self.points:
            out["points"] = [list(p) for p in self.points]
        return out

    def scaled(self, value: float) -> Claim:
        """The same kind with parameter ``value`` (a curve's or Renyi list's scale applied to its epsilons)."""
        if self.kind == "curve":
            return Claim("curve", 1.0, points=tuple((e * value, d) for e, d in self.points))
        if self.kind == "renyi":
            return Claim("renyi", 1.0, points=tuple((a, e * value) for a, e in self.points))
        return Claim(self.kind, value, self.delta)

    # ------------------------------------------------------------------ what an event shows
    def bound(self, p_lo, p_hi):
        """theta_lb of an event whose likelier side's probability is at least ``p_lo`` and whose other side's is
        at most ``p_hi`` (vectorised; -inf when the event shows nothing)."""
        if self.kind == "dp":
            return _dp(p_lo, p_hi, 1.0, self.delta)
        if self.kind == "curve":  # every point at once: a last axis of the points
            e, d = np.array(self.points, dtype=float).T
            return _dp(np.asarray(p_lo, dtype=float)[..., None], np.asarray(p_hi, dtype=float)[..., None], e, d).max(-1)
        if self.kind == "gdp":
            from scipy import special

            p_lo, p_hi = np.asarray(p_lo, dtype=float), np.asarray(p_hi, dtype=float)
            with np.errstate(invalid="ignore"):
                out = special.ndtri(np.clip(p_lo, 0, 1)) - special.ndtri(np.clip(p_hi, 0, 1))
            return np.where((p_lo > 0) & (p_hi < 1), out, -np.inf)
        if self.kind == "zcdp":
            return _zcdp_from_cell(p_lo, p_hi)
        return np.max([_renyi_cell(p_lo, p_hi, a) / e for a, e in self.points], axis=0)

    def bound_from_counts(self, k1, n1, k2, n2, alpha):
        """The bound of an event counted ``k1`` of ``n1`` times on its likelier side and ``k2`` of ``n2`` on the
        other, each side's Clopper-Pearson bound at level alpha/2 (so the bound holds with probability at least
        1 - alpha)."""
        half = np.asarray(alpha) / 2
        return self.bound(cp_lower(k1, n1, half), cp_upper(k2, n2, half))

    def predicted(self, p1, p2, n, alpha):
        """The bound :meth:`bound_from_counts` would give on ``n`` fresh samples a side if the event's
        probabilities were exactly ``p1`` and ``p2`` (expected counts plugged in): how events are chosen."""
        p1 = np.clip(np.asarray(p1, dtype=float), 0, 1)
        p2 = np.clip(np.asarray(p2, dtype=float), 0, 1)
        return self.bound_from_counts(p1 * n, n, p2 * n, n, alpha)

    def approx_predicted(self, p1, p2, n, alpha):
        """:meth:`predicted` with Wilson score bounds (a fast screen of many events)."""
        lo, _ = wilson_bounds(p1, n, alpha / 2)
        _, hi = wilson_bounds(p2, n, alpha / 2)
        return self.bound(lo, hi)

    def other_side(self, p1: float, theta: float) -> float:
        """The probability on the other side that makes an event of probability ``p1`` show exactly ``theta``
        (its exact bound; the largest such probability: bisection on the monotone bound)."""
        if self.kind == "dp":
            return max(0.0, (p1 - self.delta) * math.exp(-theta))
        if self.kind == "curve":  # the bound passes theta where one point's does: the largest of their boundaries
            return max(0.0, *((p1 - d) * math.exp(-theta * e) for e, d in self.points))
        if self.kind == "gdp":
            from scipy import special

            return float(special.ndtr(special.ndtri(p1) - theta))
        lo, hi = 0.0, p1
        for _ in range(60):
            mid = (lo + hi) / 2
            if float(self.bound(p1, mid)) > theta:
                lo = mid
            else:
                hi = mid
        return lo

    def minimum_detectable(self, p1: float, n: int, alpha: float, upper_factor: float = 50.0) -> float:
        """The smallest theta an audit with ``n`` samples a side at level ``alpha`` can show above this claim on
        an event of probability ``p1`` on its likelier side (module doc); inf when none can."""
        claim = self.value
        if not (p1 > 0 and float(self.predicted(p1, 0.0, n, alpha)) > claim):
            return math.inf

        def shown(theta):
            return float(self.predicted(p1, self.other_side(p1, theta), n, alpha)) > claim

        lo, hi = claim, max(claim * upper_factor, claim + 50.0)
        if not shown(hi):
            return math.inf
        for _ in range(40):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if shown(mid) else (mid, hi)
        return hi


def _zcdp_from_cell(p_lo, p_hi):
    """sup over a > 1 of D_a / a, D_a the one-cell Renyi bound: with L = ln(p_lo / p_hi) > 0 and
    c = -ln p_lo >= 0, (L - c / (a - 1)) / a is largest at a = (L + c + sqrt((L + c) c)) / L."""
    p_lo, p_hi = np.asarray(p_lo, dtype=float), np.asarray(p_hi, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        L = _log(p_lo) - _log(p_hi)
        c = -_log(p_lo)
        a = (L + c + np.sqrt(np.maximum((L + c) * c, 0.0))) / np.where(L > 0, L, np.nan)
        a = np.maximum(a, 1 + 1e-9)
        out = (L - c / (a - 1)) / a
    return np.where((p_lo > 0) & (L > 0) & np.isfinite(out), out, -np.inf)


KINDS = ("dp", "curve", "gdp", "zcdp", "renyi")


def make_claim(kind: str, value: float | None = None, delta: float = 0.0, points=()) -> Claim:
    """A checked :class:`Claim`; ValueError (one line) for a claim that is not one: an epsilon below 0 or a
    delta outside [0, 1), a mu or rho that is not positive, an empty list, a Renyi order not above 1."""
    if kind not in KINDS:
        raise ValueError(f"claim kind {kind!r}: choose one of {', '.join(KINDS)}")
    if kind in ("curve", "renyi"):
        points = tuple((float(a), float(b)) for a, b in points)
        if not points:
            raise ValueError(f"a {kind} claim needs at least one point")
        for a, b in points:
            if kind == "curve" and not (math.isfinite(a) and a > 0 and 0 <= b < 1):
                raise ValueError(f"(epsilon, delta) = ({a:g}, {b:g}): needs epsilon > 0 and 0 <= delta < 1")
            if kind == "renyi" and not (math.isfinite(a) and a > 1 and math.isfinite(b) and b > 0):
                raise ValueError(f"(alpha, epsilon) = ({a:g}, {b:g}): needs alpha > 1 and epsilon > 0")
        return Claim(kind, 1.0, points=points)
    value = float(value if value is not None else math.nan)
    if kind == "dp":
        if not (math.isfinite(value) and value >= 0 and 0 <= float(delta) < 1):
            raise ValueError(f"(epsilon, delta) = ({value:g}, {float(delta):g}): needs epsilon >= 0 and 0 <= delta < 1")
        return Claim("dp", value, float(delta))
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{kind} = {value:g}: needs a positive finite number")
    return Claim(kind, value)


def implied_point(claim: Claim, delta: float = 1e-5) -> tuple[float, float]:
    """An (epsilon, delta) point the claim implies, for reports: an (epsilon, delta) claim itself; a curve's first
    point; for mu-GDP the epsilon with delta(epsilon) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) = delta
    (Dong, Roth and Su, Corollary 2.13); for rho-zCDP rho + 2 sqrt(rho ln(1/delta)) (Bun and Steinke 2016,
    Proposition 1.3); for Renyi points min_i eps_i + ln(1/delta)/(alpha_i - 1) (Mironov 2017, Proposition 3)."""
    if claim.kind == "dp":
        return claim.value, claim.delta
    if claim.kind == "curve":
        return claim.points[0]
    if claim.kind == "zcdp":
        return claim.value + 2 * math.sqrt(claim.value * math.log(1 / delta)), delta
    if claim.kind == "renyi":
        return min(e + math.log(1 / delta) / (a - 1) for a, e in claim.points), delta
    from scipy import special

    mu = claim.value

    def gap(eps):
        return special.ndtr(-eps / mu + mu / 2) - math.exp(eps) * special.ndtr(-eps / mu - mu / 2) - delta

    lo, hi = 0.0, mu * mu / 2 + mu * 40
    if gap(lo) <= 0:
        return 0.0, delta
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if gap(mid) > 0 else (lo, mid)
    return hi, delta


def from_json(doc: dict | None) -> Claim:
    """The :class:`Claim` of a claim's JSON (:meth:`Claim.to_json`; a document without ``kind`` is an (epsilon,
    delta) claim, as results written before claims had kinds)."""
    doc = doc or {}
    kind = doc.get("kind", "dp")
    if kind in ("curve", "renyi"):
        return Claim(kind, 1.0, points=tuple(tuple(p) for p in doc.get("points", ())))
    name = {"dp": "epsilon", "gdp": "mu", "zcdp": "rho"}.get(kind, "epsilon")
    value = doc.get(name)
    return Claim(kind, float("nan") if value is None else float(value), float(doc.get("delta") or 0.0))


def bound_formula(claim: Claim, num: str, den: str) -> str:
    """How a counterexample's bound is computed, in words: ``epsilon >= ln((p_D - delta) / p_D')`` and the like
    (``num``, ``den``: the sides' names)."""
    p, q = f"p_{num}", f"p_{den}"
    if claim.kind == "dp":
        return f"epsilon >= ln(({p} - delta) / {q}) at delta = {claim.delta:g}"
    if claim.kind == "gdp":
        return f"mu >= Phi^-1({p}) - Phi^-1({q}) (the Gaussian trade-off curve through the event)"
    if claim.kind == "zcdp":
        return f"rho >= sup_a (a ln {p} + (1 - a) ln {q}) / (a (a - 1)) (the event's Renyi divergences)"
    if claim.kind == "curve":
        return f"the scale of the claimed epsilons >= max_i ln(({p} - delta_i) / {q}) / epsilon_i"
    return f"the scale of the claimed Renyi epsilons >= max_i (a_i ln {p} + (1 - a_i) ln {q}) / ((a_i - 1) epsilon_i)"
