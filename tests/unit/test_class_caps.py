"""Class files and jars an agent gives ``apdp logist add`` are read within bounds (apdp.agents.java.classfile):
a class file past its cap is refused before it is read or copied, a class that declares thousands of
interfaces is one line, and a class path opens each jar once and reads each class once, however
many names the classes ask for. The crafted inputs are built here (tests/classfiles.py), small (a
sparse file takes no disk)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from apdp.agents.files import AgentFilesError, copy_tree_of
from apdp.agents.java import classfile, jars
from apdp.agents.java.classfile import MAX_CLASS_BYTES, ClassFileError, ClassFileTooLarge, ClassPath
from apdp.agents.java.host import AUCTION_BEHAVIOR
from apdp.agents.java.install import BEHAVIORS
from apdp.agents.java.libraries import missing_libraries
from tests.classfiles import ACC_ABSTRACT, ACC_INTERFACE, class_file, jar, many_interfaces


class Reads:
    """The jars opened and the members read from here on; more than ``most`` opens fail the test at
    once (before a class path opened each jar again for every name: half an hour for 30,000)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, most: int) -> None:
        self.opened: list[Path] = []
        self.read: dict[str, int] = {}
        opening, reading = jars.AgentJar.__init__, jars.AgentJar.read

        def counted_open(this: jars.AgentJar, path: Path, already: int = 0) -> None:
            self.opened.append(path)
            if len(self.opened) > most:
                pytest.fail(f"jars opened {len(self.opened)} times: again for every class name")
            opening(this, path, already)

        def counted_read(this: jars.AgentJar, name: str) -> bytes:
            self.read[name] = self.read.get(name, 0) + 1
            return reading(this, name)

        monkeypatch.setattr(jars.AgentJar, "__init__", counted_open)
        monkeypatch.setattr(jars.AgentJar, "read", counted_read)


def test_a_class_of_30000_interfaces_is_one_line_and_its_jar_is_opened_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    agent = many_interfaces(tmp_path / "agent.jar")
    host = jar(tmp_path / "host.jar", {AUCTION_BEHAVIOR: class_file(AUCTION_BEHAVIOR, [], access=ACC_INTERFACE)})
    assert agent.stat().st_size < 2**20
    reads = Reads(monkeypatch, most=10)
    with ClassPath([agent, host]) as path, pytest.raises(ClassFileError) as caught:
        path.implements("Agent", AUCTION_BEHAVIOR)
    message = str(caught.value)
    assert message.startswith("Agent: not a readable class file") and "30000 interfaces" in message
    assert "\n" not in message and reads.opened == [agent] and reads.read == {"Agent.class": 1}


def test_a_class_path_reads_each_class_once_and_walks_a_bounded_number(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    interfaces = [f"i/I{k:04d}" for k in range(classfile.MAX_INTERFACES)]  # as many as a class may have
    members = {i: class_file(i, ["i/Base"], access=ACC_INTERFACE | ACC_ABSTRACT) for i in interfaces}
    members["i/Base"] = class_file("i/Base", [], access=ACC_INTERFACE | ACC_ABSTRACT)
    members["p/Parent"] = class_file("p/Parent", [AUCTION_BEHAVIOR])
    members["p/Agent"] = class_file("p/Agent", interfaces, super_name="p/Parent")
    agent = jar(tmp_path / "agent.jar", members)
    host = jar(tmp_path / "host.jar", {AUCTION_BEHAVIOR: class_file(AUCTION_BEHAVIOR, [], access=ACC_INTERFACE)})
    reads = Reads(monkeypatch, most=10)
    with ClassPath([agent, host]) as path:  # as install checks a class: each behaviour in the platform's order
        assert [path.implements("p/Agent", b) for b in BEHAVIORS] == [False, False, False, True]
        assert path.info("../../etc/passwd") is None  # no class is named so: nothing is looked up
    assert sorted(set(reads.opened)) == [agent, host] and len(reads.opened) == 2
    assert max(reads.read.values()) == 1 and len(reads.read) == len(members) + 1  # the host's interface too
    monkeypatch.setattr(classfile, "MAX_ANCESTORS", 100)
    with ClassPath([agent, host]) as path, pytest.raises(ClassFileError, match="name more than 100 classes"):
        path.implements("p/Agent", next(iter(BEHAVIORS)))


def test_a_600_mib_sparse_class_file_is_refused_before_it_is_read_or_copied(tmp_path: Path) -> None:
    classes = tmp_path / "bin"
    (classes / "pkg").mkdir(parents=True)
    big = classes / "pkg" / "Agent.class"
    with big.open("wb") as f:
        f.truncate(600 * 2**20)  # sparse: no disk
    copy = tmp_path / "copy"
    tracemalloc.start()
    try:
        with pytest.raises(ClassFileTooLarge) as caught:
            ClassPath([classes]).find("pkg/Agent")
        with pytest.raises(ClassFileTooLarge):
            missing_libraries([classes])
        with pytest.raises(AgentFilesError) as copied:
            copy_tree_of(classes, copy, ".class", MAX_CLASS_BYTES)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    for message in (str(caught.value), str(copied.value)):
        assert str(big) in message and "600" in message and "16 MiB" in message and "\n" not in message
    assert peak < 4 * 2**20, peak  # neither read nor copied
    assert not (copy / "pkg" / "Agent.class").exists()
