"""Whether a run's output goes to a terminal, as rich decides it, without loading rich (about 25 ms)
where the answer can only be no: in a pipe, a file or a CI log, a tournament needs none of it.

rich's ``Console.is_terminal`` says yes for ``TTY_COMPATIBLE=1``, no for ``TTY_COMPATIBLE=0``, and
with ``FORCE_COLOR`` set, yes unless it is empty; otherwise the stream's ``isatty()`` decides (no
under Jupyter or IDLE). So with neither variable forcing it and a stream that is no tty, rich's
answer is no; in every other case rich is asked, and its answer is the one given.
"""

from __future__ import annotations

import os
from typing import TextIO


def _isatty(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return False if isatty is None else bool(isatty())
    except ValueError:  # a closed stream
        return False


def is_terminal(stream: TextIO) -> bool:
    """Whether rich's ``Console(file=stream).is_terminal`` is true, loading rich only when it may be."""
    if os.environ.get("TTY_COMPATIBLE") != "1" and "FORCE_COLOR" not in os.environ and not _isatty(stream):
        return False
    from rich.console import Console

    return Console(file=stream).is_terminal
