"""The languages the LLM harness generates agents in: Python (``apdp.Agent`` subclasses) and Java
(Logist ``AuctionBehavior`` classes, :mod:`apdp.codegen.java`). Each says how to prompt, extract,
ingest and place an agent; the generation loop is the same for both."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from apdp.codegen import java
from apdp.codegen.extract import extract_agent_code
from apdp.codegen.ingest import IngestedAgent, check_free, ingest_code
from apdp.codegen.prompts import Prompt, strategy_prompt
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
