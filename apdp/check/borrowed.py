"""Which of apdp's own solvers an exercise agent imports: the references it is scored against (the
exact search, value iteration, the planner, the scores), which an agent that borrows them does not
solve the exercise itself.

Read from the agent's source (every ``.py`` file of a folder agent): its ``import`` statements,
module names in strings, and imports whose module is computed (``importlib.import_module("apdp" +
...)``, ``__import__``), which apdp cannot read and so counts as borrowing. A source too large to
look at (:data:`apdp.agents.source.MAX_PARSED_BYTES`) counts too. The check of a generated agent
counts a borrowed solver as a problem, and a field marks the agent. It reads what an agent's source
says, it does not confine it: apdp's modules stay importable, as the agent API is.
"""

from __future__ import annotations

import ast
from pathlib import Path

from apdp.agents.source import MAX_PARSED_BYTES, parsed, read_source

#: apdp's modules that solve an exercise or score it (and everything under them).
SOLVERS = ("apdp.exercises", "apdp.baselines", "apdp.check", "apdp.tournament", "apdp.analysis")
#: What an agent may import from under them: the course's topology helper and the naive plan the
#: templates use are the course's own, given to students.
ALLOWED = ("apdp.exercises.topology", "apdp.exercises.naive_plan")
#: How a computed import, and a source too large to read, are named in the list.
COMPUTED, UNREAD = "an import apdp cannot read (its module is computed)", "a source too large to check"
#: The most files of a folder agent looked at.
MOST_FILES = 64


def _solver(name: str) -> bool:
    return any(name == s or name.startswith(s + ".") for s in SOLVERS) and not any(
        name == a or name.startswith(a + ".") for a in ALLOWED)


def _computed(node: ast.AST) -> bool:
    """Whether ``node`` imports a module whose name is not written out (a call of
    ``import_module``/``__import__`` whose first argument is not a string literal)."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    function = node.func
    name = function.id if isinstance(function, ast.Name) else function.attr if isinstance(
        function, ast.Attribute) else None
    return name in ("import_module", "__import__") and not (
        isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str))


def borrowed_solvers(source: str) -> list[str]:
    """The solver modules ``source`` (an agent's Python) imports, in order, each once (and
    :data:`COMPUTED` for a computed import); empty for source that does not parse (its check says so
    elsewhere), :data:`UNREAD` for one too large to parse here."""
    tree = parsed(source)
    if tree is None:
        return [UNREAD] if len(source) > MAX_PARSED_BYTES else []
    found: list[str] = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("apdp."):
            names = [node.value]
        if _computed(node) and COMPUTED not in found:
            found.append(COMPUTED)
        for name in names:
            if _solver(name) and name not in found and not any(name.startswith(f + ".") for f in found):
                found.append(name)
    return found


def borrowed_by(path: Path) -> list[str]:
    """:func:`borrowed_solvers` of the agent ``path`` (a file, or every ``.py`` file of a folder agent,
    :data:`MOST_FILES` at most); empty for an agent without Python source (a Java agent imports none)."""
    files = sorted(path.rglob("*.py"))[:MOST_FILES] if path.is_dir() else [path]
    found: list[str] = []
    for file in files:
        if file.suffix != ".py" or not file.is_file():
            continue
        source = read_source(file)
        for name in [UNREAD] if source is None else borrowed_solvers(source):
            if name not in found:
                found.append(name)
    return found
