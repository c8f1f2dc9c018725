"""The audit's alpha budget: ``1 - confidence`` split, before any sample is drawn, over everything that may report
a bound.

Soundness rests on this split being fixed first: whichever rounds end up running (a second round only when the
first was short of power, a round for power alone, the tight round when asked), each had its share set aside, so
the chance that any reported bound exceeds the true loss of its pair is at most the sum of the shares, the total.
The confirmation round of a batch sampler, the agreement test of a batch sampler with the function users call and
the divergence round of a Renyi-type claim and the test that consecutive calls of a user's function are independent
(serial.py) take fixed fractions first (their modules' ``*_ALPHA_SHARE``); the rest
is split equally over the rounds that may run. Each round then splits its share over its K candidates
(Bonferroni) and each candidate over its two intervals.
"""

from __future__ import annotations

from dataclasses import dataclass

from .agreement import AGREEMENT_ALPHA_SHARE
from .confirm import CONFIRM_ALPHA_SHARE
from .divergence import DIVERGENCE_ALPHA_SHARE
from .serial import SERIAL_ALPHA_SHARE


@dataclass(frozen=True)
class AlphaBudget:
    """The shares of ``total``: ``per_round`` for each of ``rounds`` rounds, and ``confirm``, ``agree``, ``diverge``
    and ``serial`` (zero for a phase that cannot run)."""

    total: float
    rounds: int
    confirm: float = 0.0
    agree: float = 0.0
    diverge: float = 0.0
    serial: float = 0.0

    @classmethod
    def split(cls, total: float, rounds: int, *, confirm: bool = False, agree: bool = False,
              diverge: bool = False, serial: bool = False) -> AlphaBudget:
        """The budget of an audit at level ``total`` that may run ``rounds`` rounds (the tight round counted) and
        the phases named."""
        if not (0 < total < 1 and rounds >= 1):
            raise ValueError(f"an alpha budget needs 0 < total < 1 and a round; got {total}, {rounds}")
        return cls(total, rounds, total * CONFIRM_ALPHA_SHARE if confirm else 0.0,
                   total * AGREEMENT_ALPHA_SHARE if agree else 0.0, total * DIVERGENCE_ALPHA_SHARE if diverge else 0.0,
                   total * SERIAL_ALPHA_SHARE if serial else 0.0)

    @property
    def per_round(self) -> float:
        return (self.total - self.confirm - self.agree - self.diverge - self.serial) / self.rounds
