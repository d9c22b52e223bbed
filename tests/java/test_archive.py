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
    record = play_match(make_scenario({"tasks": 3}), [str(agent), "naive"], seed=2).to_json()
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


# What the referee's archive check must not do for a folder that merely looks like a Java agent's:
# read, stat or follow anything of it outside the sandbox, and write what it saw where the agent reads.
_SIZE, _MTIME = 123457, 1_111_111_111_222_333_444  # the host file's, as the agent would read them


def _host_file(tmp_path: Path) -> Path:
    target = tmp_path / "host-secret"
    target.write_bytes(b"s" * _SIZE)
    os.utime(target, ns=(_MTIME, _MTIME))
    return target


def _nothing_of(target: Path, folder: Path) -> None:
    """No key file in the folder, and nothing of the target's size or time in any of its files."""
    assert not (folder / ".build" / KEY_FILE).exists() and not archive_path(folder).exists()
    marks = [str(_SIZE).encode(), str(_MTIME).encode(), str(_MTIME // 10**9).encode(), str(target).encode()]
    for root, _, files in os.walk(folder):
        for name in files:
            path = Path(root) / name
            if path.is_symlink() or not path.is_file():
                continue
            data = path.read_bytes()
            assert not any(mark in data for mark in marks), path


def test_a_folder_that_only_looks_like_a_java_agent_learns_nothing_of_a_host_file(tmp_path: Path) -> None:
    target = _host_file(tmp_path)
    folder = tmp_path / "agents" / "leak"
    (folder / "lib").mkdir(parents=True)
    (folder / ".build").mkdir()
    (folder / ".build" / "java").symlink_to(target)
    (folder / "lib" / "apdp-logist-host.jar").write_text("not a jar")
    (folder / "main.py").write_text(
        "import os, sys\n"
        "key = os.path.join(os.path.dirname(os.path.abspath(__file__)), '.build', 'apdp-logist-host.jsa.key')\n"
        "sys.stderr.write('key: ' + (open(key).read() if os.path.exists(key) else 'none') + '\\n')\n"
        "sys.exit(3)\n")
    (folder / "agent.toml").write_text(
        'command = ["python3", "{dir}/main.py", "{dir}/.build/java", '
        '"-XX:SharedArchiveFile={dir}/.build/apdp-logist-host.jsa", "-cp", "x"]\n')
    assert ensure_archive(read_program(folder)) is not None  # refused from its command's strings alone
    record = play_match(make_scenario({"tasks": 3}), [str(folder), "naive"], seed=2).to_json()
    assert "referee_error" not in record["result"]  # the agent may fault; the referee does not fail
    _nothing_of(target, folder)
    assert str(_SIZE) not in record["output"][0] and str(_MTIME) not in record["output"][0]


def test_apdps_own_command_with_links_in_the_folder_gets_no_archive_and_nothing_written(
        agents: Path, tmp_path: Path) -> None:
    target = _host_file(tmp_path)
    installed = (agents / "plain" / "agent.toml").read_text()
    # the host jar a link to a host file; then the whole lib folder a link
    folder = agents / "linked"
    shutil.copytree(agents / "plain", folder, symlinks=True, ignore=shutil.ignore_patterns(".build"))
    (folder / "agent.toml").write_text(installed)
    (folder / "lib" / "apdp-logist-host.jar").unlink()
    (folder / "lib" / "apdp-logist-host.jar").symlink_to(target)
    why = ensure_archive(read_program(folder))
    assert why is not None and "not a regular file of the agent's folder" in why, why
    _nothing_of(target, folder)
    shutil.rmtree(folder / "lib")
    other = tmp_path / "lib"
    other.mkdir()
    (other / "apdp-logist-host.jar").symlink_to(target)
    (folder / "lib").symlink_to(other)
    assert ensure_archive(read_program(folder)) is not None
    _nothing_of(target, folder)
    # a build folder that is a link: nothing of apdp's is written through it
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(folder)
    shutil.copytree(agents / "plain", folder, ignore=shutil.ignore_patterns(".build"))
    (folder / ".build").symlink_to(elsewhere)
    why = ensure_archive(read_program(folder))
    assert why is not None and "not a folder" in why
    assert list(elsewhere.iterdir()) == []
