"""Text that came from an agent, made safe to store and to print.

Whatever an agent prints, raises or sends (a fault message, a traceback, its output, a city name in
a bad plan) reaches records, results stores, terminals, log files and web pages. Before it is kept,
:func:`clean_text` makes it valid UTF-8 (a lone surrogate becomes U+FFFD), shows every control
character as an escape (``\\x1b``: no screen clears, cursor moves or forged lines; ``\\r`` cannot
overwrite a line), drops nothing silently and cuts it to a bound, saying how much was cut.
:func:`clean_line` does the same for one-line text (names, messages shown in tables).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides and isolates
#: (which reorder what a reader sees: "Trojan source").
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_LINE_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_SURROGATES = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _cut(text: str, limit: int | None) -> str:
    """``text`` in at most ``limit`` characters: cut where an item of a list ("; ") or a word ends,
    when one does in the second half of what is kept, and saying how much was cut."""
    if limit is None or len(text) <= limit:
        return text
    keep = max(0, limit - len(f" [... {len(text)} more characters cut]"))
    for boundary in ("; ", " "):
        end = text.rfind(boundary, keep // 2, keep + 1)
        if end > 0:
            keep = end
            break
    return text[:keep] + f" [... {len(text) - keep} more characters cut]"


def clean_text(text: object, limit: int | None = None) -> str:
    """``text`` as valid UTF-8 with its control characters (tab and newline aside) escaped, at most
    ``limit`` characters long (None: no bound)."""
    s = text if isinstance(text, str) else str(text)
    if limit is not None and len(s) > 4 * limit:  # escapes at most quadruple a character
        s = s[: 4 * limit]
    s = _SURROGATES.sub("\ufffd", s)
    return _cut(_CONTROLS.sub(_escape, s), limit)


def clean_line(text: object, limit: int | None = None) -> str:
    """Like :func:`clean_text`, with tabs and newlines escaped too: one line of text."""
    s = text if isinstance(text, str) else str(text)
    if limit is not None and len(s) > 4 * limit:
        s = s[: 4 * limit]
    s = _SURROGATES.sub("\ufffd", s)
    return _cut(_LINE_CONTROLS.sub(_escape, s), limit)


def valid_unicode(text: str) -> str:
    """``text`` with every lone surrogate (which UTF-8 cannot encode) replaced by U+FFFD."""
    return _SURROGATES.sub("\ufffd", text)


def is_clean_line(text: str) -> bool:
    """True when ``text`` is printable as it is: no control character, surrogate or bidi override."""
    return _LINE_CONTROLS.search(text) is None and _SURROGATES.search(text) is None


_MARKDOWN = re.compile(r"([\\`*_\[\]<>|])")


def markdown_cell(value: object) -> object:
    """A table cell for markdown: text with markdown's punctuation escaped (a '|' would open a cell
    of its own, a '[x](y)' a link), numbers as they are."""
    if isinstance(value, str):
        return _MARKDOWN.sub(r"\\\1", clean_line(value))
    return value


def markdown_table(rows: Sequence[Sequence[object]], headers: Sequence[str]) -> str:
    """``rows`` under ``headers`` as a GitHub-flavoured markdown table, every text cell escaped."""
    from tabulate import tabulate

    return tabulate([[markdown_cell(v) for v in row] for row in rows], [str(markdown_cell(h)) for h in headers],
                    tablefmt="github")
