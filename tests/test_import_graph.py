"""The modules' imports follow the data flow: no cycle, and no stage imports a later one.

Read from the source with `ast` (imports inside functions count too), so a cycle
hidden in a function body is found as surely as one at the top of a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "delta_lint"


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def import_graph() -> dict[str, set[str]]:
    """Module -> the delta_lint modules it imports (a package counts as imported by
    `from package import name` unless the importer is inside that package)."""
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("delta_lint"):
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for target in targets:
                if target in modules and target != name:
                    graph[name].add(target)
                parent = target.rsplit(".", 1)[0]
                if parent in modules and parent not in (name, "delta_lint") and not name.startswith(parent + "."):
                    graph[name].add(parent)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _in(module: str, *stages: str) -> bool:
    return any(module == s or module.startswith(s + ".") for s in stages)


ORCHESTRATION = (
    "delta_lint.cli",
    "delta_lint.console",
    "delta_lint.run",
    "delta_lint.cache",
    "delta_lint.kept",
    "delta_lint.patch",
    "delta_lint.tree",
    "delta_lint.__main__",
)
ENGINE = ("delta_lint.engine",)
# stages before the engine: what they compute is the engine's input
BEFORE_ENGINE = (
    "delta_lint.frontend",
    "delta_lint.settings",
    "delta_lint.config",
    "delta_lint.model",
    "delta_lint.predicates",
    "delta_lint.schedule",
    "delta_lint.bundle",
    "delta_lint.link",
    "delta_lint.rulepack",
)
AFTER_ENGINE = ("delta_lint.findings", "delta_lint.report", "delta_lint.baseline", "delta_lint.changed")


def test_no_import_cycle_among_the_modules():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_stage_imports_a_later_one():
    wrong = []
    for module, imported in sorted(import_graph().items()):
        for target in sorted(imported):
            if (
                (_in(module, *BEFORE_ENGINE) and _in(target, *ENGINE, *AFTER_ENGINE, *ORCHESTRATION))
                or (_in(module, *ENGINE) and _in(target, *AFTER_ENGINE, *ORCHESTRATION))
                or (_in(module, *AFTER_ENGINE) and _in(target, *ENGINE, *ORCHESTRATION))
            ):
                wrong.append(f"{module} imports {target}")
    assert wrong == []


def test_the_cache_knows_only_the_front_ends_result_types():
    """The cache stores what other stages keep (workflows, settings read live) without
    importing their types: a caller names the dataclasses its value holds."""
    imported = import_graph()["delta_lint.cache"]
    assert not [m for m in imported if _in(m, "delta_lint.bundle", "delta_lint.schedule", "delta_lint.settings")]
