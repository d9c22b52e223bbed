"""Finding agents by name among ``baselines/`` and ``agents/``, and loading their class.

An agent is a Python file that defines one subclass of :class:`apdp.agent.Agent` (or names it in a
module-level ``AGENT``). Its name is the file name without ``.py``; names match in any case with
``-``, ``_`` and spaces ignored (``exp-cost-fixed-bid`` = ``ExpCostFixedBid``). A path to a ``.py``
file is accepted too. Folders searched, first match wins: ``$APDP_AGENTS`` (``:``-separated),
``./agents``, then the ``baselines/`` and ``agents/`` folders that ship with apdp.

Parent processes only find files; the import happens in the agent's sandboxed process, so a file
that fails to import is a fault of that agent alone.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from apdp.agent import Agent
from apdp.errors import UserError
from apdp.lookup import normalise_name, search_path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
PARAMS_FILE = "params.toml"


class AgentNotFound(UserError):
    """No agent file answers to a name."""


class AgentLoadError(Exception):
    """An agent file cannot be imported or defines no usable agent class (raised in the sandbox)."""


@dataclass(frozen=True, slots=True)
class AgentSource:
    """An agent's name and the file that defines it."""

    name: str
    path: Path


def agent_dirs() -> list[Path]:
    """The folders searched for agents, in order."""
    return search_path("APDP_AGENTS", [Path.cwd() / "agents", PROJECT_ROOT / "baselines", PROJECT_ROOT / "agents"])


def _is_agent_file(path: Path) -> bool:
    return path.suffix == ".py" and not path.name.startswith(("_", "."))


def display_name(path: Path) -> str:
    """An agent's name from its file: ``exp_cost_fixed_bid.py`` -> ``exp-cost-fixed-bid``."""
    return path.stem.replace("_", "-")


def available_agents() -> list[AgentSource]:
    """Every agent that can be played by name, first of each name only."""
    seen: dict[str, AgentSource] = {}
    for folder in agent_dirs():
        for path in sorted(folder.glob("*.py")):
            key = normalise_name(path.stem)
            if _is_agent_file(path) and key not in seen:
                seen[key] = AgentSource(display_name(path), path.resolve())
    return list(seen.values())


def find_agent(name: str) -> AgentSource:
    """The agent called ``name`` (or the file at that path); AgentNotFound lists the choices."""
    if name.endswith(".py"):
        path = Path(name)
        if not path.is_file():
            raise AgentNotFound(f"agent file {name!r} does not exist")
        return AgentSource(display_name(path), path.resolve())
    key = normalise_name(name)
    for source in available_agents():
        if normalise_name(source.name) == key:
            return source
    names = ", ".join(s.name for s in available_agents())
    raise AgentNotFound(
        f"no agent named {name!r}; available: {names} (or give a path to a .py file)"
    )


def registry_params() -> dict[str, dict[str, Any]]:
    """Per-agent parameters from ``params.toml`` files in the agent folders (first folder wins)."""
    out: dict[str, dict[str, Any]] = {}
    for folder in reversed(agent_dirs()):
        path = folder / PARAMS_FILE
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise UserError(f"{path}: not a valid parameter file ({exc})") from None
        for agent, params in data.items():
            if not isinstance(params, dict):
                raise UserError(f"{path}: [{agent}] must be a table of parameters")
            out.setdefault(agent, {}).update(params)
    return out


def load_agent_class(path: Path) -> type[Agent]:
    """Import an agent file and return its agent class (AgentLoadError says what is wrong)."""
    module_name = f"apdp_agent_{normalise_name(path.stem)}"
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise AgentLoadError(f"{path}: not an importable Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        raise AgentLoadError(f"{path}: syntax error at line {exc.lineno}: {exc.msg}") from None
    except BaseException as exc:  # the agent's module raised while importing
        raise AgentLoadError(
            f"{path}: failed to import: {type(exc).__name__}: {exc}"
        ) from exc
    chosen = getattr(module, "AGENT", None)
    if chosen is not None:
        if not (inspect.isclass(chosen) and issubclass(chosen, Agent)):
            raise AgentLoadError(f"{path}: AGENT must be a subclass of apdp.Agent")
        return chosen
    classes = [
        obj
        for obj in vars(module).values()
        if inspect.isclass(obj)
        and issubclass(obj, Agent)
        and obj is not Agent
        and obj.__module__ == module_name
        and not inspect.isabstract(obj)
    ]
    if not classes:
        raise AgentLoadError(
            f"{path}: defines no agent; add a class that subclasses apdp.Agent"
        )
    if len(classes) > 1:
        names = ", ".join(c.__name__ for c in classes)
        raise AgentLoadError(
            f"{path}: defines several agents ({names}); set AGENT = TheOne at module level"
        )
    return classes[0]
