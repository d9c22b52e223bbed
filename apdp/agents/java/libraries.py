"""The libraries the Logist platform ships in its ``lib/`` folder, which agents import: the real ones,
as Debian packages them (``/usr/share/java``). An installed one is on every Java agent's class path
(to compile and to run); an agent that needs one that is missing is told, in one line, which Debian
package to install.

- colt 1.2 (``cern.colt``, ``cern.jet``, ``hep.aida``): ``libcolt-free-java``;
- Apache Commons Math (``org.apache.commons.math``; the platform ships 1.1, Debian 2.2, which keeps
  its package names): ``libcommons-math-java``;
- JDOM 1 (``org.jdom``): ``libjdom1-java``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from apdp.agents.java.classfile import MAX_CLASS_BYTES, ClassFileError, read_class_file, strings, too_large
from apdp.agents.java.jars import UNREADABLE, AgentJar

#: Where Debian installs Java libraries.
DEBIAN_JARS = Path("/usr/share/java")


@dataclass(frozen=True, slots=True)
class Library:
    """A library the platform ships: its name, Debian package, jar and packages (internal names)."""

    name: str
    package: str
    jar_name: str
    prefixes: tuple[str, ...]

    @property
    def jar(self) -> Path:
        """Where Debian's package puts the jar."""
        return DEBIAN_JARS / self.jar_name

    @property
    def installed(self) -> bool:
        """Whether the jar is there."""
        return self.jar.is_file()

    def owns(self, internal: str) -> bool:
        """Whether the class or package ``internal`` (``cern/colt/Arrays``) is this library's."""
        return internal.startswith(self.prefixes) or f"{internal}/".startswith(self.prefixes)

    def hint(self, example: str) -> str:
        """What to do when an agent needs this library and it is missing, in words."""
        return (f"it uses {self.name} ({example.replace('/', '.')}), which the Logist platform ships: install "
                f"the Debian package {self.package} (apt-get install {self.package})")


LIBRARIES = (
    Library("the colt library", "libcolt-free-java", "colt.jar",
            ("cern/colt/", "cern/jet/", "cern/clhep/", "hep/aida/")),
    Library("Apache Commons Math", "libcommons-math-java", "commons-math.jar", ("org/apache/commons/math/",)),
    Library("JDOM", "libjdom1-java", "jdom1.jar", ("org/jdom/",)),
)

_MISSING_PACKAGE = re.compile(r"package ([\w.]+) does not exist")
_LOCATION_PACKAGE = re.compile(r"location: package ([\w.]+)")
#: A class name in a class file's strings: ``cern/colt/Arrays``, or within a descriptor ``Lorg/jdom/Element;``.
_CLASS_NAME = re.compile(r"(?:^|L)((?:cern|hep|org/apache/commons/math|org/jdom)/[\w/$]+)")


def class_path() -> list[Path]:
    """The jars of the installed libraries, in the order of :data:`LIBRARIES`."""
    return [lib.jar for lib in LIBRARIES if lib.installed]


def library_of(name: str) -> Library | None:
    """The library of a class or package name (dotted or internal), or None."""
    internal = name.replace(".", "/")
    return next((lib for lib in LIBRARIES if lib.owns(internal)), None)


def compile_hint(output: str) -> str | None:
    """For javac's ``output``: the one-line hint when it failed on a package of a library that is not
    installed (``package cern.colt does not exist``), else None."""
    for pattern in (_MISSING_PACKAGE, _LOCATION_PACKAGE):
        for match in pattern.finditer(output):
            lib = library_of(match.group(1))
            if lib is not None and not lib.installed:
                return lib.hint(match.group(1))
    return None


def _class_files(root: Path) -> Iterator[tuple[str, bytes]]:
    """(internal name, bytes) of each class file in a folder of classes or a jar, each read once;
    ClassFileTooLarge for one larger than a class file may be, before it is read."""
    if root.is_dir():
        for path in sorted(root.rglob("*.class")):
            if path.is_file():
                try:
                    data = read_class_file(path)
                except OSError:
                    continue
                yield str(path.relative_to(root))[:-6], data
        return
    try:
        with AgentJar(root) as z:  # JarTooLarge past its caps
            for entry in z.names():
                if entry.endswith(".class") and not entry.startswith("META-INF/"):
                    size = z.size(entry) or 0
                    if size > MAX_CLASS_BYTES:
                        raise too_large(f"{entry} in {root}", size)
                    yield entry[:-6], z.read(entry)
    except UNREADABLE:
        return


def missing_libraries(roots: Iterable[Path]) -> list[tuple[Library, str]]:
    """The libraries the compiled classes under ``roots`` (folders of classes, jars) refer to, that
    are neither installed nor bundled with the classes: each with one class it names."""
    names: set[str] = set()
    own: set[str] = set()
    for root in roots:
        for internal, data in _class_files(root):
            own.add(internal)
            try:
                for text in strings(data):
                    names.update(m.group(1) for m in _CLASS_NAME.finditer(text))
            except ClassFileError:
                continue
    out: list[tuple[Library, str]] = []
    for lib in LIBRARIES:
        if lib.installed:
            continue
        used = sorted(n for n in names if lib.owns(n) and n not in own)
        if used:
            out.append((lib, used[0]))
    return out
