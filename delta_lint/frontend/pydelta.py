"""The Python front end's reading of the DeltaTable API.

`DeltaTable.forName(spark, t)` / `forPath(spark, p)` then `.merge(...)...execute()`,
`.update(...)`, `.delete(...)`, `.optimize().executeCompaction()` /
`executeZOrderBy(...)`, `.vacuum()`, `.restoreToVersion(...)` and protocol changes;
and the builders `DeltaTable.create(spark).tableName(t)...execute()` (and
`createIfNotExists`, `createOrReplace`, `replace`); and delta-rs' (`deltalake`)
table, opened as `DeltaTable(table_uri)`, with its merge, delete, update, optimize,
restore and vacuum. Each becomes an intent: its
kind, its condition on the target (SQL text, or a Column expression read as SQL),
the MERGE clauses it has, and the settings a builder declares. `DeltaTableReader`
is a part the analyzer (`python.PythonAnalyzer`, its `Host`) owns; the analyzer
finds the chain and emits the intent.
"""

from __future__ import annotations

import ast
import weakref
from typing import Protocol

from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.frontend.pychains import chain_arg, chain_cols, condition_sql, path_or_name, table_ddl
from delta_lint.frontend.pyspark_api import SIGNATURES, argument
from delta_lint.frontend.pyvalues import Scope, Step, Str
from delta_lint.frontend.sql import ConditionInfo, Session, condition_info
from delta_lint.model import Flag, Kind, TableRef
from delta_lint.predicates import WHOLE

_CLONES = frozenset({"clone", "cloneAtVersion", "cloneAtTimestamp"})


# The parameters of delta-rs' (`deltalake`) table methods read here, in their order.
_RS_SIGNATURES = {
    "DeltaTable": ("table_uri",),
    "merge": ("source", "predicate", "source_alias", "target_alias"),
    "delete": ("predicate",),
    "update": ("updates", "new_values", "predicate"),
}


def _rs_argument(call: ast.Call | None, method: str, param: str) -> ast.expr | None:
    """The expression passed for `param` of delta-rs' `method`, by keyword or position."""
    if call is None:
        return None
    for kw in call.keywords:
        if kw.arg == param:
            return kw.value
    index = _RS_SIGNATURES[method].index(param)
    if any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
        return None
    return call.args[index] if index < len(call.args) else None


class Host(Protocol):
    """What a `DeltaTableReader` reads from and hands back to the analyzer that owns it."""

    session: Session
    memo: FrontEndMemo

    def string(self, node: ast.expr | None, scope: Scope) -> Str: ...
    def reads(self, node: ast.expr | None, scope: Scope) -> set[TableRef]: ...
    def _ref(self, target: Str, path: bool = False) -> tuple[TableRef, bool]: ...
    def _emit(self, node: ast.Call, ref: TableRef, resolved: bool, kind: Kind, scope: Scope, **kw) -> None: ...


class DeltaTableReader:
    """Reads one DeltaTable chain (its links, `pyvalues.Step`) into the intent it makes."""

    def __init__(self, host: Host) -> None:
        # weak: the host owns this reader, and a cycle would keep the file's tree alive
        # until the garbage collector's next full pass
        self.host: Host = weakref.proxy(host)

    def read(self, steps: list[Step], node: ast.Call, scope: Scope) -> None:
        """A chain on a table handle (`forName`/`forPath`), or a builder's `execute()`."""
        names = [s.name for s in steps]
        last = steps[-1].name
        builder = next((n for n in names if n in ("create", "createIfNotExists", "createOrReplace", "replace")), None)
        if builder is not None and "DeltaTable" in names and last == "execute" and "merge" not in names:
            self._builder(steps, node, builder, scope)
            return
        if last == "convertToDelta" and names[0] == "DeltaTable":
            self._convert(node, scope)
            return
        handle = next((s for s in steps if s.name in ("forName", "forPath") and s.call is not None), None)
        if handle is None:
            opened = next((s for s in steps if s.name == "DeltaTable" and s.call is not None), None)
            if opened is not None:
                self._delta_rs(steps, node, opened, scope)
            return
        if last in _CLONES:
            self._clone(node, last, scope)
            return
        target = argument(
            handle.call, "DeltaTable", handle.name, "tableOrViewName" if handle.name == "forName" else "path"
        )
        ref, resolved = self.host._ref(self.host.string(target, scope), path=handle.name == "forPath")
        alias = chain_arg(self.host, steps, "alias", scope)
        alias_name = alias.text.lower() if alias and not alias.unknown else None
        table_names = {ref.name.split(".")[-1], *([alias_name] if alias_name else [])}
        if last == "execute" and "merge" in names:
            merge = next(s for s in steps if s.name == "merge")
            source = argument(merge.call, "DeltaTable", "merge", "source")
            cond = argument(merge.call, "DeltaTable", "merge", "condition")
            cond_sql = condition_sql(self.host, cond, scope)
            info = condition_info(cond_sql, table_names, False, self.host.session, ref, self.host.memo)
            flags = set(info.flags)
            clauses = []
            for s in steps:
                if s.name.startswith("whenNotMatchedBySource"):
                    clauses.append("not_matched_by_source_" + ("delete" if "Delete" in s.name else "update"))
                    flags.add(Flag.READS_WHOLE_TARGET)
                elif s.name.startswith("whenNotMatched"):
                    clauses.append("not_matched_insert")
                elif s.name.startswith("whenMatched"):
                    clauses.append("matched_" + ("delete" if "Delete" in s.name else "update"))
                if s.name.startswith("when") and s.call is not None:
                    c = (
                        argument(s.call, "DeltaMergeBuilder", s.name, "condition")
                        if ("DeltaMergeBuilder", s.name) in SIGNATURES
                        else None
                    )
                    if (
                        c is not None
                        and s.name not in ("whenMatchedUpdate", "whenNotMatchedInsert")
                        or (c is not None and not isinstance(c, ast.Dict))
                    ):
                        extra = condition_info(
                            condition_sql(self.host, c, scope),
                            table_names,
                            False,
                            self.host.session,
                            ref,
                            self.host.memo,
                        )
                        flags |= extra.flags - {Flag.OPAQUE_CONDITION}
            if "withSchemaEvolution" in names or self.host.session.auto_merge:
                flags.add(Flag.SCHEMA_EVOLUTION)
            if ref in self.host.reads(source, scope):
                flags.add(Flag.READS_TARGET)
            self._merge(node, ref, resolved, scope, flags, info, alias_name, clauses)
        elif last in ("delete", "update", "updateExpr"):
            # `updateExpr` is the Scala API's; read it like `update` where it appears
            cond = argument(node, "DeltaTable", "delete" if last == "delete" else "update", "condition")
            if last != "delete" and cond is not None and isinstance(cond, ast.Dict):
                cond = None  # update(set=...) with no condition
            if cond is None:
                self.host._emit(
                    node, ref, resolved, Kind.DELETE if last == "delete" else Kind.UPDATE, scope, region=WHOLE
                )
                return
            info = condition_info(
                condition_sql(self.host, cond, scope), table_names, True, self.host.session, ref, self.host.memo
            )
            self.host._emit(
                node,
                ref,
                resolved,
                Kind.DELETE if last == "delete" else Kind.UPDATE,
                scope,
                flags=info.flags,
                predicate_sql=info.sql,
                region=info.region,
                params=info.params,
                target_alias=alias_name,
            )
        elif last in ("executeCompaction", "executeZOrderBy"):
            where = chain_arg(self.host, steps, "where", scope)
            info = condition_info(
                where.text if where else "", table_names, True, self.host.session, ref, self.host.memo
            )
            zorder = ()
            if last == "executeZOrderBy":
                args = (
                    node.args[0].elts
                    if len(node.args) == 1 and isinstance(node.args[0], (ast.List, ast.Tuple))
                    else node.args
                )
                zorder = tuple(self.host.string(a, scope).text.lower() for a in args)
            self.host._emit(
                node,
                ref,
                resolved,
                Kind.OPTIMIZE_ZORDER if zorder else Kind.OPTIMIZE,
                scope,
                flags=info.flags,
                predicate_sql=info.sql,
                region=info.region,
                params=info.params,
                zorder_by=zorder,
            )
        elif last == "vacuum":
            self.host._emit(node, ref, resolved, Kind.VACUUM, scope)
        elif last in ("restoreToVersion", "restoreToTimestamp"):
            self.host._emit(node, ref, resolved, Kind.RESTORE, scope)
        elif last in ("upgradeTableProtocol", "addFeatureSupport", "dropFeatureSupport"):
            self.host._emit(node, ref, resolved, Kind.PROTOCOL_CHANGE, scope, subkind=last)

    def _merge(
        self,
        node: ast.Call,
        ref: TableRef,
        resolved: bool,
        scope: Scope,
        flags: set[Flag],
        info: ConditionInfo,
        alias_name: str | None,
        clauses: list[str],
    ) -> None:
        """One MERGE of either API (Spark's builder or delta-rs'): its condition's
        region, or the whole table where a clause reads all of it."""
        self.host._emit(
            node,
            ref,
            resolved,
            Kind.MERGE,
            scope,
            flags=flags,
            predicate_sql=info.sql,
            region=WHOLE if Flag.READS_WHOLE_TARGET in flags else info.region,
            params=info.params,
            target_alias=alias_name,
            merge_clauses=tuple(clauses),
        )

    def _delta_rs(self, steps: list[Step], node: ast.Call, opened: Step, scope: Scope) -> None:
        """A table of `deltalake` (delta-rs), opened by calling its class
        (`DeltaTable(table_uri)`: Spark's `DeltaTable` is never called so), then
        `.merge(source, predicate, source_alias=, target_alias=)` with its
        `when_matched_update_all()`... clauses and `.execute()`, `.delete(predicate)`,
        `.update(updates, predicate=)`, `.optimize.compact()` / `.optimize.z_order(cols)`,
        `.restore(version)` or `.vacuum()`: the same writes of the same Delta log as
        Spark's API makes, at the table's path (an optimize's `partition_filters` are
        not read: it is taken to rewrite the whole table)."""
        names = [s.name for s in steps]
        last = names[-1]
        uri = _rs_argument(opened.call, "DeltaTable", "table_uri")
        if uri is None:
            return
        ref, resolved = self.host._ref(self.host.string(uri, scope), path=True)
        if last == "execute" and "merge" in names:
            merge = next(s for s in steps if s.name == "merge")
            alias = _rs_argument(merge.call, "merge", "target_alias")
            alias_name = self.host.string(alias, scope).text.lower() if alias is not None else None
            table_names = {ref.name.rstrip("/").rsplit("/", 1)[-1], *([alias_name] if alias_name else [])}
            cond_sql = condition_sql(self.host, _rs_argument(merge.call, "merge", "predicate"), scope)
            info = condition_info(cond_sql, table_names, False, self.host.session, ref, self.host.memo)
            flags = set(info.flags)
            clauses = []
            for name in names:
                if name.startswith("when_not_matched_by_source"):
                    clauses.append("not_matched_by_source_" + ("delete" if name.endswith("delete") else "update"))
                    flags.add(Flag.READS_WHOLE_TARGET)
                elif name.startswith("when_not_matched"):
                    clauses.append("not_matched_insert")
                elif name.startswith("when_matched"):
                    clauses.append("matched_" + ("delete" if name.endswith("delete") else "update"))
            if ref in self.host.reads(_rs_argument(merge.call, "merge", "source"), scope):
                flags.add(Flag.READS_TARGET)
            self._merge(node, ref, resolved, scope, flags, info, alias_name, clauses)
        elif last in ("compact", "z_order") and steps[-2].name == "optimize":
            columns = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "columns"), None)
            zorder = ()
            if last == "z_order" and isinstance(columns, ast.List | ast.Tuple):
                zorder = tuple(self.host.string(c, scope).text.lower() for c in columns.elts)
            kind = Kind.OPTIMIZE_ZORDER if last == "z_order" else Kind.OPTIMIZE
            self.host._emit(node, ref, resolved, kind, scope, region=WHOLE, zorder_by=zorder)
        elif last == "restore" and steps[-2] is opened:
            self.host._emit(node, ref, resolved, Kind.RESTORE, scope)
        elif last == "vacuum" or (last in ("delete", "update") and steps[-2] is opened):
            if last == "vacuum":
                self.host._emit(node, ref, resolved, Kind.VACUUM, scope)
                return
            kind = Kind.DELETE if last == "delete" else Kind.UPDATE
            cond = _rs_argument(node, last, "predicate")
            if cond is None:
                self.host._emit(node, ref, resolved, kind, scope, region=WHOLE)
                return
            info = condition_info(
                condition_sql(self.host, cond, scope), set(), True, self.host.session, ref, self.host.memo
            )
            self.host._emit(
                node,
                ref,
                resolved,
                kind,
                scope,
                flags=info.flags,
                predicate_sql=info.sql,
                region=info.region,
                params=info.params,
            )

    def _convert(self, node: ast.Call, scope: Scope) -> None:
        """`DeltaTable.convertToDelta(spark, "parquet.`/p`", "day DATE")`: the Parquet
        table (or path) becomes a Delta table, as `CONVERT TO DELTA` makes it."""
        identifier = self.host.string(argument(node, "DeltaTable", "convertToDelta", "identifier"), scope)
        ref, resolved = self.host._ref(*path_or_name(identifier))
        schema = self.host.string(argument(node, "DeltaTable", "convertToDelta", "partitionSchema"), scope)
        parts = (
            ()
            if schema.unknown
            else tuple(p.split()[0].strip("`").lower() for p in schema.text.split(",") if p.strip())
        )
        self.host._emit(
            node, ref, resolved, Kind.CREATE, scope, subkind="convert_to_delta", declared=table_ddl(parts, (), {}, ())
        )

    def _clone(self, node: ast.Call, method: str, scope: Scope) -> None:
        """`DeltaTable.forName(spark, s).clone(t, isShallow, replace)` (and
        `cloneAtVersion`/`cloneAtTimestamp`): a write of the clone's target, as
        `CREATE [OR REPLACE] TABLE t [SHALLOW] CLONE s` is. A `replace` only a run
        knows reads as a replace, the write that meets more others."""
        target = argument(node, "DeltaTable", method, "target")
        if target is None:
            return
        ref, resolved = self.host._ref(*path_or_name(self.host.string(target, scope)))
        replace = argument(node, "DeltaTable", method, "replace")
        keeps = replace is None or (isinstance(replace, ast.Constant) and replace.value is False)
        kind = Kind.CREATE if keeps else Kind.CREATE_OR_REPLACE
        self.host._emit(node, ref, resolved, kind, scope, subkind="clone")

    def _builder(self, steps: list[Step], node: ast.Call, builder: str, scope: Scope) -> None:
        """`DeltaTable.create(spark).tableName(t)...execute()` and its kin (`builder`):
        the table it creates and the settings it declares."""
        name = chain_arg(self.host, steps, "tableName", scope)
        location = chain_arg(self.host, steps, "location", scope)
        if name is not None:
            ref, resolved = self.host._ref(name)
        elif location is not None:
            ref, resolved = self.host._ref(location, path=True)
        else:
            return
        identity = []
        props = {}
        for step in steps:
            if step.call is None:
                continue
            if step.name == "addColumn":
                gen = [k for k in step.call.keywords if k.arg in ("generatedAlwaysAs", "generatedByDefaultAs")]
                if gen and isinstance(gen[0].value, ast.Call) and "Identity" in ast.unparse(gen[0].value.func):
                    column = argument(step.call, "DeltaTableBuilder", "addColumn", "colName")
                    identity.append(self.host.string(column, scope).text.lower())
            elif step.name == "property" and len(step.call.args) >= 2:
                props[self.host.string(step.call.args[0], scope).text.lower()] = self.host.string(
                    step.call.args[1], scope
                ).text
        ddl = table_ddl(
            chain_cols(self.host, steps, "partitionedBy", scope),
            chain_cols(self.host, steps, "clusterBy", scope),
            props,
            tuple(identity),
        )
        kind = Kind.CREATE if builder in ("create", "createIfNotExists") else Kind.CREATE_OR_REPLACE
        flags = {Flag.IF_NOT_EXISTS} if builder == "createIfNotExists" else set()
        self.host._emit(node, ref, resolved, kind, scope, declared=ddl, flags=flags)
