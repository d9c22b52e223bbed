"""Class files and jars built byte by byte, for the tests of what apdp reads of them
(apdp.agents.java.classfile): small, and as crafted as a test needs."""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

ACC_PUBLIC, ACC_INTERFACE, ACC_ABSTRACT = 0x0001, 0x0200, 0x0400


def class_file(name: str, interfaces: list[str], super_name: str = "java/lang/Object",
               access: int = ACC_PUBLIC) -> bytes:
    """A class file that declares ``name``, its super class and ``interfaces``, and nothing else."""
    pool: list[bytes] = []

    def entry(data: bytes) -> int:
        pool.append(data)
        return len(pool)

    def class_entry(text: str) -> int:
        encoded = text.encode()
        return entry(b"\x07" + struct.pack(">H", entry(b"\x01" + struct.pack(">H", len(encoded)) + encoded)))

    this, parent = class_entry(name), class_entry(super_name)
    named = [class_entry(i) for i in interfaces]
    return (struct.pack(">IHHH", 0xCAFEBABE, 0, 52, len(pool) + 1) + b"".join(pool)
            + struct.pack(">HHHH", access, this, parent, len(named)) + b"".join(struct.pack(">H", i) for i in named)
            + struct.pack(">HHH", 0, 0, 0))


def jar(path: Path, classes: dict[str, bytes]) -> Path:
    """A jar of these classes (internal name -> bytes), compressed."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data in classes.items():
            z.writestr(f"{name}.class", data)
    return path


def many_interfaces(path: Path, count: int = 30_000) -> Path:
    """A jar whose public class ``Agent`` names ``count`` interfaces, none of them there (some 600 kB
    of class file for 30,000)."""
    return jar(path, {"Agent": class_file("Agent", [f"i/I{k:05d}" for k in range(count)])})
