"""Agents in any language: agent folders with an agent.toml, speaking apdp-agent/1 (docs/protocol.md)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from apdp.agents.protocol import SCHEMA_PATH
from apdp.check.verify import verify_record
from apdp.referee.match import play_match
from tests.matches import fast_scenario
from tests.paths import PROGRAMS


def _program(tmp_path: Path, name: str) -> Path:
    """A copy of a test program in tmp_path (a build writes into its folder)."""
    folder = tmp_path / "agents" / name
    shutil.copytree(PROGRAMS / name, folder)
    return folder


def _write_program(tmp_path: Path, name: str, toml: str, files: dict[str, str]) -> Path:
    folder = tmp_path / "agents" / name
    folder.mkdir(parents=True)
    (folder / "agent.toml").write_text(toml)
    for file, text in files.items():
        (folder / file).write_text(text)
    return folder


def test_a_perl_agent_plays_a_python_one(tmp_path: Path) -> None:
    perl = _program(tmp_path, "perl_greedy")
    record = play_match(fast_scenario(tasks=10), [str(perl), "template"], seed=3).to_json()
    assert record["agents"][0] == "perl-greedy"
    assert record["result"]["faults"] == []
    assert verify_record(record) == []
    assert "perl agent 0 of 2 ready" in record["output"][0]
    won = [a for a in record["auctions"] if a["winner"] == 0]
    assert won and all(float(a["bids"][0]).is_integer() for a in won)


def test_an_agent_program_plays_by_name_in_a_tournament_of_python_agents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from apdp.tournament.config import make_config
    from apdp.tournament.run import run_tournament
    from apdp.tournament.store import ResultsStore

    _program(tmp_path, "perl_greedy")
    _program(tmp_path, "c_abstain")
    monkeypatch.setenv("APDP_AGENTS", str(tmp_path / "agents"))
    config = make_config(topology="france", agents=["perl-greedy", "c-abstain", "naive"],
                         overrides={"tasks": 4})
    run_tournament(config, tmp_path / "out", jobs=1, progress=False, secret=bytes(32))
    store = ResultsStore.open(tmp_path / "out")
    try:
        matches = list(store.matches())
        assert len(matches) == 6
        assert all(not m.faults for m in matches)
    finally:
        store.close()


def test_a_build_runs_once_and_again_when_a_source_changes(tmp_path: Path) -> None:
    c_agent = _program(tmp_path, "c_abstain")
    binary = c_agent / ".build" / "agent"
    first = play_match(fast_scenario(tasks=3), [str(c_agent), "template"], seed=1).to_json()
    assert first["result"]["faults"] == [] and first["result"]["winner"] == 1
    assert binary.is_file()
    built = binary.stat().st_mtime_ns
    play_match(fast_scenario(tasks=3), [str(c_agent), "template"], seed=1)
    assert binary.stat().st_mtime_ns == built  # not built again
    source = c_agent / "agent.c"
    source.write_text(source.read_text() + "\n/* changed */\n")
    play_match(fast_scenario(tasks=3), [str(c_agent), "template"], seed=1)
    assert binary.stat().st_mtime_ns != built


def test_a_failed_build_is_a_setup_fault_with_the_compilers_error(tmp_path: Path) -> None:
    broken = _write_program(tmp_path, "broken", 'build = ["cc", "-o", "{dir}/.build/a", "{dir}/a.c"]\n'
                            'command = ["{dir}/.build/a"]\n', {"a.c": "int main(void) { return oops; }\n"})
    record = play_match(fast_scenario(tasks=2), [str(broken), "template"], seed=1).to_json()
    [fault] = record["result"]["faults"]
    assert (fault["agent"], fault["phase"]) == (0, "setup")
    assert "the build failed (exit code 1)" in fault["message"] and "oops" in fault["message"]
    assert record["result"]["winner"] == 1


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        ("print('not json')", "is not JSON"),
        ("print(json.dumps({'price': 3}))", "expected {\"bid\": number or null}"),
        ("print(json.dumps({'bid': 'cheap'}))", "a bid must be a number or null"),
        ("print(json.dumps({'error': 'cannot price this'}))", "cannot price this"),
        ("print(json.dumps({'error': 'no room', 'kind': 'memory'}))", "no room"),
        ("sys.exit(0)", "closed its output instead of answering 'bid'"),
    ],
)
def test_a_reply_that_breaks_the_protocol_is_a_fault_that_says_what_was_expected(
    tmp_path: Path, reply: str, words: str
) -> None:
    script = (
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n"
        "    if req['type'] == 'bid':\n"
        f"        {reply}\n"
        "    else:\n"
        "        print(json.dumps({'ok': True}))\n"
        "    sys.stdout.flush()\n"
    )
    bad = _write_program(tmp_path, "bad", 'command = ["python3", "{dir}/agent.py"]\n', {"agent.py": script})
    record = play_match(fast_scenario(tasks=2), [str(bad), "template"], seed=1).to_json()
    [fault] = record["result"]["faults"]
    kind = "memory" if "memory" in reply else "exception"  # an error reply's kind is the fault's
    assert (fault["agent"], fault["kind"], fault["phase"]) == (0, kind, "bid")
    assert words in fault["message"]
    if "error" in reply:  # the program's own words, not how they were carried
        assert fault["message"] == words and "traceback" not in fault


def test_an_agent_program_is_confined_like_a_python_agent(tmp_path: Path) -> None:
    outside = Path(__file__).parent / f"planted-{os.getpid()}.txt"  # not under /tmp: its /tmp is private
    script = (
        "import json, os, sys\n"
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n"
        "    if req['type'] == 'setup':\n"
        "        try:\n"
        f"            open({str(outside)!r}, 'w').write('x')\n"
        "            print('WROTE', file=sys.stderr)\n"
        "        except OSError as exc:\n"
        "            print('refused:', exc.strerror, file=sys.stderr)\n"
        "        print('env:', sorted(os.environ), file=sys.stderr)\n"
        "    reply = {'bid': None} if req['type'] == 'bid' else {'plans': [[], []]} if req['type'] == 'plan' "
        "else {'ok': True}\n"
        "    print(json.dumps(reply), flush=True)\n"
    )
    spy = _write_program(tmp_path, "spy", 'command = ["python3", "{dir}/agent.py"]\n', {"agent.py": script})
    os.environ["APDP_TEST_SECRET"] = "s3cret"
    try:
        record = play_match(fast_scenario(tasks=2), [str(spy), "template"], seed=1).to_json()
    finally:
        del os.environ["APDP_TEST_SECRET"]
    assert record["result"]["faults"] == []
    # refused: denied by Landlock, or not even there (a clone under /tmp is hidden by its private /tmp)
    assert "refused:" in record["output"][0] and "WROTE" not in record["output"][0]
    assert not outside.exists()
    assert "APDP_TEST_SECRET" not in record["output"][0] and "APDP_AGENT_DIR" in record["output"][0]


def test_the_protocol_has_a_json_schema() -> None:
    schema = json.loads(SCHEMA_PATH.read_text())
    assert schema["$id"].endswith("apdp-agent-1.schema.json")
    assert {"setup", "bid", "auction_result", "plan"} <= set(schema["$defs"])


def test_the_cpu_of_an_agent_program_is_measured(tmp_path: Path) -> None:
    script = (
        "import json, sys, time\n"
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n"
        "    if req['type'] == 'bid' and req['task']['id'] == 0:\n"
        "        end = time.process_time() + 0.6\n"
        "        while time.process_time() < end:\n"
        "            pass\n"
        "    reply = {'bid': None} if req['type'] == 'bid' else {'plans': [[], []]} if req['type'] == 'plan' "
        "else {'ok': True}\n"
        "    print(json.dumps(reply), flush=True)\n"
    )
    spinner = _write_program(tmp_path, "spinner", 'command = ["python3", "{dir}/agent.py"]\n', {"agent.py": script})
    # 0.6 s of CPU (the program's own clock), within a limit a busy machine cannot reach
    scenario = fast_scenario(tasks=2, timeouts={"setup": 10.0, "bid": 20.0, "plan": 10.0})
    record = play_match(scenario, [str(spinner), "template"], seed=1).to_json()
    assert record["result"]["faults"] == []
    cpu = record["timing"]["agents"][0]["cpu"]
    assert cpu["bid"] >= 0.4 and cpu["plan"] < 0.3


def _python_as_program(tmp_path: Path, agent_file: Path, name: str) -> Path:
    """An agent program that runs a Python agent file through apdp's reference protocol host."""
    import sys

    folder = tmp_path / "agents" / name
    folder.mkdir(parents=True)
    shutil.copy(agent_file, folder / "agent.py")
    (folder / "agent.toml").write_text(
        f'command = ["{sys.executable}", "-m", "apdp.agents.protocol.host", "{{dir}}/agent.py"]\n'
    )
    return folder


def test_the_protocol_carries_all_a_python_agent_needs(tmp_path: Path) -> None:
    from apdp.bundled import BUNDLED_TEMPLATE

    program = _python_as_program(tmp_path, BUNDLED_TEMPLATE, "template_program")
    scenario = fast_scenario(tasks=12)
    as_program = play_match(scenario, [str(program), "honest"], seed=4).to_json()
    as_python = play_match(scenario, ["template", "honest"], seed=4).to_json()
    assert as_program["result"]["faults"] == []
    assert as_program["auctions"] == as_python["auctions"]
    assert as_program["plans"] == as_python["plans"]


#: A program that says it runs at once, then stamps the clock on its standard error every
#: millisecond from a thread: what it stamped is when it ran.
STAMPER = '''
import json, sys, threading, time

def stamp():
    while True:
        print(f"ran {time.monotonic():.6f}", file=sys.stderr, flush=True)
        time.sleep(0.001)

print(json.dumps({"ready": "apdp-agent/1"}), flush=True)
threading.Thread(target=stamp, daemon=True).start()
for line in sys.stdin:
    call = json.loads(line)
    if call["type"] == "bid":
        reply = {"bid": None}
    elif call["type"] == "plan":
        reply = {"plans": [[] for _ in call["vehicles"]]}
    else:
        reply = {"ok": True}
    print(json.dumps(reply), flush=True)
'''

#: A Python agent whose setup takes 0.3 s: it prints when it began and ended.
SLOW_SETUP = '''
import time
from apdp import Agent

class SlowSetup(Agent):
    def setup(self, topology, distribution, company):
        began = time.monotonic()
        time.sleep(0.3)
        print(f"setup {began:.6f} {time.monotonic():.6f}")

    def bid(self, task):
        return None

    def plan(self, vehicles, tasks):
        return [[] for _ in vehicles]
'''


def test_an_agent_program_that_says_it_runs_is_paused_before_its_opponents_setup(tmp_path: Path) -> None:
    # a program still starting would run on through the opponent's setup, on that setup's time
    stamper = _write_program(tmp_path, "stamper", 'command = ["python3", "{dir}/agent.py"]\nready = true\n',
                             {"agent.py": STAMPER})
    slow = tmp_path / "slow_setup.py"
    slow.write_text(SLOW_SETUP)
    record = play_match(fast_scenario(tasks=2), [str(slow), str(stamper)], seed=1).to_json()
    (began, ended), = [map(float, x.split()[1:]) for x in record["output"][0].splitlines() if x.startswith("setup ")]
    ran = [float(x.split()[1]) for x in record["output"][1].splitlines() if x.startswith("ran ")]
    assert ran, record["output"][1]  # it did run, during its own calls
    assert [t for t in ran if began < t < ended] == []


#: A program that takes a while to start (a JVM's start, drawn out): it says when it began and when
#: it says it runs.
SLOW_START = '''
import json, sys, time

print(f"began {time.monotonic():.6f}", file=sys.stderr, flush=True)
time.sleep(3.0)
print(f"ready {time.monotonic():.6f}", file=sys.stderr, flush=True)
print(json.dumps({"ready": "apdp-agent/1"}), flush=True)
for line in sys.stdin:
    call = json.loads(line)
    reply = {"bid": None} if call["type"] == "bid" else {"plans": [[] for _ in call["vehicles"]]} \\
        if call["type"] == "plan" else {"ok": True}
    print(json.dumps(reply), flush=True)
'''


def test_a_program_in_the_second_seat_is_paused_as_it_says_it_runs_while_the_first_still_starts(
        tmp_path: Path) -> None:
    # both start side by side; the second, ready at once, must not run on through the first's start
    # (on a host without autogroup its busy threads would leave the first's JVM a sliver of the core)
    slow = _write_program(tmp_path, "slow_start", 'command = ["python3", "{dir}/agent.py"]\nready = true\n',
                          {"agent.py": SLOW_START})
    stamper = _write_program(tmp_path, "stamper", 'command = ["python3", "{dir}/agent.py"]\nready = true\n',
                             {"agent.py": STAMPER.replace("time.sleep(0.001)", "time.sleep(0.005)").replace(
                                 "print(json.dumps({\"ready\"", "print(f\"said {time.monotonic():.6f}\", "
                                 "file=sys.stderr, flush=True)\nprint(json.dumps({\"ready\"")})
    record = play_match(fast_scenario(tasks=2), [str(slow), str(stamper)], seed=1).to_json()
    assert record["result"]["faults"] == [], record["result"]["faults"]
    (first_ready,) = [float(x.split()[1]) for x in record["output"][0].splitlines() if x.startswith("ready ")]
    (said,) = [float(x.split()[1]) for x in record["output"][1].splitlines() if x.startswith("said ")]
    ran = [float(x.split()[1]) for x in record["output"][1].splitlines() if x.startswith("ran ")]
    assert first_ready - said > 2.0, (said, first_ready)  # the second was ready well before the first
    assert ran and max(ran) > first_ready  # it did run, during its own calls
    # paused within a moment of saying it runs (the referee reads ready lines as they come), not at
    # the first's start 3 s later (a wide margin: a loaded machine may hold the referee up a while)
    assert [t for t in ran if said + 1.0 < t < first_ready] == [], (said, first_ready, ran[:5])


def test_a_reply_written_before_its_request_is_a_fault(tmp_path: Path) -> None:
    """An agent program that answers its setup with a second line (a bid worked out during setup)
    does not have that line taken as the reply to its first bid."""
    script = (
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n"
        "    print(json.dumps({'ok': True}) if req['type'] != 'bid' else json.dumps({'bid': 1}))\n"
        "    if req['type'] == 'setup':\n"
        "        print(json.dumps({'bid': 1}))  # ahead of the first bid\n"
        "    sys.stdout.flush()\n"
    )
    ahead = _write_program(tmp_path, "ahead", 'command = ["python3", "{dir}/agent.py"]\n', {"agent.py": script})
    record = play_match(fast_scenario(tasks=2), [str(ahead), "template"], seed=1).to_json()
    [fault] = record["result"]["faults"]
    assert (fault["agent"], fault["phase"]) == (0, "bid") and "before 'bid' was asked" in fault["message"], fault

