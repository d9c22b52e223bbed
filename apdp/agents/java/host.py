"""The Java host, compiled once per version of its sources and JDK, into the user's cache
(``~/.cache/apdp/java/<digest>/apdp-logist-host.jar``, or under ``$XDG_CACHE_HOME``).

The referee's side compiles it; sandboxed agents cannot read that cache, so every installed Java
agent gets its own copy in ``lib/`` of its folder (:mod:`apdp.agents.java.install`).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

from apdp.agents.java.compiler import first_error, javac
from apdp.agents.java.jdk import Jdk
from apdp.errors import UserError

#: The host's Java sources (package data).
HOST_SOURCES = Path(__file__).resolve().parent / "src"
#: The file name of the compiled host.
HOST_JAR = "apdp-logist-host.jar"
#: The host's main class.
MAIN_CLASS = "apdp.host.Main"
#: The Logist interface every auction agent implements (internal name).
AUCTION_BEHAVIOR = "logist/behavior/AuctionBehavior"


def host_sources() -> list[Path]:
    """The host's ``.java`` files, in a stable order."""
    return sorted(HOST_SOURCES.rglob("*.java"))


def sources_digest() -> str:
    """A digest of the host's sources (paths and contents)."""
    h = hashlib.sha256()
    for path in host_sources():
        h.update(str(path.relative_to(HOST_SOURCES)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def cache_root() -> Path:
    """Where compiled hosts are kept."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "apdp" / "java"


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    fd = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def host_jar(jdk: Jdk) -> Path:
    """The compiled host for ``jdk``: from the cache, or compiled now (under a lock, so parallel
    callers compile it once)."""
    folder = cache_root() / f"{sources_digest()[:20]}-jdk{jdk.version}"
    jar = folder / HOST_JAR
    if jar.is_file():
        return jar
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with _locked(folder):
            if not jar.is_file():
                _compile_host(jdk, jar)
    except OSError as exc:
        raise UserError(f"cannot write the Java host's cache {folder} ({exc.strerror}); "
                        "make it writable or set XDG_CACHE_HOME to a writable folder") from None
    return jar


def _compile_host(jdk: Jdk, jar: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="apdp-host-") as tmp:
        classes = Path(tmp) / "classes"
        done = javac(jdk, ["-d", str(classes)], host_sources())
        if not done.ok:
            raise UserError(f"apdp's Java host does not compile with JDK {jdk.version} at {jdk.home}: "
                            f"{first_error(done.output, HOST_SOURCES)}")
        partial = Path(tmp) / HOST_JAR
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("META-INF/MANIFEST.MF", f"Manifest-Version: 1.0\nMain-Class: {MAIN_CLASS}\n"
                       "Created-By: apdp\n")
            for path in sorted(classes.rglob("*.class")):
                z.write(path, str(path.relative_to(classes)))
        shutil.copyfile(partial, jar.with_suffix(".tmp"))
        os.replace(jar.with_suffix(".tmp"), jar)
