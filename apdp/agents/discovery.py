"""Finding agents by name among the bundled baselines (``apdp/baselines/``) and ``agents/``, and loading their class.

An agent is a Python file that defines one subclass of :class:`apdp.game.agent.Agent` (or names it in a
module-level ``AGENT``). Its name is the file name without ``.py``; names match in any case with
``-``, ``_`` and spaces ignored (``exp-cost-fixed-bid`` = ``ExpCostFixedBid``). A path to a ``.py``
file is accepted too. A folder with an ``agent.py`` is a Python agent of several modules (its
``agent.py`` defines the agent and imports the rest, which never shadow the standard library or an
installed package), and a folder with an ``agent.toml`` is an agent program in any language (see
:mod:`apdp.agents.program`); both are named after the folder. An agent file sees no other file, not even
those beside it; an agent folder sees its own files. Folders searched: ``$APDP_AGENTS``
(``:``-separated) and ``./agents``: users' agents come from where the user is, never from where apdp
is installed (an editable install's clone holds drafts in its ``agents/``); then the shipped agents,
the baselines and the course's template. A name is never picked between silently:
a user's file that would shadow a shipped agent, or two files with the same name (in the loose
sense above) and different contents, are refused with a line saying which file to rename.

Parent processes only find files; the import happens in the agent's sandboxed process, so a file
that fails to import is a fault of that agent alone.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import inspect
import re
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from apdp.agents.files import agent_hash, is_inside
from apdp.agents.program import PROGRAM_FILE
from apdp.bundled import BUNDLED_AGENTS, BUNDLED_BASELINES, BUNDLED_TEMPLATE
from apdp.bundled import PROJECT_ROOT as PROJECT_ROOT  # where apdp sits: the clone, or site-packages
from apdp.errors import UserError
from apdp.lookup import normalise_name, search_path
from apdp.text import clean_line

if TYPE_CHECKING:
    from apdp.game.agent import Agent
    from apdp.game.exercise_agent import ExerciseAgent

T = TypeVar("T")

# BUNDLED_BASELINES: its agents and those of its subfolders are "shipped"; BUNDLED_TEMPLATE: the
# course's template agent, the other shipped agent (both in the repository or in a wheel).
PARAMS_FILE = "params.toml"
#: The file that makes a folder a Python agent of several modules.
AGENT_MODULE = "agent.py"


class AgentNotFound(UserError):
    """No agent file answers to a name."""


class AgentNameConflict(UserError):
    """A name stands for two different agent files (one of them must be renamed)."""


class AgentNameError(UserError):
    """A file's name cannot be an agent's name (see :data:`_NAME`)."""


class AgentLoadError(Exception):
    """An agent file cannot be imported or defines no usable agent class (raised in the sandbox)."""


@dataclass(frozen=True, slots=True)
class AgentSource:
    """An agent's name and the file that defines it."""

    name: str
    path: Path


def agent_dirs() -> list[Path]:
    """The folders searched for agents, in order: the user's, then the baselines' (the course's
    template, the one other shipped agent, is added by name: its folder is not searched)."""
    return search_path("APDP_AGENTS", [Path.cwd() / "agents", BUNDLED_BASELINES])


def _is_agent_file(path: Path) -> bool:
    return path.suffix == ".py" and not path.name.startswith(("_", "."))


def is_agent_folder(path: Path) -> bool:
    """True for a folder that is an agent: a Python agent (``agent.py``) or an agent program
    (``agent.toml``). A Python package (a folder with ``__init__.py``, such as the baselines'
    ``greedy`` machinery) is a library agents import, never an agent."""
    if not path.is_dir() or (path / "__init__.py").exists():
        return False
    return (path / AGENT_MODULE).is_file() or (path / PROGRAM_FILE).is_file()


#: The longest agent name.
MAX_NAME = 100
#: What an agent's name is made of: ASCII letters and digits, and '-', '.', '+' within. Nothing else,
#: so that no name can pass for another in a table (a Cyrillic o in 'honest', a trailing space)
#: nor break one (a '|' in a markdown table).
_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.+-]*[A-Za-z0-9+])?")


def display_name(path: Path) -> str:
    """An agent's name from its file (``exp_cost_fixed_bid.py`` -> ``exp-cost-fixed-bid``) or from
    its program folder (``agents/my_agent/`` -> ``my-agent``); AgentNameError for a name not made as
    :data:`_NAME` says (names reach terminals, logs, pages and spreadsheets)."""
    name = (path.name if path.is_dir() else path.stem).replace("_", "-")
    if not name or len(name) > MAX_NAME or not _NAME.fullmatch(name):
        shown = name.encode("unicode_escape").decode("ascii")[:MAX_NAME]
        raise AgentNameError(f"{shown!r} ({clean_line(str(path.parent), 200)}) cannot be an agent's name: rename "
                             f"it with ASCII letters, digits, '-', '_', '.' and '+' (at most {MAX_NAME} characters)")
    return name


def check_names_apart(sources: Sequence[AgentSource]) -> None:
    """UserError when two different agents of one match or field have names apdp reads as one
    (``alice_bot`` and ``Alice-Bot``): parameters are found by name, so the one would get the
    other's. The same agent twice (self-play) is one agent."""
    seen: dict[str, AgentSource] = {}
    for source in sources:
        other = seen.setdefault(normalise_name(source.name), source)
        if other.path != source.path:
            raise UserError(f"agents {other.name!r} ({other.path}) and {source.name!r} ({source.path}) have names "
                            "apdp reads as one (case, '-' and '_' aside): rename one of them")


def is_bundled(path: str | Path) -> bool:
    """True for an agent file that ships with apdp: a baseline, or the course's template."""
    resolved = Path(path).resolve()
    return resolved == BUNDLED_TEMPLATE or BUNDLED_BASELINES in resolved.parents


def _candidates(strict: bool = False) -> dict[str, list[AgentSource]]:
    """Every agent file by normalised name, in search order (a file reached twice listed once); a
    file whose name cannot be an agent's is left out, or raises AgentNameError when ``strict``."""
    found: dict[str, list[AgentSource]] = {}
    for folder in agent_dirs():
        marked = {p.parent for p in (*folder.glob(f"*/{PROGRAM_FILE}"), *folder.glob(f"*/{AGENT_MODULE}"))}
        programs = sorted(p for p in marked if is_agent_folder(p))
        shipped = [BUNDLED_TEMPLATE] if folder == BUNDLED_BASELINES and BUNDLED_TEMPLATE.is_file() else []
        for path in sorted(folder.glob("*.py")) + programs + shipped:
            if path.suffix == ".py" and not _is_agent_file(path):
                continue
            try:
                name = display_name(path)
            except AgentNameError:
                if strict:
                    raise
                continue
            same = found.setdefault(normalise_name(path.name if path.is_dir() else path.stem), [])
            if all(s.path != path.resolve() for s in same):
                same.append(AgentSource(name, path.resolve()))
    return found


def _digest(path: Path) -> bytes | None:
    try:
        if path.is_dir():  # an agent program: its files' names and bytes
            return bytes.fromhex(agent_hash(path))
        return hashlib.sha256(path.read_bytes()).digest()
    except OSError:
        return None


def _relative(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _choose(sources: list[AgentSource]) -> AgentSource:
    """The one agent a name stands for; AgentNameConflict when its files differ."""
    if len(sources) > 1 and len({_digest(s.path) for s in sources}) > 1:
        shipped = [s for s in sources if is_bundled(s.path)]
        user = [s for s in sources if not is_bundled(s.path)]
        if shipped and user:
            mine = user[0].path
            raise AgentNameConflict(
                f"{_relative(mine)} would shadow the shipped agent {shipped[0].name!r}; rename it, "
                f"e.g. mv {_relative(mine)} {_relative(mine.with_name('my_' + mine.name))}"
            )
        a, b = sources[0].path, sources[1].path
        raise AgentNameConflict(
            f"{_relative(a)} and {_relative(b)} both play as {sources[0].name!r} (names ignore case, "
            "'-', '_' and spaces); rename one of them"
        )
    shipped = [s for s in sources if is_bundled(s.path)]
    return shipped[0] if shipped else sources[0]  # identical copies of a shipped agent are it


def available_agents() -> list[AgentSource]:
    """Every agent that can be played by name; AgentNameConflict if a name is ambiguous."""
    return [_choose(sources) for sources in _candidates(strict=True).values()]


def find_agent(name: str) -> AgentSource:
    """The agent called ``name`` (or the file at that path); AgentNotFound lists the choices,
    AgentNameConflict says which file to rename when the name is ambiguous."""
    if name.endswith(".py"):
        path = Path(name)
        if not path.is_file():
            raise AgentNotFound(f"agent file {name!r} does not exist")
        return AgentSource(display_name(path), path.resolve())
    if is_agent_folder(Path(name)) and ("/" in name or name.startswith(".")):  # a path to an agent folder
        path = Path(name).resolve()
        return AgentSource(display_name(path), path)
    candidates = _candidates()
    sources = candidates.get(normalise_name(name))
    if sources:
        return _choose(sources)
    names = ", ".join(s[0].name for s in candidates.values())
    raise AgentNotFound(
        f"no agent named {name!r}; available: {names} (or give a path to a .py file)"
    )


def find_exercise_agent(name: str) -> AgentSource:
    """:func:`find_agent` for an exercise's round: the name of an exercise (``reactive``,
    ``deliberative``, ``centralized``) that no agent of the user's bears is that exercise's shipped
    template (``agents/exercises/``), so that a template plays against a user's agent by name."""
    try:
        return find_agent(name)
    except AgentNotFound:
        template = BUNDLED_AGENTS / "exercises" / f"{normalise_name(name)}.py"
        if normalise_name(name) in ("reactive", "deliberative", "centralized") and template.is_file():
            return AgentSource(normalise_name(name), template.resolve())
        raise


def registry_params() -> dict[str, dict[str, Any]]:
    """Per-agent parameters from ``params.toml`` files in the agent folders (first folder wins)."""
    out: dict[str, dict[str, Any]] = {}
    for folder in reversed(agent_dirs()):
        path = folder / PARAMS_FILE
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise UserError(f"{path}: not a valid parameter file ({exc})") from None
        except RecursionError:
            raise UserError(f"{path}: not a valid parameter file (nested too deeply)") from None
        for agent, params in data.items():
            if not isinstance(params, dict):
                raise UserError(f"{path}: [{agent}] must be a table of parameters")
            out.setdefault(agent, {}).update(params)
    return out


class _SourceOnly(importlib.machinery.SourceFileLoader):
    """Runs a module's source, never the bytecode cached beside it: an agent's ``__pycache__`` is not
    part of what its identity hashes, and an unchecked-hash or doctored ``.pyc`` there would run code
    that no one reads in its ``.py``."""

    def get_code(self, fullname: str) -> Any:
        return self.source_to_code(self.get_data(self.path), self.path)


def _source_only_under(folder: str) -> None:
    """Import the modules under ``folder`` from their sources alone (see :class:`_SourceOnly`)."""
    loaders = [(_SourceOnly, importlib.machinery.SOURCE_SUFFIXES),
               (importlib.machinery.ExtensionFileLoader, importlib.machinery.EXTENSION_SUFFIXES),
               (importlib.machinery.SourcelessFileLoader, importlib.machinery.BYTECODE_SUFFIXES)]

    def hook(path: str) -> importlib.machinery.FileFinder:
        if not is_inside(path, folder):
            raise ImportError("not an agent's folder")
        return importlib.machinery.FileFinder(path, *loaders)

    sys.path_hooks.insert(0, hook)
    for cached in [p for p in sys.path_importer_cache if is_inside(p, folder)]:
        del sys.path_importer_cache[cached]


def agent_module_name(path: Path) -> str:
    """The name of the module an agent's file (or folder) is loaded as (in ``sys.modules``)."""
    return f"apdp_agent_{normalise_name(path.name if path.is_dir() else path.stem)}"


def load_agent_class(path: Path) -> type[Agent]:
    """Import an agent (a file, or a folder with ``agent.py``) and return its agent class;
    AgentLoadError says what is wrong.

    A folder agent's folder goes last on ``sys.path``: its modules import one another, and never
    take the place of a module of the standard library or of an installed package."""
    from apdp.game.agent import Agent  # here: finding agents by name needs neither numpy nor pydantic

    module, module_name = import_agent_module(path)
    try:
        return _agent_class(module, module_name, path, Agent, "apdp.Agent")
    except AgentLoadError as exc:
        if "defines no agent" not in str(exc):
            raise
        from apdp.game.exercise_agent import EXERCISE_AGENTS

        for kind, base in EXERCISE_AGENTS.items():
            if any(inspect.isclass(o) and issubclass(o, base) and o is not base for o in vars(module).values()):
                raise AgentLoadError(f"{path}: its agent plays the {kind} exercise, not the auction (play it with "
                                     f"apdp match --exercise {kind}; an auction agent subclasses apdp.Agent)") from None
        raise


def load_exercise_agent_class(path: Path, exercise: str) -> type[ExerciseAgent]:
    """The agent class of ``exercise`` (reactive, deliberative, centralized) that an agent's file
    defines; AgentLoadError says what is wrong (and which exercise its agent plays, if another)."""
    from apdp.game.agent import Agent
    from apdp.game.exercise_agent import EXERCISE_AGENTS

    base = EXERCISE_AGENTS[exercise]  # type: ignore[index]  # one of the three: the referee's
    module, module_name = import_agent_module(path)
    try:
        return _agent_class(module, module_name, path, base, f"apdp.{base.__name__}")
    except AgentLoadError as exc:
        if "defines no agent" not in str(exc):
            raise
        kinds: dict[str, type] = {k: c for k, c in EXERCISE_AGENTS.items() if k != exercise}
        kinds["auction"] = Agent
        for kind, other in kinds.items():
            if any(inspect.isclass(o) and issubclass(o, other) and o is not other for o in vars(module).values()):
                raise AgentLoadError(f"{path}: defines no {exercise} agent (its agent plays the {kind} "
                                     f"game; a {exercise} agent subclasses apdp.{base.__name__})") from None
        raise


def import_agent_module(path: Path) -> tuple[Any, str]:
    """Import an agent's file (or a folder's ``agent.py``): the module and its name; AgentLoadError
    says what is wrong."""
    folder = path if path.is_dir() else None
    module_name = agent_module_name(path)
    if folder is not None:
        path = folder / AGENT_MODULE
        _source_only_under(str(folder))
        if str(folder) not in sys.path:
            sys.path.append(str(folder))
    spec = importlib.util.spec_from_file_location(module_name, path, loader=_SourceOnly(module_name, str(path)))
    if spec is None or spec.loader is None:
        raise AgentLoadError(f"{path}: not an importable Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise AgentLoadError(f"{path}: syntax error at line {exc.lineno}: {exc.msg}") from None
    except ModuleNotFoundError as exc:
        hint = "" if folder is not None else (
            " (an agent file sees no other file: to split an agent into modules, make it a folder "
            f"{path.stem}/ holding agent.py and the modules it imports)")
        raise AgentLoadError(f"{path}: failed to import: {type(exc).__name__}: {exc}{hint}") from exc
    except (MemoryError, RecursionError) as exc:
        raise AgentLoadError(
            f"{path}: failed to import: {type(exc).__name__}: the code is nested too deeply to compile, or its "
            "import ran out of memory or recursion depth"
        ) from None
    except BaseException as exc:  # the agent's module raised while importing
        raise AgentLoadError(
            f"{path}: failed to import: {type(exc).__name__}: {exc}"
        ) from exc
    return module, module_name


def _agent_class(module: Any, module_name: str, path: Path, base: type[T], shown: str) -> type[T]:
    """The one subclass of ``base`` (``shown``: its public name) that ``module`` defines, or names as
    ``AGENT``; AgentLoadError otherwise."""
    chosen = getattr(module, "AGENT", None)
    if chosen is not None:
        if not (inspect.isclass(chosen) and issubclass(chosen, base)):
            raise AgentLoadError(f"{path}: AGENT must be a subclass of {shown}")
        return chosen
    classes = [
        obj
        for obj in vars(module).values()
        if inspect.isclass(obj)
        and issubclass(obj, base)
        and obj is not base
        and obj.__module__ == module_name
        and not inspect.isabstract(obj)
    ]
    if not classes:
        raise AgentLoadError(
            f"{path}: defines no agent; add a class that subclasses {shown}"
        )
    if len(classes) > 1:
        names = ", ".join(c.__name__ for c in classes)
        raise AgentLoadError(
            f"{path}: defines several agents ({names}); set AGENT = TheOne at module level"
        )
    return classes[0]
