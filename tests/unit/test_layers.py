"""apdp's packages stand in layers: a module imports only from layers below its own, and no modules
import each other in a circle (imports inside functions and for type checking count too)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.paths import ROOT

PACKAGE = ROOT / "apdp"

#: From the ground up: each unit (a sub-package or a top-level module of apdp) may import units of
#: lower layers only.
LAYERS: tuple[frozenset[str], ...] = tuple(frozenset(layer.split()) for layer in (
    "errors bundled reading",  # plumbing with no apdp import
    "text files secret lookup",  # plumbing
    "game",                    # the rules and values of the game
    "logist",                  # the platform's file formats and arithmetic
    "baselines messages",      # the baseline agents; calls and replies
    "scenario",                # everything about a match but its agents
    "exercises",               # the course's other exercises (scenarios by network name; scored with the planner)
    "agents",                  # finding agents, their files and identity, adapters
    "sandbox",                 # the agents' processes
    "referee",                 # playing a match, its record
    "check",                   # checking agents and records
    "codegen pages",           # the LLM harness; HTML pages
    "tournament",              # many matches, their store and reports
    "analysis",                # why an agent wins: its bidding apart from its planning
    "study",                   # a whole study: generations, tournaments, funnel
    "cli",                     # the apdp command
    "__init__ testing",        # the faces users import
    "pytest_plugin",           # apdp.testing as a pytest plugin
))


def _layer(unit: str) -> int:
    for k, layer in enumerate(LAYERS):
        if unit in layer:
            return k
    raise AssertionError(f"apdp.{unit} is in no layer: add it to LAYERS in {__file__}")


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: Path) -> Iterator[str]:
    """The apdp modules ``path`` imports, anywhere in it (``from apdp.x import y`` may name a module y)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.split(".")[0] == "apdp")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "apdp":
            yield node.module
            yield from (f"{node.module}.{a.name}" for a in node.names)


def _graph() -> dict[str, set[str]]:
    files = {_module(p): p for p in PACKAGE.rglob("*.py")}
    return {module: {m for m in _imports(path) if m in files and m != module} for module, path in files.items()}


def test_every_import_goes_down_the_layers() -> None:
    upward = []
    for module, targets in _graph().items():
        for target in targets:
            if _unit(target) != _unit(module) and _layer(_unit(target)) >= _layer(_unit(module)):
                upward.append(f"{module} -> {target}")
    assert upward == [], "imports that do not go down the layers:\n" + "\n".join(sorted(upward))


def test_no_modules_import_each_other_in_a_circle() -> None:
    graph = _graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    assert circles == [], f"modules that import each other: {circles}"


@pytest.mark.parametrize("name", ["baselines", "tournament"])
def test_apdp_is_the_only_top_level_package(name: str) -> None:
    assert not (PACKAGE.parent / name / "__init__.py").exists()
    assert (PACKAGE / name / "__init__.py").exists()
