"""The check's report counts mistakes, not violations: one mistake repeated in a plan is one problem
(issue 35: seven tasks delivered in the wrong city read as '7 distinct problem(s)')."""

from __future__ import annotations

import re

import pytest

from apdp.check.report import problems_of
from apdp.referee.record_format import RecordFault

pytestmark = pytest.mark.unit


def _invalid_plan(messages: list[str], counted: int | None = None) -> RecordFault:
    violations = [{"vehicle": 0, "action": 2 * k, "task": k, "message": m} for k, m in enumerate(messages)]
    return RecordFault.model_validate({"agent": 0, "kind": "invalid_plan", "phase": "plan", "task": None,
                             "message": f"{counted or len(messages)} violation(s): ...", "violations": violations})


def test_one_mistake_repeated_in_a_plan_is_one_problem_with_its_count() -> None:
    cities = [("Paris", "Lyon"), ("Le Havre", "Bordeaux"), ("Genève", "Monaco")]
    fault = _invalid_plan([f"task {k} delivered in {a}, not in {b}" for k, (a, b) in enumerate(cities)], counted=7)
    (problem,) = problems_of(fault)
    assert problem.message == ("vehicle 0, action 0: task 0 delivered in Paris, not in Lyon "
                               "(and 6 more like it in this plan)")


def test_different_mistakes_stay_apart() -> None:
    fault = _invalid_plan(["task 0 delivered in Paris, not in Lyon", "move from Lyon to Brest follows no road",
                           "load 34 exceeds capacity 30 after picking up task 2",
                           "task 1 delivered in Brest, not in Nice"])
    problems = problems_of(fault)
    assert [p.category for p in problems] == ["invalid_plan", "invalid_plan", "capacity"]
    assert problems[0].message.endswith("(and 1 more like it in this plan)")
    assert "(and" not in problems[1].message and "(and" not in problems[2].message


def test_a_long_message_is_cut_where_an_item_or_a_word_ends() -> None:
    from apdp.text import clean_line

    message = "7 violation(s): " + "; ".join(
        f"vehicle 0, action {k}: load 34 exceeds capacity 30 after picking up task {k}" for k in range(7))
    shown = clean_line(message, 200)
    assert len(shown) <= 200 and shown.endswith("more characters cut]")
    kept = shown.split(" [...")[0]
    item = r"vehicle 0, action \d: load 34 exceeds capacity 30 after picking up task \d"
    assert re.fullmatch(rf"7 violation\(s\): {item}(; {item})*", kept), kept  # whole items only
    words = clean_line("word " * 100, 60)
    assert words.split(" [...")[0].endswith("word")  # never a word cut in two
