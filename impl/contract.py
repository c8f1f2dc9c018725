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

import inspect
from collections.abc import Callable


def batched(sampler: Callable) -> Callable[[Callable], Callable]:
    """Decorator: ``@batched(sampler)`` attaches ``sampler`` as ``mechanism.batch``."""

    def attach(mechanism: Callable) -> Callable:
        mechanism.batch = sampler
        return mechanism

    return attach


def accepted_params(fn: Callable, params: dict, positional: int = 1) -> dict:
    """The parameters ``fn`` takes by name. Its first ``positional`` parameters are filled by
    position (``data``; ``data, n`` for a batch sampler): a spec parameter with the name of a
    positional-or-keyword one (e.g. a sample size ``n``) is never passed to it, while a
    positional-only one (``def sampler(data, n, /, *, rng, **params)``) leaves the name free."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return dict(params)
    filled = [p.name for p in list(sig.parameters.values())[:positional] if p.kind is p.POSITIONAL_OR_KEYWORD]
    if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return {k: v for k, v in params.items() if k not in filled}
    return {k: v for k, v in params.items() if k in sig.parameters and k not in filled}


def named_params(fn: Callable, positional: int = 1) -> list[str] | None:
    """The parameter names ``fn`` takes by name (:func:`accepted_params`'s rule), sorted; None when it takes
    ``**params`` (every name) or its signature cannot be read."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return None
    filled = [p.name for p in list(sig.parameters.values())[:positional] if p.kind is p.POSITIONAL_OR_KEYWORD]
    return sorted(k for k in sig.parameters if k not in filled)
