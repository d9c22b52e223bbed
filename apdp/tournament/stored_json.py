"""JSON read back from a results store, bounded: a value the store hands over is at most
:data:`MAX_VALUE_BYTES` long (SQLite's own length limit on every connection of a store, so a larger
one is never brought into memory) and nested at most :data:`MAX_DEPTH` deep, far beyond what apdp
writes (a record nests about ten deep). A crafted store's deeper value is a ValueError, never the
parser's recursion or a traceback from code that walks the value later."""

from __future__ import annotations

import json
import math
import sqlite3
from typing import Any

#: The longest value (a record, a configuration, a list of faults) read from a store, in bytes: a
#: record of a long match is some hundreds of KiB.
MAX_VALUE_BYTES = 64 * 2**20
#: The deepest nesting of lists and objects read from a store.
MAX_DEPTH = 64


class TooDeep(ValueError):
    """A JSON value nested deeper than :data:`MAX_DEPTH`."""


def bound(conn: sqlite3.Connection) -> sqlite3.Connection:
    """``conn``, refusing (sqlite3.DataError, "string or blob too big") every value longer than
    :data:`MAX_VALUE_BYTES` it would read or write."""
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
    return conn


def loads(text: str | bytes) -> Any:
    """The JSON value of ``text``; ValueError (its message says what is wrong, after "is") when it is
    no JSON, or TooDeep when it is nested deeper than :data:`MAX_DEPTH`."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise TooDeep(f"is nested more than {MAX_DEPTH} deep") from None
    except (ValueError, TypeError) as exc:  # TypeError: a number or NULL where JSON text should be
        raise ValueError(f"is no JSON ({str(exc)[:80]})") from None
    if not _within(value, MAX_DEPTH):
        raise TooDeep(f"is nested more than {MAX_DEPTH} deep")
    return value


def _within(value: Any, limit: int) -> bool:
    """Whether ``value``'s lists and objects nest at most ``limit`` deep (walked without recursion)."""
    stack = [(value, 1)] if isinstance(value, (dict, list)) else []
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if depth > limit:
            return False
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return True


def finite_number(value: Any) -> bool:
    """Whether ``value`` is an int or a finite float (not a bool)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
