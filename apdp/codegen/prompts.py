"""Prompt templates: versioned files in ``apdp/prompts/``, rendered with ``{{name}}`` placeholders.

Each rendered prompt carries the sha256 of its text, recorded in the provenance of every agent it
produces. A template starts with an HTML comment naming it and its version; the comment is not part
of the rendered text. ``a1`` and ``a2`` embed ``agents/template.py`` verbatim, read at render time.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from apdp.bundled import BUNDLED_TEMPLATE
from apdp.errors import UserError
from apdp.scenario import Limits, Timeouts

#: Strategies whose prompt is rendered directly from a template (GEN starts from A1).
PROMPT_STRATEGIES = ("a1", "a2")
#: The course template agent that A1 and A2 include verbatim.
TEMPLATE_AGENT = BUNDLED_TEMPLATE

_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")
_HEADER = re.compile(r"\A<!--.*?-->\s*\n", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Prompt:
    """A rendered prompt: the template it came from, its text and the sha256 of the text."""

    template: str
    text: str

    @property
    def sha256(self) -> str:
        """Content hash of the rendered text (hex)."""
        return prompt_hash(self.text)


def prompt_hash(text: str) -> str:
    """The sha256 (hex) of a prompt's text, as recorded in provenance."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def template_names() -> list[str]:
    """Names of the prompt templates that ship with apdp (file names without ``.md``)."""
    folder = resources.files("apdp") / "prompts"
    return sorted(p.name[:-3] for p in folder.iterdir() if p.name.endswith(".md"))


def template_source(name: str) -> str:
    """The raw text of template ``name``, header comment included."""
    path = resources.files("apdp") / "prompts" / f"{name}.md"
    if not path.is_file():
        raise UserError(f"no prompt template {name!r}; available: {', '.join(template_names())}")
    return path.read_text(encoding="utf-8")


def render(name: str, **values: str) -> Prompt:
    """Template ``name`` with every ``{{placeholder}}`` filled from ``values``.

    A placeholder without a value, or a value without a placeholder, is a programming error and
    raises KeyError: templates and callers must agree exactly.
    """
    text = _HEADER.sub("", template_source(name), count=1)
    wanted = set(_PLACEHOLDER.findall(text))
    missing = wanted - values.keys()
    unused = values.keys() - wanted
    if missing or unused:
        raise KeyError(f"prompt {name}: missing values {sorted(missing)}, unused values {sorted(unused)}")
    return Prompt(name, _PLACEHOLDER.sub(lambda m: values[m.group(1)], text))


def read_template_agent(path: Path | None = None) -> str:
    """The course template agent's source, verbatim (``agents/template.py`` unless ``path``)."""
    path = path or TEMPLATE_AGENT
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(
            f"cannot read the template agent {path} ({exc.strerror}); the A1/A2 prompts include it"
        ) from None


def strategy_prompt(strategy: str, template_agent: Path | None = None) -> Prompt:
    """The generation prompt of ``a1`` or ``a2``: the rules, the API and the template agent."""
    if strategy not in PROMPT_STRATEGIES:
        raise UserError(f"no prompt for strategy {strategy!r}; use one of {', '.join(PROMPT_STRATEGIES)}")
    timeouts = Timeouts()
    return render(
        strategy,
        template_code=read_template_agent(template_agent).rstrip("\n"),
        setup_timeout=f"{timeouts.setup:g}",
        bid_timeout=f"{timeouts.bid:g}",
        plan_timeout=f"{timeouts.plan:g}",
        memory_mb=str(Limits().memory_mb),
    )


#: The course's other exercises (the study's section 5.1) and their assignment prompts, in the style of A1.
EXERCISE_PROMPTS = {"reactive": "reactive_a1", "deliberative": "deliberative_a1", "centralized": "centralized_a1"}
#: The course's time limits of the exercises (its settings_default.xml: 300000 ms for setup and plan).
EXERCISE_TIMEOUTS = {"setup": 300.0, "plan": 300.0}


def exercise_prompt(exercise: str, template_code: str, timeouts: dict[str, float] | None = None) -> Prompt:
    """The A1 prompt of the course's ``exercise`` (reactive, deliberative, centralized): its assignment,
    the agent API and ``template_code``, the exercise's template agent, verbatim; ``timeouts``
    (seconds: ``setup``, ``plan``) default to the course's."""
    if exercise not in EXERCISE_PROMPTS:
        raise UserError(f"no prompt for exercise {exercise!r}; use one of {', '.join(EXERCISE_PROMPTS)}")
    limits = {**EXERCISE_TIMEOUTS, **(timeouts or {})}
    return render(EXERCISE_PROMPTS[exercise], template_code=template_code.rstrip("\n"),
                  setup_timeout=f"{limits['setup']:g}", plan_timeout=f"{limits['plan']:g}",
                  memory_mb=str(Limits().memory_mb))


#: The heading where the A1 prompts stop describing the problem and the platform (the template follows).
TEMPLATE_HEADING = "# 6. The template"


def problem_text(a1: Prompt) -> str:
    """The problem and the platform as the A1 prompt ``a1`` describes them (its sections 1 to 5), for
    the prompts that send an agent to improve instead of the template."""
    start = a1.text.find("# 1. ")
    end = a1.text.find(TEMPLATE_HEADING)
    if start < 0 or end < start:
        raise AssertionError(f"prompt {a1.template} has no sections 1 to 5 before {TEMPLATE_HEADING!r}")
    return a1.text[start:end].rstrip("\n")
