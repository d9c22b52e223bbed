"""A Java agent's class data archive (apdp.agents.java.archive): made at install, used as it is by
later matches, made again when the host jar it was made from changes or when it is damaged, and
never needed: an agent whose archive is missing, damaged or cannot be made still plays. No timing
here: bench/java_match.py measures what the archive saves.
"""

from __future__ import annotations

import os
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from apdp.agents.java import archive
from apdp.agents.java.archive import ARCHIVE_FILE, KEY_FILE, archive_path, ensure_archive
from apdp.agents.program import read_program
from apdp.referee.match import play_match
from apdp.scenario import make_scenario
from tests.paths import JAVA

SOURCES = JAVA / "project" / "src"


@pytest.fixture
def agents(tmp_path: Path, java_cache: Path) -> Path:
    """An agents folder with demo.Plain installed from its sources (plain)."""
    from apdp.agents.java.install import add_agent

    installed = add_agent(SOURCES, "demo.Plain", name="plain", agents_dir=tmp_path / "agents")
    assert installed.notes == ()
    return tmp_path / "agents"


@pytest.fixture
def makes(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The archives made from here on (each call of archive._make)."""
    made: list[Path] = []
    make: Callable[..., str | None] = archive._make

    def counting(launch: object, folder: Path, path: Path, key: dict[str, object]) -> str | None:
        made.append(folder)
        return make(launch, folder, path, key)

    monkeypatch.setattr(archive, "_make", counting)
    return made


def _plays(agent: Path) -> None:
    record = play_match(make_scenario({"tasks": 3}), [str(agent), "naive"], seed=2)
    assert record["result"]["faults"] == [], record["result"]["faults"]
    assert "SharedArchive" not in record["output"][0] and "[cds" not in record["output"][0]


def test_the_archive_is_made_at_install_and_used_by_every_match(agents: Path, makes: list[Path]) -> None:
    folder = agents / "plain"
    path = archive_path(folder)
    assert path.is_file() and (folder / ".build" / KEY_FILE).is_file()
    assert f"-XX:SharedArchiveFile={path}" in read_program(folder).command
    made = os.stat(path)
    _plays(folder)
    _plays(folder)
    assert ensure_archive(read_program(folder)) is None
    assert makes == [] and os.stat(path).st_ino == made.st_ino  # the same file: not made again


def test_an_agent_installed_into_a_relative_folder_gets_its_archive(
        tmp_path: Path, java_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from apdp.agents.java.install import add_agent

    monkeypatch.chdir(tmp_path)
    installed = add_agent(SOURCES, "demo.Plain", name="plain", agents_dir=Path("agents"))
    assert installed.notes == () and archive_path(tmp_path / "agents" / "plain").is_file()


def test_a_second_agent_has_its_own_archive_and_leaves_the_firsts_alone(agents: Path, makes: list[Path]) -> None:
    from apdp.agents.java.install import add_agent

    first = archive_path(agents / "plain")
    before = os.stat(first)
    add_agent(SOURCES, "demo.Plain", name="other", agents_dir=agents)
    assert archive_path(agents / "other").is_file()
    assert makes == [agents / "other"]
    assert os.stat(first).st_ino == before.st_ino and os.stat(first).st_mtime_ns == before.st_mtime_ns
    _plays(agents / "plain")
    assert makes == [agents / "other"]


def test_the_archive_is_made_again_when_the_host_jar_changes(agents: Path, makes: list[Path]) -> None:
    folder = agents / "plain"
    jar = folder / "lib" / "apdp-logist-host.jar"
    os.utime(jar, ns=(jar.stat().st_atime_ns, jar.stat().st_mtime_ns + 10**9))  # the JVM would refuse the old one
    _plays(folder)
    assert makes == [folder] and archive_path(folder).is_file()
    _plays(folder)
    assert makes == [folder]
    # nothing of an agent's own is run outside the sandbox: with options of its own, or a host jar
    # that is not the one apdp compiled, it gets no archive, and still plays
    toml = folder / "agent.toml"
    original = toml.read_text()
    toml.write_text(original.replace('"-XX:-UsePerfData", ', '"-XX:-UsePerfData", "-XX:OnError=touch {dir}/x", '))
    why = ensure_archive(read_program(folder))
    assert why is not None and "options are not apdp's" in why and not archive_path(folder).exists()
    toml.write_text(original)
    with zipfile.ZipFile(jar) as old, zipfile.ZipFile(folder / "other.jar", "w") as new:
        for entry in old.infolist():
            new.writestr(entry, old.read(entry))
        new.writestr("extra.txt", "not apdp's")
    os.replace(folder / "other.jar", jar)
    why = ensure_archive(read_program(folder))
    assert why is not None and "not the one this apdp compiled" in why
    assert not archive_path(folder).exists()
    _plays(folder)


@pytest.mark.parametrize("damage", ["truncated", "garbage", "missing", "a folder"])
def test_an_agent_plays_when_its_archive_is_damaged_or_missing(agents: Path, makes: list[Path], damage: str) -> None:
    folder = agents / "plain"
    path = archive_path(folder)
    data = path.read_bytes()
    path.unlink()
    if damage == "truncated":  # a JVM that mapped it would die of SIGBUS
        path.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        path.write_bytes(os.urandom(len(data)))
    elif damage == "a folder":
        path.mkdir()
    _plays(folder)
    if damage == "a folder":  # not apdp's to remove: the agent plays without an archive
        assert makes == [folder] and path.is_dir()
        shutil.rmtree(path)
    else:
        assert makes == [folder] and ensure_archive(read_program(folder)) is None  # made again, whole
    _plays(folder)


def test_an_agent_plays_without_an_archive_when_archives_are_off_or_cannot_be_made(
        agents: Path, makes: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    folder = agents / "plain"
    monkeypatch.setenv("APDP_JAVA_ARCHIVE", "0")
    _plays(folder)
    assert not archive_path(folder).exists() and makes == []
    monkeypatch.delenv("APDP_JAVA_ARCHIVE")
    monkeypatch.setattr(archive, "MAIN_CLASS", "apdp.host.NoSuchMain")  # the JVM fails to make it
    _plays(folder)
    key = (folder / ".build" / KEY_FILE).read_text()
    assert makes == [folder] and not archive_path(folder).exists() and "failed" in key
    _plays(folder)
    assert makes == [folder]  # a failure is remembered: not tried again for the same host, JVM and folder
    assert not (folder / ".build" / ARCHIVE_FILE).exists()
