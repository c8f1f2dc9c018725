"""The implementation contract every mechanism meets (ours and users').

A mechanism is a plain function ``mechanism(data, *, rng, **params) -> output``: ``data`` is
the spec's input abstraction, ``params`` are the spec's parameter names (a function is given
only the parameters its signature names, unless it takes ``**params``), the output uses the
spec's output encoding, and every random draw comes from ``rng`` (a numpy Generator).

A reference implementation may also carry a vectorised sampler, attached with
:func:`batched`: ``sampler(data, n, *, rng, **params)`` returns ``n`` independent outputs
stacked along the first axis (shape ``(n,)`` for scalar outputs, ``(n, d)`` for vectors and
sequences). Auditors use it when present and call the function in a loop otherwise. ``data``
and ``n`` are passed by position, so a spec parameter may itself be called ``n``.
"""

from __future__ import annotations

from collections.abc import Callable


def batched(sampler: Callable) -> Callable[[Callable], Callable]:
    """Decorator: ``@batched(sampler)`` attaches ``sampler`` as ``mechanism.batch``."""

    def attach(mechanism: Callable) -> Callable:
        mechanism.batch = sampler
        return mechanism

    return attach
