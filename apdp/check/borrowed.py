"""Which of apdp's own solvers an exercise agent imports: the references it is scored against (the
exact search, value iteration, the planner, the scores), which an agent that borrows them does not
solve the exercise itself.

Read from the agent's source as Python reads it (its coding declaration, any line ends, names as
Python normalises them): every ``.py`` file of a folder agent, and what an agent program's command
runs with Python. Imports are read from the syntax tree (every ``import``, ``from ... import`` and
call of ``import_module`` or ``__import__`` with written-out names, relative ones resolved), and so
are module names written out as strings; comments and docstrings say nothing. What apdp cannot read
from the source counts as borrowing, each named once in the list:

- :data:`COMPUTED`: code that runs code the source does not show: an import by a computed name (or
  an importer passed on under another name), the built-in ``exec``, ``eval``, ``compile``,
  ``globals`` or ``__builtins__`` (told apart from the agent's own names by their scopes), ``runpy``,
  loaders, code objects, pickles and ``marshal`` (a pickle imports by name), ``ctypes``,
  ``subprocess``, ``os.system`` and ``os.exec*`` (a process of its own), ``sys.modules``, a changed
  ``sys.path``, a function's ``__globals__`` or ``__code__``, a class's ``__subclasses__``;
- :data:`COMPILED`: compiled code in a folder agent (a ``.pyc`` beside its sources, an extension
  module), which Python imports and no one reads;
- :data:`UNREAD`: a folder of more files than :data:`MOST_FILES`, or a source larger than
  :data:`MOST_TOKENS_READ`.

A source larger than apdp parses (:data:`apdp.agents.source.MAX_PARSED_BYTES`: a parse takes memory
many times a source's size) is read by its tokens instead, as they come, and more strictly: those
names count wherever they are not an attribute or a definition.

The check of a generated agent counts a borrowed solver as a problem, and a field marks the agent.
It reads what an agent's source says, it does not confine it: apdp's modules stay importable, as the
agent API is, and code copied from them into the agent's own file is the agent's own to the check.
"""

from __future__ import annotations

import ast
import io
import re
import symtable
import tokenize
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path

from apdp.agents.program import ProgramError, is_program, read_program
from apdp.agents.source import MAX_PARSED_BYTES, parsed, read_python_source

#: apdp's modules that solve an exercise or score it (and everything under them).
SOLVERS = ("apdp.exercises", "apdp.baselines", "apdp.check", "apdp.tournament", "apdp.analysis")
#: What an agent may import from under them: the course's topology helper and the naive plan the
#: templates use are the course's own, given to students.
ALLOWED = ("apdp.exercises.topology", "apdp.exercises.naive_plan")
#: How code apdp cannot read, compiled code, and a source not read are named in the list (each
#: reads after the agent's name: "AGENT runs code ...").
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

#: Built-in names that run code the source does not show (or reach what does).
_CODE_BUILTINS = frozenset({"exec", "eval", "compile", "globals", "__builtins__", "breakpoint"})
#: Modules whose import alone means code the source does not show.
_CODE_MODULES = frozenset({
    "builtins", "runpy", "marshal", "pickle", "_pickle", "cPickle", "dill", "cloudpickle", "shelve", "copyreg",
    "zipimport", "pkgutil", "ctypes", "cffi", "subprocess", "importlib.util", "importlib.machinery", "importlib.abc",
    "code", "codeop",
})
#: What ``importlib`` holds that reads no code: the importer of a written-out name, metadata, resources.
_IMPORTLIB_READABLE = frozenset({"import_module", "metadata", "resources"})
#: Attributes that lead to code or to the builtins, whatever they are read on.
_CODE_ATTRIBUTES = frozenset({
    "__globals__", "__code__", "__subclasses__", "__builtins__", "__loader__", "__spec__", "CodeType", "FunctionType",
    "spec_from_file_location", "spec_from_loader", "module_from_spec", "exec_module", "load_module",
    "SourceFileLoader", "SourcelessFileLoader", "ExtensionFileLoader",
})
#: ``os``'s functions that start a program (``os.system``, ``from os import execv``).
_OS_RUNS = frozenset({
    "system", "popen", "execv", "execve", "execvp", "execvpe", "execl", "execle", "execlp", "execlpe",
    "spawnv", "spawnve", "spawnvp", "spawnvpe", "spawnl", "spawnle", "spawnlp", "spawnlpe", "posix_spawn",
    "posix_spawnp", "startfile", "fork", "forkpty",
})
#: The largest source read by its tokens (characters): a second or two of reading; a larger one is
#: :data:`UNREAD` (an agent's data belongs in a data file, which no one runs).
MOST_TOKENS_READ = 1 << 20
#: The most tokens of an import's list, and names of a statement's start, a token reading keeps.
MOST_LISTED = 4096
#: Calls that import the module a string names: readable when that string is written out.
_IMPORTERS = frozenset({"import_module", "__import__"})
_SYS_PATH_CHANGES = frozenset({"insert", "append", "extend", "remove", "pop", "clear", "__setitem__", "__iadd__"})
_MODULE_NAME = re.compile(r"apdp(?:\.\w+)+")
_PYTHON = re.compile(r"python[\d.]*")


def _solver(name: str) -> bool:
    return any(name == s or name.startswith(s + ".") for s in SOLVERS) and not any(
        name == a or name.startswith(a + ".") for a in ALLOWED)


def _resolved(name: str, package: str | None) -> str:
    """A module name as ``import_module(name, package)`` resolves it (``.x`` under ``package``)."""
    if not name.startswith(".") or not package:
        return name
    dots = len(name) - len(name.lstrip("."))
    base = package.rsplit(".", dots - 1)[0] if dots > 1 else package
    return f"{base}.{name[dots:]}" if name[dots:] else base


class _Reading:
    """What one source shows: the modules it names, and whether it runs code it does not show."""

    def __init__(self) -> None:
        self.modules: list[str] = []
        self.unread = False

    def module(self, name: str) -> None:
        self.modules.append(name)
        if name in _CODE_MODULES or any(name.startswith(m + ".") for m in _CODE_MODULES):
            self.unread = True


# -- a source Python would parse: its syntax tree and scopes -------------------------------------------


def _read_tree(tree: ast.Module, source: str) -> _Reading:
    reading = _Reading()
    aliases = _aliases(tree)
    calls = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                reading.module(alias.name)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            _from_import(reading, node.module, [a.name for a in node.names])
        elif isinstance(node, ast.Call) and (called := _importer(node.func, aliases)):
            _importer_call(reading, node, called)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _MODULE_NAME.fullmatch(node.value):
            reading.modules.append(node.value)
        elif isinstance(node, ast.Attribute):
            reading.unread |= _attribute_runs(node, aliases, id(node) in calls)
        elif isinstance(node, ast.Name) and _importer(node, aliases) and id(node) not in calls:
            reading.unread = True  # an importer passed on under another name
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            reading.unread |= any(_is_sys_path(_subscripted(t), aliases) for t in targets)
    reading.unread |= _uses_code_builtins(source)
    return reading


def _aliases(tree: ast.Module) -> dict[str, str]:
    """The names the imports of ``tree`` bind, each to what it names (``np`` -> ``numpy``,
    ``im`` -> ``importlib.import_module``); wherever the import is, as a name's scope is not read here."""
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]  # `import a.b` binds a; `import a.b as c` binds c to a.b
                aliases[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


def _from_import(reading: _Reading, module: str, names: list[str]) -> None:
    """``from module import names``: the modules it names, and whether it imports code runners."""
    if module in _PACKAGES or module == "apdp":  # from a package: each imported name may be a module
        reading.modules += [f"{module}.{n}" for n in names]
    else:
        reading.module(module)
    if module == "os" and any(n in _OS_RUNS for n in names):
        reading.unread = True
    if module == "importlib" and any(n not in _IMPORTLIB_READABLE for n in names):
        reading.unread = True
    if module == "types" and any(n in ("CodeType", "FunctionType") for n in names):
        reading.unread = True
    for name in names:
        if f"{module}.{name}" in _CODE_MODULES:
            reading.unread = True


#: What an importer's name may stand for, by the imports' aliases.
_IMPORTER_TARGETS = {"importlib.import_module": "import_module", "builtins.__import__": "__import__"}


def _importer(func: ast.expr, aliases: dict[str, str]) -> str:
    """Which importer ``func`` is (``import_module`` or ``__import__``, under any name an import gave
    it), or ""."""
    if isinstance(func, ast.Name):
        return func.id if func.id in _IMPORTERS else _IMPORTER_TARGETS.get(aliases.get(func.id, ""), "")
    if isinstance(func, ast.Attribute) and func.attr in _IMPORTERS:
        return func.attr
    return ""


def _importer_call(reading: _Reading, call: ast.Call, called: str) -> None:
    """``import_module(name[, package])`` or ``__import__(name, ...)``: the module it names when the
    names are written out; code it does not show otherwise."""
    values = [a.value if isinstance(a, ast.Constant) else None for a in call.args]
    name = values[0] if values else None
    package = values[1] if called == "import_module" and len(values) > 1 else None
    if not isinstance(name, str) or call.keywords or (
            called == "import_module" and len(values) > 1 and not isinstance(package, str)):
        reading.unread = True
        return
    reading.modules.append(_resolved(name, package if isinstance(package, str) else None))


def _attribute_runs(node: ast.Attribute, aliases: dict[str, str], called: bool) -> bool:
    """Whether ``node`` (an attribute read) leads to code the source does not show."""
    if node.attr in _CODE_ATTRIBUTES or (node.attr in _IMPORTERS and not called):
        return True  # (an importer passed on under another name)
    owner = _dotted(node.value, aliases)
    if owner == "os" and node.attr in _OS_RUNS:
        return True
    if owner == "importlib" and node.attr not in _IMPORTLIB_READABLE:
        return True
    if owner == "sys" and node.attr == "modules":
        return True
    return called and node.attr in _SYS_PATH_CHANGES and _is_sys_path(node.value, aliases)


def _dotted(node: ast.expr, aliases: dict[str, str]) -> str | None:
    """The module an expression names (``os``, ``importlib``, ``sys.path``), by the imports' aliases."""
    if isinstance(node, ast.Name):
        return aliases.get(node.id)
    if isinstance(node, ast.Attribute):
        owner = _dotted(node.value, aliases)
        return None if owner is None else f"{owner}.{node.attr}"
    return None


def _subscripted(node: ast.expr) -> ast.expr:
    return node.value if isinstance(node, ast.Subscript) else node


def _is_sys_path(node: ast.expr, aliases: dict[str, str]) -> bool:
    return _dotted(node, aliases) == "sys.path"


def _uses_code_builtins(source: str) -> bool:
    """Whether a scope of ``source`` reads one of :data:`_CODE_BUILTINS` as the built-in (not a name
    of the agent's own: a method ``eval``, a parameter ``globals``, ``from re import compile``)."""
    try:
        top = symtable.symtable(source, "<agent>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    bound = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported() or s.is_namespace()}
    return any(_reads_builtin(table, bound, table is top) for table in _tables(top))


def _tables(table: symtable.SymbolTable) -> Iterator[symtable.SymbolTable]:
    yield table
    for child in table.get_children():
        yield from _tables(child)


def _reads_builtin(table: symtable.SymbolTable, bound: set[str], top: bool) -> bool:
    for symbol in table.get_symbols():
        name = symbol.get_name()
        if name not in _CODE_BUILTINS or not symbol.is_referenced():
            continue
        if top:
            if name not in bound:
                return True
        elif not (symbol.is_local() or symbol.is_parameter() or symbol.is_free()) and name not in bound:
            return True
    return False


# -- a source too large to parse: its tokens --------------------------------------------------------


def _read_tokens(source: str) -> _Reading:
    """What a source too large to parse shows, read token by token as they come (see the module's
    text): memory of a statement's first names and an import's list, not of the source."""
    reading = _Reading()
    statement: list[str] = []  # the first names of the current statement
    listed: list[tokenize.TokenInfo] | None = None  # an import's list, once its `import` is read
    head: list[str] = []  # the names before that `import` (`from a.b`)
    previous = ""
    for token in _tokens(source):
        if token.type == tokenize.NEWLINE or token.string in (";", ":"):
            if listed is not None:
                _token_import(reading, head, listed)
            statement, listed, previous = [], None, ""
            continue
        if listed is not None:
            if len(listed) < MOST_LISTED:
                listed.append(token)
            continue
        if token.type == tokenize.STRING and _MODULE_NAME.fullmatch(token.string.strip("'\"rbuRBU")):
            reading.modules.append(token.string.strip("'\"rbuRBU"))
        if token.type == tokenize.NAME:
            name = unicodedata.normalize("NFKC", token.string)
            if len(statement) < MOST_LISTED:
                statement.append(name)
            if name == "import":
                head, listed = statement[:-1], []
            elif previous == ".":
                reading.unread |= name in _CODE_ATTRIBUTES | _OS_RUNS | {"modules"}
            elif previous not in ("def", "class") and statement[:1] != ["from"] and (
                    name in _CODE_BUILTINS or name in _IMPORTERS):
                reading.unread = True
        previous = token.string
    if listed is not None:
        _token_import(reading, head, listed)
    return reading


def _token_import(reading: _Reading, head: list[str], listed: list[tokenize.TokenInfo]) -> None:
    """An import statement read by tokens: ``head`` the names before its ``import`` (``from a.b``),
    ``listed`` the tokens after it."""
    names = _dotted_names(listed)
    if head[:1] == ["from"]:
        if len(head) > 1:
            _from_import(reading, ".".join(head[1:]), [n.split(".")[0] for n in names])
    else:
        for name in names:
            reading.module(name)


def _dotted_names(tokens: Iterable[tokenize.TokenInfo]) -> list[str]:
    """The dotted names of an import statement's list (``a.b as c, d``), up to its end."""
    names: list[str] = []
    current: list[str] = []
    skip = False
    for token in tokens:
        if token.type == tokenize.NEWLINE or token.string in (";", ":"):
            break
        if token.type == tokenize.NAME:
            word = unicodedata.normalize("NFKC", token.string)
            if word == "as":
                skip = True
            elif not skip:
                current.append(word)
        elif token.string == ",":
            names.append(".".join(current))
            current, skip = [], False
    if current:
        names.append(".".join(current))
    return [n for n in names if n]


def _tokens(source: str) -> Iterator[tokenize.TokenInfo]:
    """The tokens of ``source`` that carry meaning (no comments, indents or blank lines; the end of
    each statement kept); none past the first that does not tokenize (such a file cannot be
    imported: what comes after runs nowhere)."""
    skipped = {tokenize.COMMENT, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING, tokenize.ENDMARKER}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type not in skipped:
                yield token
    except (tokenize.TokenError, SyntaxError, ValueError, RecursionError, MemoryError):
        return


# -- an agent's sources ----------------------------------------------------------------------------


def borrowed_solvers(source: str) -> list[str]:
    """The solver modules ``source`` (an agent's Python, decoded) names, each once, in the order it
    names them, and :data:`COMPUTED` first for code it runs that it does not show."""
    if len(source) > MOST_TOKENS_READ:
        return [UNREAD]
    tree = parsed(source) if len(source) <= MAX_PARSED_BYTES else None
    if tree is None and len(source) <= MAX_PARSED_BYTES:
        return []  # it does not parse: Python cannot import it, and nothing of it runs
    reading = _read_tree(tree, source) if tree is not None else _read_tokens(source)
    found: list[str] = [COMPUTED] if reading.unread else []
    for name in reading.modules:
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
    files = sorted(path.rglob("*.py"))
    if len(files) > MOST_FILES:
        found.append(UNREAD)
        files = files[:MOST_FILES]
    if any("__pycache__" not in p.relative_to(path).parts for p in path.rglob("*") if p.suffix in _COMPILED_SUFFIXES):
        found.append(COMPILED)
    code: list[str] = []
    if is_program(path):
        more, code = _python_run_by(path)
        files += more
    return files, code, found


def borrowed_by(path: Path) -> list[str]:
    """:func:`borrowed_solvers` of the agent ``path`` (a file, or every ``.py`` file of a folder agent,
    and what an agent program's command runs with Python), with what its folder holds that apdp
    cannot read; empty for an agent without Python source (a Java agent imports none)."""
    files, code, found = _sources(path)
    for source in [read_python_source(f) for f in files] + code:
        for name in [UNREAD] if source is None else borrowed_solvers(source):
            if name not in found:
                found.append(name)
    return found


def describe(found: list[str]) -> str:
    """What :func:`borrowed_by` found, as it reads after the agent's name: "imports apdp's own
    apdp.exercises.optimal_plan; runs code its source does not show (...)"."""
    modules = [name for name in found if name.startswith("apdp.")]
    parts = [f"imports apdp's own {', '.join(modules)}"] if modules else []
    return "; ".join(parts + [name for name in found if not name.startswith("apdp.")])
