"""Play the course's test agents (``src/course``: honest and best response, in Java on apdp's Logist
API) on the course's four configurations with 50 tasks, in both seats, and write what they bid as
``histories/<first><second>_<network>.xml`` (h: honest, b: best response), in the layout of the
platform's own history files. tests/unit/test_logist_course_bids.py checks that apdp's ``honest`` and
``model-opponent`` bid the same, bid for bid.

    python tests/data/logist/course_agents/record_histories.py      # needs a JDK; about a minute
"""

from __future__ import annotations

import os
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from apdp.agents.java.project import import_project
from apdp.referee.match import play_match
from apdp.scenario import load_scenario

HERE = Path(__file__).resolve().parent
CONFIG = HERE.parent / "config"
NETWORKS = ("switzerland", "the_netherlands", "england", "france")
AGENTS = {"h": "honest-java", "b": "best-response-java"}
TASKS = 50


def history(configuration: str, agents: list[str], record: dict[str, object]) -> ET.ElementTree:
    """The match as the platform writes a history: its agents, then each task with every bid."""
    root = ET.Element("history", configuration=f"config/{configuration}", tasks=str(TASKS))
    listed = ET.SubElement(root, "agents")
    for name in agents:
        ET.SubElement(listed, "agent", name=name)
    tasks = ET.SubElement(ET.SubElement(ET.SubElement(root, "rounds"), "round", id="1"), "tasks")
    for task, auction in zip(record["tasks"], record["auctions"], strict=True):  # type: ignore[call-overload]
        element = ET.SubElement(tasks, "task", id=str(task["id"]), pickup=task["pickup"],
                                delivery=task["delivery"], weight=f"{task['weight']:g}", reward=str(task["reward"]))
        for name, bid in zip(agents, auction["bids"], strict=True):
            ET.SubElement(element, "bid", agent=name, bid="" if bid is None else f"{bid:.0f}")
    ET.indent(root, "\t")
    return ET.ElementTree(root)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        agents_dir = Path(folder) / "agents"
        result = import_project(HERE, agents_dir)
        if result.failed:
            sys.exit(f"cannot install the course's agents: {result.failed}")
        os.environ["APDP_AGENTS"] = str(agents_dir)
        (HERE / "histories").mkdir(exist_ok=True)
        for network in NETWORKS:
            configuration = f"auction_{network}.xml"
            overrides = {"tasks": TASKS, "timeouts.setup": 30.0, "task_draw": "platform"}
            scenario = load_scenario(CONFIG / configuration, overrides)
            for seats in ("hb", "bh"):
                agents = [AGENTS[s] for s in seats]
                record = play_match(scenario, agents, seed=0).to_json()
                faults = record["result"]["faults"]
                if faults:
                    sys.exit(f"{configuration} {agents}: {faults}")
                path = HERE / "histories" / f"{seats}_{network}.xml"
                history(configuration, agents, record).write(path, encoding="utf-8", xml_declaration=True)
                print(path.relative_to(HERE.parents[1]))


if __name__ == "__main__":
    main()
