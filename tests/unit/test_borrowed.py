"""An exercise agent that imports apdp's own solvers is told apart (the attack round: the scorer's
exact search, imported, was ranked first and admissible)."""

from __future__ import annotations

from pathlib import Path

from apdp.check.borrowed import borrowed_solvers
from apdp.tournament.exercise_table import summary_rows

CHEAT = '''
import importlib
from apdp import DeliberativeAgent, Move
from apdp.exercises.optimal_plan import farthest_task, search_plan
from apdp.exercises.topology import LogistTopology
import apdp.baselines.planning as planning
mdp = importlib.import_module("apdp.exercises.reactive_mdp")
'''


def test_imports_of_apdp_s_solvers_are_found_and_the_course_s_helpers_are_not() -> None:
    assert borrowed_solvers(CHEAT) == ["apdp.exercises.optimal_plan", "apdp.baselines.planning",
                                       "apdp.exercises.reactive_mdp"]
    assert borrowed_solvers("from apdp import Move\nfrom apdp.game.plan import Action\n") == []
    assert borrowed_solvers("def broken(:\n") == []


def test_a_field_ranks_an_agent_that_borrows_behind_one_that_does_not() -> None:
    def entry(agent: str, ratio: float, borrowed: list[str]) -> dict[str, object]:
        return {"agent": agent, "network": "france", "seed": None, "instance": None, "fault": None,
                "borrowed": borrowed, "score": {"reward_per_km": ratio, "optimal_reward_per_km": 1.0, "ratio": ratio}}

    rows = summary_rows("reactive", [entry("own", 0.8, []), entry("copy", 1.0, ["apdp.exercises.reactive_mdp"])])
    assert [(r["agent"], r["borrows"]) for r in rows] == [("own", False), ("copy", True)]


def test_a_computed_import_counts_as_borrowing_and_the_course_s_helpers_do_not() -> None:
    from apdp.check.borrowed import COMPUTED

    sneaky = 'import importlib\nsolver = importlib.import_module("apdp" + ".exercises.optimal_plan")\n'
    assert borrowed_solvers(sneaky) == [COMPUTED]
    assert borrowed_solvers("x = __import__(name)\n") == [COMPUTED]
    assert borrowed_solvers("from apdp.exercises import topology, optimal_plan\n") == ["apdp.exercises.optimal_plan"]
    assert borrowed_solvers("from apdp.exercises import naive_plan\nimport apdp.exercises.topology\n") == []


def test_a_source_too_large_is_not_parsed_in_apdp_s_process(tmp_path: Path) -> None:
    # a 16 MiB list literal took the referee 8 GB and 40 s to parse for its kind, 1 MiB of one-letter lines 0.9 GB
    from apdp.agents.exercise_kind import python_kind
    from apdp.check.borrowed import borrowed_by

    big = tmp_path / "big.py"
    big.write_text("from apdp import ReactiveAgent\n_X = [" + "0," * 1_000_000 + "]\n"
                   "class Big(ReactiveAgent):\n    pass\n", encoding="utf-8")
    assert python_kind(big) == "reactive" and borrowed_by(big) == []  # read by its lines, not parsed
    small = tmp_path / "small.py"
    small.write_text("from apdp import ReactiveAgent\nclass Small(ReactiveAgent):\n    pass\n", encoding="utf-8")
    assert python_kind(small) == "reactive" and borrowed_by(small) == []
