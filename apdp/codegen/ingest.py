"""Dropping generated code into the agents folder: ``NAME.py`` with a provenance header, ``NAME.json``."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from apdp.agents.discovery import AgentNotFound, find_agent
from apdp.agents.provenance import (
    Provenance,
    record_generated,
    sidecar_path,
    strip_header,
    transcript_path,
    write_sidecar,
)
from apdp.codegen.extract import extract_agent_code
from apdp.errors import UserError
from apdp.files import write_atomically

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")


@dataclass(frozen=True, slots=True)
class IngestedAgent:
    """An agent written by ingest: its file, its sidecar and its provenance."""

    name: str
    path: Path
    sidecar: Path
    provenance: Provenance


def agent_path(name: str, agents_dir: Path) -> Path:
    """Where agent ``name`` is written: ``agents_dir/NAME.py`` (UserError for a bad name)."""
    if not _NAME.match(name):
        raise UserError(f"bad agent name {name!r}: use a letter then letters, digits, '-' or '_' (max 64)")
    return agents_dir / f"{name}.py"


def default_name(model: str, strategy: str, sample: int | None = None) -> str:
    """The name of an agent of ``model`` and ``strategy`` (``gpt-4o-a1``; ``gpt-4o-a1-2`` for sample 2)."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", model).strip("-").lower()[:48] or "model"
    if not slug[0].isalpha():
        slug = "llm-" + slug
    return f"{slug}-{strategy}" + (f"-{sample}" if sample is not None else "")


def check_free(name: str, agents_dir: Path, code: str | None = None, force: bool = False) -> Path:
    """The path for agent ``name``, refusing to replace or shadow a different agent unless ``force``.

    An existing ``NAME.py`` whose code (header aside) equals ``code`` may be rewritten; any other
    file of that name, or an agent of the same name elsewhere (a baseline), needs ``force``.
    """
    path = agent_path(name, agents_dir)
    if force:
        return path
    if path.exists():
        try:
            existing = strip_header(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            existing = None
        if code is None or existing != code:
            raise UserError(
                f"{path} already exists and holds a different agent; choose another --name or "
                "pass --force to replace it"
            )
        return path
    refuse_shadowing(name, path)
    return path


def refuse_shadowing(name: str, path: Path) -> None:
    """UserError if another agent already answers to ``name`` (a new one at ``path`` would shadow it)."""
    try:
        other = find_agent(name)
    except AgentNotFound:
        return
    if other.path.resolve() != path.resolve():
        raise UserError(
            f"an agent named {name!r} already exists at {other.path}; a new one would shadow it: "
            "choose another --name or pass --force"
        )


#: How a language puts an agent's code in place: ``place(code, name, agents_dir, force, provenance)``
#: checks that the name is free (see ``check_free``), writes the agent and returns its path.
Place = Callable[[str, str, Path, bool, Provenance], Path]


def place_python(code: str, name: str, agents_dir: Path, force: bool, provenance: Provenance) -> Path:
    """Write ``code`` as ``agents_dir/NAME.py`` under its provenance header (see ``Place``)."""
    path = check_free(name, agents_dir, code, force)
    try:
        agents_dir.mkdir(parents=True, exist_ok=True)
        write_atomically(path, provenance.header() + code)
    except OSError as exc:
        raise UserError(f"cannot write agent {path}: {exc.strerror}") from None
    return path


def ingest_code(
    code: str,
    name: str,
    *,
    agents_dir: Path,
    model: str | None = None,
    strategy: str | None = None,
    round: int = 0,
    prompt_hash: str | None = None,
    extra: dict[str, Any] | None = None,
    force: bool = False,
    place: Place = place_python,
) -> IngestedAgent:
    """Write ``code`` as agent ``name`` with its provenance sidecar JSON and ledger line; ``place`` puts
    the code itself in place (by default ``NAME.py`` with a provenance header)."""
    code = code.strip("\n") + "\n"
    provenance = Provenance(
        model=model,
        strategy=strategy,
        round=round,
        prompt_hash=prompt_hash,
        date=datetime.now(UTC).isoformat(timespec="seconds"),
        extra=dict(extra or {}),
    )
    path = place(code, name, agents_dir, force, provenance)
    try:
        sidecar = write_sidecar(path, provenance)
        record_generated(path, provenance)
    except OSError as exc:
        raise UserError(f"cannot write agent {path}: {exc.strerror}") from None
    return IngestedAgent(name, path, sidecar, provenance)


#: Where ``apdp codegen run`` puts an agent still faulty after its repairs: a folder of the agents
#: folder that no tournament plays (it is not an agent: discovery never looks inside it).
REJECTED_DIR = "rejected"


def reject_agent(path: Path, provenance: Provenance) -> Path:
    """Move the agent at ``path`` (file or folder), its sidecar and its transcript out of play into
    ``rejected/`` beside it, vouched for by that folder's ledger; its new path. An agent of that
    name already rejected is replaced."""
    target_dir = path.parent / REJECTED_DIR
    try:
        target_dir.mkdir(exist_ok=True)
        target = target_dir / path.name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        for source in (path, sidecar_path(path), transcript_path(path)):
            if source.exists():
                os.replace(source, target_dir / source.name)
        record_generated(target, provenance)
    except OSError as exc:
        raise UserError(f"cannot move agent {path} to {target_dir}: {exc.strerror}") from None
    return target


def ingest_reply(reply: str, name: str, **options: Any) -> IngestedAgent:
    """Extract the agent code from a model's reply and ingest it (see ``ingest_code``)."""
    return ingest_code(extract_agent_code(reply), name, **options)
