"""The languages the LLM harness generates agents in: Python (``apdp.Agent`` subclasses) and Java
(Logist ``AuctionBehavior`` classes, :mod:`apdp.codegen.java`). Each says how to prompt, extract,
ingest and place an agent; the generation loop is the same for both."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from apdp.bundled import BUNDLED_AGENTS
from apdp.codegen import java
from apdp.codegen.extract import extract_agent_code
from apdp.codegen.ingest import IngestedAgent, check_free, ingest_code
from apdp.codegen.prompts import EXERCISE_PROMPTS, Prompt, exercise_prompt, strategy_prompt
from apdp.errors import UserError


@dataclass(frozen=True, slots=True)
class Language:
    """How the harness handles agents in one language."""

    name: str
    #: Suffix of its prompt templates (``refine`` -> ``refine_java``).
    suffix: str
    strategy_prompt: Callable[[str], Prompt]
    extract: Callable[[str], str]
    ingest: Callable[..., IngestedAgent]
    check_free: Callable[[str, Path, str | None, bool], Path]

    def prompt(self, template: str) -> str:
        """The name of this language's version of prompt ``template``."""
        return template + self.suffix


PYTHON = Language("python", "", strategy_prompt, extract_agent_code, ingest_code, check_free)
JAVA = Language("java", "_java", java.java_prompt, java.extract_java_agent, java.ingest_java,
                java.check_free_java)
LANGUAGES = {"python": PYTHON, "java": JAVA}


def language(name: str) -> Language:
    """The language called ``name`` (UserError for another)."""
    try:
        return LANGUAGES[name.lower()]
    except KeyError:
        raise UserError(f"unknown --language {name!r}; use one of {', '.join(LANGUAGES)}") from None


#: The strategies of an exercise's generation (its A1 prompt; IR sends its round back).
EXERCISE_STRATEGIES = ("a1", "ir")


def exercise_language(exercise: str, timeouts: Mapping[str, float] | None = None) -> Language:
    """Python agents of the course's ``exercise`` (reactive, deliberative, centralized): its A1
    prompt with its template verbatim and the limits ``timeouts`` (seconds: setup, plan), and the
    exercise's own repair prompts (``refine_exercise``, ...)."""
    if exercise not in EXERCISE_PROMPTS:
        raise UserError(f"no exercise {exercise!r}; use one of {', '.join(EXERCISE_PROMPTS)}")
    path = BUNDLED_AGENTS / "exercises" / f"{exercise}.py"
    try:
        template = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot read the {exercise} template {path} ({exc.strerror}); reinstall apdp") from None

    def prompt(strategy: str) -> Prompt:
        if strategy != "a1":
            raise UserError(f"the {exercise} exercise has an A1 prompt only; use strategy "
                            f"{' or '.join(EXERCISE_STRATEGIES)}")
        return exercise_prompt(exercise, template, dict(timeouts or {}))

    return dataclasses.replace(PYTHON, suffix="_exercise", strategy_prompt=prompt)
