"""The parent of an improved agent (``--strategy improve``, ``apdp codegen evolve``): any agent apdp can
play whose source a model can read, a Python agent file or a Java agent folder with its sources.

Its source is read through :func:`apdp.agents.files.agent_files` (regular files of the agent only,
never through a link out of its folder) and capped at :data:`MAX_SOURCE_BYTES`, since it goes into a
prompt. The parent's identity in a child's provenance is its name and its
:func:`~apdp.agents.files.agent_hash`, the hash tournaments store for every agent, so that a report
finds the parent among the agents that played.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from apdp.agents.discovery import find_agent
from apdp.agents.files import agent_files, agent_hash, read_agent_file
from apdp.agents.java.install import MARKER
from apdp.agents.program import PROGRAM_FILE
from apdp.agents.provenance import strip_header
from apdp.errors import UserError

#: The most source a parent may send to a model (its files together).
MAX_SOURCE_BYTES = 256 * 1024


@dataclass(frozen=True, slots=True)
class Parent:
    """An agent to improve: its name, file or folder, language, source (as sent to the model) and hash."""

    name: str
    path: Path
    language: str
    source: str
    sha256: str

    def lineage(self) -> dict[str, str]:
        """The provenance fields naming this parent (``parent``, ``parent_sha256``)."""
        return {"parent": self.name, "parent_sha256": self.sha256}


def _text(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{path}: the parent's source is not UTF-8 text; a model can only read text") from None


def _java_source(folder: Path) -> str:
    """The Java sources of a Java agent apdp installed (``src/``), each file introduced by its path
    when there are several; UserError for another agent folder."""
    files = agent_files(folder)
    program = next((f for f in files if f.relative == PROGRAM_FILE and f.size < 64 * 1024), None)
    if program is None or not read_agent_file(program).startswith(MARKER.encode()):
        raise UserError(f"{folder}: improve takes a Python agent file or a Java agent (apdp logist add); "
                        "this agent folder is neither")
    sources = [f for f in files if f.relative.startswith("src/") and f.relative.endswith(".java")]
    if not sources:
        raise UserError(f"{folder}: the Java agent has no sources (installed from classes or a jar); "
                        "improve needs an agent installed from its .java files")
    _cap(sum(f.size for f in sources), folder)
    if len(sources) == 1:
        return _text(read_agent_file(sources[0]), sources[0].path)
    return "\n".join(f"// ---- file {f.relative} ----\n" + _text(read_agent_file(f), f.path) for f in sources)


def _cap(size: int, path: Path) -> None:
    if size > MAX_SOURCE_BYTES:
        raise UserError(f"{path}: the parent's source is {size} bytes, more than a prompt takes "
                        f"({MAX_SOURCE_BYTES} at most); choose a smaller agent")


def read_parent(agent: str) -> Parent:
    """The agent ``agent`` (a name or a path, as ``apdp match`` takes it) as a parent; UserError (one
    line) for an agent whose source cannot be given to a model: a folder agent other than a Java
    agent with sources, a file too large, or not text."""
    source = find_agent(agent)
    path = source.path
    if path.is_dir():
        return Parent(source.name, path, "java", _java_source(path), agent_hash(path))
    (file,) = agent_files(path)  # a regular file (AgentFilesError, one line, otherwise)
    _cap(file.size, path)
    code = strip_header(_text(read_agent_file(file), path))
    return Parent(source.name, path, "python", code, agent_hash(path))

