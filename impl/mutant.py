"""Implementation mutants: the reference with exactly one realistic bug.

Each paper package declares its mutants in a module-level ``MUTANTS`` tuple of a module named
``mutants`` (``dptestbed.impl.<paper>.mutants``). A mutant meets the public contract
(``mechanism(data, *, rng, **params)``, optionally with a batch sampler) and is checked
exactly as a user's implementation would be (``dptestbed check SPEC --impl REF``), so a
check that kills it would also catch the same bug in someone else's code.

A mutant the checks cannot tell from the reference by any measurement is declared
``equivalent`` with the reason; it is reported but excluded from the kill rate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .contract import accepted_params

# "contract": the implementation's law is right but it breaks the contract the measurements rest on (randomness
# not from ``rng``); killed as an implementation error
BREAKS = ("privacy", "utility", "both", "contract")


@dataclass(frozen=True)
class Mutant:
    """One bug in one spec's reference implementation."""

    spec: str  # the spec id the mutant claims to implement
    name: str  # short id, unique per spec
    implementation: str  # "dptestbed.impl.<paper>.mutants:function"
    breaks: str  # "privacy" | "utility" | "both" | "contract"
    bug: str  # the single bug, one line
    killed_by: tuple[str, ...] = ()  # checks meant to kill it: "privacy audit" or an experiment id
    equivalent: str = ""  # non-empty: why no measurement can distinguish it (excluded from the rate)
    # an exact computation behind a "privacy" label that no audit can show (the mutant fails on the
    # audit's pairs): the figure and the point, recomputed by a test
    exact_loss: str = ""

    def __post_init__(self):
        if self.breaks not in BREAKS:
            raise ValueError(f"mutant {self.spec}/{self.name}: breaks must be one of {BREAKS}")
        if ":" not in self.implementation:
            raise ValueError(f"mutant {self.spec}/{self.name}: implementation must be 'module:function'")

    @property
    def id(self) -> str:
        return f"{self.spec}/{self.name}"


# --------------------------------------------------------------------------- building mutants


def call(reference: Callable, data, rng, params: dict):
    """One output of ``reference`` (given only the parameters it accepts)."""
    return reference(data, rng=rng, **accepted_params(reference, params))


def call_batch(reference: Callable, data, n: int, rng, params: dict) -> np.ndarray:
    """``n`` outputs of ``reference``: its batch sampler when it has one, else a loop."""
    sampler = getattr(reference, "batch", None)
    if sampler is not None:
        return np.asarray(sampler(data, n, rng=rng, **accepted_params(sampler, params, positional=2)))
    return np.stack([np.asarray(call(reference, data, rng, params)) for _ in range(n)])


def with_params(reference: Callable, transform: Callable[[dict], dict], doc: str) -> Callable:
    """A mutant that runs ``reference`` with its parameters rewritten by ``transform`` (how a
    mis-derived scale or threshold arises). Keeps the contract and the batch sampler."""

    def sampler(data, n, /, *, rng, **params):
        return call_batch(reference, data, n, rng, transform(dict(params)))

    def mechanism(data, *, rng, **params):
        return call(reference, data, rng, transform(dict(params)))

    mechanism.__doc__ = doc
    mechanism.batch = sampler
    return mechanism


def post_processed(reference: Callable, post: Callable, doc: str) -> Callable:
    """A mutant whose outputs are ``post(outputs, data, rng, params)`` of the reference's
    (``outputs`` stacked along the first axis: a batch of one for a single call)."""

    def sampler(data, n, /, *, rng, **params):
        return post(call_batch(reference, data, n, rng, params), data, rng, params)

    def mechanism(data, *, rng, **params):
        out = np.asarray(call(reference, data, rng, params))
        return post(out[np.newaxis], data, rng, params)[0]

    mechanism.__doc__ = doc
    mechanism.batch = sampler
    return mechanism
