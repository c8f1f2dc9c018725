"""Text from outside the testbed, made safe for every place it is shown.

An implementation's exception messages and printed output, a spec's strings and a results.json
that ``dptestbed report`` re-renders are not the testbed's own text. Before any of it reaches a
terminal, report.md, index.html, junit.xml or results.json it passes through this module:

* :func:`text` writes every character that could act on a terminal or break a file format as a
  visible escape (``\\x1b``, ``\\x00``, ``\\u202e``): C0 and C1 control characters (but tab and
  newline), DEL, lone surrogates, the noncharacters U+FFFE and U+FFFF, and the bidirectional
  overrides that make text read in another order than it is stored. The result is printable, holds
  only characters that XML 1.0 allows, and an ANSI escape sequence in it is inert;
* :func:`line` does the same and folds the text onto one line (a verdict's reason, a table cell);
* :func:`tree` applies :func:`text` to every string (keys included) of a JSON-like structure.
"""

from __future__ import annotations

import re

# C0 controls but \t and \n, DEL and C1, surrogates, noncharacters, bidirectional embeddings,
# overrides and isolates (U+202A-U+202E, U+2066-U+2069)
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff\u202a-\u202e\u2066-\u2069]")
_WHITESPACE = re.compile(r"[\t\n]+")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def text(value, limit: int | None = None) -> str:
    """``value`` as a string with every unsafe character escaped, cut to ``limit`` characters."""
    out = _UNSAFE.sub(_escape, value if isinstance(value, str) else str(value))
    if limit is not None and len(out) > limit:
        out = out[: max(limit - 3, 0)] + "..."
    return out


def line(value, limit: int | None = None) -> str:
    """:func:`text` on one line: tabs and newlines become single spaces."""
    return text(_WHITESPACE.sub(" ", value if isinstance(value, str) else str(value)).strip(), limit)


def tree(value):
    """A copy of a JSON-like ``value`` whose strings (and dict keys) went through :func:`text`."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, dict):
        return {text(k) if isinstance(k, str) else k: tree(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [tree(v) for v in value]
    return value
