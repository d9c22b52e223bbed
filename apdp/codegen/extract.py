"""Finding the agent's code in a model's reply: the fenced Python block that defines an Agent class."""

from __future__ import annotations

import ast
import re

from apdp.errors import UserError


class ExtractError(UserError):
    """A reply holds no usable agent code; the message says what is missing, on one line."""


class NoCodeError(ExtractError):
    """The reply has no fenced code block at all."""


class NoAgentError(ExtractError):
    """The reply's code blocks define no subclass of ``apdp.Agent``."""


# An opening fence (``` or ~~~, optional language tag) up to the matching closing fence, or the end
# of the reply when a long answer was cut off before its closing fence.
_FENCE = re.compile(
    r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+.-]*)[^\n]*\n(?P<body>.*?)"
    r"(?:^[ \t]*(?P=fence)[ \t]*$|\Z)",
    re.DOTALL | re.MULTILINE,
)
_PYTHON_TAGS = {"", "python", "py", "python3", "py3"}
_AGENT_CLASS = re.compile(r"^class\s+\w+\s*\([^)]*\bAgent\b[^)]*\)\s*:", re.MULTILINE)


def code_blocks(reply: str) -> list[str]:
    """Bodies of the fenced code blocks tagged as Python (or untagged), in order."""
    return [m.group("body") for m in _FENCE.finditer(reply) if m.group("lang").lower() in _PYTHON_TAGS]


def defines_agent(code: str) -> bool:
    """Whether ``code`` defines a class deriving from ``Agent`` (``apdp.Agent`` or imported name).

    (A chain of subclasses always starts with one such class.) Code with a syntax error is judged
    by a plain text search, so that the check can report the error.
    """
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):  # nested too deeply for the parser, too
        return _AGENT_CLASS.search(code) is not None
    return any(
        _base_name(base) == "Agent" for node in ast.walk(tree) if isinstance(node, ast.ClassDef) for base in node.bases
    )


def _base_name(base: ast.expr) -> str | None:
    """``Agent`` for ``Agent`` and ``apdp.Agent``; None for other expressions."""
    if isinstance(base, ast.Attribute):
        return base.attr
    return base.id if isinstance(base, ast.Name) else None


def extract_agent_code(reply: str) -> str:
    """The agent code in ``reply``: the last fenced Python block that defines an Agent subclass.

    A reply that is itself bare Python code (no fences) is accepted when it defines an agent.
    Raises NoCodeError or NoAgentError with one line that can be sent back to the model.
    """
    blocks = code_blocks(reply)
    if not blocks:
        if defines_agent(reply) and _looks_like_python(reply):
            return reply.strip("\n") + "\n"
        raise NoCodeError("the reply contains no fenced ```python code block")
    for block in reversed(blocks):
        if defines_agent(block):
            return block.strip("\n") + "\n"
    raise NoAgentError(
        f"the reply's code ({len(blocks)} block{'s' if len(blocks) != 1 else ''}) defines no subclass of apdp.Agent"
    )


def _looks_like_python(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True
