"""The check an agent must pass before it enters a tournament, for students and for the LLM harness.

``check_agent`` imports the agent in its sandbox, plays it against itself twice (the same match:
the records must agree, timing and output aside), then against two baseline agents on two networks
(on one of them as the second company), and returns a :class:`CheckReport` of every problem by
class: import errors, timeouts with their phase, exceptions with their traceback, bad bids,
undelivered tasks, capacity exceeded, other invalid plans, memory, crashes, and results that are
not reproducible (with the likely cause: ``random``, ``numpy.random`` or the clock, not ``self.rng``).
``report.text()`` is written to be read by a person or pasted back to a model.

From pytest::

    from apdp.testing import assert_agent_ok

    def test_my_agent() -> None:
        assert_agent_ok("agents/me.py")

apdp is also a pytest plugin (:mod:`apdp.pytest_plugin`, loaded wherever apdp is installed): the
fixture ``apdp_check("agents/me.py")`` fails the test with the check's findings, one line each, and
``pytest --apdp-agent agents/me.py`` checks an agent with no test file to write.
"""

from apdp.check.config import CheckConfig
from apdp.check.gate import AgentCheckFailed, assert_agent_ok, check_agent
from apdp.check.report import CATEGORIES, CheckReport, MatchOutcome, Problem

__all__ = [
    "CATEGORIES",
    "AgentCheckFailed",
    "CheckConfig",
    "CheckReport",
    "MatchOutcome",
    "Problem",
    "assert_agent_ok",
    "check_agent",
]
