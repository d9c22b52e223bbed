"""Reading what a compiled Java class declares (no JVM, none of its code run): its name, super
class, interfaces, access flags, whether it has a public constructor without arguments, its
source file's name, and the strings of its constant pool (the classes it names)."""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from apdp.errors import UserError

ACC_PUBLIC = 0x0001
ACC_INTERFACE = 0x0200
ACC_ABSTRACT = 0x0400

# Constant pool entries: tag -> bytes after the tag (Utf8 is read apart; Long and Double take two slots).
_SIZES = {3: 4, 4: 4, 5: 8, 6: 8, 7: 2, 8: 2, 9: 4, 10: 4, 11: 4, 12: 4, 15: 3, 16: 2, 17: 4, 18: 4, 19: 2, 20: 2}


class ClassFileError(UserError):
    """Bytes that are not a class file."""


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
        self.data = data
        self.at = 0

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
        for _ in range(self.u2()):
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
    interfaces = tuple(class_name(r.u2()) or "" for _ in range(r.u2()))
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
    """Class files looked up by internal name in folders and jars, in order."""

    def __init__(self, entries: Sequence[Path]) -> None:
        self.entries = list(entries)
        #: The bytes inflated so far from each jar: its caps hold for all the lookups in it
        #: (apdp.agents.java.jars).
        self._inflated: dict[Path, int] = {}

    def find(self, name: str) -> bytes | None:
        """The bytes of class ``name`` (``pkg/Name``), or None. A jar past its caps raises
        :class:`apdp.agents.java.jars.JarTooLarge`."""
        from apdp.agents.java.jars import UNREADABLE, AgentJar

        for entry in self.entries:
            if entry.is_dir():
                path = entry / f"{name}.class"
                if path.is_file():
                    return path.read_bytes()
            elif entry.is_file():
                try:
                    with AgentJar(entry, self._inflated.get(entry, 0)) as z:
                        try:
                            return z.read(f"{name}.class")
                        finally:
                            self._inflated[entry] = z.inflated
                except (KeyError, *UNREADABLE):
                    continue
        return None

    def info(self, name: str) -> ClassInfo | None:
        """The declarations of class ``name``, or None when it is not on this path."""
        data = self.find(name)
        if data is None:
            return None
        try:
            return read_class(data)
        except ClassFileError as exc:
            raise ClassFileError(f"{name.replace('/', '.')}: not a readable class file ({exc})") from None

    def implements(self, name: str, interface: str) -> bool:
        """True when class ``name`` or one of its ancestors on this path implements ``interface``."""
        seen: set[str] = set()
        todo = [name]
        while todo:
            current = todo.pop()
            if current == interface:
                return True
            if current in seen:
                continue
            seen.add(current)
            info = self.info(current)
            if info is not None:
                todo.extend(info.interfaces)
                if info.super_name:
                    todo.append(info.super_name)
        return False
