"""Which of apdp's own solvers an exercise agent imports: the references it is scored against (the
exact search, value iteration, the planner, the scores), which an agent that borrows them does not
solve the exercise itself.

Read from the agent's source (its ``import`` statements, and module names in strings, as given to
``importlib.import_module``): the check of a generated agent counts a borrowed solver as a problem,
and a field marks the agent. It is a check of what an agent says it uses, not a confinement: an
agent set on hiding it can (apdp's modules are importable, as the agent API is).
"""

from __future__ import annotations

import ast
from pathlib import Path

#: apdp's modules that solve an exercise or score it (and everything under them).
SOLVERS = ("apdp.exercises", "apdp.baselines", "apdp.check", "apdp.tournament", "apdp.analysis")
#: What an agent may import from under them: the course's topology helper and the naive plan the
#: templates use are the course's own, given to students.
ALLOWED = ("apdp.exercises.topology", "apdp.exercises.naive_plan")


def _solver(name: str) -> bool:
    return any(name == s or name.startswith(s + ".") for s in SOLVERS) and not any(
        name == a or name.startswith(a + ".") for a in ALLOWED)


def borrowed_solvers(source: str) -> list[str]:
    """The solver modules ``source`` (an agent's Python) imports, in order, each once; empty for
    source that is not Python (its check says so elsewhere)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    found: list[str] = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("apdp."):
            names = [node.value]
        for name in names:
            if _solver(name) and name not in found and not any(name.startswith(f + ".") for f in found):
                found.append(name)
    return found


def borrowed_by(path: Path) -> list[str]:
    """:func:`borrowed_solvers` of the agent file ``path`` (a folder agent: its ``agent.py``); empty
    for an agent that is no Python file (a Java agent imports none of them)."""
    file = path / "agent.py" if path.is_dir() else path
    if file.suffix != ".py" or not file.is_file():
        return []
    try:
        return borrowed_solvers(file.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return []
