"""Tournaments with real matches: job-count independence, SIGKILL and resume, faulty agents, CLI."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from apdp.tournament.config import make_config
from apdp.tournament.run import run_tournament
from apdp.tournament.store import STORE_FILE, ResultsStore
from tests.matches import assert_one_core_per_match, folder_agent
from tests.paths import TEMPLATE, ZOO

FAULTY = '''
from apdp import Agent

class Faulty(Agent):
    def bid(self, task):
        raise RuntimeError("faulty agent raises in bid")

    def plan(self, vehicles, tasks):
        return [[] for _ in vehicles]
'''

GATED = '''
import os
import time

from template import Template

GATE = {gate!r}


class Gated(Template):
    """The template, whose setup waits for a ticket from GATE/tickets (or for GATE/open)."""

    def setup(self, topology, distribution, company):
        tickets = os.path.join(GATE, "tickets")
        while not os.path.exists(os.path.join(GATE, "open")):
            taken = False
            for ticket in sorted(os.listdir(tickets)):
                try:
                    os.unlink(os.path.join(tickets, ticket))
                    taken = True
                    break
                except FileNotFoundError:
                    continue
            if taken:
                break
            time.sleep(0.01)
        super().setup(topology, distribution, company)
'''

#: The ``apdp`` command, run by the interpreter running the tests.
APDP = [sys.executable, "-c", "from apdp.cli import console; console()"]

TIMEOUTS = ["--setup-timeout", "5", "--bid-timeout", "2", "--plan-timeout", "5"]


@pytest.fixture
def field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of extra agents on APDP_AGENTS: copies of the template, a faulty one, and gated
    ones whose setup waits for a ticket while ``tmp_path/gate/open`` does not exist."""
    folder = tmp_path / "agents"
    folder.mkdir()
    for name in ("alpha", "beta", "gamma"):
        shutil.copy(TEMPLATE, folder / f"{name}.py")
    shutil.copy(TEMPLATE, folder / "template.py")  # importable by slow.py
    (folder / "faulty.py").write_text(FAULTY)
    for name in ("core_a.py", "core_b.py"):
        shutil.copy(ZOO / "core_bidder.py", folder / name)
    gate = tmp_path / "gate"
    (gate / "tickets").mkdir(parents=True)
    (gate / "open").touch()
    for name in ("gated-a", "gated-b", "gated-c", "gated-d"):
        folder_agent(folder, name.replace("-", "_"), GATED.format(gate=str(gate)))
    monkeypatch.setenv("APDP_AGENTS", str(folder))
    return folder


def outcomes(folder: Path) -> list[tuple[Any, ...]]:
    """Every stored match's key, seed, profits, winner and fault kinds, in key order."""
    store = ResultsStore.open(folder)
    try:
        return [
            (m.match_id, m.seed, m.profit, m.winner, tuple(f["kind"] for f in m.faults))
            for m in store.matches()
        ]
    finally:
        store.close()


def cli(*args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    """Run ``apdp`` in a fresh process."""
    return subprocess.run(
        [*APDP, *args], capture_output=True, text=True, timeout=timeout,
        env=os.environ.copy(),
    )


def test_outcomes_do_not_depend_on_the_job_count(field: Path, tmp_path: Path) -> None:
    config = make_config(
        topology="france", agents=["template", "alpha", "beta"], overrides={"tasks": 5}
    )
    key = bytes(range(32))
    one = run_tournament(config, tmp_path / "one", jobs=1, progress=False, secret=key)
    two = run_tournament(config, tmp_path / "two", jobs=2, progress=False, secret=key)
    assert one.played == two.played == 6 and one.errors == two.errors == 0
    assert outcomes(tmp_path / "one") == outcomes(tmp_path / "two")


def test_each_worker_plays_its_matches_on_a_core_of_its_own(field: Path, tmp_path: Path) -> None:
    jobs = min(2, len(os.sched_getaffinity(0)))
    config = make_config(topology="france", agents=["core-a", "core-b"], overrides={"tasks": 3})
    summary = run_tournament(config, tmp_path / "out", jobs=jobs, progress=False)
    assert summary.played == 2 and summary.errors == 0
    assert_one_core_per_match(tmp_path / "out", 2)


def test_a_killed_run_resumes_to_the_same_results(field: Path, tmp_path: Path) -> None:
    # Gated agents let exactly two matches finish (two tickets each), then the third match waits
    # in setup: the run is killed with exactly two matches stored, whatever the machine's speed.
    # The gated agents take tickets from a folder of the test's, which a confined agent may not
    # touch: they play unconfined.
    unconfined = tmp_path / "unconfined.toml"
    unconfined.write_text("[limits]\nsandbox = false\n")
    args = ["tournament", "--topology", "france", "--agents", "gated-a,gated-b,gated-c,gated-d",
            "--tasks", "4", "--jobs", "1", "--quiet", "--setup-timeout", "120",
            "--bid-timeout", "2", "--plan-timeout", "5", "--scenario", str(unconfined)]
    gate = tmp_path / "gate"
    (gate / "open").unlink()
    for k in range(4):
        (gate / "tickets" / str(k)).touch()
    killed = tmp_path / "killed"
    run = subprocess.Popen(
        [*APDP, *args, "--out", str(killed)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        stored = 0
        while stored < 2 and run.poll() is None:
            time.sleep(0.05)
            if (killed / STORE_FILE).exists():
                with (
                    contextlib.suppress(sqlite3.OperationalError),  # tables not created yet
                    contextlib.closing(sqlite3.connect(killed / STORE_FILE, timeout=5)) as db,
                ):
                    stored = db.execute("SELECT count(*) FROM matches").fetchone()[0]
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait()
        (gate / "open").touch()
    assert len(outcomes(killed)) == 2
    resumed = cli(*args, "--out", str(killed))
    assert resumed.returncode == 0, resumed.stderr
    assert "10 played now, 2 resumed" in resumed.stdout
    # the same tournament elsewhere: its (drawn) seed and its published key
    published = cli("tournament-secret", str(killed))
    assert published.returncode == 0, published.stderr
    store = ResultsStore.open(killed)
    seed = store.config()["seed"]
    store.close()
    straight = cli(*args, "--seed", str(seed), "--secret", published.stdout.strip(),
                   "--out", str(tmp_path / "straight"))
    assert straight.returncode == 0, straight.stderr
    final = outcomes(killed)
    assert len(final) == len({o[0] for o in final}) == 12
    assert final == outcomes(tmp_path / "straight")


def test_a_faulty_agent_loses_every_match_and_the_report_shows_it(
    field: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    run = cli("tournament", "--topology", "france", "--agents", "template,faulty,alpha",
              "--tasks", "5", "--jobs", "2", "--out", str(out), *TIMEOUTS)
    assert run.returncode == 0, run.stderr
    assert "Standings" in run.stdout and "Pairwise grid" in run.stdout
    reported = cli("report", str(out), "--format", "json")
    assert reported.returncode == 0, reported.stderr
    data = json.loads(reported.stdout)
    agents = {a["agent"]: a for a in data["agents"]}
    assert agents["faulty"]["faults"] == 4 and agents["faulty"]["total_losses"] == 4
    assert agents["faulty"]["win_rate"] == 0.0
    assert data["faults"] == {"faulty": {"exception": 4}}
    for match in data["matches"]:
        if "faulty" in match["agents"]:
            assert match["winner"] != "faulty"
            assert [(f["agent"], f["kind"], f["phase"]) for f in match["faults"]] == [
                ("faulty", "exception", "bid")
            ]
    assert "faulty exception in bid" in (out / "tournament.log").read_text()


def test_resume_with_another_configuration_is_refused_in_one_line(
    field: Path, tmp_path: Path
) -> None:
    config = make_config(topology="france", agents=["template", "alpha"], overrides={"tasks": 5})
    ResultsStore.create_or_resume(tmp_path, config.to_json()).close()
    run = cli("tournament", "--topology", "france", "--agents", "template,alpha", "--tasks", "6",
              "--out", str(tmp_path), "--quiet")
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        f"error: {tmp_path} holds a tournament with another configuration: scenario.tasks differs "
        "(stored 5, now 6); rerun with the same options, or choose another --out"
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--topology", "atlantis"], "unknown topology"),
        (["--agents", "template,nobody"], "no agent named 'nobody'"),
        (["--agents", "template"], "at least 2 agents"),
        (["--agents", "template,alpha", "--repeat", "0"], "--repeat"),
        (["--agents", "template,alpha", "--jobs", "0"], "--jobs"),
        (["--agents", "template,alpha", "--tasks", "0"], "tasks"),
    ],
)
def test_bad_arguments_get_one_line(field: Path, args: list[str], message: str) -> None:
    run = cli("tournament", *args, "--quiet")
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]


@pytest.mark.parametrize("force_color", [None, "1"])
def test_off_a_terminal_rich_is_loaded_only_when_forced(
    field: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, force_color: str | None
) -> None:
    """Run as the README runs it, into a pipe: plain progress lines and the report, and rich (the
    progress bar's) never loaded; FORCE_COLOR set, rich's convention makes the output a terminal's."""
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    if force_color is None:
        monkeypatch.delenv("FORCE_COLOR", raising=False)
    else:
        monkeypatch.setenv("FORCE_COLOR", force_color)
    loaded = ("import atexit, sys\n"
              "atexit.register(lambda: print('rich modules:', sum(m.split('.')[0] == 'rich' for m in sys.modules), "
              "file=sys.stderr))\n"
              "from apdp.cli import console; console()")
    run = subprocess.run(
        [sys.executable, "-c", loaded, "tournament", "--topology", "france", "--agents", "alpha,beta",
         "--tasks", "3", "--jobs", "1", "--out", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=240, env=os.environ.copy(),
    )
    assert run.returncode == 0, run.stderr
    assert "Standings: 1 tournament, 2 matches" in run.stdout
    lines = run.stderr.splitlines()
    if force_color is None:
        assert "tournament: 2/2 matches (100%), 0 faults, " in run.stderr
        assert lines[-1] == "rich modules: 0"
    else:
        assert "tournament: 2/2" not in run.stderr  # the bar's place
        assert lines[-1] != "rich modules: 0"
