"""Composition accounting for pure-DP building blocks.

The privacy proofs in the seeds compose per-segment guarantees (e.g. sparse vector: at most
T+1 segments, each 2*Delta/lambda-DP, seed 000 App. A6). These functions give the reference
budgets the audits compare against:

- :func:`basic_composition`: sum of epsilons and deltas;
- :func:`advanced_composition`: Dwork, Rothblum, Vadhan 2010 (Dwork-Roth 2014, Thm 3.20):
  k-fold eps-DP is (sqrt(2k ln(1/delta')) eps + k eps (e^eps - 1), delta')-DP;
- :func:`optimal_composition_delta` / :func:`optimal_composition_epsilon`: the exact privacy
  profile of k-fold composition of eps-DP mechanisms (Kairouz, Oh, Viswanath 2015): randomized
  response dominates every eps-DP mechanism, so delta(eps') is the hockey-stick divergence
  between k-fold products of binary randomized response.

Cross-checked against Google's dp_accounting privacy-loss distributions in tests.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, stats


def basic_composition(epsilons, deltas=None) -> tuple[float, float]:
    """(sum of epsilons, sum of deltas)."""
    return float(np.sum(epsilons)), float(np.sum(deltas if deltas is not None else 0.0))


def advanced_composition(epsilon: float, k: int, delta_prime: float) -> float:
    """Epsilon of k-fold composition of epsilon-DP mechanisms, with extra failure delta_prime."""
    return float(np.sqrt(2 * k * np.log(1 / delta_prime)) * epsilon + k * epsilon * np.expm1(epsilon))


def optimal_composition_delta(epsilon: float, k: int, target_epsilon: float) -> float:
    """Smallest delta with k-fold composition of epsilon-DP being (target_epsilon, delta)-DP.

    The privacy loss of one randomized response is +epsilon with probability
    p = e^eps/(1+e^eps) and -epsilon otherwise; delta = E[(1 - exp(target - L))_+] for
    L = the sum of k such losses.
    """
    l = np.arange(k + 1)                                   # number of -epsilon outcomes
    weights = stats.binom.pmf(l, k, 1 / (1 + np.exp(epsilon)))
    loss = (k - 2 * l) * epsilon
    return float(np.sum(weights * np.clip(-np.expm1(target_epsilon - loss), 0, None)))


def optimal_composition_epsilon(epsilon: float, k: int, delta: float) -> float:
    """Smallest epsilon' with k-fold composition of epsilon-DP being (epsilon', delta)-DP."""
    if delta >= 1:
        return 0.0
    if optimal_composition_delta(epsilon, k, 0.0) <= delta:
        return 0.0
    return float(optimize.brentq(lambda e: optimal_composition_delta(epsilon, k, e) - delta, 0.0, k * epsilon,
                                 xtol=1e-12))

