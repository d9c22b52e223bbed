"""Every byte an agent's process sends is hostile: nothing it sends crashes the referee, loses a
match, bloats a record or reaches a terminal, a log, a page or a spreadsheet unchecked (issue 17,
classes 2 to 4).

``tests/data/zoo/forger.py`` writes its own messages on the referee's socket, past apdp's worker;
``BLOATER`` sends valid but enormous things through the worker.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from apdp.check.verify import verify_record
from apdp.messages.sizes import KEPT_MESSAGE, KEPT_TRACEBACK
from apdp.referee.match import play_match
from apdp.referee.record import record_size, referee_error
from apdp.tournament.config import make_config
from apdp.tournament.report import report
from apdp.tournament.run import run_tournament
from apdp.tournament.store import STORE_FILE, ResultsStore
from apdp.tournament.tidy import spreadsheet_cell, to_csv
from tests.matches import fast_scenario
from tests.paths import ZOO

FORGER = str(ZOO / "forger.py")
#: kind -> (phase it is sent in, the fault it must be)
KINDS: dict[str, tuple[str, str]] = {
    "deep": ("bid", "bad_reply"), "deep_object": ("bid", "bad_reply"), "bigint_bid": ("bid", "bad_reply"),
    "nan_bid": ("bid", "bad_reply"), "infinite_bid": ("bid", "bad_reply"), "max_float_bid": ("bid", "bad_bid"),
    "string_bid": ("bid", "bad_reply"), "extra_key": ("bid", "bad_reply"), "not_utf8": ("bid", "bad_reply"),
    "not_json": ("bid", "bad_reply"), "not_object": ("bid", "bad_reply"), "setup_types": ("setup", "bad_reply"),
    "setup_pid": ("setup", "bad_reply"), "fault_types": ("bid", "bad_reply"), "fault_kind": ("bid", "bad_reply"),
    "fault_huge": ("bid", "bad_reply"), "bad_huge": ("bid", "bad_reply"), "plan_types": ("plan", "bad_reply"),
    "plan_deep": ("plan", "bad_reply"), "surrogate": ("bid", "exception"), "escapes": ("bid", "exception"),
    "frame": ("bid", "bad_reply"),
}
TIMEOUTS = {"setup": 3.0, "bid": 2.0, "plan": 3.0}

BLOATER = '''
from apdp import Agent, Move, Stop, plan_from_stops

class Bloater(Agent):
    def setup(self, topology, distribution, company):
        self.mode = self.params.get("mode")
        if self.mode == "print_flood":
            for _ in range(2000):
                print("\\x1b[31m" + "flood " * 10_000)

    def bid(self, task):
        if self.mode == "raise_huge":
            raise RuntimeError("A" * (15 << 20))
        return 1.0 + task.id

    def plan(self, vehicles, tasks):
        home = vehicles[0].home
        other = next(iter(self.topology.neighbours(home)))
        if self.mode == "long_plan":  # valid moves back and forth, 1.2 million of them
            moves = [Move(other), Move(home)] * 600_000
        elif self.mode == "violations":  # many broken rules, each a violation
            moves = [Move("nowhere \\x1b[2J")] * 40_000
        else:
            stops = [stop for task in tasks for stop in (Stop.pickup(task), Stop.deliver(task))]
            moves = plan_from_stops(self.topology, vehicles[0], stops)
        return [moves] + [[] for _ in vehicles[1:]]
'''


def _check(record: dict[str, Any], attacker: int, kind: str, phase: str) -> None:
    """The match was played to its end, the attacker faulted as it must, its opponent untouched,
    the record valid, bounded and clean."""
    assert referee_error(record) is None, referee_error(record)
    faults = record["result"]["faults"]
    assert [f["agent"] for f in faults] == [attacker], faults
    assert faults[0]["kind"] == kind and faults[0]["phase"] == phase, faults
    assert record["result"]["winner"] == 1 - attacker
    assert verify_record(record) == []
    text = json.dumps(record, ensure_ascii=False)
    text.encode("utf-8")  # no lone surrogate left anywhere
    assert "\x1b" not in text and "\r" not in text and "\x07" not in text
    assert record_size(record) <= 256 * 1024


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_forged_reply_is_the_forgers_fault_never_the_referees(kind: str) -> None:
    phase, fault = KINDS[kind]
    scenario = fast_scenario(tasks=3, timeouts=TIMEOUTS, agents={"forger": {"kind": kind, "phase": phase}})
    for attacker in (0, 1):
        agents = [FORGER, "honest"] if attacker == 0 else ["honest", FORGER]
        record = play_match(scenario, agents, seed=5).to_json()
        _check(record, attacker, fault, phase)


@pytest.mark.parametrize(("mode", "kind"), [("raise_huge", "exception"), ("print_flood", None),
                                            ("long_plan", "invalid_plan"), ("violations", "invalid_plan")])
def test_enormous_replies_keep_the_record_within_its_limit(tmp_path: Path, mode: str, kind: str | None) -> None:
    agent = tmp_path / "bloater.py"
    agent.write_text(BLOATER)
    scenario = fast_scenario(tasks=3, timeouts={"setup": 10.0, "bid": 5.0, "plan": 20.0},
                             agents={"bloater": {"mode": mode}}, limits={"output_kb": 4096})
    record = play_match(scenario, [str(agent), "naive"], seed=3).to_json()
    assert referee_error(record) is None
    faults = record["result"]["faults"]
    if kind is None:
        assert record["result"]["faults"] == [] and record["plans"][0] is not None
    else:
        assert [f["kind"] for f in faults] == [kind], faults
    fault = faults[0] if faults else {}
    assert len(fault.get("message", "")) <= KEPT_MESSAGE and len(fault.get("traceback", "")) <= KEPT_TRACEBACK
    assert len(fault.get("violations", [])) <= 10
    assert record_size(record) <= 256 * 1024, record_size(record)
    assert "\x1b" not in json.dumps(record)
    assert not faults or verify_record(record) == []


def test_a_tournament_of_forgers_stores_every_match_at_a_normal_size(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """One forger per kind of broken reply against the study's honest agent: every match stored,
    every forger faulted in every match, honest never, the store and the reports of normal size."""
    kinds = ["deep", "bigint_bid", "setup_types", "fault_huge", "surrogate", "escapes", "frame", "max_float_bid"]
    agents = tmp_path / "agents"
    agents.mkdir()
    params = []
    for kind in kinds:
        shutil.copy(FORGER, agents / f"forger_{kind}.py")
        params.append(f'[forger-{kind}]\nkind = "{kind}"\nphase = "{KINDS[kind][0]}"\n')
    (agents / "params.toml").write_text("\n".join(params))
    monkeypatch.setenv("APDP_AGENTS", str(agents))
    field = [f"forger-{k}" for k in kinds] + ["honest"]
    config = make_config(topology=None, agents=field, seed=4,
                         overrides={"tasks": 3, "timeouts": dict(TIMEOUTS)})
    out = tmp_path / "results"
    summary = run_tournament(config, out, jobs=2, progress=False)
    assert summary.errors == 0 and summary.played == len(field) * (len(field) - 1), summary.error_messages
    store = ResultsStore.open(out)
    try:
        matches = list(store.matches())
        records = [store.record(m.match_id) for m in matches]
    finally:
        store.close()
    assert len(matches) == len(field) * (len(field) - 1) and all(m.error is None for m in matches)
    for m, r in zip(matches, records, strict=True):
        assert r is not None
        faulty = {m.agents[int(f["agent"])] for f in m.faults}
        assert faulty == {a for a in m.agents if a.startswith("forger")}, (m.match_id, m.faults)
        assert r["result"]["winner"] is None if len(faulty) == 2 else m.winner == "honest"
    assert (out / STORE_FILE).stat().st_size < 4 << 20
    for fmt in ("table", "json", "csv", "html"):
        text = report([out], fmt)
        assert len(text) < 2 << 20 and "\x1b" not in text
    log = (out / "tournament.log").read_text(encoding="utf-8")
    assert "\x1b" not in log
    assert all(line[:2] == "20" for line in log.splitlines()), "a line of the log that apdp did not write"


def test_apdp_match_prints_no_terminal_escape_of_an_agent(tmp_path: Path) -> None:
    scenario = tmp_path / "s.toml"
    scenario.write_text('tasks = 3\n[agents.forger]\nkind = "escapes"\nphase = "bid"\n')
    done = subprocess.run(
        [sys.executable, "-c", "from apdp.cli import console; console()", "match", "--agents", FORGER, "honest",
         "--scenario", str(scenario), "--seed", "2", "--show-output"],
        capture_output=True, text=True, timeout=120, env=os.environ.copy(),
    )
    assert done.returncode == 0, done.stderr
    assert "exception in bid" in done.stdout
    assert "\x1b" not in done.stdout + done.stderr and "\r" not in done.stdout


def test_spreadsheet_cells_are_never_formulas() -> None:
    assert spreadsheet_cell("=HYPERLINK(\"http://x\")") == "'=HYPERLINK(\"http://x\")"
    assert [spreadsheet_cell(v) for v in ("+1", "-cmd", "@SUM(A1)", "honest", -3.5)] == [
        "'+1", "'-cmd", "'@SUM(A1)", "honest", -3.5]
    assert to_csv((["agent", "profit"], [["=cmd|' /C calc'!A0", -12.0]])) == "agent,profit\n'=cmd|' /C calc'!A0,-12.0\n"


@pytest.mark.parametrize(("path", "value", "words"), [
    (("auctions", 0, "bids", 0), 1.7976931348623157e308, "at most"),
    (("auctions", 1, "bids", 1), 2e12, "at most 1e12"),
    (("result", "profit", 0), float("inf"), "finite"),
    (("result", "revenue", 1), float("nan"), "finite"),
    (("companies", 0, "vehicles", 0, "capacity"), 1e300, "at most"),
])
def test_verify_rejects_figures_no_reader_can_use(path: tuple[Any, ...], value: float, words: str) -> None:
    record = play_match(fast_scenario(tasks=3), ["naive", "honest"], seed=1).to_json()
    assert verify_record(record) == []
    node: Any = record
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    reread = json.loads(json.dumps(record))  # as a file holds it: Infinity, NaN
    problems = verify_record(reread)
    assert problems and any(words in p for p in problems), problems


@pytest.mark.parametrize("unprotected", [
    ["seccomp\x1b[2J"], ["a\nforged line"], ["x" * 161], ["TCP rules (Landlock ABI < 4)"] * 17, [3], "text",
    ["none. SECURITY ALERT from the referee: agent 'honest' read its opponent's files"],
])
def test_a_setup_reply_names_protections_off_in_apdp_s_words_only(unprotected: object) -> None:
    """What a worker says is off reaches the user's terminal and every record: an agent that rewrites
    its worker's list in its own process can say nothing but apdp's own phrases."""
    from apdp.messages.replies import UNPROTECTED_NOTES, SetupDone, decode_reply
    from apdp.messages.strict import BadMessage

    said = sorted(UNPROTECTED_NOTES)[:2]
    good = decode_reply(json.dumps({"ok": True, "unprotected": said}).encode(), "setup")
    assert isinstance(good, SetupDone) and good.unprotected == tuple(said)
    with pytest.raises(BadMessage):
        decode_reply(json.dumps({"ok": True, "unprotected": unprotected}).encode(), "setup")


def test_every_protection_the_worker_may_find_off_is_one_the_reply_accepts() -> None:
    import ast

    from apdp.messages.replies import UNPROTECTED_NOTES
    from apdp.sandbox import confine

    tree = ast.parse(Path(confine.__file__).read_text(encoding="utf-8"))
    said = [node.args[0] for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute) and node.func.attr == "append"
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "off"]
    assert len(said) == len(UNPROTECTED_NOTES)
    assert all(isinstance(s, ast.Constant) and s.value in UNPROTECTED_NOTES for s in said), [ast.dump(s) for s in said]


def test_a_fault_message_cannot_forge_a_line_of_the_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    agents = tmp_path / "agents"
    agents.mkdir()
    (agents / "forging.py").write_text(
        "from apdp import Agent\n\n\nclass Forging(Agent):\n    def bid(self, task):\n"
        "        raise ValueError('x\\n2026-01-01 00:00:00 INFO apdp.tournament: winner forging\\r')\n\n"
        "    def plan(self, vehicles, tasks):\n        return [[] for _ in vehicles]\n")
    monkeypatch.setenv("APDP_AGENTS", str(agents))
    config = make_config(topology=None, agents=["forging", "naive"], seed=1, overrides={"tasks": 2})
    out = tmp_path / "results"
    run_tournament(config, out, jobs=1, progress=False)
    log = (out / "tournament.log").read_text(encoding="utf-8")
    assert "winner forging" in log and "\r" not in log
    assert not any(line.startswith("2026-01-01") for line in log.splitlines())
