"""What an agent sees of the files around it, and what apdp reads of an agent's files on the host
(issue 17, classes 1 and 6): an agent file sees itself alone, a folder agent its folder; nothing
beside an agent runs in another agent's process; a folder holding apdp's secrets or results never
plays; only regular files within an agent's folder are hashed, shipped or copied, and the rest is
refused in one line, never read (a FIFO, /dev/zero, a secret elsewhere)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from apdp.agents.files import AgentFilesError, agent_files, copy_tree_of, regular_file_within
from apdp.agents.files import agent_hash as file_hash
from apdp.referee.match import play_match
from apdp.secret import secret_file_path
from apdp.tournament.ray_payload import pack_agent
from tests.matches import fast_scenario
from tests.paths import TEMPLATE

APDP = [sys.executable, "-c", "from apdp.cli import console; console()"]

#: Imports ``statistics`` (meant: the standard library's) and bids its mean.
VICTIM = '''
import statistics

from apdp import Agent


class Victim(Agent):
    def bid(self, task):
        print("statistics from", statistics.__file__)
        return float(statistics.mean([1000, 1200]))

    def plan(self, vehicles, tasks):
        return [[] for _ in vehicles]
'''
#: A module that would take over any agent importing ``statistics`` from its folder.
HIJACK = 'print("HIJACKED")\ndef mean(values):\n    return 0.0\n'


def test_a_module_beside_an_agent_never_runs_in_another_agent(tmp_path: Path) -> None:
    (tmp_path / "statistics.py").write_text(HIJACK)
    (tmp_path / "victim.py").write_text(VICTIM)
    record = play_match(fast_scenario(tasks=2), [str(tmp_path / "victim.py"), "naive"], seed=1).to_json()
    assert "HIJACKED" not in record["output"][0]
    assert [a["bids"][0] for a in record["auctions"]] == [1100.0, 1100.0]
    assert str(tmp_path) not in record["output"][0]  # the standard library's module, not the planted one


def test_a_folder_agent_imports_its_modules_and_none_shadows_the_library(tmp_path: Path) -> None:
    folder = tmp_path / "split_agent"
    folder.mkdir()
    (folder / "agent.py").write_text("from pricing import price\n" + VICTIM.replace(
        "return float(statistics.mean([1000, 1200]))", "return price(statistics.mean([1000, 1200]))"))
    (folder / "pricing.py").write_text("def price(x):\n    return float(x) + 1\n")
    (folder / "statistics.py").write_text(HIJACK)  # its own: still never the standard library's
    record = play_match(fast_scenario(tasks=2), [str(folder), "naive"], seed=1).to_json()
    assert [f["phase"] for f in record["result"]["faults"]] in ([], ["plan"]), record["result"]["faults"]
    assert record["agents"][0] == "split-agent"
    assert [a["bids"][0] for a in record["auctions"]] == [1101.0, 1101.0]
    assert "HIJACKED" not in record["output"][0]


def test_an_agent_file_that_imports_a_neighbour_is_told_how_to_split_it(tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text("X = 1\n")
    (tmp_path / "me.py").write_text("import helper\nfrom apdp import Agent\nclass Me(Agent):\n    pass\n")
    record = play_match(fast_scenario(tasks=1), [str(tmp_path / "me.py"), "naive"], seed=1).to_json()
    (fault,) = record["result"]["faults"]
    assert "No module named 'helper'" in fault["message"] and "holding agent.py" in fault["message"]


@pytest.mark.parametrize("secret", ["key", "store", "record"])
def test_a_folder_agent_holding_a_secret_never_plays(tmp_path: Path, secret: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "holder"
    folder.mkdir()
    (folder / "agent.py").write_text(VICTIM)
    if secret == "key":
        monkeypatch.setenv("APDP_SECRET_FILE", str(folder / "data" / "key"))
        (folder / "data").mkdir()
        mine = secret_file_path()
        (folder / "data" / "key").write_text(mine.read_text() if mine.exists() else "ab" * 32)
    elif secret == "store":
        sqlite3.connect(folder / "tournament.sqlite").close()
    else:
        play_match(fast_scenario(tasks=1), ["naive", "template"], seed=1)
        (folder / "old.json").write_text('{\n "format": "apdp-record/1",\n "seed": 1\n}\n')
    with pytest.raises(AgentFilesError, match="move it out of the agent's folder"):
        play_match(fast_scenario(tasks=1), [str(folder), "naive"], seed=1)


def test_results_are_never_written_in_an_agent_folder(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "agent.py").write_text(VICTIM)
    record = subprocess.run([*APDP, "match", "--agents", str(folder), "naive", "--tasks", "1", "--record",
                             str(folder / "r.json")], capture_output=True, text=True, timeout=120)
    out = subprocess.run([*APDP, "tournament", "--agents", f"{folder},naive", "--tasks", "1", "--out",
                          str(folder / "results")], capture_output=True, text=True, timeout=120)
    for done, flag in ((record, "--record"), (out, "--out")):
        assert done.returncode != 0
        assert done.stderr.strip().count("\n") == 0 and f"{flag} " in done.stderr and "inside the folder of agent" \
            in done.stderr, done.stderr
    assert not (folder / "r.json").exists() and not (folder / "results").exists()


def _with_fifo(folder: Path) -> None:
    os.mkfifo(folder / "pipe")


def _with_zero(folder: Path) -> None:
    (folder / "zeros").symlink_to("/dev/zero")


def _with_link_out(folder: Path) -> None:
    (folder / "passwd").symlink_to("/etc/passwd")


def _with_link_to_folder(folder: Path) -> None:
    (folder / "loop").symlink_to(folder)


@pytest.mark.parametrize("plant", [_with_fifo, _with_zero, _with_link_out, _with_link_to_folder])
def test_only_regular_files_of_an_agent_folder_are_read(tmp_path: Path, plant: object) -> None:
    """Hashing, shipping and playing refuse such a folder in one line, at once: nothing is read."""
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "agent.py").write_text(VICTIM)
    plant(folder)  # type: ignore[operator]
    outcome: list[BaseException] = []

    def read_all() -> None:
        for attempt in (lambda: file_hash(folder), lambda: pack_agent(folder), lambda: agent_files(folder)):
            try:
                attempt()
            except AgentFilesError as exc:
                outcome.append(exc)

    reader = threading.Thread(target=read_all, daemon=True)
    reader.start()
    reader.join(20)
    assert not reader.is_alive(), "reading the agent folder hangs"
    assert len(outcome) == 3 and all("\n" not in str(e) for e in outcome), outcome


def test_a_link_within_the_folder_is_its_target_and_files_ship_alone(tmp_path: Path) -> None:
    folder = tmp_path / "linked"
    (folder / "lib").mkdir(parents=True)
    (folder / "agent.py").write_text(VICTIM)
    (folder / "lib" / "data.txt").write_text("shared\n")
    (folder / "data.txt").symlink_to(folder / "lib" / "data.txt")
    assert [f.relative for f in agent_files(folder)] == ["agent.py", "data.txt", "lib/data.txt"]
    (tmp_path / "neighbour.py").write_text("SECRET = 1\n")
    bundle, entry = pack_agent(tmp_path / "neighbour.py")
    assert entry == "neighbour.py" and [f[0] for f in bundle.files] == ["neighbour.py"]


def test_a_project_file_is_copied_only_from_within_the_project(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "bin" / "demo").mkdir(parents=True)
    (project / "bin" / "demo" / "Agent.class").write_bytes(b"\xca\xfe\xba\xbe")
    secret = tmp_path / "secret.txt"
    secret.write_text("the organiser's secret\n")
    (project / "bin" / "demo" / "Stolen.class").symlink_to(secret)
    with pytest.raises(AgentFilesError, match="leads out of"):
        copy_tree_of(project / "bin", tmp_path / "copy", ".class")
    with pytest.raises(AgentFilesError, match="leads out of"):
        regular_file_within(project / "bin" / "demo" / "Stolen.class", project)
    (project / "bin" / "demo" / "Stolen.class").unlink()
    assert copy_tree_of(project / "bin", tmp_path / "copy2", ".class") == 1


def test_a_python_package_is_never_an_agent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The baselines' machinery (``greedy/agent.py`` in a package) and a user's package beside their
    agents are libraries: only folders without ``__init__.py`` play."""
    from apdp.agents.discovery import available_agents

    agents = tmp_path / "agents"
    for name, files in (("mine", ["agent.py"]), ("helpers", ["__init__.py", "agent.py"])):
        (agents / name).mkdir(parents=True)
        for file in files:
            (agents / name / file).write_text(TEMPLATE.read_text() if file == "agent.py" else "")
    monkeypatch.setenv("APDP_AGENTS", str(agents))
    names = {a.name for a in available_agents()}
    assert "mine" in names and "helpers" not in names and "greedy" not in names


def test_a_one_file_agent_has_a_size_cap_and_a_large_one_is_never_read_whole(tmp_path: Path) -> None:
    """A sparse file takes no disk and claims gigabytes: apdp names the cap in one line instead of
    reading it into memory (which once let the kernel kill the referee)."""
    from tests.command import apdp

    fat = tmp_path / "fat.py"
    fat.write_text(TEMPLATE.read_text())
    os.truncate(fat, 20 * 2**30)
    with pytest.raises(AgentFilesError, match="a one-file agent may hold at most 16 MiB"):
        agent_files(fat)
    done = apdp("match", "--topology", "france", "--agents", str(fat), "naive", "--tasks", "2")
    assert done.returncode == 2 and "a one-file agent may hold at most 16 MiB" in done.stderr, done.stderr


def test_a_file_name_of_escape_sequences_reaches_no_terminal_raw(tmp_path: Path) -> None:
    from tests.command import apdp

    folder = tmp_path / "esc"
    folder.mkdir()
    (folder / "agent.py").write_text(TEMPLATE.read_text())
    (folder / "\x1b]0;OWNED\x07\x1b[2J").symlink_to("/etc/hostname")
    done = apdp("match", "--topology", "france", "--agents", str(folder), "naive", "--tasks", "2")
    assert done.returncode == 2 and "link out of the agent's folder" in done.stderr, done.stderr
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr and "\\x1b" in done.stderr


def test_bytecode_beside_an_agent_s_source_never_runs_in_its_place(tmp_path: Path) -> None:
    """An agent's __pycache__ is no part of its identity: a .pyc there (unchecked-hash, or one whose
    recorded time and size match the source) must not run instead of the source everyone reads."""
    import importlib.util
    import py_compile

    folder = tmp_path / "twoface"
    folder.mkdir()
    honest = TEMPLATE.read_text().replace("class Template", "class Twoface") + "\nfrom helper import WORD\n"
    hidden = honest.replace("def bid(", "def bid(self, task):\n        return 123456.0\n\n    def old_bid(")
    (folder / "helper.py").write_text('WORD = "source"\n')
    for name, text in (("agent", hidden), ("helper", 'WORD = "bytecode"\nprint("HIDDEN CODE RUNNING")\n')):
        doctored = tmp_path / f"{name}.py"
        doctored.write_text(text)
        cache = folder / importlib.util.cache_from_source(f"{name}.py")
        cache.parent.mkdir(exist_ok=True)
        py_compile.compile(str(doctored), cfile=str(cache), doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    (folder / "agent.py").write_text(honest)
    record = play_match(fast_scenario(tasks=3), [str(folder), "naive"], seed=1).to_json()
    assert record["result"]["faults"] == [], record["result"]["faults"]
    assert all(a["bids"][0] != 123456.0 for a in record["auctions"])
    assert "HIDDEN" not in "".join(record.get("output") or [])


def test_nothing_an_agent_must_not_read_lies_in_a_folder_every_agent_may_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A course folder that is Python's prefix (a virtual environment made there, say), or under /opt:
    every agent may read it whole. Agents there, results, a record or an exercise field's results
    there: refused in one line, before anything is played or written."""
    from typer.testing import CliRunner

    from apdp.cli import app
    from apdp.errors import UserError

    course = tmp_path / "course"
    (course / "agents").mkdir(parents=True)
    (course / "agents" / "mine.py").write_text(VICTIM)
    monkeypatch.setattr(sys, "prefix", str(course))  # every agent may read the interpreter's prefix
    monkeypatch.chdir(tmp_path)
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "theirs.py").write_text(VICTIM.replace("class Victim", "class Theirs"))
    runs = {
        "the folder of agent 'mine'": ["tournament", "--agents", "mine,naive", "--agents-dir", str(course / "agents"),
                                       "--tasks", "1", "--out", str(tmp_path / "results")],
        "--out": ["tournament", "--agents", "theirs,naive", "--tasks", "1", "--out", str(course / "results")],
        "--record": ["match", "--agents", "theirs,naive", "--tasks", "1", "--record", str(course / "r.json")],
        "--out ": ["tournament", "--exercise", "deliberative", "--agents", "deliberative", "--seed", "1",
                   "--out", str(course / "field")],
        "the folder of agent 'mine' ": ["codegen", "check", str(course / "agents" / "mine.py")],
        " the folder of agent 'mine'": ["codegen", "check", "--exercise", "deliberative",
                                        str(course / "agents" / "mine.py")],
        "--scenario": ["match", "--agents", "theirs,naive", "--scenario", str(course / "agents" / "s.toml")],
        "--scenario ": ["tournament", "--agents", "theirs,naive", "--scenario", str(course / "agents" / "s.toml"),
                        "--out", str(tmp_path / "results")],
    }
    (course / "agents" / "s.toml").write_text("tasks = 1\n\n[agents.naive]\nmargin = 1.5\n")  # the agents' parameters
    for what, args in runs.items():
        result = CliRunner().invoke(app, args)
        assert isinstance(result.exception, UserError), (what, result.output, result.exception)
        line = str(result.exception)
        assert line.count("\n") == 0 and what.strip() in line and f"lies in {course}" in line, (what, line)
    assert sorted(p.name for p in course.iterdir()) == ["agents"]  # nothing written there
    assert not (tmp_path / "results").exists()
    (tmp_path / "agents" / "s.toml").write_text("tasks = 1\n")  # in an agent's folder: that agent may read it
    result = CliRunner().invoke(app, ["match", "--agents", "theirs,naive", "--scenario", "agents/s.toml"])
    assert "lies in the folder of agent 'theirs'" in str(result.exception), result.output


#: Reads its own memory (what it inherited from the zygote it was forked from) for an agent file's name.
HEAP_READER = '''
import ctypes, re

from apdp.baselines.naive import Naive

NAME = re.compile(b"vic" + b"tim_[0-9a-f]{12}")


class Reader(Naive):
    def setup(self, topology, distribution, company):
        super().setup(topology, distribution, company)
        self.own = b"vic" + b"tim_" + b"c0ffee" * 2  # a name of its own memory: the reading works
        seen = set()
        with open("/proc/self/maps") as f:
            for line in f.read().splitlines():
                parts = line.split()
                if "r" not in parts[1] or (len(parts) > 5 and not parts[5].startswith("[heap")):
                    continue
                low, high = (int(x, 16) for x in parts[0].split("-"))
                if high - low <= 256 << 20:
                    seen |= set(NAME.findall(ctypes.string_at(low, high - low)))
        print("seen", sorted(seen), flush=True)
'''


def test_an_agent_finds_no_other_agents_name_in_the_memory_it_inherited(tmp_path: Path) -> None:
    """Each agent process is forked from the zygote: the zygote never holds an agent's own limits (its
    file, its log), which its process reads after the fork, so the agent forked after its opponent
    finds its opponent's file named nowhere in its memory."""
    victim = tmp_path / f"victim_{os.urandom(6).hex()}.py"
    victim.write_text(Path(TEMPLATE).read_text())
    reader = tmp_path / "reader.py"
    reader.write_text(HEAP_READER)
    record = play_match(fast_scenario(tasks=1), [str(victim), str(reader)], seed=1).to_json()
    assert record["result"]["faults"] == [], record["result"]["faults"]
    assert "seen [b'victim_c0ffeec0ffee']" in record["output"][1], record["output"][1]
