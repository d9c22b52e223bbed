"""apdp's agent check (:mod:`apdp.testing`) as a pytest plugin, registered as the ``pytest11`` entry
point ``apdp``: pytest loads it wherever apdp is installed.

- The fixture ``apdp_check(agent, config=None)`` checks an agent (a path or a name) and returns
  the :class:`~apdp.testing.CheckReport`; a check that fails fails the test with the check's
  findings, one line each (the whole report, tracebacks and scores, is the test's "apdp check"
  section)::

      def test_my_agent(apdp_check):
          apdp_check("agents/me.py")

- ``pytest --apdp-agent agents/me.py`` (repeatable) adds one such test per agent, with no test file
  to write. Given no test path, it runs those checks alone: the tests of the folder it runs in (a
  clone of apdp holds its own suite) are not collected.

The check itself is :func:`apdp.testing.check_agent`; this module only reports it to pytest, and
imports apdp (the referee, the sandbox) only when a check runs, not in every pytest run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from apdp.testing import CheckConfig, CheckReport

#: The fixture's function: an agent (a path or a name), an optional CheckConfig; the report.
AgentCheck = Callable[..., "CheckReport"]


def findings(report: CheckReport) -> str:
    """The check's outcome in one line, then each problem in one line: its class, where, and what."""
    from apdp.testing import CATEGORIES

    lines = [report.text().splitlines()[0]]
    for problem in report.problems:
        where = [CATEGORIES[problem.category][0]]
        if problem.phase:
            where.append(f"in {problem.phase}")
        if problem.task is not None:
            where.append(f"on task {problem.task}")
        message = problem.message.strip().splitlines() or [""]
        lines.append(f"- {' '.join(where)}: {message[0]}")
    lines.extend(f"- note: {note}" for note in report.notes)
    return "\n".join(lines)


def check(agent: str | Path, config: CheckConfig | None, node: pytest.Item) -> CheckReport:
    """Check ``agent`` for the test ``node``: its report, or the test fails with the findings."""
    from apdp.errors import UserError
    from apdp.testing import check_agent

    mistake: str | None = None
    try:
        report = check_agent(agent, config)
    except UserError as exc:  # no such agent, no network: a line, not apdp's traceback
        mistake = str(exc)
    if mistake is not None:
        pytest.fail(f"apdp check of {agent}: {mistake}", pytrace=False)
    node.add_report_section("call", "apdp check", report.text())
    if not report.ok:
        pytest.fail(findings(report), pytrace=False)
    return report


@pytest.fixture
def apdp_check(request: pytest.FixtureRequest) -> AgentCheck:
    """A function that checks an agent (a path or a name) with :func:`apdp.testing.check_agent` and
    returns its report; a failed check fails the test with the findings, one line each."""

    def run(agent: str | Path, config: CheckConfig | None = None) -> CheckReport:
        node = request.node
        assert isinstance(node, pytest.Item)
        return check(agent, config, node)

    return run


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("apdp", "apdp's agent check")
    group.addoption("--apdp-agent", action="append", default=[], metavar="PATH", dest="apdp_agents",
                    help="check this agent (a path or a name) with apdp's agent check, as one more test; "
                         "may be given more than once")


class AgentCheckItem(pytest.Item):
    """The test that ``--apdp-agent PATH`` adds: apdp's check of that agent."""

    def __init__(self, *, agent: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.agent = agent

    def runtest(self) -> None:
        check(self.agent, None, self)

    def reportinfo(self) -> tuple[Path | str, int | None, str]:
        return self.agent, None, f"apdp check of {self.agent}"


@pytest.hookimpl(tryfirst=True)  # before -k and -m select: they apply to these tests too
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    for agent in config.getoption("apdp_agents"):
        name = f"apdp-check[{agent}]"
        items.append(AgentCheckItem.from_parent(session, name=name, nodeid=name, agent=agent))


def _only_agents(config: pytest.Config) -> bool:
    """True when ``--apdp-agent`` is given and no test path: then only the agents are checked."""
    agents = config.getoption("apdp_agents")
    if not agents:
        return False
    given = [a for a in config.invocation_params.args if not str(a).startswith("-") and str(a) not in agents]
    return not any(Path(str(a).split("::")[0]).exists() for a in given)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With ``--apdp-agent`` and no test path, collect no test files (see the module's text)."""
    return True if _only_agents(config) else None
