"""One student's Java agent never replaces another's: ``apdp logist add`` and ``apdp logist import``
refuse, in one line naming the folder and how to choose another name, a name taken by an agent
installed from elsewhere; the same source again updates its agent, and ``--replace`` replaces."""

from __future__ import annotations

from pathlib import Path

import pytest

from apdp.agents.java.names import NameTaken
from tests.command import apdp

AGENT = """\
package template;

import java.util.ArrayList;
import java.util.List;

import logist.agent.Agent;
import logist.behavior.AuctionBehavior;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;

/** {owner}'s agent. */
public class AuctionTemplate implements AuctionBehavior {{
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {{ }}

    public Long askPrice(Task task) {{ return {bid}L; }}

    public void auctionResult(Task previous, int winner, Long[] bids) {{ }}

    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {{
        List<Plan> plans = new ArrayList<>();
        for (Vehicle v : vehicles) {{ plans.add(Plan.EMPTY); }}
        return plans;
    }}
}}
"""

AGENTS_XML = """\
<agents>
  <agent name="auction-main">
    <set class-name="template.AuctionTemplate"/>
    <set owner="{owner}"/>
  </agent>
</agents>
"""


def _student(root: Path, owner: str, bid: int) -> Path:
    """A student's project: ``src/template/AuctionTemplate.java`` (the class name the course's
    template has) and its ``config/agents.xml``."""
    source = root / owner / "src" / "template" / "AuctionTemplate.java"
    source.parent.mkdir(parents=True)
    source.write_text(AGENT.format(owner=owner, bid=bid), encoding="utf-8")
    (root / owner / "config").mkdir()
    (root / owner / "config" / "agents.xml").write_text(AGENTS_XML.format(owner=owner), encoding="utf-8")
    return root / owner


def _owner(folder: Path) -> str:
    """Whose agent an installed folder holds."""
    text = (folder / "src" / "template" / "AuctionTemplate.java").read_text(encoding="utf-8")
    return text.split("/** ", 1)[1].split("'s agent", 1)[0]


@pytest.fixture
def students(java_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("APDP_JAVA_ARCHIVE", "0")  # no class data archive: these agents never play
    return _student(tmp_path, "alice", 100), _student(tmp_path, "bob", 1)


def test_add_never_replaces_another_students_agent_of_the_same_class(students: tuple[Path, Path],
                                                                     tmp_path: Path) -> None:
    from apdp.agents.java.install import add_agent

    alice, bob = students
    agents = tmp_path / "agents"
    installed = add_agent(alice / "src", "template.AuctionTemplate", agents_dir=agents)
    assert installed.name == "auction-template" and _owner(installed.folder) == "alice"
    with pytest.raises(NameTaken) as caught:
        add_agent(bob / "src", "template.AuctionTemplate", agents_dir=agents)
    message = str(caught.value)
    assert "\n" not in message and str(agents / "auction-template") in message
    assert str((alice / "src").resolve()) in message and "--name" in message and "--replace" in message
    assert _owner(agents / "auction-template") == "alice"
    done = apdp("logist", "add", str(bob / "src"), "template.AuctionTemplate", "--agents-dir", str(agents))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "is taken by the agent in" in done.stderr and _owner(agents / "auction-template") == "alice"

    again = add_agent(alice / "src", "template.AuctionTemplate", agents_dir=agents)  # the same source: an update
    assert again.folder == installed.folder and _owner(again.folder) == "alice"
    theirs = add_agent(bob / "src", "template.AuctionTemplate", agents_dir=agents, name="bob")
    assert _owner(theirs.folder) == "bob" and _owner(agents / "auction-template") == "alice"
    add_agent(bob / "src", "template.AuctionTemplate", agents_dir=agents, replace=True)
    assert _owner(agents / "auction-template") == "bob"
    with pytest.raises(NameTaken, match=r"the name 'Bob' is taken: .*bob answers to it; choose another with --name"):
        add_agent(alice / "src", "template.AuctionTemplate", agents_dir=agents, name="Bob")


def test_import_never_replaces_another_projects_agent_nor_its_parameters(students: tuple[Path, Path],
                                                                         tmp_path: Path) -> None:
    from apdp.agents.java.project import import_project

    alice, bob = students
    agents = tmp_path / "agents"
    first = import_project(alice, agents)
    assert first.failed == [] and [a.name for a in first.installed] == ["auction-main"]
    params = (agents / "params.toml").read_text(encoding="utf-8")
    assert '[auction-main]\nowner = "alice"' in params

    second = import_project(bob, agents)
    assert second.installed == [] and len(second.failed) == 1
    name, why = second.failed[0]
    assert name == "auction-main" and "\n" not in why and str(agents / "auction-main") in why
    assert str(alice.resolve()) in why and "--prefix bob-" in why
    assert _owner(agents / "auction-main") == "alice"
    assert (agents / "params.toml").read_text(encoding="utf-8") == params
    done = apdp("logist", "import", str(bob), "--agents-dir", str(agents))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert all(line.startswith("error: ") for line in done.stderr.splitlines())
    assert "--prefix bob-" in done.stderr and _owner(agents / "auction-main") == "alice"

    prefixed = import_project(bob, agents, prefix="bob-")
    assert [a.name for a in prefixed.installed] == ["bob-auction-main"]
    assert _owner(agents / "bob-auction-main") == "bob" and _owner(agents / "auction-main") == "alice"
    params = (agents / "params.toml").read_text(encoding="utf-8")
    assert '[auction-main]\nowner = "alice"' in params and '[bob-auction-main]\nowner = "bob"' in params
    assert import_project(alice, agents).failed == []  # the same project again: an update
    assert _owner(agents / "auction-main") == "alice"
