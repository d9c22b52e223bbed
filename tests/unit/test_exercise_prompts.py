"""The A1 prompts of the course's other exercises (reactive, deliberative, centralized): each
renders with the exercise's template verbatim, tells what the course's assignment tells, and names
the agent API that apdp ships."""

from __future__ import annotations

import inspect
import re

import pytest

import apdp
from apdp.codegen.prompts import EXERCISE_PROMPTS, exercise_prompt, problem_text, template_names
from apdp.errors import UserError

TEMPLATE = "from apdp import Agent\n\n\nclass Template:  # TEMPLATE-MARK\n    pass\n"
#: What each assignment must say, as the course's does.
PARTS = {
    "reactive": ["value iteration", "discount-factor", "States", "Transitions", r"\gamma", "apdp.ReactiveAgent",
                 "Pickup(task.id)", "Move(city)"],
    "deliberative": ["BFS", "A\\*", "admissible", "never exceed", "nodes", "plan_cancelled", "apdp.DeliberativeAgent",
                     "vehicle.carried"],
    "centralized": ["constraint satisfaction", "stochastic local search", "capacity", "one plan per vehicle",
                    "apdp.CentralizedAgent", "first vehicle"],
}
#: The class each exercise's agent subclasses, and the methods the prompt tells it to write.
API = {"reactive": ("ReactiveAgent", ["setup", "act"]),
       "deliberative": ("DeliberativeAgent", ["setup", "plan", "plan_cancelled"]),
       "centralized": ("CentralizedAgent", ["setup", "plan"])}


@pytest.mark.parametrize("exercise", list(EXERCISE_PROMPTS))
def test_each_exercise_prompt_renders_with_its_template(exercise: str) -> None:
    assert EXERCISE_PROMPTS[exercise] in template_names()
    prompt = exercise_prompt(exercise, TEMPLATE + "\n\n")
    assert TEMPLATE.rstrip("\n") + "\n```" in prompt.text
    assert "{{" not in prompt.text and not prompt.text.startswith("<!--") and prompt.text.startswith("You are")
    assert "setup 300 s" in prompt.text and "1024 MB" in prompt.text  # the course's limits, apdp's memory
    assert "setup 10 s" in exercise_prompt(exercise, TEMPLATE, {"setup": 10}).text
    for part in PARTS[exercise]:
        assert part in prompt.text, part
    assert problem_text(prompt).startswith("# 1. The problem")  # IR and CR can send the problem alone
    assert prompt.sha256 == exercise_prompt(exercise, TEMPLATE).sha256


def test_the_three_prompts_differ_and_an_unknown_exercise_is_one_line() -> None:
    assert len({exercise_prompt(e, TEMPLATE).sha256 for e in EXERCISE_PROMPTS}) == 3
    with pytest.raises(UserError, match="no prompt for exercise 'auction'; use one of reactive, deliberative"):
        exercise_prompt("auction", TEMPLATE)


@pytest.mark.parametrize("exercise", list(EXERCISE_PROMPTS))
def test_each_prompt_names_the_shipped_agent_class(exercise: str) -> None:
    name, methods = API[exercise]
    if not hasattr(apdp, name):
        pytest.skip(f"apdp.{name} is not written yet (the prompt follows issue 33)")
    cls = getattr(apdp, name)
    text = exercise_prompt(exercise, TEMPLATE).text
    for method in methods:
        assert hasattr(cls, method), f"the prompt tells the agent to write {name}.{method}"
        written = re.search(rf"`{method}\(self(?P<args>[^)]*)\)", text)
        assert written, method
        said = [a.strip() for a in written.group("args").split(",") if a.strip()]
        assert said == list(inspect.signature(getattr(cls, method)).parameters)[1:], f"{name}.{method}: {said}"
