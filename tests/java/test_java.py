"""Java agents written for the Logist platform, played unchanged through apdp's Java host.

The agents are tests/data/java/project (a Logist project: config/agents.xml, src/demo/): Thorough uses
every member of the Logist API that the course's agents use and throws when the host breaks one of
the platform's promises; Plain is small and fails on demand. They are compiled once per session
(shared by every test here). Without a JDK these tests are skipped, saying why, except under CI
(CI=true), where they must run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from apdp.agents.java.jdk import NoJdk
from apdp.agents.program import is_built, read_program
from apdp.check.verify import verify_record
from apdp.errors import UserError
from apdp.referee.match import play_match
from apdp.scenario import Scenario, make_scenario
from tests.chat import ChatServer
from tests.paths import JAVA, PROGRAMS

PROJECT = JAVA / "project"


@pytest.fixture(scope="session")
def java_agents(tmp_path_factory: pytest.TempPathFactory, java_cache: Path) -> Path:
    """An agents folder with the project imported (thorough-java, plain-java), Plain again from
    its compiled classes (thrower, shouter, quitter, hoarder: it fails on demand) and from a jar (jarred),
    and the Perl agent of tests/data/programs."""
    from apdp.agents.java.install import add_agent
    from apdp.agents.java.project import import_project

    agents = tmp_path_factory.mktemp("java") / "agents"
    result = import_project(PROJECT, agents)
    assert result.failed == [] and [a.name for a in result.installed] == ["thorough-java", "plain-java"]
    classes = agents / "plain-java" / ".build" / "classes"
    for name, fail in (("thrower", "throw"), ("shouter", "shout"), ("quitter", "exit"), ("hoarder", "memory")):
        add_agent(classes, "demo.Plain", name=name, agents_dir=agents, params={"fail": fail})
    jar = agents.parent / "plain.jar"
    with zipfile.ZipFile(jar, "w") as z:
        for path in classes.rglob("*.class"):
            z.write(path, str(path.relative_to(classes)))
    add_agent(jar, "Plain", name="jarred", agents_dir=agents)
    shutil.copytree(PROGRAMS / "perl_greedy", agents / "perl_greedy")
    return agents


@pytest.fixture
def by_name(java_agents: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The Java agents play by name."""
    monkeypatch.setenv("APDP_AGENTS", str(java_agents))
    yield java_agents


def _scenario(tasks: int) -> Scenario:
    # the JVM's start counts in setup: keep the default setup limit on a loaded machine
    return make_scenario({"tasks": tasks, "timeouts": {"setup": 10.0, "bid": 2.0, "plan": 5.0}})


def test_import_installs_every_agent_of_a_project_with_its_parameters(java_agents: Path) -> None:
    thorough = java_agents / "thorough-java"
    assert (thorough / "src" / "demo" / "Thorough.java").is_file()
    assert (thorough / "src" / "demo" / "Route.java").is_file()  # what the class uses comes along
    assert not (thorough / "src" / "demo" / "NotAnAgent.java").exists()  # what it does not use stays
    assert is_built(read_program(thorough))  # compiled at install: the first match does not wait
    params = (java_agents / "params.toml").read_text(encoding="utf-8")
    assert '[thorough-java]\nmargin = "1.3"\nrounds = "5"\nlabel = "Genève"' in params
    assert '[thrower]\nfail = "throw"' in params


def test_java_agents_play_python_baselines_by_name_without_a_host_fault(by_name: Path) -> None:
    for agents in (["thorough-java", "naive"], ["honest", "thorough-java"], ["jarred", "plain-java"]):
        record = play_match(_scenario(12), agents, seed=5).to_json()
        assert record["result"]["faults"] == [], record["result"]["faults"]
        assert verify_record(record) == []
        java = agents.index("thorough-java") if "thorough-java" in agents else 0
        output = record["output"][java]
        if agents[java] == "thorough-java":
            assert f"thorough thorough-java ({java}) margin 1.3 rounds 5 label Genève" in output
            assert "limits (ms): setup 10100 bid 2020 plan 5050" in output  # the platform reads 1% more
        bids = [a["bids"][java] for a in record["auctions"] if a["bids"][java] is not None]
        assert bids and all(float(b).is_integer() for b in bids)
        assert any(a["winner"] == java for a in record["auctions"])


def test_exceptions_exit_and_memory_in_java_are_faults_of_the_agent(by_name: Path) -> None:
    record = play_match(_scenario(4), ["thrower", "quitter"], seed=1).to_json()
    thrown, quit_ = sorted(record["result"]["faults"], key=lambda f: f["agent"])
    assert (thrown["kind"], thrown["phase"], thrown["task"]) == ("exception", "bid", 1)
    assert "IllegalArgumentException: cannot price (Task 1" in thrown["message"]
    assert "demo.Plain.askPrice, Plain.java:" in thrown["message"]
    trace = record["output"][0].split("apdp host: the agent failed in 'bid':\n", 1)[1].splitlines()
    assert trace[0].startswith("java.lang.IllegalArgumentException: cannot price"), trace
    assert trace[1].startswith("\tat demo.Plain.askPrice(Plain.java:"), trace  # the agent's frame first
    assert not any("apdp.host." in line for line in trace), trace  # none of the host's (issue 34)
    assert (quit_["phase"], quit_["task"]) == ("bid", 1)
    assert "the agent called System.exit" in quit_["message"]
    assert record["result"]["winner"] is None
    record = play_match(_scenario(3), ["hoarder", "template"], seed=1).to_json()
    [hoard] = record["result"]["faults"]
    assert hoard["agent"] == 0 and "out of memory" in hoard["message"] and "MiB" in hoard["message"]
    assert hoard["kind"] == "memory" and not hoard["message"].startswith("ProtocolError")  # as a Python agent's
    assert record["result"]["winner"] == 1


def test_a_java_exception_with_a_long_message_is_the_agents_exception_cut_short(by_name: Path) -> None:
    record = play_match(_scenario(3), ["shouter", "template"], seed=1).to_json()
    [shout] = record["result"]["faults"]
    assert (shout["agent"], shout["kind"], shout["phase"]) == (0, "exception", "bid"), shout  # no protocol error
    assert shout["message"].startswith("java.lang.IllegalStateException: AAAA"), shout["message"][:200]
    assert "more characters cut]" in shout["message"] and "demo.Plain.askPrice, Plain.java:" in shout["message"]
    assert len(shout["message"]) <= 2_000
    assert record["result"]["winner"] == 1


def test_a_tournament_of_python_java_and_perl_agents(by_name: Path, tmp_path: Path) -> None:
    from apdp.tournament.config import make_config
    from apdp.tournament.run import run_tournament
    from apdp.tournament.store import ResultsStore

    config = make_config(topology="switzerland", agents=["naive", "thorough-java", "perl-greedy"],
                         overrides={"tasks": 5})
    run_tournament(config, tmp_path / "out", jobs=1, progress=False, secret=bytes(32))
    store = ResultsStore.open(tmp_path / "out")
    try:
        matches = list(store.matches())
        assert len(matches) == 6
        assert all(not m.faults for m in matches), [m.faults for m in matches]
        for m in matches:
            record = store.record(m.match_id)
            assert record is not None and verify_record(record) == []
    finally:
        store.close()


def test_logist_add_says_in_one_line_what_is_wrong(java_agents: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from apdp.agents.java.install import add_agent

    src = PROJECT / "src"
    run = subprocess.run(
        [sys.executable, "-c", "from apdp.cli import console; console()", "logist", "add", str(JAVA / "broken"),
         "demo.Broken", "--agents-dir", str(tmp_path)], capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
    assert ("error: demo.Broken does not compile against the Logist API: demo/Broken.java:25: cannot find symbol "
            "(symbol: method fuelLeft(); location: variable vehicle of type Vehicle)") in run.stderr
    cases = [
        (src, "demo.NotAnAgent", "demo.NotAnAgent implements none of logist.behavior's ReactiveBehavior"),
        (src, "demo.Missing", f"no class demo.Missing in {src}"),
        (src, "Plain", "an agent named 'naive' already exists"),
    ]
    for source, class_name, words in cases:
        with pytest.raises(UserError) as caught:
            add_agent(source, class_name, agents_dir=tmp_path, name="naive" if class_name == "Plain" else None)
        assert words in str(caught.value) and "\n" not in str(caught.value)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("JAVA_HOME", raising=False)
    with pytest.raises(NoJdk, match=r"no JDK 17 or newer found.*apt-get install openjdk-17-jdk-headless"):
        add_agent(src, "Plain", agents_dir=tmp_path)


def test_codegen_generates_a_java_agent_and_feeds_the_compile_error_back(
    java_cache: Path, server: ChatServer, tmp_path: Path
) -> None:
    from apdp.agents.provenance import read_provenance
    from apdp.codegen.java import JAVA_TEMPLATE
    from apdp.codegen.loop import RunSettings, run
    from apdp.testing import CheckConfig

    good = JAVA_TEMPLATE.read_text(encoding="utf-8").replace("class AuctionTemplate", "class Generated")
    broken = good.replace("vehicle.capacity()", "vehicle.capacityy()")
    server.reply(f"Here it is:\n```java\n{broken}```")
    server.reply(f"Fixed:\n```java\n{good}```")
    check = CheckConfig(opponents=("naive",), topologies=("france",), tasks=5,
                        timeouts={"setup": 10.0, "bid": 2.0, "plan": 5.0})
    settings = RunSettings(strategy="a1", name="gen-java", agents_dir=tmp_path / "agents", rounds=2, check=check,
                           language="java")
    result = run(settings, server.client())
    assert result.ok and result.rounds == 1, result.report.text() if result.report else None
    prompt = server.user_messages(0)[0]
    assert "implements `logist.behavior.AuctionBehavior`" in prompt and "public class AuctionTemplate" in prompt
    assert "```java" in prompt and "apdp.Agent" not in prompt
    feedback = server.user_messages(1)[-1]
    assert "the build failed" in feedback and "capacityy" in feedback and "complete corrected Java file" in feedback
    folder = tmp_path / "agents" / "gen-java"
    assert (folder / "src" / "template" / "Generated.java").read_text(encoding="utf-8") == good
    provenance = read_provenance(folder)
    assert provenance is not None and provenance["round"] == 1 and provenance["language"] == "java"
    assert provenance["check"] == "passed"


def _java_agent(name: str) -> str:
    """The Java template as class ``name``."""
    from apdp.codegen.java import JAVA_TEMPLATE

    template = JAVA_TEMPLATE.read_text(encoding="utf-8")
    assert "class AuctionTemplate" in template
    return template.replace("class AuctionTemplate", f"class {name}")


def test_codegen_improves_a_java_agent_installed_with_logist_add(
    java_cache: Path, server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """improve with a Java parent: the prompt holds the parent's Java source, the child (Java) names
    its parent, and the report sets them against each other."""
    import json

    from apdp.agents.files import agent_hash
    from apdp.agents.java.install import add_agent
    from apdp.agents.provenance import read_provenance
    from apdp.codegen.java import JAVA_TEMPLATE
    from apdp.codegen.loop import RunSettings, run
    from apdp.codegen.parent import read_parent
    from apdp.testing import CheckConfig
    from apdp.tournament.config import make_config
    from apdp.tournament.report import report
    from apdp.tournament.run import run_tournament

    agents = tmp_path / "agents"
    add_agent(JAVA_TEMPLATE.parent.parent, "template.AuctionTemplate", name="java-parent", agents_dir=agents)
    parent = read_parent(str(agents / "java-parent"))
    assert parent.language == "java" and "class AuctionTemplate" in parent.source
    server.reply(f"Improved:\n```java\n{_java_agent('Improved')}```")
    check = CheckConfig(opponents=("naive",), topologies=("france",), tasks=3,
                        timeouts={"setup": 10.0, "bid": 2.0, "plan": 5.0})
    settings = RunSettings(strategy="improve", name="java-child", agents_dir=agents, rounds=0, check=check,
                           language="java", parent=parent)
    result = run(settings, server.client())
    assert result.ok, result.report.text() if result.report else None
    prompt = server.user_messages(0)[0]
    assert "# 6. The agent to improve" in prompt and "public class AuctionTemplate" in prompt and "```java" in prompt
    provenance = read_provenance(agents / "java-child")
    assert provenance is not None and provenance["parent"] == "java-parent"
    assert provenance["parent_sha256"] == agent_hash(agents / "java-parent") and provenance["language"] == "java"

    monkeypatch.setenv("APDP_AGENTS", str(agents))
    config = make_config(topology="france", agents=["java-parent", "java-child"], seed=1,
                         overrides={"tasks": 3, "timeouts.setup": 10.0, "timeouts.bid": 2.0})
    assert run_tournament(config, tmp_path / "out", jobs=1, progress=False).played == 2
    (pair,) = json.loads(report([tmp_path / "out"], "json"))["lineage"]["pairs"]
    assert (pair["agent"], pair["parent"], pair["matches"]) == ("java-child", "java-parent", 2)


def test_codegen_evolves_a_java_agent(java_cache: Path, server: ChatServer, tmp_path: Path) -> None:
    """evolve in Java: version 0 from the A1 Java prompt, one round against honest, the results sent
    back, version 1 a Java agent whose parent is version 0."""
    from apdp.agents.provenance import read_provenance
    from apdp.study.evolve import EvolveSettings, evolve
    from apdp.testing import CheckConfig

    server.reply(f"```java\n{_java_agent('First')}```")
    server.reply(f"```java\n{_java_agent('Second')}```")
    check = CheckConfig(opponents=("naive",), topologies=("france",), tasks=3,
                        timeouts={"setup": 10.0, "bid": 2.0, "plan": 5.0})
    settings = EvolveSettings(name="jevo", rounds=1, agents_dir=tmp_path / "agents", work=tmp_path / "work",
                              opponents=("honest",), language="java", repairs=0, check=check, tasks=3,
                              timeouts={"setup": 10.0, "bid": 2.0, "plan": 5.0})
    result = evolve(settings, server.client())
    assert [v.name for v in result.versions] == ["jevo-v0", "jevo-v1"] and len(result.curve) == 2
    second = server.user_messages(1)[0]
    assert "public class First" in second and "## Matches you lost" in second and "```java" in second
    provenance = read_provenance(tmp_path / "agents" / "jevo-v1")
    assert provenance is not None and provenance["parent"] == "jevo-v0" and provenance["evolve_round"] == 1


def test_a_java_agents_attacks_gain_nothing(java_agents: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sandbox holds for a JVM too: a Java agent that tries to write outside its folder, read,
    see or kill the referee, reach the network or run a shell gets nothing, and plays on."""
    import socket

    from apdp.agents.java.install import add_agent

    add_agent(PROJECT / "src", "demo.Intruder", name="intruder", agents_dir=java_agents)
    monkeypatch.setenv("APDP_AGENTS", str(java_agents))
    monkeypatch.setenv("APDP_TEST_SECRET", "s3cret-for-java")
    sentinel = Path(__file__).parent / f"planted-java-{os.getpid()}"  # not under /tmp: its /tmp is private
    with socket.create_server(("127.0.0.1", 0)) as tcp, socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        port = tcp.getsockname()[1]
        udp.bind(("127.0.0.1", port))
        tcp.setblocking(False)
        udp.setblocking(False)
        params = {"sentinel": str(sentinel), "referee": os.getpid(), "port": port}
        scenario = make_scenario({"tasks": 6, "timeouts": {"setup": 10.0, "bid": 2.0, "plan": 5.0},
                                  "agents": {"intruder": params}})
        record = play_match(scenario, ["intruder", "honest"], seed=3).to_json()
        received = []
        for name, receive in (("tcp", lambda: tcp.accept()), ("udp", lambda: udp.recv(16))):
            try:
                receive()
                received.append(name)
            except BlockingIOError:
                pass
    output = record["output"][0]
    assert record["result"]["faults"] == [], record["result"]["faults"]
    assert verify_record(record) == []
    assert output.count("refused ") == 9 and "GOT " not in output, output
    assert "s3cret-for-java" not in output
    assert not sentinel.exists() and not Path(f"{sentinel}.sh").exists()
    assert received == []
