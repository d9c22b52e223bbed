"""Is an agent reproducible? Compare two records of the same match, and guess why they differ.

The same seed and secret must give the same record, timing, sandbox notes and captured output aside.
An agent that draws from ``random``, ``numpy.random``, an unseeded generator or the clock instead of
``self.rng`` breaks that: its results change from run to run. :func:`record_difference` names the
first difference between two records; :func:`likely_causes` points at the lines of the agent's
source that usually explain it.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from apdp.agents.source import parsed
from apdp.referee.record import without_timing

#: Record fields left out of the comparison (they differ between two plays of the same match).
#: ``identities`` is what the harness's ledger said of each agent file when the match began: another
#: generation that wrote the same code (two samples of one model) records it again in between.
IGNORED_FIELDS = ("output", "identities")

#: Calls that read the clock or the system's entropy: (module, attribute).
_CLOCK = {("time", a) for a in ("time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic",
                                "monotonic_ns", "process_time")}
_ENTROPY = {("os", "urandom"), ("os", "getrandom"), ("uuid", "uuid1"), ("uuid", "uuid4")}


def comparable(record: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a record that the seed and secret decide."""
    return {k: v for k, v in without_timing(dict(record)).items() if k not in IGNORED_FIELDS}


def _first_difference(a: Any, b: Any, where: str) -> str | None:
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in [*a, *(k for k in b if k not in a)]:
            if key not in a or key not in b:
                return f"{where}.{key}: {'missing' if key not in a else 'present'} then " \
                       f"{'missing' if key not in b else 'present'}"
            found = _first_difference(a[key], b[key], f"{where}.{key}" if where else str(key))
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for k, (x, y) in enumerate(zip(a, b, strict=False)):
            found = _first_difference(x, y, f"{where}[{k}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{where}: {len(a)} items then {len(b)}"
        return None
    if a != b:
        return f"{where}: {_short(a)} then {_short(b)}"
    return None


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def record_difference(first: Mapping[str, Any], second: Mapping[str, Any]) -> str | None:
    """Where two records of the same match first differ (``auctions[3].bids[0]: 812.0 then 790.5``),
    or None when they agree on everything the seed decides."""
    return _first_difference(comparable(first), comparable(second), "")


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def likely_causes(source: str) -> list[str]:
    """Phrases naming the lines of an agent's source that make it irreproducible, most likely first.

    Looks for the ``random`` module, ``numpy.random``'s global functions, generators made without a
    seed, the clock and the system's entropy (at most three phrases). Empty when nothing is found or
    the source does not parse.
    """
    tree = parsed(source)
    if tree is None:
        return []
    numpy_names = {"numpy"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            numpy_names |= {a.asname or a.name for a in node.names if a.name == "numpy"}
    found: set[tuple[int, int, str]] = set()  # (rank, line, phrase)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import) and any(a.name == "random" for a in node.names):
            found.add((1, line, f"line {line} imports the random module"))
        elif isinstance(node, ast.ImportFrom) and node.module == "random":
            found.add((1, line, f"line {line} imports from the random module"))
        elif isinstance(node, ast.ImportFrom) and (
            node.module == "numpy.random" or (node.module == "numpy" and any(a.name == "random" for a in node.names))
        ):
            found.add((1, line, f"line {line} imports numpy.random's global generator"))
        elif isinstance(node, ast.Call) and (name := _dotted(node.func)) is not None:
            parts = name.split(".")
            if parts[0] == "random" and len(parts) == 2:
                found.add((0, line, f"line {line} calls {name} (the random module, not self.rng)"))
            elif len(parts) >= 3 and parts[0] in numpy_names and parts[1] == "random":
                if parts[2] not in ("default_rng", "RandomState", "Generator", "SeedSequence"):
                    found.add((0, line, f"line {line} calls {name} (numpy's global generator, not self.rng)"))
                elif not node.args and not node.keywords:
                    found.add((0, line, f"line {line} makes a generator without a seed ({name}())"))
            elif tuple(parts[-2:]) in _ENTROPY or parts[0] == "secrets":
                found.add((2, line, f"line {line} draws system entropy ({name})"))
            elif tuple(parts[-2:]) in _CLOCK or parts[-2:] == ["datetime", "now"]:
                found.add((3, line, f"line {line} reads the clock ({name})"))
    return [phrase for _, _, phrase in sorted(found)[:3]]


def irreproducible_message(difference: str, causes: list[str]) -> str:
    """The check's one-paragraph problem: what differed and the likely cause."""
    cause = "; ".join(causes) if causes else (
        "something other than self.rng decides a bid or a plan: the random module, numpy.random, "
        "the clock, or a search stopped by the deadline instead of an iteration budget"
    )
    return (
        f"the same match played twice gave different records (first difference: {difference}); "
        f"likely cause: {cause}. Draw all randomness from self.rng, which the referee seeds"
    )
