"""Which of apdp's own solvers an exercise agent imports: the references it is scored against (the
exact search, value iteration, the planner, the scores), which an agent that borrows them does not
solve the exercise itself.

Read from the agent's source (every ``.py`` file of a folder agent) by line patterns, in time and
memory of its size: its ``import`` and ``from ... import`` lines, module names in strings, and
imports whose module is computed (``importlib.import_module("apdp" + ...)``, ``__import__(name)``),
which apdp cannot read and so counts as borrowing, as a source too large to read. The check of a
generated agent counts a borrowed solver as a problem, and a field marks the agent. It reads what an
agent's source says, it does not confine it: apdp's modules stay importable, as the agent API is.
"""

from __future__ import annotations

import re
from pathlib import Path

from apdp.agents.source import read_source

#: apdp's modules that solve an exercise or score it (and everything under them).
SOLVERS = ("apdp.exercises", "apdp.baselines", "apdp.check", "apdp.tournament", "apdp.analysis")
#: What an agent may import from under them: the course's topology helper and the naive plan the
#: templates use are the course's own, given to students.
ALLOWED = ("apdp.exercises.topology", "apdp.exercises.naive_plan")
#: How a computed import, and a source too large to read, are named in the list.
COMPUTED, UNREAD = "an import apdp cannot read (its module is computed)", "a source too large to check"
#: The packages ALLOWED's modules are in.
_PACKAGES = {a.rsplit(".", 1)[0] for a in ALLOWED}
#: The most files of a folder agent looked at.
MOST_FILES = 64


def _solver(name: str) -> bool:
    return any(name == s or name.startswith(s + ".") for s in SOLVERS) and not any(
        name == a or name.startswith(a + ".") for a in ALLOWED)


_FROM = re.compile(r"^[ \t]*from[ \t]+(apdp(?:\.\w+)*)[ \t]+import[ \t]+\(?([\w \t,]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w. \t,]+)", re.M)
_NAMED = re.compile(r"""['"](apdp\.[\w.]+)['"]""")
_COMPUTED = re.compile(r"""\b(?:import_module|__import__)[ \t]*\((?![ \t]*(?:'[^'\n]*'|"[^"\n]*")[ \t]*[,)])""")


def borrowed_solvers(source: str) -> list[str]:
    """The solver modules ``source`` (an agent's Python) imports, in the order of the kinds of
    mention (imports, then module names in strings), each once, and :data:`COMPUTED` for a computed
    import."""
    names: list[str] = []
    for match in _FROM.finditer(source):
        module, imported = match.group(1), [n.split()[0] for n in match.group(2).split(",") if n.split()]
        # from a package that holds allowed modules, what is imported names the module
        names += [f"{module}.{n}" for n in imported] if module in _PACKAGES and imported else [module]
    for match in _IMPORT.finditer(source):
        names += [part.split()[0] for part in match.group(1).split(",") if part.split()]
    names += _NAMED.findall(source)
    found: list[str] = [COMPUTED] if _COMPUTED.search(source) else []
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
