"""Keyed seeds: what a key decides, where keys live, and how seeds are drawn and replayed."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from apdp.errors import UserError
from apdp.referee.match import match_streams, play_match
from apdp.referee.seeding import agent_seed, task_seed, tie_seed
from apdp.secret import parse_secret, secret_file_path, user_secret
from apdp.tournament.config import make_config
from apdp.tournament.run import run_tournament
from apdp.tournament.store import STORE_FILE, ResultsStore, StoreError
from tests.matches import fast_scenario

KEY = bytes(range(32))
OTHER = bytes(range(1, 33))

#: Bids the first draws of its generator, so the record shows what seed the agent was given.
SPY = '''
from apdp import Agent, Stop, plan_from_stops

class Spy(Agent):
    def bid(self, task):
        return float(self.rng.integers(1, 10**6))

    def plan(self, vehicles, tasks):
        stops = [s for t in tasks for s in (Stop.pickup(t), Stop.deliver(t))]
        return [plan_from_stops(self.topology, vehicles[0], stops)] + [[] for _ in vehicles[1:]]
'''

APDP = [sys.executable, "-c", "from apdp.cli import console; console()"]


def apdp(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*APDP, *args], capture_output=True, text=True, timeout=300)


def replayable(record: dict[str, Any]) -> dict[str, Any]:
    """The record less what differs from run to run (timing and captured output)."""
    return {k: v for k, v in record.items() if k not in ("timing", "output")}


@pytest.fixture
def spy(tmp_path: Path) -> str:
    path = tmp_path / "spy.py"
    path.write_text(SPY)
    return str(path)


def test_same_key_and_seed_same_record_another_key_other_tasks() -> None:
    scenario = fast_scenario(tasks=4)
    one = play_match(scenario, ["template", "naive"], seed=5, secret=KEY).to_json()
    two = play_match(scenario, ["template", "naive"], seed=5, secret=KEY).to_json()
    assert replayable(one) == replayable(two)
    assert "key" not in json.dumps(one)  # the record keeps the seed, never the key
    assert one["seed"] == 5
    other = play_match(scenario, ["template", "naive"], seed=5, secret=OTHER).to_json()
    assert other["tasks"] != one["tasks"]
    swapped = play_match(scenario, ["naive", "template"], seed=5, secret=KEY).to_json()
    assert swapped["tasks"] == one["tasks"]  # both legs of a pair see the same tasks


def test_each_agent_gets_its_own_keyed_generator(spy: str) -> None:
    record = play_match(fast_scenario(tasks=3), [spy, spy], seed=9, secret=KEY).to_json()
    assert record["result"]["faults"] == []
    bids = [[a["bids"][i] for a in record["auctions"]] for i in range(2)]
    for i in range(2):
        expected = np.random.default_rng(agent_seed(KEY, 9, i)).integers(1, 10**6, size=3)
        assert bids[i] == [float(x) for x in expected]
    assert bids[0] != bids[1]
    # the same seed under another key: the agent's generator tells nothing of the first match's
    other = play_match(fast_scenario(tasks=3), [spy, spy], seed=9, secret=OTHER).to_json()
    assert [a["bids"][0] for a in other["auctions"]] != bids[0]


def test_streams_are_independent_keyed_derivations() -> None:
    seeds = {task_seed(KEY, 3), tie_seed(KEY, 3), *(agent_seed(KEY, 3, i) for i in range(4))}
    assert len(seeds) == 6 and all(s >= 2**64 for s in seeds)  # big: no brute force of a seed
    assert task_seed(KEY, 3) != task_seed(OTHER, 3) and task_seed(KEY, 3) != task_seed(KEY, 4)
    tasks, ties, agents = match_streams(KEY, 3, 2)
    again, _, _ = match_streams(KEY, 3, 5)  # the task stream does not depend on the field
    assert tasks.integers(2**62, size=4).tolist() == again.integers(2**62, size=4).tolist()
    assert agents == [agent_seed(KEY, 3, 0), agent_seed(KEY, 3, 1)]
    first = ties.integers(2**62, size=4).tolist()
    assert first != np.random.default_rng(agents[0]).integers(2**62, size=4).tolist()


def test_the_secret_file_is_made_once_with_mode_0600(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "data" / "secret"
    monkeypatch.setenv("APDP_SECRET_FILE", str(path))
    secret = user_secret()
    assert path.stat().st_mode & 0o777 == 0o600
    assert len(secret) == 32 and user_secret() == secret
    assert [p.name for p in path.parent.iterdir()] == ["secret"]  # no temporary file left
    monkeypatch.delenv("APDP_SECRET_FILE")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert secret_file_path() == tmp_path / "xdg" / "apdp" / "secret"
    path.write_text("not a secret\n")
    with pytest.raises(UserError, match="delete it to make a new one"):
        user_secret(path)
    with pytest.raises(UserError, match="64 hex digits"):
        parse_secret("abcd")
    assert parse_secret(KEY.hex()) == KEY


def test_the_secret_file_of_apdp_0_1_is_still_the_one_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("APDP_SECRET_FILE")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    old = tmp_path / "xdg" / "apdp" / "key"  # the file apdp 0.1 made: the same secret, the same matches
    old.parent.mkdir(parents=True)
    old.write_text(OTHER.hex() + "\n")
    assert secret_file_path() == old and user_secret() == OTHER
    monkeypatch.setenv("APDP_KEY_FILE", str(tmp_path / "named"))  # 0.1's variable, still honoured
    assert secret_file_path() == tmp_path / "named"


def test_play_match_without_a_secret_uses_the_secret_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "key"
    path.write_text(OTHER.hex())
    monkeypatch.setenv("APDP_SECRET_FILE", str(path))
    scenario = fast_scenario(tasks=3)
    assert play_match(scenario, ["template", "naive"], seed=2).to_json()["tasks"] == play_match(
        scenario, ["template", "naive"], seed=2, secret=OTHER
    ).to_json()["tasks"]


def test_a_store_s_secret_persists_and_a_different_one_is_refused(tmp_path: Path) -> None:
    config = {"format": "apdp-tournament/1", "agents": ["a", "b"], "seed": 0}
    store = ResultsStore.create_or_resume(tmp_path, config)
    key = store.secret()
    store.close()
    assert key is not None and len(key) == 32
    reader = ResultsStore.open(tmp_path)
    assert reader.secret() == key
    reader.close()
    ResultsStore.create_or_resume(tmp_path, config, key).close()
    with pytest.raises(StoreError, match="secret differs"):
        ResultsStore.create_or_resume(tmp_path, config, OTHER)
    printed = apdp("tournament-secret", str(tmp_path))
    assert printed.returncode == 0 and printed.stdout.strip() == key.hex()
    assert "seed" not in printed.stdout and printed.stderr == ""
    assert apdp("tournament-key", str(tmp_path)).stdout == printed.stdout  # apdp 0.1's name of the command
    given = ResultsStore.create_or_resume(tmp_path / "given", config, OTHER)
    assert given.secret() == OTHER
    given.close()


def test_a_store_from_before_secrets_gets_one_on_resume(tmp_path: Path) -> None:
    config = {"format": "apdp-tournament/1", "agents": ["a", "b"], "seed": 0}
    with sqlite3.connect(tmp_path / STORE_FILE) as db:  # the schema of stores before keys
        db.executescript(
            "CREATE TABLE tournament (id INTEGER PRIMARY KEY, config TEXT, created TEXT);"
            "CREATE TABLE matches (key TEXT PRIMARY KEY, topology TEXT, tournament_seed INTEGER,"
            " seed INTEGER, agents TEXT, profit TEXT, winner TEXT, faults TEXT, record TEXT,"
            " finished TEXT);"
        )
        db.execute("INSERT INTO tournament VALUES (1, ?, 'then')", (json.dumps(config),))
    db.close()
    old = ResultsStore.open(tmp_path)
    assert old.secret() is None
    old.close()
    missing = apdp("tournament-secret", str(tmp_path))
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1
    assert "no secret stored" in missing.stderr
    store = ResultsStore.create_or_resume(tmp_path, config)
    key = store.secret()
    store.close()
    reopened = ResultsStore.open(tmp_path)
    assert key is not None and reopened.secret() == key
    reopened.close()


def test_a_resumed_tournament_uses_its_stored_secret(tmp_path: Path) -> None:
    config = make_config(topology="france", agents=["template", "naive"], seed=4,
                         overrides={"tasks": 4, "timeouts.setup": 5.0, "timeouts.plan": 5.0})
    out = tmp_path / "out"
    first = run_tournament(config, out, jobs=1, progress=False)
    assert first.played == 2 and first.errors == 0
    store = ResultsStore.open(out)
    before = {m.match_id: store.record(m.match_id) for m in store.matches()}
    key = store.secret()
    dropped = sorted(before)[1]
    with store.conn:  # as if the run had been killed before its last match
        store.conn.execute("DELETE FROM matches WHERE key = ?", (dropped,))
    store.close()
    again = run_tournament(config, out, jobs=1, progress=False)
    assert again.played == 1 and again.skipped == 1
    store = ResultsStore.open(out)
    after = {m.match_id: store.record(m.match_id) for m in store.matches()}
    assert store.secret() == key
    store.close()
    assert {k: replayable(r or {}) for k, r in after.items()} == {
        k: replayable(r or {}) for k, r in before.items()
    }
    records = list(after.values())
    assert records[0]["tasks"] == records[1]["tasks"]  # type: ignore[index]


def test_match_without_seed_prints_the_drawn_seed_and_replays(tmp_path: Path) -> None:
    common = ["match", "--topology", "france", "--agents", "template", "naive", "--tasks", "3", "--quiet"]
    drawn = apdp(*common, "--record", str(tmp_path / "a.json"))
    assert drawn.returncode == 0, drawn.stderr
    found = re.search(r"seed (\d+) \(drawn at random; --seed \1 replays it\)", drawn.stdout)
    assert found, drawn.stdout
    seed = int(found.group(1))
    first = json.loads((tmp_path / "a.json").read_text())
    assert first["seed"] == seed and 0 <= seed < 2**63
    again = apdp(*common, "--seed", str(seed), "--record", str(tmp_path / "b.json"))
    assert again.returncode == 0, again.stderr
    assert f"seed {seed}: template vs naive" in again.stdout  # chosen, not drawn
    assert replayable(json.loads((tmp_path / "b.json").read_text())) == replayable(first)
    keyed = apdp(*common, "--seed", str(seed), "--secret", OTHER.hex(), "--record", str(tmp_path / "c.json"))
    assert keyed.returncode == 0, keyed.stderr
    assert json.loads((tmp_path / "c.json").read_text())["tasks"] != first["tasks"]
    bad = apdp(*common, "--secret", "zz")
    assert bad.returncode == 2 and "--secret: a secret is 64 hex digits" in bad.stderr
    old_name = apdp(*common, "--seed", str(seed), "--key", OTHER.hex(), "--record", str(tmp_path / "d.json"))
    assert old_name.returncode == 0, old_name.stderr  # apdp 0.1's name of the option
    tasks = [json.loads((tmp_path / name).read_text())["tasks"] for name in ("c.json", "d.json")]
    assert tasks[0] == tasks[1]


def test_tournament_without_seed_draws_one_and_a_resume_reuses_it(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["tournament", "--topology", "france", "--agents", "template,naive", "--tasks", "2",
            "--jobs", "1", "--quiet", "--out", str(out)]
    first = apdp(*args)
    assert first.returncode == 0, first.stderr
    found = re.search(r", seed (\d+) \(2 played now, 0 resumed", first.stdout)
    assert found, first.stdout
    store = ResultsStore.open(out)
    assert store.config()["seed"] == int(found.group(1))
    store.close()
    resumed = apdp(*args)
    assert resumed.returncode == 0, resumed.stderr
    assert f", seed {found.group(1)} (0 played now, 2 resumed" in resumed.stdout


def test_numpys_global_generator_draws_apart_in_every_agent_process(tmp_path: Path) -> None:
    """Forked from one zygote, agents would share numpy's global generator's state (and so could
    predict each other's draws) but that each process reseeds it from the system."""
    drawer = tmp_path / "drawer.py"
    drawer.write_text(
        "import numpy as np\n"
        "from apdp import Agent\n"
        "class Drawer(Agent):\n"
        "    def setup(self, topology, distribution, company):\n"
        "        print('drew', np.random.randint(2**62))\n"
        "    def bid(self, task):\n"
        "        return None\n"
        "    def plan(self, vehicles, tasks):\n"
        "        return [[] for _ in vehicles]\n"
    )
    drawn = []
    for seed in (1, 1, 2):
        record = play_match(fast_scenario(), [str(drawer), str(drawer)], seed=seed).to_json()
        drawn += [line for out in record["output"] for line in out.splitlines() if line.startswith("drew")]
    assert len(drawn) == 6 and len(set(drawn)) == 6, drawn
