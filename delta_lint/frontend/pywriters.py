"""The Python front end's reading of DataFrame writers and stream writers.

`df.write...saveAsTable(t)` / `save(path)` / `insertInto(t)` (DataFrameWriter),
`df.writeTo(t).append()` and its kin (DataFrameWriterV2), `df.writeStream...toTable(t)`
/ `start(path)` / `foreachBatch(f)` (DataStreamWriter), `spark.readStream...table(t)`
(DataStreamReader), and a feature store client's `create_table` / `write_table`:
each becomes an intent with the kind its mode and options give (append, overwrite,
replaceWhere, dynamic partition overwrite, create, streaming write or read), the
flags they set (schema evolution, reading the target) and the settings a created
table declares. `WriterReader` is a part the analyzer (`python.PythonAnalyzer`,
its `Host`) owns; the analyzer finds the chain and emits the intent.
"""

from __future__ import annotations

import ast
import re
import weakref
from dataclasses import replace
from typing import Protocol

from delta_lint.frontend.frames import FrameReader, FrameRows
from delta_lint.frontend.memo import FrontEndMemo
from delta_lint.frontend.pychains import (
    chain_arg,
    chain_cols,
    chain_options,
    condition_sql,
    is_true,
    path_or_name,
    table_ddl,
)
from delta_lint.frontend.pysites import SourceSites
from delta_lint.frontend.pyspark_api import argument, options
from delta_lint.frontend.pyvalues import Scope, Step, Str, alternatives, argument_at
from delta_lint.frontend.sql import Session, condition_info
from delta_lint.frontend.values.walker import Walker, walk
from delta_lint.model import DYNAMIC_SQL, Diagnostic, Flag, Intent, Kind, TableDDL, TableRef
from delta_lint.predicates import OPAQUE, WHOLE, Constraint, Region


class Host(Protocol):
    """What a `WriterReader` reads from and hands back to the analyzer that owns it."""

    source: str
    session: Session
    memo: FrontEndMemo
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    walker: Walker
    sites: SourceSites
    _tree: ast.Module | None
    _own_lines: int  # its own code's lines: the definitions of other modules follow
    mutated_names: frozenset[str]  # names the code changes in place

    def string(self, node: ast.expr | None, scope: Scope) -> Str: ...
    def reads(self, node: ast.expr | None, scope: Scope) -> set[TableRef]: ...
    def _ref(self, target: Str, path: bool = False) -> tuple[TableRef, bool]: ...
    def _emit(self, node: ast.Call, ref: TableRef, resolved: bool, kind: Kind, scope: Scope, **kw) -> None: ...
    def _add(self, intent: Intent, scope: Scope, node: ast.AST | None = None) -> None: ...


class WriterReader:
    """Reads one writer chain (its links, `pyvalues.Step`) into the intents it makes."""

    def __init__(self, host: Host) -> None:
        # weak: the host owns this reader, and a cycle would keep the file's tree alive
        # until the garbage collector's next full pass
        self.host: Host = weakref.proxy(host)
        self._awaited: set[int] | None = None  # see `_awaited_queries`

    def _awaited_queries(self) -> set[int]:
        """Ids of the streaming `start()`/`toTable()` calls the module waits for,
        found once, when a stream write is first read."""
        if self._awaited is None:
            tree = self.host._tree
            self._awaited = (
                awaited_queries(tree) if tree is not None and "awaitTermination" in self.host.source else set()
            )
        return self._awaited

    def feature_table(self, node: ast.Call, scope: Scope) -> None:
        """`fs.create_table(name=...)` and `fs.write_table(name=..., df=..., mode=...)`
        of a Feature Store / Feature Engineering client: feature tables are Delta
        tables; `write_table` merges on the primary keys unless `mode="overwrite"`."""
        method = node.func.attr  # type: ignore[union-attr]
        ref, resolved = self.host._ref(self.host.string(argument_at(node, 0, "name"), scope))
        if method == "create_table":
            self.host._emit(node, ref, resolved, Kind.CREATE, scope, subkind="feature_table")
            return
        mode = argument_at(node, 2, "mode")
        overwrite = mode is not None and self.host.string(mode, scope).text.lower() == "overwrite"
        kind = Kind.FULL_OVERWRITE if overwrite else Kind.MERGE
        self.host._emit(node, ref, resolved, kind, scope, subkind="feature_table")

    def batch_write(self, steps: list[Step], writer: int, node: ast.Call, scope: Scope) -> None:
        """`df.write...saveAsTable(t)` / `save(path)` / `insertInto(t)`: the links after
        `write` (index `writer`) are its settings, those before it its source."""
        source_steps, steps = steps[: writer + 1], steps[writer:]
        last = steps[-1]
        call = node  # where the write is said; its arguments are read from `node`, spreads laid out
        node = self._spread(node, scope)
        fmt = chain_arg(self.host, steps, "format", scope)
        # `saveAsTable` and `save` take format, mode, partitionBy and options as keywords too
        keywords = last.name != "insertInto"
        fmt_kw = argument(node, "DataFrameWriter", last.name, "format") if keywords else None
        if fmt_kw is not None:
            fmt = self.host.string(fmt_kw, scope)
        if _other_format(fmt):
            if last.name == "saveAsTable":  # creates (or writes) a table of another format
                ref, resolved = self.host._ref(
                    self.host.string(argument(node, "DataFrameWriter", "saveAsTable", "name"), scope)
                )
                if resolved:
                    self.host.session.non_delta = self.host.session.non_delta | {ref.name}
            return
        mode_str = chain_arg(self.host, steps, "mode", scope)
        mode_kw = argument(node, "DataFrameWriter", last.name, "mode") if keywords else None
        if mode_kw is not None:
            mode_str = self.host.string(mode_kw, scope)
        modes = _modes(mode_str)
        opts = chain_options(self.host, steps, scope)
        partition_by = chain_cols(self.host, steps, "partitionBy", scope)
        cluster_by = chain_cols(self.host, steps, "clusterBy", scope)
        if keywords:
            opts.update({k: self.host.string(v, scope) for k, v in options(node, "DataFrameWriter", last.name).items()})
            partition_kw = argument(node, "DataFrameWriter", last.name, "partitionBy")
            if partition_kw is not None:
                elts = partition_kw.elts if isinstance(partition_kw, (ast.List, ast.Tuple)) else [partition_kw]
                partition_by = tuple(self.host.string(e, scope).text.lower() for e in elts)
        if last.name == "insertInto":
            target = self._named(argument(node, "DataFrameWriter", "insertInto", "tableName"), node, scope)
            ref, resolved = self.host._ref(target)
            overwrite = argument(node, "DataFrameWriter", "insertInto", "overwrite")
            if isinstance(overwrite, ast.Constant) and overwrite.value is True:
                modes = ["overwrite"]
            elif modes is not None:
                modes = [mode or "append" for mode in modes]
        elif last.name == "saveAsTable":
            ref, resolved = self.host._ref(
                self._named(argument(node, "DataFrameWriter", "saveAsTable", "name"), node, scope)
            )
        else:
            ref, resolved = self._path_target("DataFrameWriter", "save", node, opts, scope)
        source = self._source_reads(source_steps, "write", scope)
        # `insertInto` matches columns by position, the others by name: only those read the rows' columns
        rows = self._source_rows(source_steps, "write", scope) if last.name != "insertInto" else ()
        # the columns its rows bring matter only to a write with schema evolution (see `write`)
        evolving = self._evolves(opts) and last.name != "insertInto"
        columns = self._source_columns(source_steps, "write", scope) if evolving else ()
        if modes is None:  # a mode only a run knows: the write is one of an append and an overwrite
            modes = ["append", "overwrite"]
            self.host.diagnostics.append(
                Diagnostic(
                    DYNAMIC_SQL,
                    self.host.located(scope.site or self.host.sites.loc(call), scope, call),
                    f"the write's mode is `{mode_str.text}`, a value delta-lint cannot know: "  # type: ignore[union-attr]
                    "it is read as one of an append and an overwrite",
                    "info",
                )
            )
        for mode in modes:  # one write per mode it may have (`.mode(m)`, `m` one of several)
            self.write(
                ref,
                resolved,
                mode or "errorifexists",
                opts,
                partition_by,
                cluster_by,
                source,
                call,
                scope,
                rows=rows,
                row_columns=columns,
                one_of=len(modes) > 1,
            )

    def _evolves(self, opts: dict[str, Str]) -> bool:
        """Whether a DataFrame write evolves the schema: `mergeSchema`, `overwriteSchema`,
        or the session's autoMerge."""
        return is_true(opts.get("mergeschema")) or is_true(opts.get("overwriteschema")) or self.host.session.auto_merge

    def _spread(self, node: ast.Call, scope: Scope) -> ast.Call:
        """A terminal's call with the arguments it spreads laid out (`saveAsTable(**opts)`
        of `opts = {"name": t, "mode": "append"}`, `insertInto(*args)` of a list): a
        dict's string keys as keywords, a list's or tuple's items as positions, each
        value an expression of what the name holds. A spread whose value is not known
        stays, and its parameter is then not found (`{opts}` names the table)."""
        if not any(isinstance(a, ast.Starred) for a in node.args) and all(k.arg for k in node.keywords):
            return node
        args: list[ast.expr] = []
        for arg in node.args:
            held = self._held_spread(arg.value, scope) if isinstance(arg, ast.Starred) else None
            if isinstance(held, list):
                args.extend(held)
            elif isinstance(arg, ast.Starred) and held is None:
                return node  # an unknown spread before the others: their positions are not known
            else:
                args.append(arg)
        keywords: list[ast.keyword] = []
        for keyword in node.keywords:
            held = self._held_spread(keyword.value, scope) if keyword.arg is None else None
            if isinstance(held, dict):
                keywords.extend(ast.keyword(arg=k, value=v) for k, v in held.items())
            else:
                keywords.append(keyword)
        return ast.copy_location(ast.Call(func=node.func, args=args, keywords=keywords), node)

    def _named(self, name: ast.expr | None, node: ast.Call, scope: Scope) -> Str:
        """The table a terminal names; one given in a spread not known (`**opts` of a
        dict only a run fills) is unknown, named after the spread (`{opts}`), not empty."""
        if name is not None:
            return self.host.string(name, scope)
        spread = next(
            (a.value for a in node.args if isinstance(a, ast.Starred)),
            next((k.value for k in node.keywords if k.arg is None), None),
        )
        if spread is None:
            return self.host.string(None, scope)
        label = re.sub(r"\W+", "_", ast.unparse(spread)).strip("_")[:40] or "spread"
        return Str("{" + label + "}", unknown=True)

    def _held_spread(self, value: ast.expr, scope: Scope) -> list[ast.expr] | dict[str, ast.expr] | None:
        """What a spread name holds, as expressions: a literal dict or list the name is
        bound to (its items as written), or strings the reading holds; None when not known."""
        if isinstance(value, ast.Dict) and all(
            isinstance(k, ast.Constant) and isinstance(k.value, str) for k in value.keys
        ):
            return {k.value: v for k, v in zip(value.keys, value.values)}  # type: ignore[union-attr]
        if isinstance(value, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in value.elts):
            return list(value.elts)
        if not isinstance(value, ast.Name) or value.id in self.host.mutated_names:
            return None
        held = scope.env.get(value.id)
        if isinstance(held, dict) and all(isinstance(k, str) for k in held):
            if not all(isinstance(v, Str) and not v.unknown for v in held.values()):
                return None
            return {k: ast.Constant(v.text) for k, v in held.items()}  # type: ignore[union-attr]
        if isinstance(held, list) and all(isinstance(v, Str) and not v.unknown for v in held):
            return [ast.Constant(v.text) for v in held]
        return None

    def write(
        self,
        ref: TableRef,
        resolved: bool,
        mode: str,
        opts: dict[str, Str],
        partition_by: tuple[str, ...],
        cluster_by: tuple[str, ...],
        source_reads: set[TableRef],
        node: ast.Call,
        scope: Scope,
        overwrite_condition: ast.expr | None = None,
        rows: FrameRows = (),
        row_columns: tuple[str, ...] = (),
        one_of: bool = False,
    ) -> None:
        """One DataFrame write; `rows`: what its rows hold in some columns (`frames`), which
        confines an append to the partitions they name, and a dynamic partition overwrite;
        `one_of`: the write is one of several the statement may make (its mode one of
        several, see `_modes`)."""
        flags: set[Flag] = {Flag.ONE_OF} if one_of else set()
        predicate_sql = None
        region = None
        kind: Kind
        params: tuple[str, ...] = ()
        declared = None
        if self._evolves(opts):
            flags.add(Flag.SCHEMA_EVOLUTION)
        reads_target = ref in source_reads
        if reads_target:
            flags.add(Flag.READS_TARGET)
        if mode == "append":
            kind = Kind.INSERT_READING_TARGET if reads_target else Kind.BLIND_APPEND
            region = WHOLE if reads_target else None
            if rows and not reads_target:
                region = _rows_region(rows)
                flags.add(Flag.STATIC_PARTITION)  # the rows' own values say which partitions they land in
        elif mode == "overwrite":
            replace_where = opts.get("replacewhere")
            if replace_where is not None or overwrite_condition is not None:
                kind = Kind.REPLACE_WHERE
                cond_text = (
                    replace_where.text
                    if replace_where is not None
                    else condition_sql(self.host, overwrite_condition, scope)
                )
                info = condition_info(
                    cond_text, {ref.name.split(".")[-1]}, True, self.host.session, ref, self.host.memo
                )
                predicate_sql, region, params = info.sql, info.region, info.params
                flags |= info.flags
                if replace_where is not None:
                    params = tuple(dict.fromkeys(params + replace_where.params))
            elif (opts.get("partitionoverwritemode") and opts["partitionoverwritemode"].text.lower() == "dynamic") or (
                self.host.session.dynamic_overwrite and opts.get("partitionoverwritemode") is None
            ):
                # it replaces the partitions its rows hold (all of them, as far as they are not known)
                kind, region = Kind.DYNAMIC_OVERWRITE, _rows_region(rows) if rows else OPAQUE
            else:
                kind = Kind.FULL_OVERWRITE
                if is_true(opts.get("overwriteschema")) or partition_by or cluster_by:
                    declared = TableDDL(partitioned_by=partition_by, clustered_by=cluster_by)
        elif mode == "ignore" or mode in ("error", "errorifexists", "default"):
            kind = Kind.CREATE
            declared = TableDDL(partitioned_by=partition_by, clustered_by=cluster_by)
            if mode == "ignore":
                flags.add(Flag.IF_NOT_EXISTS)
        else:
            kind = Kind.BLIND_APPEND
        txn = opts.get("txnappid")
        self.host._emit(
            node,
            ref,
            resolved,
            kind,
            scope,
            flags=flags,
            predicate_sql=predicate_sql,
            region=region,
            params=params,
            declared=declared,
            txn_app_id=txn.text if txn else None,
            row_columns=row_columns if Flag.SCHEMA_EVOLUTION in flags else (),
        )

    def _source_rows(self, steps: list[Step], marker: str, scope: Scope) -> FrameRows:
        """What the rows of the DataFrame a write writes hold, as far as `frames` knows."""
        for i, step in enumerate(steps):
            if step.name == marker and i > 0:
                return FrameReader(scope.env.get, lambda value: self.host.string(value, scope)).rows(steps[i - 1].node)
        return ()

    def _source_columns(self, steps: list[Step], marker: str, scope: Scope) -> tuple[str, ...]:
        """Every column of the DataFrame a write writes, where the code states them all."""
        made = next((steps[i - 1].node for i, step in enumerate(steps) if step.name == marker and i > 0), None)
        if made is None:
            return ()
        line = made.lineno
        reader = FrameReader(
            scope.env.get,
            lambda value: self.host.string(value, scope),
            lambda name: self.host.walker.single_binding(name, line),  # a schema or frame named on a line of its own
        )
        return reader.columns(made)

    def _source_reads(self, steps: list[Step], marker: str, scope: Scope) -> set[TableRef]:
        """The tables the DataFrame a write writes reads (the link before `marker`)."""
        for i, step in enumerate(steps):
            if step.name == marker and i > 0:
                return self.host.reads(steps[i - 1].node, scope)
        return set()

    def pandas_write(self, steps: list[Step], node: ast.Call, scope: Scope) -> None:
        """The pandas API on Spark: `psdf.to_table(name, format, mode, partition_cols)`
        (`psdf.spark.to_table` too) and `psdf.to_delta(path, mode, partition_cols)`.
        Its modes are Spark's, with pandas' `w` (the default: an overwrite) and `a`."""
        method = steps[-1].name
        if method == "to_table":
            fmt_node = argument(node, "DataFrame", method, "format")
            if fmt_node is not None and _other_format(self.host.string(fmt_node, scope)):
                ref, resolved = self.host._ref(self.host.string(argument(node, "DataFrame", method, "name"), scope))
                if resolved:
                    self.host.session.non_delta = self.host.session.non_delta | {ref.name}
                return
        mode_node = argument(node, "DataFrame", method, "mode")
        mode = "w" if mode_node is None else self.host.string(mode_node, scope).text.lower()
        mode = {"w": "overwrite", "a": "append", "error": "errorifexists"}.get(mode, mode)
        opts = {k: self.host.string(v, scope) for k, v in options(node, "DataFrame", method).items()}
        cols = argument(node, "DataFrame", method, "partition_cols")
        elts = cols.elts if isinstance(cols, (ast.List, ast.Tuple)) else [cols] if cols is not None else []
        partition_by = tuple(self.host.string(e, scope).text.lower() for e in elts)
        if method == "to_table":
            ref, resolved = self.host._ref(self.host.string(argument(node, "DataFrame", method, "name"), scope))
        else:
            ref, resolved = self._path_target("DataFrame", method, node, opts, scope)
        self.write(ref, resolved, mode, opts, partition_by, (), set(), node, scope)

    def delta_rs_write(self, steps: list[Step], node: ast.Call, scope: Scope) -> None:
        """Writers outside Spark that commit to the same Delta log as Spark's:
        `write_deltalake(table_or_uri, data, mode=, partition_by=, predicate=)` of
        `deltalake` (delta-rs) and polars' `df.write_delta(target, mode=)`. Their
        target is the first argument (or `table_or_uri=`/`target=`), their mode
        Spark's words (`error` by default); an overwrite with `predicate` replaces
        only those rows, as `replaceWhere` does. A polars `mode="merge"` hands back a
        merger whose `execute()` writes: not read here."""
        method = steps[-1].name
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        target = node.args[0] if node.args else keywords.get("table_or_uri", keywords.get("target"))
        if target is None:
            return
        mode_node = keywords.get("mode")
        mode = "error" if mode_node is None else self.host.string(mode_node, scope).text.lower()
        if mode == "merge":
            return
        opts: dict[str, Str] = {}
        predicate = keywords.get("predicate") if method == "write_deltalake" else None
        if predicate is not None and mode == "overwrite":
            opts["replacewhere"] = self.host.string(predicate, scope)
        cols = keywords.get("partition_by")
        elts = cols.elts if isinstance(cols, (ast.List, ast.Tuple)) else [cols] if cols is not None else []
        partition_by = tuple(self.host.string(e, scope).text.lower() for e in elts)
        ref, resolved = self.host._ref(*path_or_name(self.host.string(target, scope), unknown_is_path=True))
        self.write(ref, resolved, mode.replace("error", "errorifexists"), opts, partition_by, (), set(), node, scope)

    def _path_target(
        self, api: str, method: str, node: ast.Call, opts: dict[str, Str], scope: Scope
    ) -> tuple[TableRef, bool]:
        """The Delta path a writer's `save`/`start` writes: its `path` argument, else the
        `path` option. Neither given (`.options(**opts).save()`, options only a run
        knows): a path not known, so the write is still an intent, unresolved, with its
        DL001, never dropped."""
        path_node = argument(node, api, method, "path")
        target = self.host.string(path_node, scope) if path_node is not None else opts.get("path")
        return self.host._ref(target if target is not None else _UNKNOWN_PATH, path=True)

    def write_to(self, steps: list[Step], node: ast.Call, scope: Scope) -> None:
        """`df.writeTo(t)` then `append()`, `overwrite(cond)`, `overwritePartitions()`,
        `create()`, `createOrReplace()` or `replace()` (DataFrameWriterV2)."""
        last = steps[-1]
        target = chain_arg(self.host, steps, "writeTo", scope)
        if target is None:
            return
        using = chain_arg(self.host, steps, "using", scope)
        if _other_format(using):
            return
        ref, resolved = self.host._ref(target)
        opts = chain_options(self.host, steps, scope)
        partition_by = chain_cols(self.host, steps, "partitionedBy", scope)
        cluster_by = chain_cols(self.host, steps, "clusterBy", scope)
        source = self._source_reads(steps, "writeTo", scope)
        rows = self._source_rows(steps, "writeTo", scope)  # DataFrameWriterV2 matches columns by name
        name = last.name
        if name == "append":
            self.write(ref, resolved, "append", opts, partition_by, cluster_by, source, node, scope, rows=rows)
        elif name == "overwrite":
            cond = argument(node, "DataFrameWriterV2", "overwrite", "condition")
            self.write(ref, resolved, "overwrite", opts, partition_by, cluster_by, source, node, scope, cond)
        elif name == "overwritePartitions":
            opts = {**opts, "partitionoverwritemode": Str("dynamic")}
            self.write(ref, resolved, "overwrite", opts, partition_by, cluster_by, source, node, scope, rows=rows)
        elif name in ("create", "createOrReplace", "replace"):
            kind = Kind.CREATE if name == "create" else Kind.CREATE_OR_REPLACE
            props = {}
            for step in steps:
                if step.name == "tableProperty" and step.call is not None and len(step.call.args) >= 2:
                    props[self.host.string(step.call.args[0], scope).text.lower()] = self.host.string(
                        step.call.args[1], scope
                    ).text
            self.host._emit(node, ref, resolved, kind, scope, declared=table_ddl(partition_by, cluster_by, props))

    def stream_write(self, steps: list[Step], writer: int, node: ast.Call, scope: Scope) -> None:
        """`df.writeStream...toTable(t)` / `start(path)`, and `foreachBatch(f)`, whose
        function is read as run once per micro-batch; a stream read earlier in the
        same chain is read too."""
        source_steps, steps = steps[:writer], steps[writer:]
        if "readStream" in [s.name for s in source_steps]:
            start = [s.name for s in source_steps].index("readStream")
            source = next((s for s in source_steps[start:] if s.name in ("table", "load") and s.call is not None), None)
            if source is not None:
                end = source_steps.index(source) + 1
                self.stream_read(source_steps[:end], source.call, scope)
        opts = chain_options(self.host, steps, scope)
        opts.update({k: self.host.string(v, scope) for k, v in options(node, "DataStreamWriter", _sink(steps)).items()})
        checkpoint = opts.get("checkpointlocation")
        fmt = chain_arg(self.host, steps, "format", scope)
        batch = next((s for s in steps if s.name == "foreachBatch" and s.call is not None), None)
        loc = self.host.sites.loc(node)
        flags: set[Flag] = set()
        if is_true(opts.get("mergeschema")) or self.host.session.auto_merge:
            flags.add(Flag.SCHEMA_EVOLUTION)
        awaited = {Flag.AWAITED} if id(node) in self._awaited_queries() else set()
        flags |= awaited
        common = {"checkpoint": checkpoint.text if checkpoint else None, "stream": loc}
        if batch is not None:
            self.host._add(
                Intent(
                    location=loc,
                    table=None,
                    kind=Kind.STREAMING_WRITE,
                    flags=frozenset({Flag.FOREACH_BATCH_SINK} | awaited),
                    statement=self.host.sites.excerpt(node),
                    **common,
                ),
                scope,
                node,
            )
            for fn_name in sorted(function_names(batch.call.args[0] if batch.call.args else None)):
                fn = self.host.functions.get(fn_name)
                if fn is not None:
                    # a function of another module (pasted after this file's code) writes
                    # per batch of this stream: its writes stand at the foreachBatch, each
                    # naming its statement's own line (as at a helper's call)
                    at = scope if fn.lineno <= self.host._own_lines or scope.site else replace(scope, site=loc)
                    self.host.walker.function(
                        fn, at, flags=frozenset({Flag.PER_BATCH} | awaited), stream=loc, batch_df=True
                    )
            return
        sink = _sink(steps)
        fmt_kw = argument(node, "DataStreamWriter", sink, "format")
        if fmt_kw is not None:
            fmt = self.host.string(fmt_kw, scope)
        if _other_format(fmt):
            return
        if sink == "toTable":
            ref, resolved = self.host._ref(
                self.host.string(argument(node, "DataStreamWriter", "toTable", "tableName"), scope)
            )
        else:
            ref, resolved = self._path_target("DataStreamWriter", "start", node, opts, scope)
        mode = chain_arg(self.host, steps, "outputMode", scope)
        mode_kw = argument(node, "DataStreamWriter", sink, "outputMode")
        if mode_kw is not None:
            mode = self.host.string(mode_kw, scope)
        kind = Kind.FULL_OVERWRITE if mode is not None and mode.text.lower() == "complete" else Kind.STREAMING_WRITE
        txn = opts.get("txnappid")
        self.host._emit(
            node,
            ref,
            resolved,
            kind,
            scope,
            flags=flags,
            subkind="streaming_complete" if kind == Kind.FULL_OVERWRITE else None,
            txn_app_id=txn.text if txn else None,
            **common,
        )

    def stream_read(self, steps: list[Step], node: ast.Call, scope: Scope) -> None:
        """`spark.readStream...table(t)` / `load(path)` of a Delta source."""
        fmt = chain_arg(self.host, steps, "format", scope)
        if _other_format(fmt):
            return
        if steps[-1].name == "table":
            ref, resolved = self.host._ref(
                self.host.string(argument(node, "DataStreamReader", "table", "tableName"), scope)
            )
        else:
            path_node = argument(node, "DataStreamReader", "load", "path")
            if path_node is None:
                return
            ref, resolved = self.host._ref(self.host.string(path_node, scope), path=True)
        self.host._emit(node, ref, resolved, Kind.STREAMING_READ, scope)


def _rows_region(rows: FrameRows) -> Region:
    """The region of rows whose columns hold these values (the rest any)."""
    return Region((tuple((column, Constraint(values=values)) for column, values in rows),))


def _sink(steps: list[Step]) -> str:
    """The DataStreamWriter method a chain ends in (`table` is Databricks' `toTable`)."""
    return "start" if steps[-1].name == "start" else "toTable"


_FEATURE_CLIENTS = ("FeatureStoreClient", "FeatureEngineeringClient")


def feature_clients(tree: ast.Module) -> set[str]:
    """Names assigned a feature store client: `fs = feature_store.FeatureStoreClient()`."""
    out = set()
    for node in walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = node.value.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in _FEATURE_CLIENTS:
                out.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return out


def is_feature_table_call(node: ast.Call, clients: set[str]) -> bool:
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in ("create_table", "write_table")
        and isinstance(func.value, ast.Name)
        and func.value.id in clients
    )


def awaited_queries(tree: ast.Module) -> set[int]:
    """Streaming queries the code waits for: `....start().awaitTermination()`, or
    `q = ....start()` and later `q.awaitTermination()`. The statements after the
    wait run once the query has stopped (an `availableNow` or `once` trigger, or a
    failure), never beside it."""
    waited: set[str] = set()
    out: set[int] = set()
    for node in walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "awaitTermination":
            owner = node.func.value
            if node.args or node.keywords:
                continue  # a timeout: the query may still run afterwards
            if isinstance(owner, ast.Name):
                waited.add(owner.id)
            elif isinstance(owner, ast.Call):
                out.add(id(owner))
    if waited:
        for node in walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                if any(isinstance(t, ast.Name) and t.id in waited for t in node.targets):
                    out.add(id(node.value))
    return out


def function_names(node: ast.expr | None) -> set[str]:
    """The functions a `foreachBatch(...)` argument names: a name, an attribute's
    name, or the functions a lambda's body calls by name."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Attribute):
        return {node.attr}
    if isinstance(node, ast.Lambda):
        return {call.func.id for call in batch_calls(node)}  # type: ignore[attr-defined]
    return set()


def batch_calls(node: ast.Lambda) -> list[ast.Call]:
    """The calls of a `foreachBatch` lambda that hand a function only the lambda's
    own parameters (`lambda df, i: upsert(df)`, `upsert(df, i)`): the batch reader
    reads those functions with the batch bound to their parameters. A call that
    passes anything else (`upsert(df, "main.s.t")`) is read where it stands, with
    what it passes."""
    params = {a.arg for a in (*node.args.posonlyargs, *node.args.args)}
    return [
        n
        for n in walk(node.body)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and not n.keywords
        and all(isinstance(a, ast.Name) and a.id in params for a in n.args)
    ]


_UNKNOWN_PATH = Str("{path}", ("path",), True)  # a writer's path the code does not give


def _other_format(fmt: Str | None) -> bool:
    """Whether a writer's or reader's format is known and is not Delta. A format only
    a run knows (`format(args.fmt)`, a job parameter, one of several values) may be
    Delta: the write is read as one, never dropped, and its table is never taken for
    another format's."""
    return fmt is not None and not fmt.unknown and not fmt.params and fmt.text.lower() not in ("delta", "")


# the modes of Spark's DataFrameWriter (`errorifexists` and its names, `ignore`,
# `append`, `overwrite`); another text is read as Spark reads it: an error at run time
def _modes(mode: Str | None) -> list[str | None] | None:
    """The modes a write's `.mode(...)` may give, lower case: [None] when no mode is
    set (the writer's default), one per text of a mode that is one of several texts
    (`"overwrite" if full else "append"`); None when a text is not known (a widget
    without a default, a parameter no call gives)."""
    if mode is None:
        return [None]
    texts = alternatives(mode)
    if any(t.unknown or t.params or t.scalar for t in texts):
        return None
    return list(dict.fromkeys(t.text.lower() for t in texts))
