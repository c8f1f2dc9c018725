"""The spec math grammar: parse, evaluate (vectorised) and render formulas.

A formula is a string such as ``sqrt(32*T*log(1/delta))/epsilon`` or, for
conditions, ``k >= 72*log(2*m/beta)``. It is parsed with :mod:`ast` in "eval"
mode and every node is checked against a whitelist; it is then evaluated by
walking the tree with numpy functions. Nothing is ever passed to ``eval`` or
``exec``, attribute access, subscripts, keywords, lambdas and strings are
rejected, so loading a spec cannot execute code.

Grammar: numbers; names (parameters, derived quantities, ``pi``, ``e``, ``inf``);
``+ - * / ** %``; unary ``-``/``+``; calls of the functions in :data:`FUNCTIONS`;
one chain of comparisons ``< <= > >= ==``; ``and`` / ``or`` / ``not`` between
conditions. ``log`` is the natural logarithm (the seeds' convention); ``Phi`` is the standard normal CDF.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field

import numpy as np

from . import profiles

MAX_LENGTH = 1000
MAX_DEPTH = 40
MAX_LITERAL = 10**300  # larger integers do not fit a float (and could only be typos)


def _vector_min(*xs):
    return _fold(np.minimum, xs)


def _vector_max(*xs):
    return _fold(np.maximum, xs)


def _fold(op, xs):
    if not xs:
        raise FormulaError("min/max need at least one argument")
    out = np.asarray(xs[0], dtype=float)
    for x in xs[1:]:
        out = op(out, x)
    return out


def _comb(n, k):
    from scipy import special  # scipy loads only when a formula needs it (fast CLI start)

    return special.comb(n, k, exact=False)


def _phi(x):
    from scipy import special

    return special.ndtr(x)


# name -> (numpy implementation, number of arguments (None = variadic), LaTeX template)
FUNCTIONS: dict[str, tuple] = {
    "sqrt": (np.sqrt, 1, r"\sqrt{{{0}}}"),
    "log": (np.log, 1, r"\log\left({0}\right)"),
    "log2": (np.log2, 1, r"\log_2\left({0}\right)"),
    "log10": (np.log10, 1, r"\log_{{10}}\left({0}\right)"),
    "exp": (np.exp, 1, r"e^{{{0}}}"),
    "ceil": (np.ceil, 1, r"\left\lceil {0} \right\rceil"),
    "floor": (np.floor, 1, r"\left\lfloor {0} \right\rfloor"),
    "abs": (np.abs, 1, r"\left|{0}\right|"),
    "min": (_vector_min, None, r"\min\left\{{{0}\right\}}"),
    "max": (_vector_max, None, r"\max\left\{{{0}\right\}}"),
    "comb": (_comb, 2, r"\binom{{{0}}}{{{1}}}"),
    "Phi": (_phi, 1, r"\Phi\left({0}\right)"),
    # privacy profiles (spec/profiles.py): the quantities a Gaussian-type claim is stated in
    "gdp_delta": (profiles.gdp_delta, 2, r"\delta_{{\mathrm{{GDP}}}}\left({0}; {1}\right)"),
    "gdp_mu": (profiles.gdp_mu, 2, r"\mu_{{\mathrm{{GDP}}}}\left({0}, {1}\right)"),
    "dgauss_delta": (profiles.dgauss_delta, 3, r"\delta_{{\mathcal{{N}}_\mathbb{{Z}}}}\left({0}; {1}, {2}\right)"),
    "dgauss_sigma": (profiles.dgauss_sigma, 3, r"\sigma_{{\mathcal{{N}}_\mathbb{{Z}}}}\left({0}, {1}, {2}\right)"),
}

CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf}

_BINOPS = {
    ast.Add: (np.add, "+", 1),
    ast.Sub: (np.subtract, "-", 1),
    ast.Mult: (np.multiply, "*", 2),
    ast.Div: (np.divide, "/", 2),
    ast.Mod: (np.mod, "%", 2),
    ast.Pow: (np.power, "**", 3),
}
_COMPARE = {
    ast.Lt: (np.less, "<", "<"),
    ast.LtE: (np.less_equal, "<=", r"\le"),
    ast.Gt: (np.greater, ">", ">"),
    ast.GtE: (np.greater_equal, ">=", r"\ge"),
    ast.Eq: (np.equal, "==", "="),
}

# Greek letters and common subscripts for LaTeX rendering of names.
_GREEK = {
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "phi", "chi", "psi", "omega",
    "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Phi", "Psi", "Omega",
}
_ALIASES = {"lam": "lambda", "eps": "epsilon"}


class FormulaError(ValueError):
    """A formula that does not parse, uses a construct outside the grammar, or fails to evaluate."""


@dataclass(frozen=True)
class Formula:
    """A parsed formula. ``names`` are the free names it refers to (constants excluded)."""

    source: str
    tree: ast.Expression = field(repr=False, compare=False)
    names: frozenset[str] = field(compare=False)
    is_condition: bool = field(compare=False)

    def evaluate(self, env: dict):
        """Evaluate with ``env`` mapping names to numbers or numpy arrays (broadcast together)."""
        missing = self.names - env.keys()
        if missing:
            raise FormulaError(f"formula {self.source!r} needs values for: {', '.join(sorted(missing))}")
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return _evaluate(self.tree.body, env)

    def latex(self) -> str:
        return _latex(self.tree.body)

    def __str__(self) -> str:
        return self.source


def parse(source: str | int | float) -> Formula:
    """Parse ``source`` into a :class:`Formula`, or raise :class:`FormulaError` saying what is wrong."""
    if isinstance(source, bool) or not isinstance(source, (str, int, float)):
        raise FormulaError(f"a formula must be a string or a number, not {type(source).__name__}")
    text = str(source).strip()
    if not text:
        raise FormulaError("empty formula")
    if len(text) > MAX_LENGTH:
        raise FormulaError(f"formula longer than {MAX_LENGTH} characters")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise FormulaError(f"cannot parse {text!r}: {exc.msg}") from None
    names: set[str] = set()
    _check(tree.body, names, depth=0)
    is_condition = isinstance(tree.body, (ast.Compare, ast.BoolOp)) or (
        isinstance(tree.body, ast.UnaryOp) and isinstance(tree.body.op, ast.Not)
    )
    return Formula(text, tree, frozenset(names - CONSTANTS.keys()), is_condition)


def _check(node: ast.AST, names: set[str], depth: int) -> None:
    if depth > MAX_DEPTH:
        raise FormulaError(f"formula nested deeper than {MAX_DEPTH} levels")
    sub = depth + 1
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            raise FormulaError(f"only numbers are allowed as literals, not {node.value!r}")
        if isinstance(node.value, int) and abs(node.value) > MAX_LITERAL:
            raise FormulaError(f"number literal too large ({len(str(abs(node.value)))} digits; at most {MAX_LITERAL:.0e})")
    elif isinstance(node, ast.Name):
        if node.id in FUNCTIONS:
            raise FormulaError(f"function {node.id!r} used without being called")
        if node.id.startswith("_"):
            raise FormulaError(f"name {node.id!r} is not allowed (names may not start with '_')")
        names.add(node.id)
    elif isinstance(node, ast.BinOp):
        if type(node.op) not in _BINOPS:
            raise FormulaError(f"operator {type(node.op).__name__} is not in the grammar")
        _check(node.left, names, sub)
        _check(node.right, names, sub)
    elif isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, (ast.USub, ast.UAdd, ast.Not)):
            raise FormulaError(f"operator {type(node.op).__name__} is not in the grammar")
        _check(node.operand, names, sub)
    elif isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            what = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
            raise FormulaError(
                f"call of {what!r} is not allowed; functions: {', '.join(sorted(FUNCTIONS))}"
            )
        if node.keywords:
            raise FormulaError(f"keyword arguments are not allowed in {node.func.id}()")
        arity = FUNCTIONS[node.func.id][1]
        if arity is not None and len(node.args) != arity:
            raise FormulaError(f"{node.func.id}() takes {arity} argument(s), got {len(node.args)}")
        if arity is None and not node.args:
            raise FormulaError(f"{node.func.id}() needs at least one argument")
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise FormulaError("starred arguments are not allowed")
            _check(arg, names, sub)
    elif isinstance(node, ast.Compare):
        for op in node.ops:
            if type(op) not in _COMPARE:
                raise FormulaError(f"comparison {type(op).__name__} is not in the grammar")
        for operand in (node.left, *node.comparators):
            _check(operand, names, sub)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            _check(value, names, sub)
    else:
        raise FormulaError(f"{type(node).__name__} is not allowed in a formula")


def _evaluate(node: ast.AST, env: dict):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return CONSTANTS[node.id] if node.id in CONSTANTS and node.id not in env else env[node.id]
    if isinstance(node, ast.BinOp):
        fn = _BINOPS[type(node.op)][0]
        return fn(np.asarray(_evaluate(node.left, env), dtype=float), _evaluate(node.right, env))
    if isinstance(node, ast.UnaryOp):
        value = _evaluate(node.operand, env)
        if isinstance(node.op, ast.Not):
            return np.logical_not(value)
        return -np.asarray(value, dtype=float) if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Call):
        fn = FUNCTIONS[node.func.id][0]
        return fn(*(np.asarray(_evaluate(a, env), dtype=float) for a in node.args))
    if isinstance(node, ast.Compare):
        result = True
        left = _evaluate(node.left, env)
        for op, comparator in zip(node.ops, node.comparators):
            right = _evaluate(comparator, env)
            result = np.logical_and(result, _COMPARE[type(op)][0](left, right))
            left = right
        return result
    if isinstance(node, ast.BoolOp):
        combine = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
        result = _evaluate(node.values[0], env)
        for value in node.values[1:]:
            result = combine(result, _evaluate(value, env))
        return result
    raise FormulaError(f"cannot evaluate {type(node).__name__}")  # unreachable after _check


def latex_name(name: str) -> str:
    """Render a parameter name: ``epsilon`` -> ``\\epsilon``, ``n_prime`` -> ``n_{prime}``."""
    base, _, sub = name.partition("_")
    base = _ALIASES.get(base, base)
    head = f"\\{base}" if base in _GREEK else (base if len(base) == 1 else rf"\mathrm{{{base}}}")
    if not sub:
        return head
    sub = _ALIASES.get(sub, sub)
    sub_tex = f"\\{sub}" if sub in _GREEK else (sub if len(sub) <= 2 else rf"\mathrm{{{sub}}}")
    return f"{head}_{{{sub_tex}}}"


def _latex(node: ast.AST, parent_precedence: int = 0) -> str:
    if isinstance(node, ast.Constant):
        value = node.value
        return f"{value:g}" if isinstance(value, float) else str(value)
    if isinstance(node, ast.Name):
        return {"inf": r"\infty", "pi": r"\pi", "e": "e"}.get(node.id) or latex_name(node.id)
    if isinstance(node, ast.BinOp):
        _, symbol, precedence = _BINOPS[type(node.op)]
        if isinstance(node.op, ast.Div):
            text = rf"\frac{{{_latex(node.left)}}}{{{_latex(node.right)}}}"
            return text
        if isinstance(node.op, ast.Pow):
            text = f"{{{_latex(node.left, 4)}}}^{{{_latex(node.right)}}}"
        else:
            op_tex = {"+": "+", "-": "-", "*": r"\cdot", "%": r"\bmod"}[symbol]
            right_precedence = precedence + (1 if isinstance(node.op, ast.Sub) else 0)
            text = f"{_latex(node.left, precedence)} {op_tex} {_latex(node.right, right_precedence)}"
        return rf"\left({text}\right)" if precedence < parent_precedence else text
    if isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.Not):
            return rf"\neg {_latex(node.operand, 5)}"
        sign = "-" if isinstance(node.op, ast.USub) else "+"
        return f"{sign}{_latex(node.operand, 3)}"
    if isinstance(node, ast.Call):
        template = FUNCTIONS[node.func.id][2]
        args = [_latex(a) for a in node.args]
        if FUNCTIONS[node.func.id][1] is None:
            return template.format(", ".join(args))
        return template.format(*args)
    if isinstance(node, ast.Compare):
        parts = [_latex(node.left)]
        for op, comparator in zip(node.ops, node.comparators):
            parts += [_COMPARE[type(op)][2], _latex(comparator)]
        return " ".join(parts)
    if isinstance(node, ast.BoolOp):
        joiner = r" \wedge " if isinstance(node.op, ast.And) else r" \vee "
        return joiner.join(_latex(v, 5) for v in node.values)
    raise FormulaError(f"cannot render {type(node).__name__}")
