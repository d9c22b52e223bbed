"""Where the tests find the repository and their data (``tests/data/``)."""

from __future__ import annotations

from pathlib import Path

#: The clone the tests run from.
ROOT = Path(__file__).resolve().parent.parent
#: The tests' data: agents and projects they play with, and a reference instance.
DATA = ROOT / "tests" / "data"
#: Hostile agents: they crash, hang, forge messages and attack the sandbox.
ZOO = DATA / "zoo"
#: Agent programs in other languages (Perl, C).
PROGRAMS = DATA / "programs"
#: A small Logist project: the course's configurations, networks and recorded task draws.
LOGIST = DATA / "logist"
#: Java agents written for the Logist platform: a project, and sources that do not compile.
JAVA = DATA / "java"
#: Planning instances in the reference format, with the best plans known and their costs.
INSTANCES = DATA / "pdp-instances.json"
#: The clone's agent template (not the copy bundled in the package).
TEMPLATE = ROOT / "agents" / "template.py"
#: Agents ``apdp analyze`` is tested on: one that bids at its reference marginal cost, one that plans badly.
ANALYSIS = DATA / "analysis"
