"""An agent's parameters in ``agents/params.toml`` (read by :func:`apdp.agents.discovery.registry_params`):
one table per agent, written here for a Logist agent's ``<set key="value"/>`` entries."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path

from apdp.agents.discovery import PARAMS_FILE
from apdp.errors import UserError
from apdp.files import write_atomically

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(key: str) -> str:
    return key if _BARE.match(key) else json.dumps(key, ensure_ascii=False)


def _header(name: str) -> re.Pattern[str]:
    quoted = re.escape(json.dumps(name, ensure_ascii=False))
    return re.compile(rf"^\s*\[\s*(?:{re.escape(name)}|{quoted})\s*\]\s*(?:#.*)?$")


def set_params(agents_dir: Path, name: str, params: Mapping[str, str]) -> Path:
    """Make ``params`` (strings) the parameters of agent ``name`` in ``agents_dir/params.toml``,
    replacing its table and keeping everything else of the file; returns the file."""
    path = agents_dir / PARAMS_FILE
    try:
        old = path.read_text(encoding="utf-8") if path.exists() else ""
    except OSError as exc:
        raise UserError(f"cannot read {path} ({exc.strerror})") from None
    header = _header(name)
    kept: list[str] = []
    inside = False
    for line in old.splitlines():
        if header.match(line):
            inside = True
            continue
        if inside and line.lstrip().startswith("["):
            inside = False
        if not inside:
            kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    table = [f"[{_key(name)}]"] + [f"{_key(k)} = {json.dumps(str(v), ensure_ascii=False)}" for k, v in params.items()]
    text = "\n".join([*kept, *([""] if kept else []), *table]) + "\n"
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path} would not be valid TOML after adding [{name}] ({exc}); fix the file first") from None
    write_atomically(path, text)
    return path


def parse_param(text: str) -> tuple[str, str]:
    """``KEY=VALUE`` as a pair (UserError otherwise)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise UserError(f"--param {text!r}: write KEY=VALUE")
    return key.strip(), value
