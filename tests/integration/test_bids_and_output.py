"""What an agent returns and prints: exact numbers of any numeric type are bids; its output is kept
(stdout and stderr both, within the limit, cut once per stream) and shown when asked."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from apdp.codegen.prompts import strategy_prompt
from apdp.referee.match import play_match
from tests.matches import fast_scenario

EXACT = """
from decimal import Decimal
from fractions import Fraction

from apdp import Agent, Stop, plan_from_stops


class Exact(Agent):
    def bid(self, task):
        kind = self.param("kind", "decimal")
        if kind == "decimal":
            return Decimal("1234.5") + task.id
        if kind == "fraction":
            return Fraction(2469, 2) + task.id
        return Decimal(kind)

    def plan(self, vehicles, tasks):
        stops = [s for t in tasks for s in (Stop.pickup(t), Stop.deliver(t))]
        return [plan_from_stops(self.topology, vehicles[0], stops)] + [[] for _ in vehicles[1:]]
"""

LOUD = """
import sys

from apdp import Agent


class Loud(Agent):
    def bid(self, task):
        if task.id == 0:
            print("x" * 100_000)                   # a flood on stdout, far over the limit
            print("warning: the flood above", file=sys.stderr)
            sys.stderr.write("y" * 100_000)        # then stderr floods too
        return None

    def plan(self, vehicles, tasks):
        return [[] for _ in vehicles]
"""


@pytest.mark.parametrize("kind", ["decimal", "fraction"])
def test_decimal_and_fraction_bids_are_taken_exactly(tmp_path: Path, kind: str) -> None:
    agent = tmp_path / "exact.py"
    agent.write_text(EXACT)
    scenario = fast_scenario(tasks=3, agents={"exact": {"kind": kind}})
    record = play_match(scenario, [str(agent), "template"], seed=1).to_json()
    assert record["result"]["faults"] == []
    assert [a["bids"][0] for a in record["auctions"]] == [1234.5, 1235.5, 1236.5]


@pytest.mark.parametrize(("value", "words"), [("Infinity", "finite, got inf"), ("NaN", "finite, got nan"),
                                              ("sNaN", "a bid must be a finite number up to 1e12, got Decimal sNaN")])
def test_a_decimal_that_is_no_finite_number_is_a_bad_bid(tmp_path: Path, value: str, words: str) -> None:
    agent = tmp_path / "exact.py"
    agent.write_text(EXACT)
    scenario = fast_scenario(tasks=2, agents={"exact": {"kind": value}})
    record = play_match(scenario, [str(agent), "template"], seed=1).to_json()
    (fault,) = record["result"]["faults"]
    assert fault["kind"] == "bad_bid" and words in fault["message"], fault


def test_the_prompts_state_the_bid_types_and_the_auction_result_time_limit() -> None:
    for strategy in ("a1", "a2"):
        text = strategy_prompt(strategy).text
        assert "Decimal" in text and "Fraction" in text, strategy
        flat = " ".join(text.split())
        assert re.search(r"auction_result`? 2\.5 s|2\.5 s per `auction_result`", flat), strategy


def test_stdout_and_stderr_are_both_kept_and_each_cut_once(tmp_path: Path) -> None:
    agent = tmp_path / "loud.py"
    agent.write_text(LOUD)
    record = play_match(fast_scenario(tasks=2, limits={"output_kb": 8}), [str(agent), "template"], seed=1).to_json()
    output = record["output"][0]
    assert len(output.encode()) <= 8 * 1024 + 256
    assert "warning: the flood above" in output  # stderr is not lost to the flood on stdout
    assert output.count("[apdp: stdout limit reached") == 1
    assert output.count("[apdp: stderr limit reached") == 1
    assert output.count("limit reached") == 2
    assert output.index("x" * 100) < output.index("warning: the flood above") < output.index("y" * 100)


def test_apdp_match_says_where_output_went_and_shows_it_when_asked(tmp_path: Path) -> None:
    agent = tmp_path / "loud.py"
    agent.write_text(LOUD)
    base = [sys.executable, "-c", "from apdp.cli import console; console()", "match", "--agents", str(agent),
            "template", "--topology", "ch", "--tasks", "2", "--seed", "1", "--quiet"]
    plain = subprocess.run(base, capture_output=True, text=True, timeout=120)
    assert plain.returncode == 0, plain.stderr
    assert "output: loud (" in plain.stdout and "--show-output prints it" in plain.stdout
    assert "x" * 100 not in plain.stdout
    shown = subprocess.run([*base, "--show-output"], capture_output=True, text=True, timeout=120)
    assert "--- output of loud (company 0) ---" in shown.stdout
    assert "warning: the flood above" in shown.stdout and "x" * 100 in shown.stdout
