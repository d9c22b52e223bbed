"""An agent's parameters (the scenario's, or ``agents/params.toml``), read with the type the agent expects."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")


def read_param(params: Mapping[str, Any], name: str, default: T) -> T:
    """The parameter ``name`` of ``params`` converted to the type of ``default``, or ``default`` if
    unset; ValueError naming it when it does not convert."""
    if name not in params:
        return default
    value = params[name]
    try:
        return type(default)(value)  # type: ignore[call-arg]
    except (TypeError, ValueError):
        raise ValueError(f"parameter {name!r} must be a {type(default).__name__}, got {value!r}") from None
