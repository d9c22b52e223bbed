"""Which of apdp's own solvers an exercise agent imports: the references it is scored against (the
exact search, value iteration, the planner, the scores), which an agent that borrows them does not
solve the exercise itself.

Read from the agent's source, in time and memory of its size: every ``.py`` file of a folder agent
(and what an agent program's command runs with Python), its ``import`` and ``from ... import``
lines and module names in strings. What apdp cannot read from the source counts as borrowing, each
named once in the list:

- :data:`COMPUTED`: an import whose module is computed (``import_module`` or ``__import__`` called
  with anything but a string, or passed on under another name), and code that runs code apdp does
  not read: ``exec``, ``eval``, ``compile``, ``runpy``, loaders from files or specs, code objects,
  pickles and ``marshal`` (a pickle imports by name), ``ctypes``, ``subprocess`` and ``os.system``
  or ``os.exec*`` (a process of its own), ``builtins`` and ``globals()`` (they lead to all of those),
  ``sys.modules``, a changed ``sys.path``, the reload of a module. Read by tokens, so a word in a
  comment or a string is no mention;
- :data:`COMPILED`: compiled code in a folder agent (a ``.pyc`` beside its sources, an extension
  module), which Python imports and no one reads;
- :data:`UNREAD`: a source too large to check, or a folder of more files than :data:`MOST_FILES`.

The check of a generated agent counts a borrowed solver as a problem, and a field marks the agent.
It reads what an agent's source says, it does not confine it: apdp's modules stay importable, as the
agent API is, and code copied from them into the agent's own file is the agent's own to the check.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

from apdp.agents.program import ProgramError, is_program, read_program
from apdp.agents.source import read_source

#: apdp's modules that solve an exercise or score it (and everything under them).
SOLVERS = ("apdp.exercises", "apdp.baselines", "apdp.check", "apdp.tournament", "apdp.analysis")
#: What an agent may import from under them: the course's topology helper and the naive plan the
#: templates use are the course's own, given to students.
ALLOWED = ("apdp.exercises.topology", "apdp.exercises.naive_plan")
#: How code apdp cannot read, compiled code, and a source too large to read are named in the list
#: (each reads after the agent's name: "AGENT runs code ...").
COMPUTED = "runs code its source does not show (an import by a computed name, exec, a pickle, a process)"
COMPILED = "holds compiled code no one reads (a .pyc beside its sources, an extension module)"
UNREAD = "has more source than apdp checks"
#: The packages ALLOWED's modules are in.
_PACKAGES = {a.rsplit(".", 1)[0] for a in ALLOWED}
#: The most ``.py`` files of a folder agent read: one with more is :data:`UNREAD`.
MOST_FILES = 64
#: What Python imports from a folder and no one reads (``__pycache__`` aside: apdp loads an agent's
#: modules from their sources, never from the bytecode cached there).
_COMPILED_SUFFIXES = (".pyc", ".pyo", ".so", ".pyd")

#: Names whose mention (outside comments and strings) runs code that the source does not show.
_CODE_NAMES = frozenset({
    "exec", "eval", "__builtins__", "builtins", "globals", "__globals__", "__subclasses__", "__code__",
    "__loader__", "__spec__", "CodeType", "FunctionType", "spec_from_file_location", "spec_from_loader",
    "module_from_spec", "exec_module", "load_module", "SourceFileLoader", "SourcelessFileLoader",
    "ExtensionFileLoader", "find_spec", "machinery", "reload", "runpy", "run_path", "run_module", "marshal",
    "pickle", "_pickle", "cPickle", "dill", "cloudpickle", "shelve", "copyreg", "zipimport", "pkgutil",
    "ctypes", "cffi", "subprocess",
})
#: ``os``'s functions that start a program (``os.system``, ``from os import execv``).
_OS_RUNS = frozenset({
    "system", "popen", "execv", "execve", "execvp", "execvpe", "execl", "execle", "execlp", "execlpe",
    "spawnv", "spawnve", "spawnvp", "spawnvpe", "spawnl", "spawnle", "spawnlp", "spawnlpe", "posix_spawn",
    "posix_spawnp", "startfile",
})
#: Calls that import the module a string names: readable when that string is written out.
_IMPORTERS = frozenset({"import_module", "__import__"})
_SYS_PATH_CHANGES = frozenset({"insert", "append", "extend", "remove", "pop", "clear", "__setitem__", "__iadd__"})
_ASSIGNMENTS = frozenset({"=", "+=", ":="})
_SKIPPED = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING,
                      tokenize.ENDMARKER})
_PYTHON = re.compile(r"python[\d.]*")


def _solver(name: str) -> bool:
    return any(name == s or name.startswith(s + ".") for s in SOLVERS) and not any(
        name == a or name.startswith(a + ".") for a in ALLOWED)


_FROM = re.compile(r"^[ \t]*from[ \t]+(apdp(?:\.\w+)*)[ \t]+import[ \t]+\(?([\w \t,]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w. \t,]+)", re.M)
_NAMED = re.compile(r"""['"](apdp\.[\w.]+)['"]""")


def _tokens(source: str) -> Iterator[tokenize.TokenInfo]:
    """The tokens of ``source`` that carry meaning (no comments, indents or blank lines; the end of
    each statement kept); none past the first that does not tokenize (such a file cannot be
    imported: what comes after runs nowhere)."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type not in _SKIPPED:
                yield token
    except (tokenize.TokenError, SyntaxError, ValueError, RecursionError, MemoryError):
        return


def _plain_string(token: tokenize.TokenInfo) -> bool:
    """A string literal whose value is written out (not an f-string)."""
    prefix = token.string[: len(token.string) - len(token.string.lstrip("rRbBuUfF"))]
    return token.type == tokenize.STRING and "f" not in prefix.lower()


def runs_unread_code(source: str) -> bool:
    """Whether ``source`` mentions, outside comments and strings, a way to run code it does not show
    (see the module's text): an import by a computed name, code from a string or a file, a process."""
    tokens = list(_tokens(source))
    statement: list[str] = []  # the names of the statement so far: an import statement is told by its first
    for i, token in enumerate(tokens):
        if token.type == tokenize.NEWLINE or token.string == ";":
            statement = []
            continue
        if token.type != tokenize.NAME:
            continue
        name = token.string
        statement.append(name)
        previous = tokens[i - 1].string if i else ""
        before = tokens[i - 2].string if i > 1 else ""
        importing = statement[0] in ("import", "from")
        after = [t.string for t in tokens[i + 1 : i + 3]]
        if _unread(name, previous, before, statement, importing):
            return True
        if name in _IMPORTERS and not importing and not _literal_call(tokens, i):
            return True  # import_module(name), or import_module passed on under another name
        if name == "importlib" and not importing and after[:1] == ["."] and after[1:] != ["import_module"]:
            return True  # importlib.util, importlib.machinery, importlib.reload
        if name == "path" and previous == "." and before == "sys" and _changes(tokens, i):
            return True
    return False


def _unread(name: str, previous: str, before: str, statement: list[str], importing: bool) -> bool:
    """Whether the name ``name`` (after the tokens ``before`` and ``previous``, in a statement that
    began with ``statement``) alone runs code the source does not show."""
    if name in _CODE_NAMES:
        return True
    if name == "compile":  # re.compile and a pattern's are no code
        return previous != "."
    if name in _OS_RUNS:
        return (previous == "." and before == "os") or statement[:2] == ["from", "os"]
    if importing and statement[:2] == ["from", "importlib"] and len(statement) > 3:
        return name not in ("import_module", "as")  # anything but import_module: util, machinery
    if importing and statement[:1] == ["import"] and previous == "." and before == "importlib":
        return True  # import importlib.util
    return name == "modules" and previous == "." and before == "sys"


def _literal_call(tokens: list[tokenize.TokenInfo], i: int) -> bool:
    """Whether the name at ``i`` is called with a string written out first: ``import_module("x")``."""
    after = tokens[i + 1 : i + 4]
    return (len(after) == 3 and after[0].string == "(" and _plain_string(after[1])
            and after[2].string in (")", ","))


def _changes(tokens: list[tokenize.TokenInfo], i: int) -> bool:
    """Whether ``sys.path`` at ``i`` is changed there (a method that changes a list, an assignment to
    it or to an item of it): reading it is no import."""
    after = [t.string for t in tokens[i + 1 : i + 3]]
    if after[:1] == ["."]:
        return after[1:] != [] and after[1] in _SYS_PATH_CHANGES
    if after[:1] == ["["]:  # sys.path[...] = ...: past the matching bracket
        depth = 0
        for j in range(i + 1, len(tokens)):
            depth += {"[": 1, "]": -1}.get(tokens[j].string, 0)
            if depth == 0:
                return j + 1 < len(tokens) and tokens[j + 1].string in _ASSIGNMENTS
        return False
    return after[:1] != [] and after[0] in _ASSIGNMENTS


def borrowed_solvers(source: str) -> list[str]:
    """The solver modules ``source`` (an agent's Python) imports, in the order of the kinds of
    mention (imports, then module names in strings), each once, and :data:`COMPUTED` first for code
    it runs that it does not show."""
    names: list[str] = []
    for match in _FROM.finditer(source):
        module, imported = match.group(1), [n.split()[0] for n in match.group(2).split(",") if n.split()]
        # from a package that holds allowed modules, what is imported names the module
        names += [f"{module}.{n}" for n in imported] if module in _PACKAGES and imported else [module]
    for match in _IMPORT.finditer(source):
        names += [part.split()[0] for part in match.group(1).split(",") if part.split()]
    names += _NAMED.findall(source)
    found: list[str] = [COMPUTED] if runs_unread_code(source) else []
    for name in names:
        if _solver(name) and name not in found and not any(name.startswith(f + ".") for f in found):
            found.append(name)
    return found


def _python_run_by(path: Path) -> tuple[list[Path], list[str]]:
    """An agent program's files and ``-c`` code that its command runs with a Python interpreter."""
    try:
        program = read_program(path)
    except ProgramError:
        return [], []
    command = list(program.command)
    if not any(_PYTHON.fullmatch(Path(part).name) for part in command[:2]):
        return [], []
    files: list[Path] = []
    code: list[str] = []
    for at, part in enumerate(command):
        if command[at - 1 : at] == ["-c"]:
            code.append(part)
            continue
        candidate = Path(part)
        candidate = candidate if candidate.is_absolute() else path / candidate
        if candidate.suffix != ".py" and candidate.is_file() and candidate.resolve().is_relative_to(path.resolve()):
            files.append(candidate)
    return files, code


def _sources(path: Path) -> tuple[list[Path], list[str], list[str]]:
    """The files of an agent to read as Python, code of its command to read, and what is found of
    its folder itself (:data:`UNREAD` for too many files, :data:`COMPILED`)."""
    if not path.is_dir():
        return [path], [], []
    found: list[str] = []
    files = sorted(p for p in path.rglob("*.py"))
    if len(files) > MOST_FILES:
        found.append(UNREAD)
        files = files[:MOST_FILES]
    if any(p.suffix in _COMPILED_SUFFIXES and "__pycache__" not in p.relative_to(path).parts
           for p in path.rglob("*") if p.suffix in _COMPILED_SUFFIXES):
        found.append(COMPILED)
    extra: list[str] = []
    if is_program(path):
        more, extra = _python_run_by(path)
        files += more
    return files, extra, found


def describe(found: list[str]) -> str:
    """What :func:`borrowed_by` found, as it reads after the agent's name: "imports apdp's own
    apdp.exercises.optimal_plan; runs code its source does not show (...)"."""
    modules = [name for name in found if name.startswith("apdp.")]
    parts = [f"imports apdp's own {', '.join(modules)}"] if modules else []
    return "; ".join(parts + [name for name in found if not name.startswith("apdp.")])


def borrowed_by(path: Path) -> list[str]:
    """:func:`borrowed_solvers` of the agent ``path`` (a file, or every ``.py`` file of a folder agent,
    and what an agent program's command runs with Python), with what its folder holds that apdp
    cannot read; empty for an agent without Python source (a Java agent imports none)."""
    files, code, found = _sources(path)
    sources: list[str | None] = [read_source(f) if f.is_file() else "" for f in files] + list(code)
    for source in sources:
        for name in [UNREAD] if source is None else borrowed_solvers(source):
            if name not in found:
                found.append(name)
    return found
