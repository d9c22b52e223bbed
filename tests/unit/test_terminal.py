"""A run decides whether its output is a terminal as rich does (TTY_COMPATIBLE, FORCE_COLOR, then
the stream's isatty()), asking rich only where the answer may be yes."""

from __future__ import annotations

import io
import itertools
import sys

import pytest
from rich.console import Console

from apdp.tournament.terminal import is_terminal


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


class Closed(io.StringIO):
    def isatty(self) -> bool:
        raise ValueError("I/O operation on closed file")


class NoIsatty:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


STREAMS = {"tty": Tty, "pipe": io.StringIO, "closed": Closed, "no isatty": NoIsatty}


@pytest.mark.parametrize(("tty_compatible", "force_color", "stream"), list(itertools.product(
    [None, "0", "1", ""], [None, "", "1"], STREAMS,
)))
def test_the_answer_is_richs(
    monkeypatch: pytest.MonkeyPatch, tty_compatible: str | None, force_color: str | None, stream: str
) -> None:
    for name, value in (("TTY_COMPATIBLE", tty_compatible), ("FORCE_COLOR", force_color)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    out = STREAMS[stream]()
    assert is_terminal(out) == Console(file=out).is_terminal  # type: ignore[arg-type]


def test_off_a_terminal_rich_is_not_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setitem(sys.modules, "rich.console", None)  # importing it now fails
    assert not is_terminal(io.StringIO())
    with pytest.raises(ImportError):
        is_terminal(Tty())
