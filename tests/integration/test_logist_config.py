"""Logist configuration files as scenarios: reading, imports, one-line mistakes, matches and records."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from apdp.check.verify import verify_record
from apdp.errors import UserError
from apdp.game.auction import auction_winner
from apdp.logist.config import read_configuration
from apdp.referee.record import embedded_network, record_topology
from apdp.scenario import load_scenario
from apdp.scenario.networks import load_topology
from apdp.tournament.config import make_config
from tests.paths import LOGIST

PROJECT = LOGIST
FRANCE = "config/auction_france.xml"


def apdp(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from apdp.cli import console; console()", *args],
        capture_output=True, text=True, timeout=300, cwd=cwd,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the test project, to break."""
    shutil.copytree(PROJECT / "config", tmp_path / "config")
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="iso-8859-1")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="iso-8859-1")


def test_a_configuration_is_a_scenario() -> None:
    scenario = load_scenario(PROJECT / FRANCE)
    assert Path(scenario.topology) == (PROJECT / "config/topology/france.xml").resolve()
    assert scenario.tasks == 50 and scenario.ties == "first"
    assert (scenario.timeouts.setup, scenario.timeouts.bid, scenario.timeouts.plan) == (10, 2.5, 5)
    companies = scenario.build_companies(scenario.load_topology(), 2)
    assert [[v.home for v in c.vehicles] for c in companies] == [["Paris", "Lyon"], ["Brest", "Monaco"]]
    assert {(v.capacity, v.cost_per_km) for c in companies for v in c.vehicles} == {(30, 5)}
    assert scenario.logist_tasks is not None and scenario.logist_tasks.reward.policy == "short"
    overridden = load_scenario(PROJECT / FRANCE, {"tasks": 3, "timeouts.bid": 1.0, "seed": 4})
    assert (overridden.tasks, overridden.timeouts.bid, overridden.seed) == (3, 1.0, 4)


def test_imports_are_found_as_projects_lay_them_out(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)  # from the project folder, as the platform runs
    assert read_configuration(FRANCE)["tasks"] == 50
    monkeypatch.chdir(project.parent)  # from anywhere: beside the configuration's folder
    assert read_configuration(project / FRANCE)["tasks"] == 50
    (project / "config/agents.xml").unlink()  # not needed
    edit(project / FRANCE, 'import="config/topology/france.xml"', r'import="config\topology\france.xml"')
    edit(project / FRANCE, 'import="config/settings_auction.xml"', 'import="settings_auction.xml"')
    assert read_configuration(project / FRANCE)["timeouts"] == {"setup": 10, "bid": 2.5, "plan": 5}


def test_settings_may_be_inline_and_timeouts_are_optional(project: Path) -> None:
    edit(project / FRANCE, '<settings import="config/settings_auction.xml"/>',
         '<settings><set timeout-bid="30000"/><set other-option="1"/></settings>')
    assert read_configuration(project / FRANCE)["timeouts"] == {"bid": 30.0}


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        (FRANCE, "topology/france.xml", "topology/mars.xml",
         '<topology import="config/topology/mars.xml">: no such file in the working directory'),
        (FRANCE, "config/settings_auction.xml", "config/nope.xml", '<settings import="config/nope.xml">'),
        (FRANCE, '<topology import="config/topology/france.xml"/>', "", "no <topology import="),
        (FRANCE, '<set home="Brest"/>', '<set home="Atlantis"/>',
         "company 'Company B' vehicle 'Vehicle 3': home 'Atlantis' is not a city of france"),
        (FRANCE, '<set home="Brest"/>', "", "company 'Company B' vehicle 'Vehicle 3': no <set home=.../>"),
        (FRANCE, '<set capacity="30"/>', '<set capacity="thirty"/>',
         "vehicle 'Vehicle 1': capacity must be a number, got 'thirty'"),
        (FRANCE, '<set cost-per-km="5"/>', '<set cost-per-km="-5"/>', "cost-per-km must be > 0, got '-5'"),
        (FRANCE, 'rngSeed="50"', 'rngSeed="5.5"', "<tasks> rngSeed must be a whole number, got '5.5'"),
        (FRANCE, 'rngSeed="50"', 'rngSeed="99999999999999999999"', "rngSeed must be a Java long"),
        (FRANCE, 'number="50"', 'number="0"', "<tasks> number must be at least 1, got 0"),
        (FRANCE, 'number="50"', 'number="many"', "<tasks> number must be a whole number, got 'many'"),
        (FRANCE, 'min="100" max="99999"', 'min="99999" max="100"', "<tasks><reward>: min (99999) must not exceed"),
        (FRANCE, 'policy="short-distances"', 'policy="short"',
         "<tasks><reward>: policy must be one of short-distances, medium-distances, long-distances"),
        (FRANCE, '<weight distribution="constant"', '<weight distribution="normal"',
         "<tasks><weight>: distribution must be constant or uniform, got 'normal'"),
        (FRANCE, '<weight distribution="constant" value="3"/>', "", "<tasks> has no <weight"),
        (FRANCE, 'value="3"', 'value="0.5"', "weight: values must be >= 1"),
        (FRANCE, 'max="1.0"', 'max="1e999"', "max must be a finite number"),
        (FRANCE, "</configuration>", "", "configuration is not valid XML"),
        (FRANCE, "configuration", "config", "a Logist configuration's root is <configuration>, got <config>"),
        ("config/settings_auction.xml", 'timeout-bid="2500"', 'timeout-bid="fast"',
         "settings_auction.xml: timeout-bid must be a whole number, got 'fast'"),
        ("config/settings_auction.xml", 'timeout-bid="2500"', 'timeout-bid="0"', "timeout-bid must be > 0"),
        ("config/topology/france.xml", 'to="Brest"', 'to="Atlantis"',
         "france.xml: route #1 (Paris - Atlantis): unknown city 'Atlantis'"),
        ("config/topology/france.xml", 'distance="591"', 'distance="far"',
         "france.xml: route #1 (Paris - Brest): distance must be a number, got 'far'"),
        ("config/topology/france.xml", 'name="Brest" x="14"', 'name="Brest" x="west"',
         "city #1 (Brest): x must be a number"),
        ("config/topology/france.xml", "topology", "network", "a topology file's root is <topology>"),
        ("config/topology/france.xml", '<?xml version="1.0" encoding="ISO-8859-1"?>',
         '<!DOCTYPE t [<!ENTITY a "aaaa">]>', "declares XML entities"),
    ],
)
def test_every_mistake_is_one_line(project: Path, file: str, old: str, new: str, message: str) -> None:
    edit(project / file, old, new)
    with pytest.raises(UserError) as err:
        load_scenario(project / FRANCE)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_a_mistake_on_the_command_line_is_one_line_without_traceback(project: Path) -> None:
    edit(project / FRANCE, '<set home="Brest"/>', '<set home="Atlantis"/>')
    run = apdp("match", "--scenario", str(project / FRANCE), "--agents", "template", "naive")
    assert run.returncode != 0
    assert run.stderr.strip().count("\n") == 0 and "Traceback" not in run.stderr
    assert "home 'Atlantis' is not a city of france" in run.stderr


def test_topology_files_in_latin1_without_a_declaration(tmp_path: Path) -> None:
    path = tmp_path / "mini.xml"
    path.write_bytes('<topology name="mini"><cities><city name="Genève" x="1" y="2"/><city name="Zürich"/>'
                     '</cities><routes><route from="Genève" to="Zürich" distance="279.5"/></routes>'
                     "</topology>".encode("iso-8859-1"))
    network = load_topology(str(path))
    assert network.cities == ("Genève", "Zürich") and network.distance("Zürich", "Genève") == 279.5


def test_a_logist_match_plays_and_its_record_verifies(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    run = apdp("match", "--scenario", str(PROJECT / "config/auction_switzerland.xml"),
               "--agents", "template", "naive", "--seed", "1", "--record", str(record), "--platform-tasks")
    assert run.returncode == 0, run.stderr
    assert "tasks: the Logist platform's own draw" in run.stdout
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["topology"] == "switzerland" and data["ties"] == "first" and "network" not in data
    assert data["task_draw"] == "platform"
    assert len(data["tasks"]) == 15 and all(t["reward"] > 0 for t in data["tasks"])
    assert data["tasks"][0] == {"id": 0, "pickup": "Neuchâtel", "delivery": "St-Gallen", "weight": 3,
                                "reward": 36797}
    ok = apdp("verify", str(record))
    assert ok.returncode == 0, ok.stdout
    # a tie the record gave to the second agent breaks the platform's rule
    data["auctions"][0]["bids"] = [5.0, 5.0]
    data["auctions"][0]["winner"] = 1
    assert any("a tie goes to the agent listed first (agent 0)" in p for p in verify_record(data))


def test_ties_go_to_the_first_listed_only_under_the_platform_rule() -> None:
    assert auction_winner([7.0, 3.0, 3.0], None) == 1
    rng = np.random.default_rng(0)
    assert {auction_winner([3.0, 3.0, 3.0], rng) for _ in range(50)} == {0, 1, 2}


def test_a_network_of_another_shape_travels_in_the_record(tmp_path: Path) -> None:
    assert embedded_network(load_topology(str(PROJECT / "config/topology/france.xml"))) is None
    path = tmp_path / "france.xml"
    text = (PROJECT / "config/topology/france.xml").read_text(encoding="iso-8859-1")
    path.write_text(text.replace('distance="591"', 'distance="600.5"'), encoding="iso-8859-1")
    changed = load_topology(str(path))
    network = embedded_network(changed)
    assert network is not None
    again = record_topology({"topology": "france", "network": network})
    assert again.roads == changed.roads and again.distances == changed.distances
    assert record_topology({"topology": "france"}) is load_topology("france")
    written_by_0_1 = {"name": network["name"], "cities": network["cities"],  # a topology file's form
                      "routes": [{"from": r["from"], "to": r["to"], "distance": r["km"]} for r in network["roads"]]}
    assert record_topology({"topology": "france", "network": written_by_0_1}).roads == changed.roads


def test_a_tournament_takes_a_configuration() -> None:
    config = make_config(topology=None, agents=["template", "naive"],
                         scenario_file=str(PROJECT / "config/auction_england.xml"), overrides={"tasks": 5})
    assert config.topologies == (str((PROJECT / "config/topology/england.xml").resolve()),)
    assert config.scenario.tasks == 5 and config.scenario.ties == "first"
    assert json.loads(json.dumps(config.to_json()))["scenario"]["logist_tasks"]["rng_seed"] == 30
