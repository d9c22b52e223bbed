"""An agent program's build runs confined like the agent, under apdp's limits (issue 17, class 6):
it writes a fresh capped folder whose regular files are copied into ``.build``, it never takes
longer than ``limits.build_timeout`` whatever its agent.toml asks, and a failed build is remembered
(later matches fault at once) until a source changes."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from apdp.agents.program import BUILD_BOOKKEEPING
from apdp.referee.match import play_match
from tests.matches import fast_scenario
from tests.paths import PROGRAMS


def _program(tmp_path: Path, build: str, timeout: str = "") -> Path:
    """The C test agent with another build command (``{dir}`` is its folder) and build_timeout."""
    folder = tmp_path / "agents" / "builder"
    shutil.copytree(PROGRAMS / "c_abstain", folder)
    lines = [f"build = [\"/bin/sh\", \"-c\", {build!r}]".replace("'", '"'), 'command = ["{dir}/.build/agent"]']
    if timeout:
        lines.append(f"build_timeout = {timeout}")
    (folder / "agent.toml").write_text("\n".join(lines) + "\n")
    return folder


def _setup_fault(folder: Path, **limits: object) -> tuple[str, float]:
    """Play the program: (its setup fault's message, the match's seconds)."""
    started = time.monotonic()
    record = play_match(fast_scenario(tasks=2, limits=limits), [str(folder), "naive"], seed=1).to_json()
    took = time.monotonic() - started
    (fault,) = record["result"]["faults"]
    assert fault["agent"] == 0 and fault["phase"] == "setup", fault
    return fault["message"], took


def _kept(folder: Path) -> list[str]:
    return sorted(p.name for p in (folder / ".build").iterdir() if p.name not in BUILD_BOOKKEEPING)


def test_a_build_is_copied_out_regular_files_only_and_runs(tmp_path: Path) -> None:
    folder = _program(tmp_path, "mkdir -p {dir}/.build/docs && echo notes > {dir}/.build/docs/notes.txt && "
                                "cc -O2 -o {dir}/.build/agent {dir}/agent.c")
    record = play_match(fast_scenario(tasks=2), [str(folder), "naive"], seed=1).to_json()
    assert record["result"]["faults"] == [], record["result"]["faults"]
    assert _kept(folder) == ["agent", "docs"] and (folder / ".build" / "docs" / "notes.txt").read_text() == "notes\n"
    assert os.access(folder / ".build" / "agent", os.X_OK)


def test_a_build_that_fills_the_disk_is_stopped_at_its_cap(tmp_path: Path) -> None:
    folder = _program(tmp_path, "head -c 700000000 /dev/zero > {dir}/.build/big && "
                                "cc -o {dir}/.build/agent {dir}/agent.c")
    message, _ = _setup_fault(folder, disk_mb=32)
    assert "the build failed" in message
    assert _kept(folder) == []  # nothing of it reached the agent's folder


def test_a_build_that_makes_too_many_files_is_stopped(tmp_path: Path) -> None:
    folder = _program(tmp_path, "for i in $(seq 1 600); do : > {dir}/.build/f$i || exit 1; done")
    message, _ = _setup_fault(folder, disk_files=100)
    assert "the build failed" in message and _kept(folder) == []


def test_a_build_that_leaves_a_link_keeps_nothing(tmp_path: Path) -> None:
    folder = _program(tmp_path, "ln -s /etc/passwd {dir}/.build/agent")
    message, _ = _setup_fault(folder)
    assert "not a regular file or folder" in message and _kept(folder) == []


@pytest.mark.parametrize("asked", ["2e6", "1e9"])
def test_a_build_never_takes_longer_than_apdps_limit_and_fails_once(tmp_path: Path, asked: str) -> None:
    """The agent.toml asks for 2e6 s (or 1e9 s): the build is killed at limits.build_timeout, and
    the next match faults at once with the same reason."""
    folder = _program(tmp_path, "sleep 1000", timeout=asked)
    message, took = _setup_fault(folder, build_timeout=2.0)
    assert "no answer within 2 s" in message and took < 30, (message, took)
    again, took = _setup_fault(folder, build_timeout=2.0)
    assert "failed to build before" in again and took < 2.0, (again, took)
    (folder / "agent.c").write_text((folder / "agent.c").read_text() + "\n")  # a source changes: built again
    third, took = _setup_fault(folder, build_timeout=2.0)
    assert "failed to build before" not in third and "no answer within 2 s" in third


def test_a_build_cannot_reach_the_real_build_folder_through_its_parent(tmp_path: Path) -> None:
    """The build worker holds the real folder open (to copy the output in): a build that looks for it
    in /proc/PPID/fd finds nothing to open there, and plants nothing the referee would trip on."""
    plant = ("for f in /proc/$PPID/fd/*; do if [ -e $f/.lock ]; then echo reached $f; "
             "mkfifo $f/.apdp-sources; mkdir $f/.apdp-failed; head -c 1000000 /dev/zero > $f/.lock; fi; done; "
             "cc -o {dir}/.build/agent {dir}/agent.c")
    folder = _program(tmp_path, plant)
    for _ in range(2):
        record = play_match(fast_scenario(tasks=2), [str(folder), "naive"], seed=1).to_json()
        assert record["result"]["faults"] == [], record["result"]["faults"]
    for name in (".apdp-sources", ".apdp-failed", ".lock"):
        path = folder / ".build" / name
        assert not path.exists() or (path.is_file() and path.stat().st_size < 1000), name


@pytest.mark.parametrize("kind", ["fifo", "folder", "link"])
def test_bookkeeping_replaced_by_something_else_is_rebuilt_not_read(tmp_path: Path, kind: str) -> None:
    folder = _program(tmp_path, "cc -o {dir}/.build/agent {dir}/agent.c")
    (folder / ".build").mkdir()
    for name in (".apdp-sources", ".apdp-failed", ".lock"):
        path = folder / ".build" / name
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "folder":
            (path / "inside").mkdir(parents=True)
        else:
            path.symlink_to("/dev/zero")
    record = play_match(fast_scenario(tasks=2), [str(folder), "naive"], seed=1).to_json()
    assert record["result"]["faults"] == [], record["result"]["faults"]
    assert (folder / ".build" / ".apdp-sources").is_file()


def test_sparse_files_count_every_byte_they_would_write(tmp_path: Path) -> None:
    """A sparse file takes no room in the build's capped folder but every byte of it on the real disk:
    the copy out counts bytes written, refuses past the cap, and leaves nothing behind."""
    folder = _program(tmp_path, "for i in 1 2 3 4 5 6 7 8; do truncate -s 60M {dir}/.build/zero$i; done && "
                                "cc -o {dir}/.build/agent {dir}/agent.c")
    message, _ = _setup_fault(folder, disk_mb=32)
    assert "more than its folder's cap of 32 MiB" in message, message
    assert _kept(folder) == []


def test_an_agent_s_files_that_trip_the_referee_s_readers_are_its_fault_not_a_referee_error(tmp_path: Path) -> None:
    """What the referee reads of an agent program's folder before the match (its agent.toml, its build
    folder, a Java agent's class data archive key) is the agent's: nothing in it stops the referee."""
    deep = tmp_path / "agents" / "deep"
    deep.mkdir(parents=True)
    (deep / "agent.toml").write_text("command = " + "[" * 3000 + '"x"' + "]" * 3000 + "\n")
    message, _ = _setup_fault(deep)
    assert "nested too deeply" in message

    not_a_folder = _program(tmp_path / "file", "cc -o {dir}/.build/agent {dir}/agent.c")
    (not_a_folder / ".build").write_text("a file where apdp keeps the build\n")
    message, _ = _setup_fault(not_a_folder)
    assert ".build is not a folder" in message

    # looks like an installed Java agent: the referee checks its archive's key, which the build wrote
    key_bomb = tmp_path / "agents" / "key-bomb"
    (key_bomb / "lib").mkdir(parents=True)
    (key_bomb / "lib" / "apdp-logist-host.jar").write_bytes(b"PK")
    (key_bomb / "build.sh").write_text(
        "python3 -c \"print('[' * 32000 + ']' * 32000)\" > \"$1/.build/apdp-logist-host.jsa.key\"\n")
    (key_bomb / "agent.toml").write_text(
        'build = ["/bin/sh", "{dir}/build.sh", "{dir}"]\n'
        'command = ["/bin/false", "/usr/bin/java", "-XX:SharedArchiveFile={dir}/.build/apdp-logist-host.jsa", '
        '"-cp", "{dir}"]\n')
    record = play_match(fast_scenario(tasks=2), [str(key_bomb), "naive"], seed=1).to_json()
    assert "referee_error" not in record["result"], record["result"]
    (fault,) = record["result"]["faults"]
    assert fault["agent"] == 0 and fault["phase"] == "setup", fault



def test_nothing_of_apdps_is_written_through_a_build_folder_that_is_a_link(tmp_path: Path) -> None:
    from apdp.agents.files import AgentFilesError
    from apdp.agents.program import BuildLock, ProgramError, read_program

    folder = _program(tmp_path, "cc -o {dir}/.build/agent {dir}/agent.c")
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / ".lock").mkdir(parents=True)  # a folder of the host's that apdp's bookkeeping would remove
    (elsewhere / ".lock" / "kept").write_text("the host's\n")
    (folder / ".build").symlink_to(elsewhere)
    with pytest.raises(AgentFilesError, match=r"\.build is a link out of the agent's folder"):
        play_match(fast_scenario(tasks=2), [str(folder), "naive"], seed=1)
    with pytest.raises(ProgramError, match=r"\.build is a link: remove it"):
        BuildLock(read_program(folder))
    assert sorted(p.name for p in elsewhere.iterdir()) == [".lock"] and (elsewhere / ".lock" / "kept").is_file()
