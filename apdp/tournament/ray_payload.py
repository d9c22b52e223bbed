"""What a match needs on a machine that shares no files with the run's parent, and its unpacking there.

The parent packs, once per run: each agent's files as a :class:`Bundle` named by the SHA-256 of its
content (an agent file alone; an agent folder without its build output), the networks the tournament
plays (as the parent loaded them, and what their names load there, so that a record embeds a network
exactly when it would locally), the agents' parameter files and their identities. A worker writes
each bundle once into its cache folder (:func:`cache_root`, one sub-folder per hash, made atomically,
so concurrent workers and nodes sharing a home folder agree), then plays by path, as on one machine:
the same records.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apdp.agents.files import agent_files, read_agent_file

#: Marks a cache folder whose every file was written.
_COMPLETE = ".complete"


@dataclass(frozen=True)
class Bundle:
    """The files of one folder, named by the SHA-256 of their paths, modes and bytes."""

    sha256: str
    #: (path relative to the folder, permission bits, bytes), in path order
    files: tuple[tuple[str, int, bytes], ...] = field(repr=False)


def _digest(files: tuple[tuple[str, int, bytes], ...]) -> str:
    h = hashlib.sha256()
    for rel, mode, data in files:
        h.update(f"{rel}\0{mode:o}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def make_bundle(files: Mapping[str, tuple[int, bytes]]) -> Bundle:
    """A bundle of ``files`` (relative path -> (mode, bytes))."""
    ordered = tuple((rel, mode, data) for rel, (mode, data) in sorted(files.items()))
    return Bundle(_digest(ordered), ordered)


def pack_agent(path: str | Path) -> tuple[Bundle, str]:
    """The bundle that carries the agent at ``path``, and the agent's path inside it.

    An agent folder ships as its folder, its build output aside (a worker builds it again); an agent
    file ships alone (it sees no other file). Only regular files ship
    (:func:`apdp.agents.files.agent_files`: AgentFilesError for a link out of the folder, a FIFO, ...).
    """
    path = Path(path)
    if path.is_dir():
        files = {str(Path(path.name) / f.relative): (f.mode, read_agent_file(f)) for f in agent_files(path)}
        return make_bundle(files), path.name
    (file,) = agent_files(path)
    return make_bundle({path.name: (file.mode, read_agent_file(file))}), path.name


def cache_root() -> Path:
    """Where a worker keeps the files sent to it: ``$APDP_CACHE``, else ``$XDG_CACHE_HOME/apdp``, else
    ``~/.cache/apdp``; bundles go in its ``sent/`` folder."""
    explicit = os.environ.get("APDP_CACHE")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "apdp"


def unpack(sha256: str, fetch: Callable[[], Bundle], root: Path | None = None) -> Path:
    """The folder holding bundle ``sha256``, written from ``fetch()`` unless already there.

    A bundle whose content does not match its name is refused (ValueError), never written.
    """
    folder = (root or cache_root()) / "sent" / sha256
    if (folder / _COMPLETE).is_file():
        return folder
    bundle = fetch()
    if bundle.sha256 != sha256 or _digest(bundle.files) != sha256:
        raise ValueError(f"sent files {sha256[:12]}: their content does not match their hash")
    folder.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    staging = Path(tempfile.mkdtemp(prefix=f".{sha256[:12]}-", dir=folder.parent))
    try:
        for rel, mode, data in bundle.files:
            target = staging / rel
            if ".." in Path(rel).parts or Path(rel).is_absolute():
                raise ValueError(f"sent files {sha256[:12]}: a path leaves the folder: {rel!r}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            target.chmod(mode & 0o755)
        (staging / _COMPLETE).touch()
        try:
            staging.rename(folder)
        except OSError:  # another worker made it meanwhile: theirs is the same
            if not (folder / _COMPLETE).is_file():
                raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return folder


@dataclass(frozen=True)
class SentAgent:
    """One agent of the field as the parent resolved it: its bundle's hash, its path inside the
    bundle, and its identity (:mod:`apdp.agents.identity`)."""

    sha256: str
    entry: str
    identity: dict[str, Any]


@dataclass(frozen=True)
class Networks:
    """The networks of a tournament as the parent loaded them: by every name a match looks them up
    with (a name or a path of the configuration, and each network's own name); None where a name
    loads nothing in the parent."""

    by_name: dict[str, Any] = field(default_factory=dict)

    def install(self) -> None:
        """Make this process load these networks by those names (:func:`apdp.scenario.networks.remember_topology`)."""
        from apdp.scenario.networks import remember_topology

        for name, topology in self.by_name.items():
            remember_topology(name, topology)


def networks_of(topologies: tuple[str, ...]) -> Networks:
    """The parent's networks for the configuration's ``topologies`` (names or paths)."""
    from apdp.game.topology import TopologyError
    from apdp.scenario.networks import load_topology

    by_name: dict[str, Any] = {}
    for name in topologies:
        network = load_topology(name)
        by_name[name] = network
        if network.name not in by_name:
            try:
                by_name[network.name] = load_topology(network.name)
            except TopologyError:
                by_name[network.name] = None
    return Networks(by_name)
