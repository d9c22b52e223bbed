"""Finding the agent's code in a model's reply: the fenced Python block that defines an Agent class."""

from __future__ import annotations

import ast
import re

from apdp.agents.source import base_name
from apdp.errors import UserError


class ExtractError(UserError):
    """A reply holds no usable agent code; the message says what is missing, on one line."""


class NoCodeError(ExtractError):
    """The reply has no fenced code block at all."""


class NoAgentError(ExtractError):
    """The reply's code blocks define no subclass of ``apdp.Agent``."""


#: An opening fence (``` or ~~~, optional language tag) up to the matching closing fence, or the end
#: of the reply when a long answer was cut off before its closing fence. The opening line's parts are
#: possessive (``*+``): a line with no newline after it fails at once, instead of trying every split
#: of its fence, tag and rest (quadratic in the line's length). Shared with :mod:`apdp.codegen.java`.
FENCE = re.compile(
    r"^[ \t]*+(?P<fence>`{3,}+|~{3,}+)[ \t]*+(?P<lang>[\w+.-]*+)[^\n]*+\n(?P<body>.*?)"
    r"(?:^[ \t]*+(?P=fence)[ \t]*+$|\Z)",
    re.DOTALL | re.MULTILINE,
)
_PYTHON_TAGS = {"", "python", "py", "python3", "py3"}
#: Longest code the host parses to look for an agent class (the parent source's cap,
#: :data:`apdp.codegen.parent.MAX_SOURCE_BYTES`, is as large): a syntax tree takes about 400 times its
#: source in memory (2 MiB of statements took 840 MB and 5 s), and longer code is judged by the text
#: search, as code that does not parse is.
PARSE_CHARS = 256 * 1024
#: ``class NAME(`` at the start of a line, and the word ``Agent``: code that does not parse defines an
#: agent when a class's parentheses (up to the first ``)``, then ``:``) hold that word.
_CLASS_OPEN = re.compile(r"^class\s++\w++\s*+\(", re.MULTILINE)
_AGENT_WORD = re.compile(r"\b(?:Reactive|Deliberative|Centralized)?Agent\b")
#: The classes an agent derives from: the auction's, and those of the course's other exercises.
AGENT_BASES = frozenset({"Agent", "ReactiveAgent", "DeliberativeAgent", "CentralizedAgent"})
_CLOSE = re.compile(r"\)")
_CLOSE_COLON = re.compile(r"\)\s*+:")


class NextMatch:
    """The first match of ``pattern`` in ``text`` at or after a position, asked for positions that
    never decrease: the answer is kept until a position passes it, so that the whole text is read
    about once however many positions ask (a search from each would read it again each time, which
    is quadratic; issue 32)."""

    def __init__(self, pattern: re.Pattern[str], text: str) -> None:
        self.pattern, self.text, self.found = pattern, text, -1

    def __call__(self, pos: int) -> int:
        """The start of the first match at or after ``pos``; ``len(text)`` when there is none."""
        if self.found < pos:
            match = self.pattern.search(self.text, pos)
            self.found = match.start() if match else len(self.text)
        return self.found


def code_blocks(reply: str) -> list[str]:
    """Bodies of the fenced code blocks tagged as Python (or untagged), in order."""
    return [m.group("body") for m in FENCE.finditer(reply) if m.group("lang").lower() in _PYTHON_TAGS]


def defines_agent(code: str) -> bool:
    """Whether ``code`` defines a class deriving from ``Agent`` (``apdp.Agent`` or imported name), or
    from one of the exercises' agent classes (``ReactiveAgent``, ``DeliberativeAgent``, ``CentralizedAgent``).

    (A chain of subclasses always starts with one such class.) Code with a syntax error is judged
    by a plain text search, so that the check can report the error; so is code longer than
    :data:`PARSE_CHARS`, whose syntax tree the host does not build.
    """
    if len(code) > PARSE_CHARS:
        return _names_agent(code)
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):  # nested too deeply for the parser, too
        return _names_agent(code)
    return any(
        base_name(base) in AGENT_BASES
        for node in ast.walk(tree) if isinstance(node, ast.ClassDef) for base in node.bases
    )


def _names_agent(code: str) -> bool:
    """Whether a line of ``code`` starts ``class NAME(...Agent...):`` (the parentheses up to their
    first ``)``), in one pass: each class's ``)`` and the next ``Agent`` after it are found once for
    all the classes before them."""
    close, agent = NextMatch(_CLOSE, code), NextMatch(_AGENT_WORD, code)
    closed_at, colon = -1, False
    for opened in _CLASS_OPEN.finditer(code):
        end = close(opened.end())
        if end == len(code):
            return False  # no ")" after this class, nor after any later one
        if end != closed_at:
            closed_at, colon = end, _CLOSE_COLON.match(code, end) is not None
        if colon and agent(opened.end()) < end:
            return True
    return False


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
    if len(text) > PARSE_CHARS:
        return False  # a reply this long is taken from its fences only
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True
