"""A study's manifest (``STUDY.toml``): the generators, strategies and samples, the humans' and
baselines' agents, and where the tournaments play.

Every mistake in the file is one line that names the key and says how to fix it
(:func:`load_manifest`); nothing runs before the whole file is valid.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from apdp.codegen.languages import EXERCISE_STRATEGIES
from apdp.codegen.loop import STRATEGIES
from apdp.errors import UserError
from apdp.text import clean_line

#: A study's name: one plain folder name (``studies/NAME`` is its folder), never a path.
#: The manifest's ``exercise``: the auction or one of the course's other exercises.
EXERCISES = ("auction", "reactive", "deliberative", "centralized")
_FOLDER_NAME = re.compile(r"(?!.*\.\.)\w[\w.-]{0,99}")


class ManifestError(UserError):
    """The manifest cannot be used; the message is one line naming the key."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Price(_Strict):
    """What a model's tokens cost, per million tokens (any currency, the same for every generator)."""

    prompt: float = Field(ge=0)
    completion: float = Field(ge=0)


class Generator(_Strict):
    """One ``[[generator]]``: a model at an OpenAI-compatible endpoint, its strategies and samples."""

    model: str = Field(min_length=1)
    base_url: str
    #: The environment variable holding the API key (none sent when it is unset).
    api_key_env: str = "OPENAI_API_KEY"
    strategies: list[str] = Field(min_length=1)
    samples: int = Field(default=1, ge=1, le=1000)
    #: The critic of ``cr`` (a model at the same endpoint; default: the generator).
    critic: str | None = None
    #: The agent that ``improve`` improves (a shipped agent, a file relative to the manifest, a Java agent).
    parent: str | None = Field(default=None, min_length=1)
    temperature: float | None = Field(default=None, ge=0, le=2)
    #: Seconds per HTTP request, retries on 5xx/429/connection errors, first retry delay.
    timeout: float = Field(default=300.0, gt=0, le=7 * 86400)  # a week at most: see ChatClient
    retries: int = Field(default=4, ge=0, le=20)
    backoff: float = Field(default=2.0, ge=0)
    price: Price | None = None

    @field_validator("base_url")
    @classmethod
    def _url(cls, value: str) -> str:
        if not re.match(r"^https?://[^/\s]+", value):
            raise ValueError("give an http(s) URL such as http://127.0.0.1:8000/v1")
        return value

    @field_validator("strategies")
    @classmethod
    def _strategies(cls, value: list[str]) -> list[str]:
        out = [s.lower() for s in value]
        for s in out:
            if s not in STRATEGIES:
                raise ValueError(f"unknown strategy {s!r}; use some of {', '.join(STRATEGIES)}")
        if len(set(out)) != len(out):
            raise ValueError("a strategy is listed twice; list each once")
        return out

    @model_validator(mode="after")
    def _parent(self) -> Generator:
        if "improve" in self.strategies and self.parent is None:
            raise ValueError('strategy improve needs the agent to improve: add parent = "AGENT"')
        if self.parent is not None and "improve" not in self.strategies:
            raise ValueError('parent is for strategy improve: add "improve" to strategies, or remove parent')
        return self


class Timeouts(_Strict):
    """Time limits in seconds (None: the scenario's)."""

    setup: float | None = Field(default=None, gt=0)
    bid: float | None = Field(default=None, gt=0)
    plan: float | None = Field(default=None, gt=0)

    def given(self) -> dict[str, float]:
        """The limits set, by name."""
        return {k: v for k, v in (("setup", self.setup), ("bid", self.bid), ("plan", self.plan)) if v is not None}


class Check(_Strict):
    """The check each generated agent must pass (``[check]``; see ``apdp codegen check``)."""

    tasks: int = Field(default=20, ge=1)
    seed: int = Field(default=1, ge=0)
    opponents: list[str] = Field(default_factory=lambda: ["naive", "honest"], min_length=1)
    networks: list[str] = Field(default_factory=lambda: ["france", "switzerland"], min_length=1)
    timeouts: Timeouts = Field(default_factory=Timeouts)


class Manifest(_Strict):
    """A whole study; see the README's "Running a study"."""

    name: str = Field(min_length=1)
    networks: list[str] | None = Field(default=None, min_length=1)
    #: A scenario TOML file or a Logist configuration (.xml), relative to the manifest.
    scenario: str | None = None
    seeds: list[int] = Field(default_factory=lambda: [1], min_length=1)
    tasks: int | None = Field(default=None, ge=1)
    timeouts: Timeouts = Field(default_factory=Timeouts)
    #: The humans' and baselines' side: shipped agents, files (relative to the manifest), installed Java agents.
    agents: list[str] = Field(default_factory=list)
    language: Literal["python", "java"] = "python"
    #: Repair rounds per phase while the check fails (Refine@K).
    rounds: int = Field(default=3, ge=0, le=50)
    #: Model calls at once (each generation is one conversation; checks run one at a time).
    parallel: int = Field(default=4, ge=1, le=64)
    #: Matches at once (default: the cores of this machine).
    jobs: int | None = Field(default=None, ge=1)
    #: Whether agents still faulty after the repairs play the tournaments too.
    include_faulty: bool = False
    check: Check = Field(default_factory=Check)
    generators: list[Generator] = Field(default_factory=list, alias="generator")
    #: The game: the auction (tournaments), or one of the course's other exercises (each agent scored alone).
    exercise: str = "auction"

    @field_validator("exercise")
    @classmethod
    def _exercise(cls, value: str) -> str:
        if value not in EXERCISES:
            raise ValueError(f"{clean_line(value, 40)!r} is no exercise; write exercise = \"reactive\", "
                             "\"deliberative\", \"centralized\" or \"auction\"")
        return value

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not _FOLDER_NAME.fullmatch(value):
            raise ValueError(f"{clean_line(value, 60)!r} is not a plain folder name, and it names the study's "
                             "folder (studies/NAME): use letters, digits, '_', '-' and '.' (no '/' or '..'), "
                             'e.g. name = "pilot"')
        return value

    @field_validator("seeds")
    @classmethod
    def _seeds(cls, value: list[int]) -> list[int]:
        ordered = sorted(value)
        if ordered[0] < 0:
            raise ValueError("seeds must be >= 0")
        if ordered != list(range(ordered[0], ordered[0] + len(ordered))):
            raise ValueError("give consecutive seeds such as [1, 2, 3]: one results store holds them all")
        return ordered

    @model_validator(mode="after")
    def _whole(self) -> Manifest:
        if self.networks is None and self.scenario is None:
            raise ValueError("give networks = [\"france\", ...] or scenario = \"FILE\": where the tournaments play")
        models = [g.model for g in self.generators]
        twice = sorted({m for m in models if models.count(m) > 1})
        if twice:
            raise ValueError(f"model {twice[0]!r} has two [[generator]] tables; merge them into one")
        if not self.generators and len(self.agents) < (2 if self.exercise == "auction" else 1):
            raise ValueError("nothing to play: add a [[generator]] or at least 2 agents")
        if self.exercise != "auction":
            _exercise_study(self)
        return self

    def jobs_wanted(self) -> list[tuple[Generator, str, int]]:
        """Every generation of the study: (generator, strategy, sample number from 1)."""
        return [(g, s, k) for g in self.generators for s in g.strategies for k in range(1, g.samples + 1)]


def _exercise_study(manifest: Manifest) -> None:
    """ValueError (one line) for what an exercise's study cannot do."""
    if manifest.networks is None:
        raise ValueError("an exercise's study plays on networks: give networks = [\"switzerland\", ...] "
                         "(scenario is the auction's)")
    if manifest.language != "python":
        raise ValueError('an exercise\'s agents are generated in Python: language = "python"')
    auction = sorted({s for g in manifest.generators for s in g.strategies} - set(EXERCISE_STRATEGIES))
    if auction:
        raise ValueError(f"strategy {auction[0]} is the auction's; an exercise's study uses "
                         f"{' and '.join(EXERCISE_STRATEGIES)}")


#: How to fix a key, for the messages (the rest say it in their own words).
_HINTS = {
    "name": 'name = "pilot"',
    "networks": 'networks = ["switzerland", "france"]',
    "seeds": "seeds = [1, 2]",
    "tasks": "tasks = 20",
    "agents": 'agents = ["naive", "honest"]',
    "language": 'language = "python" (or "java")',
    "rounds": "rounds = 2",
    "parallel": "parallel = 4",
    "model": 'model = "gpt-x"',
    "base_url": 'base_url = "http://127.0.0.1:8000/v1"',
    "strategies": 'strategies = ["a1", "ir"]',
    "samples": "samples = 2",
    "price": "price = { prompt = 2.5, completion = 10.0 } (per million tokens)",
    "parent": 'parent = "honest"',
}


def _where(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part + 1}]" if out == "generator" else f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out or "the manifest"


def _line(error: Any) -> str:
    loc = tuple(error.get("loc", ()))
    key = _where(loc)
    kind = error.get("type", "")
    last = next((str(p) for p in reversed(loc) if isinstance(p, str)), "")
    hint = _HINTS.get(last)
    if kind == "extra_forbidden":
        return f"unknown key {key!r}; check its spelling (see the README's \"Running a study\" for the keys)"
    if kind == "missing":
        return f"missing key {key!r}" + (f": add {hint}" if hint else "")
    message = str(error.get("msg", "is not valid")).removeprefix("Value error, ")
    if not loc:
        return message
    return f"{key}: {message}" + (f"; e.g. {hint}" if hint and kind != "value_error" else "")


def parse_manifest(data: dict[str, Any], source: str = "the manifest") -> Manifest:
    """The manifest of TOML ``data``; ManifestError (one line, naming the key) when it is not valid."""
    try:
        return Manifest.model_validate(data)
    except ValidationError as exc:
        raise ManifestError(f"{source}: {_line(exc.errors()[0])}") from None


def load_manifest(path: str | Path) -> Manifest:
    """The manifest at ``path``; ManifestError (one line) for a file that cannot be read or is not valid."""
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = tomllib.load(file)
    except OSError as exc:
        raise ManifestError(f"cannot read the manifest {path}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{path} is not valid TOML: {exc}") from None
    return parse_manifest(data, str(path))
