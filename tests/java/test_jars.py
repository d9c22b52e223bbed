"""An agent's jar is read on the host under caps (apdp.agents.java.jars): a zip bomb given to
``apdp logist add`` is refused in one line, naming the jar and the cap, before it is inflated."""

from __future__ import annotations

import struct
import subprocess
import sys
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from apdp.agents.java import jars
from apdp.agents.java.jars import UNREADABLE, AgentJar, JarTooLarge
from apdp.errors import UserError


def _bomb(path: Path, mib: int = 100) -> Path:
    """A jar whose Agent.class inflates to ``mib`` MiB of zeros (some 100 KB on disk)."""
    with (zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as z,
          z.open("Agent.class", "w", force_zip64=True) as f):
        block = b"\0" * (1 << 20)
        for _ in range(mib):
            f.write(block)
    return path


def _jar(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def test_logist_add_refuses_a_zip_bomb_in_one_line_without_inflating_it(java_cache: Path, tmp_path: Path) -> None:
    from apdp.agents.java.install import add_agent

    bomb = _bomb(tmp_path / "bomb.jar")
    assert bomb.stat().st_size < 2 * 2**20
    tracemalloc.start()
    try:
        with pytest.raises(JarTooLarge) as caught:
            add_agent(bomb, "Agent", agents_dir=tmp_path / "agents")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(caught.value)
    assert str(bomb) in message and "64 MiB" in message and "\n" not in message
    assert peak < 16 * 2**20, peak  # not inflated: the member's declared size is refused
    assert not (tmp_path / "agents" / "agent").exists()
    run = subprocess.run(
        [sys.executable, "-c", "from apdp.cli import console; console()", "logist", "add", str(bomb), "Agent",
         "--agents-dir", str(tmp_path / "agents")], capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "64 MiB" in run.stderr, run.stderr


def test_a_jar_past_its_total_or_its_member_count_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jars, "MAX_TOTAL_BYTES", 2**20)
    many = _jar(tmp_path / "many.jar", {f"p/C{i}.class": b"\0" * 300_000 for i in range(4)})
    with pytest.raises(JarTooLarge, match=r"many\.jar: more than 1 MiB uncompressed in all"):
        AgentJar(many)
    monkeypatch.setattr(jars, "MAX_TOTAL_BYTES", 2**30)
    monkeypatch.setattr(jars, "MAX_MEMBERS", 3)
    with pytest.raises(JarTooLarge, match=r"many\.jar: more than 3 members"):
        AgentJar(many)
    monkeypatch.setattr(jars, "MAX_MEMBERS", 10)
    # what is inflated counts, read after read of the same jar (a class path's lookups)
    monkeypatch.setattr(jars, "MAX_TOTAL_BYTES", 2**20)
    with pytest.raises(JarTooLarge, match="in all"), AgentJar(many, already=2**20 - 100_000) as z:
        z.read("p/C0.class")


def test_a_member_that_declares_less_than_it_holds_is_not_read_past_its_declaration(tmp_path: Path) -> None:
    jar = _jar(tmp_path / "liar.jar", {"Agent.class": b"\0" * (4 << 20)})
    data = bytearray(jar.read_bytes())
    local = data.index(b"PK\x03\x04")
    central = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, local + 22, 1024)  # the uncompressed size, in both headers
    struct.pack_into("<I", data, central + 24, 1024)
    jar.write_bytes(bytes(data))
    with AgentJar(jar) as z:
        try:
            got = z.read("Agent.class")
        except UNREADABLE:
            got = b""
    assert len(got) <= 1024


def test_a_class_path_jar_past_its_caps_is_a_one_line_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from apdp.agents.java.classfile import ClassPath
    from apdp.agents.java.libraries import missing_libraries

    monkeypatch.setattr(jars, "MAX_MEMBER_BYTES", 2**20)
    jar = _jar(tmp_path / "big.jar", {"Agent.class": b"\0" * (2 << 20)})
    for read in (lambda: ClassPath([jar]).find("Agent"), lambda: missing_libraries([jar])):
        with pytest.raises(UserError, match=r"big\.jar: member 'Agent\.class' is larger than 1 MiB") as caught:
            read()
        assert "\n" not in str(caught.value)


def test_logist_add_refuses_a_huge_sparse_class_or_jar_and_a_class_of_30000_interfaces_in_one_line(
        java_cache: Path, tmp_path: Path) -> None:
    """A 600 MiB sparse .class was read and copied whole ("installed"); a 600 kB jar whose class names
    30,000 interfaces held add for half an hour; a 600 MiB sparse jar was copied whole."""
    from apdp.agents.java.classfile import ClassFileError
    from apdp.agents.java.install import add_agent
    from tests.classfiles import many_interfaces

    agents = tmp_path / "agents"
    (tmp_path / "bin" / "pkg").mkdir(parents=True)
    with (tmp_path / "bin" / "pkg" / "Agent.class").open("wb") as f:
        f.truncate(600 * 2**20)
    for class_name in ("pkg.Agent", "Agent"):  # copied as the folder's classes, or read to find the class
        with pytest.raises(UserError) as caught:
            add_agent(tmp_path / "bin", class_name, agents_dir=agents)
        message = str(caught.value)
        assert "Agent.class is 600" in message and "16 MiB" in message and "\n" not in message, message
    sparse = tmp_path / "sparse.jar"
    with sparse.open("wb") as f:
        f.seek(600 * 2**20)
        f.write(many_interfaces(tmp_path / "small.jar", 1).read_bytes())  # a jar after 600 MiB of nothing
    with pytest.raises(JarTooLarge, match=r"sparse\.jar: 600 MiB; an agent's jar may be at most 128 MiB"):
        add_agent(sparse, "Agent", agents_dir=agents)
    crafted = many_interfaces(tmp_path / "crafted.jar")
    with pytest.raises(ClassFileError, match=r"Agent: not a readable class file .*30000 interfaces"):
        add_agent(crafted, "Agent", agents_dir=agents)
    run = subprocess.run(
        [sys.executable, "-c", "from apdp.cli import console; console()", "logist", "add", str(crafted), "Agent",
         "--agents-dir", str(agents)], capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "30000 interfaces" in run.stderr, run.stderr
    installed = [p for p in agents.rglob("*") if p.is_file()] if agents.exists() else []
    assert installed == [] and sum(p.stat().st_blocks for p in tmp_path.rglob("*") if p.is_file()) < 2**16
