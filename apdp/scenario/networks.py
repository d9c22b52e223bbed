"""Networks by name or by file: the search path (``$APDP_TOPOLOGIES``, ``./topologies``, the bundled
networks), names, codes and aliases in any case, apdp's TOML files and Logist's XML files."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from apdp.bundled import BUNDLED_TOPOLOGIES
from apdp.game.topology import MAX_TOPOLOGY_BYTES, Topology, TopologyError, load_topology_file
from apdp.logist.topology import load_logist_topology
from apdp.lookup import normalise_name, search_path
from apdp.reading import ReadRefused, read_regular


def topology_dirs() -> list[Path]:
    """Folders searched for networks: ``$APDP_TOPOLOGIES`` (``:``-separated), ./topologies, shipped."""
    return search_path("APDP_TOPOLOGIES", [Path.cwd() / "topologies", BUNDLED_TOPOLOGIES])


def _candidates() -> dict[str, Path]:
    """Map every normalised name, code and alias of each topology file to the file."""
    found: dict[str, Path] = {}
    for folder in topology_dirs():
        for path in sorted(folder.glob("*.toml")):
            try:
                data = tomllib.loads(read_regular(path, MAX_TOPOLOGY_BYTES).decode("utf-8"))
            except (ReadRefused, UnicodeDecodeError, tomllib.TOMLDecodeError):
                found.setdefault(normalise_name(path.stem), path)
                continue
            keys = [path.stem, str(data.get("name", "")), str(data.get("code", ""))]
            keys += [a for a in data.get("aliases", []) if isinstance(a, str)]
            for key in keys:
                if key:
                    found.setdefault(normalise_name(key), path)
    return found


def available_topologies() -> list[str]:
    """Names of the networks that can be selected, shipped ones and users' alike."""
    return sorted({p.stem for p in _candidates().values()})


#: Networks this process was handed by name (see :func:`remember_topology`); None: the name is unknown.
_remembered: dict[str, Topology | None] = {}


def remember_topology(name_or_path: str, topology: Topology | None) -> None:
    """Make :func:`load_topology` answer ``name_or_path`` with ``topology`` in this process (None:
    as an unknown name). A tournament's worker on another machine is handed the parent's networks
    so: it plays them, and records them, as the parent would have."""
    _remembered[name_or_path] = topology


def load_topology(name_or_path: str) -> Topology:
    """Select a network by code, name or alias in any case (``fr``, ``France``), or by file path
    (a ``.toml`` file, or a Logist topology ``.xml`` file)."""
    if name_or_path in _remembered:
        remembered = _remembered[name_or_path]
        if remembered is None:
            raise TopologyError(f"unknown topology {name_or_path!r}")
        return remembered
    return _load_cached(name_or_path, tuple(str(d) for d in topology_dirs()))


def load_named_topology(name: str) -> Topology:
    """A network by code, name or alias only, never a file: what a record or a stored result names
    (a path there could be anything on this machine: a device, a pipe, a secret)."""
    if name.lower().endswith((".toml", ".xml")) or os.sep in name or "\0" in name:
        raise TopologyError(f"unknown topology {name[:200]!r}: a record names a network by its name, and embeds "
                            "any other (give a record written by apdp)")
    return load_topology(name)


@cache
def _load_cached(name_or_path: str, _dirs: Sequence[str]) -> Topology:
    if name_or_path.lower().endswith(".xml"):  # a Logist topology file
        return load_logist_topology(name_or_path)
    if name_or_path.endswith(".toml") or os.sep in name_or_path:
        return load_topology_file(name_or_path)
    path = _candidates().get(normalise_name(name_or_path))
    if path is None:
        known = ", ".join(available_topologies())
        raise TopologyError(f"unknown topology {name_or_path!r}; choose one of: {known}, or a .toml file")
    return _load_named(path)


@cache
def _load_named(path: Path) -> Topology:
    # one object per file, whichever name or alias found it ("fr", "France"): a record's network
    # is then recognised as the shipped one by identity, not by comparing every road
    return load_topology_file(path)
