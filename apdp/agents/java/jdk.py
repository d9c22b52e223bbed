"""Finding a JDK for Java agents: ``javac`` and ``java`` of version 17 or newer, under
``$JAVA_HOME`` or on PATH."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from apdp.errors import UserError

#: The oldest JDK the host and its agents are compiled with.
MIN_VERSION = 17
#: How to get one, in the error that says none was found.
INSTALL_HINT = "install one, e.g. apt-get install openjdk-17-jdk-headless, or set JAVA_HOME"
#: The most of a JDK's ``release`` file read (it holds a few lines).
RELEASE_BYTES = 64 * 1024


class NoJdk(UserError):
    """No usable JDK on this machine."""


@dataclass(frozen=True, slots=True)
class Jdk:
    """A JDK: its folder and major version."""

    home: Path
    version: int

    @property
    def java(self) -> Path:
        """The ``java`` launcher."""
        return self.home / "bin" / "java"

    @property
    def javac(self) -> Path:
        """The compiler."""
        return self.home / "bin" / "javac"


def _major(version: str) -> int | None:
    """The major version a JDK's version string names ("17.0.21", "21"; "1.8.0_292" is Java 8)."""
    match = re.match(r"(\d+)(?:\.(\d+))?", version)
    if match is None:
        return None
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def _release_version(home: Path) -> int | None:
    """The major version the JDK's ``release`` file names (``JAVA_VERSION="17.0.21"``: every JDK
    since 9 has one), or None where there is none to read. Read instead of running ``javac
    -version``, a JVM's start of its own: some 175 ms of CPU for each command that plays Java agents."""
    try:
        with open(home / "release", "rb") as f:
            text = f.read(RELEASE_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    match = re.search(r'^JAVA_VERSION="([^"]*)"', text, re.MULTILINE)
    return None if match is None else _major(match.group(1))


def _version(javac: Path) -> int | None:
    try:
        done = subprocess.run([str(javac), "-version"], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r"javac (\d+(?:\.\d+)?)", done.stdout + done.stderr)
    return None if match is None else _major(match.group(1))  # "javac 1.8.0" is Java 8


def _candidates() -> list[Path]:
    homes: list[Path] = []
    if os.environ.get("JAVA_HOME"):
        homes.append(Path(os.environ["JAVA_HOME"]))
    javac = shutil.which("javac")
    if javac:
        homes.append(Path(os.path.realpath(javac)).parent.parent)
    return homes


_found: dict[tuple[str, str], Jdk] = {}


def find_jdk() -> Jdk:
    """The JDK to use (``$JAVA_HOME`` first, then the ``javac`` on PATH); NoJdk says what to do."""
    key = (os.environ.get("JAVA_HOME", ""), os.environ.get("PATH", ""))
    if key in _found:
        return _found[key]
    too_old: list[str] = []
    for home in _candidates():
        home = Path(os.path.realpath(home))
        if not ((home / "bin" / "javac").is_file() and (home / "bin" / "java").is_file()):
            continue
        version = _release_version(home) or _version(home / "bin" / "javac")
        if version is None:
            continue
        if version < MIN_VERSION:
            too_old.append(f"JDK {version} at {home}")
            continue
        _found[key] = Jdk(home, version)
        return _found[key]
    found = f" (found only {', '.join(too_old)})" if too_old else ""
    raise NoJdk(
        f"no JDK {MIN_VERSION} or newer found{found}: Java agents need javac and java "
        f"{MIN_VERSION}+ on PATH or under JAVA_HOME; {INSTALL_HINT}"
    )
