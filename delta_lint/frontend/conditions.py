"""Target conditions read from sqlglot trees as regions (see `delta_lint.predicates`).

Here, apart from the predicates the engine reads, so that the engine and a run
served from the cache never import sqlglot."""

from __future__ import annotations

from sqlglot import exp

from delta_lint.predicates import MAX_CONJUNCTS, WHOLE, Constraint, Region, Value, merge_conjuncts


def region_of(condition, is_target_column, param_of) -> Region:
    """The region a condition selects on the target.

    `is_target_column(column_expr) -> str | None` names the target column a column
    reference denotes (None for source columns); `param_of(expr) -> str | None`
    names the parameter an expression stands for (templating markers, :x).
    """
    if condition is None:
        return WHOLE
    dnf = _dnf(condition, is_target_column, param_of)
    if dnf is not None and len(dnf) > MAX_CONJUNCTS:
        dnf = _one_column_values(dnf)
    if dnf is None or len(dnf) > MAX_CONJUNCTS:
        return WHOLE
    return Region(tuple(tuple(sorted(conj.items())) for conj in dnf))


def _one_column_values(dnf: list[dict[str, Constraint]]) -> list[dict[str, Constraint]] | None:
    """`id = 1 OR id = 2 OR ...` (generated code writes hundreds) as the one conjunct
    `id IN (1, 2, ...)`, when every term pins the same column to values; else None."""
    columns = {col for conj in dnf for col in conj}
    if len(columns) != 1 or any(len(conj) != 1 for conj in dnf):
        return None
    (col,) = columns
    constraints = [conj[col] for conj in dnf]
    if any(c.values is None or c.low is not None or c.high is not None for c in constraints):
        return None
    return [{col: Constraint(values=frozenset().union(*(c.values for c in constraints)))}]


def _operands(node, kind: type) -> list:
    """The operands of a chain of one connective (`a OR b OR c ...` parses as a tree as
    deep as it is long), found without recursion: a DELETE with 1,200 OR terms is
    ordinary generated SQL."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        while isinstance(n, exp.Paren) and isinstance(n.this, kind):
            n = n.this
        if isinstance(n, kind):
            stack += [n.expression, n.this]  # popped left first: source order
        else:
            out.append(n)
    return out


def _dnf(node, target_col, param_of) -> list[dict[str, Constraint]] | None:
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.And):
        out: list[dict[str, Constraint]] = [{}]
        for operand in _operands(node, exp.And):
            part = _dnf(operand, target_col, param_of)
            if part is None or len(out) * len(part) > MAX_CONJUNCTS:
                return None
            out = [m for a in out for b in part if (m := merge_conjuncts(a, b)) is not None]
        return out
    if isinstance(node, exp.Or):
        out = []
        for operand in _operands(node, exp.Or):
            part = _dnf(operand, target_col, param_of)
            if part is None:
                return None
            out += part
        return out
    atom = _atom(node, target_col, param_of)
    return [atom] if atom is not None else [{}]


_FLIP = {"GT": "LT", "GTE": "LTE", "LT": "GT", "LTE": "GTE", "EQ": "EQ"}


def _atom(node, target_col, param_of) -> dict[str, Constraint] | None:
    """A single comparison as a constraint on one target column, or None (TRUE)."""
    if isinstance(node, (exp.Not, exp.NEQ)):
        return _exclusion(node, target_col, param_of)
    if isinstance(node, exp.In):
        col = target_col(node.this) if isinstance(node.this, exp.Column) else None
        if col is None or node.args.get("query") is not None:
            return None
        values = [_value(e, param_of) for e in node.expressions]
        if not values or any(v is None for v in values):
            return None
        return {col: Constraint(values=frozenset(values))}
    if isinstance(node, exp.Between):
        col = target_col(node.this) if isinstance(node.this, exp.Column) else None
        low = _value(node.args.get("low"), param_of)
        high = _value(node.args.get("high"), param_of)
        if col is None or not low or not high or low[0] != "lit" or high[0] != "lit":
            return None
        return {col: Constraint(low=low[1], high=high[1])}
    op = type(node).__name__
    if op not in _FLIP or not isinstance(node, exp.Binary):
        return None
    left, right = node.this, node.expression
    col = target_col(left) if isinstance(left, exp.Column) and param_of(left) is None else None
    value = _value(right, param_of)
    if col is None or value is None:
        col = target_col(right) if isinstance(right, exp.Column) and param_of(right) is None else None
        value = _value(left, param_of)
        op = _FLIP[op]
    if col is None or value is None:
        return None
    if op == "EQ":
        return {col: Constraint(values=frozenset([value]))}
    if value[0] != "lit":
        return None
    if op in ("GT", "GTE"):
        return {col: Constraint(low=value[1], low_inclusive=op == "GTE")}
    return {col: Constraint(high=value[1], high_inclusive=op == "LTE")}


def _exclusion(node, target_col, param_of) -> dict[str, Constraint] | None:
    """`c NOT IN (...)`, `NOT c = x`, `c <> x` (`!=`) of literals: the column takes any
    value but those (and is not NULL). Another negation is read as TRUE."""
    inner = node.this if isinstance(node, exp.Not) else None
    while isinstance(inner, exp.Paren):
        inner = inner.this
    if isinstance(inner, exp.In) and inner.args.get("query") is None:
        column, values = inner.this, [_value(e, param_of) for e in inner.expressions]
    elif isinstance(inner, exp.EQ) or isinstance(node, exp.NEQ):
        pair = inner if inner is not None else node
        column, value = pair.this, _value(pair.expression, param_of)
        if not isinstance(column, exp.Column) or param_of(column) is not None:
            column, value = pair.expression, _value(pair.this, param_of)
        values = [value]
    else:
        return None
    if not isinstance(column, exp.Column) or param_of(column) is not None:
        return None
    col = target_col(column)
    # a parameter may stand for any value: only literals are known to be left out
    if col is None or not values or any(v is None or v[0] != "lit" for v in values):
        return None
    return {col: Constraint(excluded=frozenset(values))}


def constant_of(node, param_of) -> Value | None:
    """The literal or parameter an expression is (a value an INSERT writes), or None."""
    return _value(node, param_of)


def _value(node, param_of) -> Value | None:
    """A literal or parameter value, or None when the expression is anything else."""
    if node is None:
        return None
    name = param_of(node)
    if name is not None:
        return ("param", name)
    if isinstance(node, exp.Paren):
        return _value(node.this, param_of)
    if isinstance(node, exp.Cast) or isinstance(node, exp.TryCast):
        return _value(node.this, param_of)
    if isinstance(node, exp.Neg):
        inner = _value(node.this, param_of)
        if inner and inner[0] == "lit" and isinstance(inner[1], (int, float)):
            return ("lit", -inner[1])
        return None
    if isinstance(node, exp.Boolean):
        return ("lit", bool(node.this))
    if isinstance(node, exp.Literal):
        if node.is_string:
            return ("lit", node.this)
        try:
            return ("lit", int(node.this))
        except ValueError:
            try:
                return ("lit", float(node.this))
            except ValueError:
                return None
    # DATE '2024-01-01', TIMESTAMP '...': typed literals parse as casts or functions
    if isinstance(node, (exp.Date, exp.TsOrDsToDate)) and isinstance(node.this, exp.Literal):
        return ("lit", node.this.this)
    return None
