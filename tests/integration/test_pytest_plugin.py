"""apdp.testing as a pytest plugin (apdp/pytest_plugin.py), in real pytest runs of a student's folder:
the ``apdp_check`` fixture and ``pytest --apdp-agent PATH`` pass a good agent and fail a broken one
with the check's findings, one line each."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from tests.paths import TEMPLATE

BROKEN = TEMPLATE.read_text(encoding="utf-8").replace("class Template", "class Broken").replace(
    "    def bid(self, task: Task) -> float | None:\n",
    "    def bid(self, task: Task) -> float | None:\n        return 1 / 0\n",
)

STUDENT_TESTS = """\
from apdp.testing import CheckConfig

FAST = CheckConfig(opponents=("template",), topologies=("france",), tasks=4)


def test_good(apdp_check):
    assert apdp_check("good.py", FAST).ok


def test_broken(apdp_check):
    apdp_check("broken.py", FAST)
"""


def test_apdp_is_a_pytest_plugin_wherever_it_is_installed() -> None:
    plugins = {e.name: e.value for e in entry_points(group="pytest11")}
    assert plugins.get("apdp") == "apdp.pytest_plugin", "reinstall apdp (pip install -e .): its entry points changed"


@pytest.fixture
def student(pytester: pytest.Pytester) -> pytest.Pytester:
    """A student's folder: a good agent (the template), one that raises in bid, one with no agent."""
    assert "return 1 / 0" in BROKEN
    pytester.makefile(".py", good=TEMPLATE.read_text(encoding="utf-8"), broken=BROKEN,
                      empty="from apdp import Agent\n")
    return pytester


def test_the_fixture_fails_a_broken_agent_with_its_findings(student: pytest.Pytester) -> None:
    student.makepyfile(test_agents=STUDENT_TESTS)
    run = student.runpytest_subprocess("-p", "no:cacheprovider")
    run.assert_outcomes(passed=1, failed=1)
    out = run.stdout.str()
    run.stdout.fnmatch_lines([
        "*_ test_broken _*",
        "Check of agent 'broken' (*broken.py): FAILED: 1 distinct problem(s), faults in 2 of 2 matches.",
        "- Exceptions in bid on task 0: *ZeroDivisionError*",
        "*- Captured apdp check call -*",
    ])
    assert "ZeroDivisionError: division by zero" in out  # the agent's traceback, in the report's section
    assert "pytest_plugin.py" not in out  # a failed check, not a traceback of apdp's


def test_apdp_agent_adds_a_check_per_agent(student: pytest.Pytester) -> None:
    run = student.runpytest_subprocess("-p", "no:cacheprovider", "-v", "--apdp-agent", "good.py",
                                       "--apdp-agent", "empty.py", "--apdp-agent", "nobody")
    run.assert_outcomes(passed=1, failed=2)
    run.stdout.fnmatch_lines([
        "apdp-check?good.py? PASSED*",
        "apdp-check?empty.py? FAILED*",
        "apdp-check?nobody? FAILED*",
    ])
    run.stdout.fnmatch_lines(["- Import errors in setup: *defines no agent*"])
    run.stdout.fnmatch_lines(["*_ apdp check of nobody _*", "apdp check of nobody: no agent named 'nobody'*",
                              "*short test summary info*"], consecutive=True)
    out = run.stdout.str()
    assert "pytest_plugin.py" not in out and "During handling" not in out


def test_apdp_agent_alone_checks_the_agent_not_the_folder_s_own_tests(student: pytest.Pytester) -> None:
    # a folder whose own suite cannot even be collected here (a clone of apdp without its test extras)
    student.makepyfile(test_suite="import a_module_nobody_installed\n\ndef test_x():\n    pass\n")
    run = student.runpytest_subprocess("-p", "no:cacheprovider", "-v", "--apdp-agent", "good.py")
    run.assert_outcomes(passed=1)
    assert "a_module_nobody_installed" not in run.stdout.str()
    # a test path given as well: it is collected, as asked (here it cannot be)
    run = student.runpytest_subprocess("-p", "no:cacheprovider", "--apdp-agent", "good.py", "test_suite.py")
    run.assert_outcomes(errors=1)
    assert "a_module_nobody_installed" in run.stdout.str()
