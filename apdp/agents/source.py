"""An agent's Python source, looked at (never run) in apdp's own process: its kind, what it imports,
why it is not reproducible. A syntax tree takes hundreds of times its source's size (a 16 MiB list
literal took 8 GB outside any sandbox), so only a source of at most :data:`MAX_PARSED_BYTES` is
parsed; a larger one is not looked at, and each caller says what that means for it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from apdp.reading import ReadRefused, read_regular

#: The largest source parsed here (the course's agents take a few KiB; a generated one, tens).
MAX_PARSED_BYTES = 1 << 20


def read_source(file: Path) -> str | None:
    """The text of the Python file ``file`` when it is a regular file of at most
    :data:`MAX_PARSED_BYTES`; None otherwise (larger, unreadable, not a regular file)."""
    try:
        return read_regular(file, MAX_PARSED_BYTES).decode("utf-8", "replace")
    except ReadRefused:
        return None


def parsed(source: str) -> ast.Module | None:
    """The syntax tree of ``source``; None when it is larger than :data:`MAX_PARSED_BYTES` or does not
    parse (too deep for the parser, too)."""
    if len(source) > MAX_PARSED_BYTES:
        return None
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
