"""The names of installed Logist agents, and which install may take one.

An installed agent is never replaced by another one: a name already taken (by a folder, a Python
agent, a shipped agent, or an agent whose name differs only in case or separators) is refused in one
line naming the folder it belongs to and how to choose another. Only two installs may take the
folder ``agents/NAME``: one from the very same source as the Logist agent apdp installed there (the
folder, jar or project recorded in its ``agent.toml``: an update), and one asked for with
``--replace``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from apdp.agents.discovery import AgentNameConflict, AgentNotFound, find_agent, is_agent_folder
from apdp.agents.program import PROGRAM_FILE, read_regular
from apdp.errors import UserError
from apdp.lookup import normalise_name

#: The first line of an agent.toml written by apdp logist: such a folder may be replaced by a new
#: install from the same source, or with ``--replace``.
MARKER = "# apdp logist agent"
#: The line of agent.toml that records what it was installed from (a JSON string: an absolute path).
SOURCE_MARK = "# installed from: "
#: The line of agent.toml that records the agent's kind: auction, reactive, deliberative or centralized.
BEHAVIOR_MARK = "# logist behaviour: "
#: The kinds of Logist agent (``AgentImpl.Type``'s, in lower case).
KINDS = ("reactive", "deliberative", "centralized", "auction")
#: How much of an installed agent.toml is read to tell whose it is.
_MOST_TOML = 64 * 1024
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
#: How ``apdp logist add`` tells a user to choose another name.
BY_NAME = "choose another with --name NAME"


class NameTaken(UserError):
    """The name an install would take is another agent's (one line: whose, and how to choose another)."""


def default_name(class_name: str) -> str:
    """An agent name from a class name: ``template.AuctionAgent`` -> ``auction-agent``."""
    simple = class_name.rsplit(".", 1)[-1]
    kebab = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1-\2", simple)
    kebab = re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", kebab).lower()
    return agent_name(kebab)


def agent_name(name: str) -> str:
    """``name`` made a valid agent name (letters, digits, ``-``, ``_``; a letter first)."""
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "-", name.strip()).strip("-_")
    if cleaned and not cleaned[0].isalpha():
        cleaned = "agent-" + cleaned
    if not _NAME.match(cleaned):
        raise UserError(f"cannot make an agent name of {name!r}; give one with --name")
    return cleaned


def source_line(source: str) -> str:
    """The agent.toml line that records the source an agent was installed from."""
    return SOURCE_MARK + json.dumps(source, ensure_ascii=False)


def behavior_line(behavior: str) -> str:
    """The agent.toml line that records an agent's kind (one of :data:`KINDS`)."""
    if behavior not in KINDS:
        raise ValueError(f"no kind of Logist agent {behavior!r}")
    return BEHAVIOR_MARK + behavior


def installed_behavior(folder: Path) -> str | None:
    """The kind of the Logist agent apdp installed in ``folder`` (auction, reactive, deliberative or
    centralized: the exercise it plays); None when ``folder`` holds none. An agent installed before apdp
    recorded kinds, or whose sources are compiled at its first match, says auction."""
    text = _agent_toml(folder)
    if text is None:
        return None
    for line in text.splitlines():
        if line.startswith(BEHAVIOR_MARK) and line[len(BEHAVIOR_MARK):].strip() in KINDS:
            return line[len(BEHAVIOR_MARK):].strip()
    return "auction"


def _agent_toml(folder: Path) -> str | None:
    """The head of ``folder``'s agent.toml when apdp logist wrote it (None otherwise), read without
    following a link."""
    try:
        text = read_regular(folder / PROGRAM_FILE, _MOST_TOML)[:_MOST_TOML].decode("utf-8", "replace")
    except OSError:
        return None
    return text if text.startswith(MARKER) else None


def installed_from(folder: Path) -> tuple[bool, str | None]:
    """Whether ``folder`` holds a Logist agent apdp installed, and the source it recorded (None for an
    install that recorded none: a generated agent, or one installed before apdp recorded sources).
    At most a few kB of its agent.toml are read, without following a link."""
    text = _agent_toml(folder)
    if text is None:
        return False, None
    for line in text.splitlines():
        if line.startswith(SOURCE_MARK):
            try:
                recorded = json.loads(line[len(SOURCE_MARK):])
            except ValueError:
                return True, None
            return True, recorded if isinstance(recorded, str) else None
    return True, None


def _loose_namesake(agents_dir: Path, name: str) -> Path | None:
    """An agent of ``agents_dir`` whose name is ``name`` in the loose sense of agent names (case and
    separators aside) but is spelt otherwise: both would answer to the same name."""
    wanted = normalise_name(name)
    try:
        entries = list(os.scandir(agents_dir))
    except OSError:
        return None
    for entry in entries:
        stem = entry.name[:-3] if entry.name.endswith(".py") else entry.name
        if normalise_name(stem) != wanted:
            continue
        path = Path(entry.path)
        if (path.suffix == ".py" and path.is_file()) or is_agent_folder(path):
            return path
    return None


def target_folder(agents_dir: Path, name: str, *, source: str | None, replace: bool, rename: str = BY_NAME) -> Path:
    """The folder agent ``name`` installs to. Refused (:class:`NameTaken`, ``rename`` saying how to
    choose another name) when the name is another agent's, unless its folder is ``agents_dir/name``
    and either holds a Logist agent apdp installed from ``source`` (an update) or ``replace`` is
    asked for. A name that another folder, file or shipped agent answers to is always refused."""
    target = agents_dir / name
    if target.exists() or target.is_symlink():
        if replace:
            return target
        ours, recorded = installed_from(target)
        if not ours:
            raise NameTaken(f"the name {name!r} is taken: {target} exists and is not a Logist agent installed by "
                            f"apdp; {rename}, or remove it")
        if source is not None and recorded == source:
            return target
        whence = f"installed from {recorded}" if recorded else "installed from a source apdp did not record"
        raise NameTaken(f"the name {name!r} is taken by the agent in {target} ({whence}); {rename}, or pass "
                        "--replace to replace it")
    namesake = _loose_namesake(agents_dir, name)
    if namesake is not None:
        raise NameTaken(f"the name {name!r} is taken: {namesake} answers to it; {rename}")
    try:
        other = find_agent(name)
    except AgentNotFound:
        return target
    except AgentNameConflict as exc:
        raise NameTaken(f"the name {name!r} is taken ({exc}); {rename}") from None
    raise NameTaken(f"an agent named {name!r} already exists ({other.path}); {rename}")
