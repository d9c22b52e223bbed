"""An agent's Python source, looked at (never run) in apdp's own process: its kind, what it imports,
why it is not reproducible. A syntax tree takes hundreds of times its source's size (a 16 MiB list
literal took 8 GB outside any sandbox, a 1 MiB file of one-letter lines 0.9 GB and 4 s), so only a
source of at most :data:`MAX_PARSED_BYTES` is parsed; a larger one is read by line patterns
(:func:`class_bases`), in time and memory of its size.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from apdp.reading import ReadRefused, read_regular

#: The largest source parsed into a syntax tree here (the course's agents take a few KiB; a
#: generated one, tens).
MAX_PARSED_BYTES = 64 << 10
#: The largest source read at all (a one-file agent's cap).
MAX_READ_BYTES = 16 << 20

_CLASS = re.compile(r"^[ \t]*class[ \t]+\w+[ \t]*\(([^)]*)\)", re.M)


def read_source(file: Path) -> str | None:
    """The text of the Python file ``file`` when it is a regular file of at most
    :data:`MAX_READ_BYTES`; None otherwise (larger, unreadable, not a regular file)."""
    try:
        return read_regular(file, MAX_READ_BYTES).decode("utf-8", "replace")
    except ReadRefused:
        return None


def read_python_source(file: Path) -> str | None:
    """:func:`read_source`, decoded as Python decodes it (its coding declaration, or UTF-8); "" when
    Python could not decode it either (then it runs nowhere)."""
    try:
        data = read_regular(file, MAX_READ_BYTES)
    except ReadRefused:
        return None
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeError, ValueError):
        return ""


def parsed(source: str) -> ast.Module | None:
    """The syntax tree of ``source``; None when it is larger than :data:`MAX_PARSED_BYTES` or does not
    parse (too deep for the parser, too)."""
    if len(source) > MAX_PARSED_BYTES:
        return None
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


def base_name(base: ast.expr) -> str | None:
    """The name a class base ends in (``Agent`` for ``Agent`` and ``apdp.Agent``); None for other
    expressions."""
    if isinstance(base, ast.Attribute):
        return base.attr
    return base.id if isinstance(base, ast.Name) else None


def class_bases(source: str) -> list[str]:
    """The last name of each base of each class statement of ``source`` (``apdp.ReactiveAgent``:
    ``ReactiveAgent``), read by line pattern: a class written on one line, in any source's size."""
    bases = []
    for match in _CLASS.finditer(source):
        for base in match.group(1).split(","):
            name = base.strip().split("=")[-1].strip().rsplit(".", 1)[-1]
            if name.isidentifier():
                bases.append(name)
    return bases
