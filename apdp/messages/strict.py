"""Strict JSON: the reading every message from an agent goes through.

An agent's bytes are hostile until read here: :func:`parse_json` refuses what is not UTF-8, numbers
that are not finite or too long, and nesting past the interpreter's limit; the field readers check
one object's keys and one value's type and size. Every refusal is a :class:`BadMessage` whose text
says, in one line, what was wrong; nothing here raises anything else.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from apdp.messages.sizes import READ_REPLY_BYTES
from apdp.text import valid_unicode

#: Most digits of an integer.
MAX_DIGITS = 19


class BadMessage(ValueError):
    """A message outside its schema; the text says what was wrong, in one line."""


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise BadMessage(f"an integer of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadMessage(f"a number out of range ({text[:40]})")
    return value


def _no_constant(text: str) -> object:
    raise BadMessage(f"{text} is not a number")


#: One decoder for every message (``json.loads`` with options builds a new one each call).
_DECODER = json.JSONDecoder(parse_int=_integer, parse_float=_finite, parse_constant=_no_constant)


def parse_json(raw: bytes) -> object:
    """Decode ``raw`` as strict JSON: UTF-8, no NaN or infinities, integers of at most
    :data:`MAX_DIGITS` digits, nesting within the interpreter's recursion limit."""
    if len(raw) > READ_REPLY_BYTES:
        raise BadMessage(f"a message of {len(raw)} bytes (at most {READ_REPLY_BYTES})")
    try:
        text = raw.decode("utf-8")
        return _DECODER.decode(text)
    except UnicodeDecodeError:
        raise BadMessage("a message that is not UTF-8") from None
    except RecursionError:
        raise BadMessage("a message nested too deeply") from None
    except BadMessage:
        raise
    except ValueError as exc:  # JSONDecodeError, or a number int() or float() refused
        raise BadMessage(f"a message that is not JSON ({str(exc)[:80]})") from None


def parse_object(raw: bytes) -> dict[str, Any]:
    """:func:`parse_json`, which must give a JSON object."""
    obj = parse_json(raw)
    if not isinstance(obj, dict):
        raise BadMessage(f"a message must be a JSON object, got {type(obj).__name__}")
    return obj


def keys(obj: Mapping[str, Any], required: set[str], optional: set[str], what: str, shape: str = "") -> None:
    """``obj`` has every ``required`` key and no key outside ``required`` and ``optional``; the
    error shows ``shape``, the form expected, where there is one."""
    missing = required - obj.keys()
    extra = obj.keys() - required - optional
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"no {', '.join(sorted(missing))}")
        if extra:
            parts.append(f"unexpected {', '.join(sorted(repr(k)[:40] for k in extra)[:5])}")
        expected = f" (expected {shape})" if shape else ""
        raise BadMessage(f"{what}: {'; '.join(parts)}{expected}")


def text(value: object, limit: int, what: str) -> str:
    """A string of at most ``limit`` characters, made valid Unicode."""
    if not isinstance(value, str):
        raise BadMessage(f"{what} must be a string, got {type(value).__name__}")
    if len(value) > limit:
        raise BadMessage(f"{what} of {len(value)} characters (at most {limit})")
    return valid_unicode(value)


def integer(value: object, what: str) -> int:
    """An integer (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadMessage(f"{what} must be an integer, got {type(value).__name__}")
    return value


def number(value: object, what: str) -> float:
    """A finite number (not a bool), as a float."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadMessage(f"{what} must be a number, got {type(value).__name__}")
    result = float(value)
    if not math.isfinite(result):
        raise BadMessage(f"{what} must be finite")
    return result


def listing(value: object, what: str) -> list[Any]:
    """A JSON array."""
    if not isinstance(value, list):
        raise BadMessage(f"{what} must be a list, got {type(value).__name__}")
    return value


def mapping(value: object, what: str) -> dict[str, Any]:
    """A JSON object."""
    if not isinstance(value, dict):
        raise BadMessage(f"{what} must be an object, got {type(value).__name__}")
    return value
