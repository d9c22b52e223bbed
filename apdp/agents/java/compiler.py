"""Running ``javac`` (never an annotation processor: ``-proc:none``, so compiling runs none of the
agent's code) and reading its first error."""

from __future__ import annotations

import contextlib
import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from apdp.agents.java.jdk import Jdk

#: Options of every compilation: no annotation processing, no warnings, string concatenation by
#: StringBuilder (the default, invokedynamic, costs a JVM ~40 ms of start-up the first time).
BASE_OPTIONS = ("-proc:none", "-nowarn", "-implicit:class", "-XDstringConcat=inline")

_ERROR = re.compile(r"^(?P<file>.+?\.java):(?P<line>\d+): error: (?P<message>.*)$")


@dataclass(frozen=True, slots=True)
class Compiled:
    """A compilation's exit code and output."""

    code: int
    output: str

    @property
    def ok(self) -> bool:
        """True when javac succeeded."""
        return self.code == 0


def javac(jdk: Jdk, options: Sequence[str], sources: Sequence[Path], *, encoding: str = "UTF-8",
          timeout: float = 600) -> Compiled:
    """Compile ``sources`` with ``options`` (plus :data:`BASE_OPTIONS` and the encoding)."""
    argv = [str(jdk.javac), *BASE_OPTIONS, "-encoding", encoding, *options, *map(str, sources)]
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=timeout, check=False, errors="replace")
    except subprocess.TimeoutExpired:
        return Compiled(124, f"javac did not finish within {timeout:g} s")
    except OSError as exc:
        return Compiled(127, f"cannot start {jdk.javac}: {exc.strerror}")
    return Compiled(done.returncode, done.stdout + done.stderr)


def unmappable(output: str) -> bool:
    """True when javac failed on characters its encoding cannot read (try another encoding)."""
    return "unmappable character" in output


def first_error(output: str, root: Path | None = None) -> str:
    """javac's first error on one line: ``file:line: message (symbol: ...)``, the file relative
    to ``root`` when it lies under it."""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        match = _ERROR.match(line.strip())
        if match is None:
            continue
        file = match.group("file")
        if root is not None:
            with contextlib.suppress(ValueError):
                file = str(Path(file).resolve().relative_to(root.resolve()))
        text = f"{file}:{match.group('line')}: {match.group('message').strip()}"
        details = [d.strip() for d in lines[i + 1:i + 6] if d.strip().startswith(("symbol:", "location:"))]
        return text + (f" ({'; '.join(' '.join(d.split()) for d in details)})" if details else "")
    rest = [line.strip() for line in lines if line.strip()]
    return rest[0] if rest else "javac failed without a message"
