"""Reading what a compiled Java class declares (no JVM, none of its code run): its name, super
class, interfaces, access flags, whether it has a public constructor without arguments, its
source file's name, and the strings of its constant pool (the classes it names).

Class files are an agent's, and every read is bounded: a class file larger than
:data:`MAX_CLASS_BYTES` is refused before it is read (from a folder or a jar), one that declares
more than :data:`MAX_INTERFACES` interfaces or :data:`MAX_ATTRIBUTES` attributes is no class apdp
reads, and a class path reads each class once (each jar is opened once) and walks at most
:data:`MAX_ANCESTORS` classes to tell what a class implements. Each is one line naming the class.
"""

from __future__ import annotations

import os
import re
import stat
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from apdp.errors import UserError

if TYPE_CHECKING:
    from apdp.agents.java.jars import AgentJar

#: The largest class file apdp reads (javac's own are at most a few hundred kB).
MAX_CLASS_BYTES = 16 * 2**20
#: The most interfaces a class may declare (the format allows 65,535; no agent needs a thousand).
MAX_INTERFACES = 1024
#: The most attributes of a class, its fields and methods, in all.
MAX_ATTRIBUTES = 65_536
#: The most classes walked to tell whether a class implements an interface.
MAX_ANCESTORS = 4096
#: A class's name as class files write it: ``pkg/Name``, no ``.``, no empty part.
_INTERNAL = re.compile(r"^[^./;\[]+(/[^./;\[]+)*$")

ACC_PUBLIC = 0x0001
ACC_INTERFACE = 0x0200
ACC_ABSTRACT = 0x0400

# Constant pool entries: tag -> bytes after the tag (Utf8 is read apart; Long and Double take two slots).
_SIZES = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}


class ClassFileError(UserError):
    """Bytes that are not a class file (or one past a cap on what it declares)."""


class ClassFileTooLarge(UserError):
    """A class file larger than :data:`MAX_CLASS_BYTES` (one line: which, and the cap)."""


def too_large(what: str, size: int) -> ClassFileTooLarge:
    """The error for the class file ``what``, of ``size`` bytes."""
    return ClassFileTooLarge(f"{what} is {size / 2**20:.0f} MiB; a class file apdp reads may be at most "
                             f"{MAX_CLASS_BYTES >> 20} MiB: remove it, or give the folder of the agent's classes alone")


def read_class_file(path: Path) -> bytes:
    """The bytes of the class file at ``path``, refused (:class:`ClassFileTooLarge`) before reading
    when it is larger than :data:`MAX_CLASS_BYTES`; OSError for anything but a regular file (a FIFO is
    not waited on)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{path} is not a regular file")
        if st.st_size > MAX_CLASS_BYTES:
            raise too_large(str(path), st.st_size)
        data = f.read(MAX_CLASS_BYTES + 1)
    if len(data) > MAX_CLASS_BYTES:  # it grew since
        raise too_large(str(path), len(data))
    return data


@dataclass(frozen=True, slots=True)
class ClassInfo:
    """What a class file declares (names in internal form: ``logist/task/Task``)."""

    name: str
    access: int
    super_name: str | None
    interfaces: tuple[str, ...]
    public_no_arg_constructor: bool
    source_file: str | None

    @property
    def instantiable(self) -> bool:
        """A public class, neither abstract nor an interface."""
        return bool(self.access & ACC_PUBLIC) and not self.access & (ACC_INTERFACE | ACC_ABSTRACT)


class _Reader:
    def __init__(self, data: bytes) -> None:
        if len(data) > MAX_CLASS_BYTES:
            raise too_large("the class file", len(data))
        self.data = data
        self.at = 0
        #: Attributes walked so far.
        self.walked = 0

    def take(self, fmt: str) -> tuple[int, ...]:
        size = struct.calcsize(fmt)
        if self.at + size > len(self.data):
            raise ClassFileError("truncated class file")
        values = struct.unpack_from(fmt, self.data, self.at)
        self.at += size
        return values

    def u2(self) -> int:
        return self.take(">H")[0]

    def skip(self, size: int) -> None:
        self.at += size

    def attributes(self, utf8: Callable[[int], str]) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        count = self.u2()
        self.walked += count
        if self.walked > MAX_ATTRIBUTES:
            raise ClassFileError(f"more than {MAX_ATTRIBUTES} attributes; apdp reads no such class")
        for _ in range(count):
            name, length = self.take(">HI")
            out[utf8(name)] = self.data[self.at:self.at + length]
            self.skip(length)
        return out


def _pool(r: _Reader) -> tuple[dict[int, str], dict[int, int]]:
    """The constant pool's strings (Utf8 entries) and class entries (index -> name index)."""
    magic, _, _, count = r.take(">IHHH")
    if magic != 0xCAFEBABE:
        raise ClassFileError("not a class file")
    data = r.data
    strings: dict[int, str] = {}
    classes: dict[int, int] = {}
    i = 1
    while i < count:
        (tag,) = r.take(">B")
        if tag == 1:
            length = r.u2()
            strings[i] = data[r.at:r.at + length].decode("utf-8", "replace")
            r.skip(length)
        elif tag == 7:
            classes[i] = r.u2()
        elif tag in _SIZES:
            r.skip(_SIZES[tag])
        else:
            raise ClassFileError(f"unknown constant pool tag {tag}")
        i += 2 if tag in (5, 6) else 1
    return strings, classes


def strings(data: bytes) -> list[str]:
    """The strings of a class file's constant pool (names, descriptors, literals)."""
    return list(_pool(_Reader(data))[0].values())


def read_class(data: bytes) -> ClassInfo:
    """Parse a class file's declarations."""
    r = _Reader(data)
    texts, classes = _pool(r)

    def utf8(index: int) -> str:
        return texts.get(index, "")

    def class_name(index: int) -> str | None:
        return utf8(classes[index]) if index in classes else None

    access, this, parent = r.take(">HHH")
    count = r.u2()
    if count > MAX_INTERFACES:
        raise ClassFileError(f"it declares {count} interfaces; apdp reads classes of at most {MAX_INTERFACES}")
    interfaces = tuple(class_name(r.u2()) or "" for _ in range(count))
    for _ in range(r.u2()):  # fields
        r.skip(6)
        r.attributes(utf8)
    constructor = False
    for _ in range(r.u2()):  # methods
        flags, name, descriptor = r.take(">HHH")
        r.attributes(utf8)
        if utf8(name) == "<init>" and utf8(descriptor) == "()V" and flags & ACC_PUBLIC:
            constructor = True
    attributes = r.attributes(utf8)
    source = attributes.get("SourceFile")
    return ClassInfo(class_name(this) or "", access, class_name(parent), interfaces, constructor,
                     utf8(struct.unpack(">H", source)[0]) if source and len(source) == 2 else None)


class ClassPath:
    """Class files looked up by internal name in folders and jars, in order (a context manager:
    :meth:`close` closes its jars). Each jar is opened once, and each class read once."""

    def __init__(self, entries: Sequence[Path]) -> None:
        self.entries = list(entries)
        #: Each jar of the path, open (None: it cannot be read); its caps hold for all the lookups
        #: in it (apdp.agents.java.jars).
        self._jars: dict[Path, AgentJar | None] = {}
        #: What each class looked up declares (None: not on this path).
        self._infos: dict[str, ClassInfo | None] = {}

    def __enter__(self) -> ClassPath:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the jars opened so far."""
        for jar in self._jars.values():
            if jar is not None:
                jar.close()
        self._jars.clear()

    def _jar(self, entry: Path) -> AgentJar | None:
        from apdp.agents.java.jars import UNREADABLE, AgentJar

        if entry not in self._jars:
            try:
                self._jars[entry] = AgentJar(entry)  # JarTooLarge past its caps
            except UNREADABLE:
                self._jars[entry] = None
        return self._jars[entry]

    def find(self, name: str) -> bytes | None:
        """The bytes of class ``name`` (``pkg/Name``), or None. A jar past its caps raises
        :class:`apdp.agents.java.jars.JarTooLarge`, a class file past :data:`MAX_CLASS_BYTES`
        :class:`ClassFileTooLarge`."""
        from apdp.agents.java.jars import UNREADABLE

        if not _INTERNAL.match(name):  # no class is named so: nothing outside the path is looked at
            return None
        member = f"{name}.class"
        for entry in self.entries:
            if entry.is_dir():
                path = entry / member
                if path.is_file():
                    try:
                        return read_class_file(path)
                    except OSError:
                        continue
            elif entry.is_file():
                jar = self._jar(entry)
                size = jar.size(member) if jar is not None else None
                if jar is None or size is None:
                    continue
                if size > MAX_CLASS_BYTES:
                    raise too_large(f"{member} in {entry}", size)
                try:
                    return jar.read(member)
                except UNREADABLE:
                    continue
        return None

    def info(self, name: str) -> ClassInfo | None:
        """The declarations of class ``name``, or None when it is not on this path (read once)."""
        if name in self._infos:
            return self._infos[name]
        data = self.find(name)
        try:
            info = None if data is None else read_class(data)
        except ClassFileError as exc:
            raise ClassFileError(f"{name.replace('/', '.')}: not a readable class file ({exc})") from None
        self._infos[name] = info
        return info

    def implements(self, name: str, interface: str) -> bool:
        """True when class ``name`` or one of its ancestors on this path implements ``interface``
        (ClassFileError past :data:`MAX_ANCESTORS` classes walked)."""
        seen: set[str] = set()
        todo = [name]
        while todo:
            current = todo.pop()
            if current == interface:
                return True
            if current in seen:
                continue
            seen.add(current)
            if len(seen) > MAX_ANCESTORS:
                raise ClassFileError(f"{name.replace('/', '.')}: its super classes and interfaces name more than "
                                     f"{MAX_ANCESTORS} classes; apdp reads no such class")
            info = self.info(current)
            if info is not None:
                todo.extend(info.interfaces)
                if info.super_name:
                    todo.append(info.super_name)
        return False
