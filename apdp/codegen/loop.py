"""The generation loop: prompt a model, ingest its agent, check it, feed the report back (Refine@K).

Strategies (from the study):

* ``a1``, ``a2``: generate from the A1 or A2 prompt;
* ``gen``: the model first rewrites the A1 prompt to optimise it, then generates from its version;
* ``ir``: A1, then once the agent is clean its scores are sent back with "would you like to improve
  anything, or shall we enter the tournament?"; a reply with code is checked again;
* ``cr``: A1, then a critic model lists improvements to the clean agent and the generator implements
  them;
* ``improve``: the problem (A1's sections 1 to 5) and an existing agent's source (the parent: any
  Python agent file or Java agent with sources, :mod:`apdp.codegen.parent`), with a request to improve
  it, as the study asked the best model to improve the tournament's winner;
* ``evolve`` (one version of ``apdp codegen evolve``, :mod:`apdp.study.evolve`): the problem, the
  parent (the previous version) and the results of the parent's tournament, never its opponents' code.

An improved agent's provenance names its parent (``parent``, ``parent_sha256``: its name and its
hash as tournaments store it) and, for evolve, its lineage's fields (``lineage``, ``evolve_round``,
``cumulative_tokens``).

Every round's agent is written to ``agents/NAME.py`` (with its provenance) and checked with
:func:`apdp.testing.check_agent`; while the check fails, its report goes back to the model, at most
K times per phase. An improvement (IR, CR) that cannot be made clean within K repairs is dropped and
the last clean agent restored. Every HTTP request and response, every extraction, ingest and check is
appended to ``agents/NAME.transcript.jsonl``. With ``language="java"`` the model writes a Logist
``AuctionBehavior`` class instead (:mod:`apdp.codegen.java`): the same loop, with Java prompts.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from apdp.agents.provenance import record_generated, transcript_path, write_sidecar
from apdp.check.config import CheckConfig
from apdp.check.exercise_check import check_exercise_agent, check_timeouts
from apdp.check.gate import check_agent
from apdp.check.report import CheckReport, MatchOutcome
from apdp.codegen.client import ChatClient
from apdp.codegen.extract import ExtractError
from apdp.codegen.ingest import IngestedAgent
from apdp.codegen.languages import EXERCISE_STRATEGIES, Language, exercise_language, language
from apdp.codegen.parent import Parent
from apdp.codegen.prompts import Prompt, problem_text, prompt_hash, render
from apdp.codegen.usage import ModelCall, UsageLog
from apdp.errors import UserError
from apdp.files import open_new

#: The strategies of ``apdp codegen run`` (and of a study's generators).
STRATEGIES = ("a1", "a2", "ir", "cr", "gen", "improve")
#: The strategy of each version of ``apdp codegen evolve`` after the first.
EVOLVE = "evolve"
#: The strategies that start from a parent agent.
FROM_PARENT = ("improve", EVOLVE)
Say = Callable[[str], None]


class Transcript:
    """An append-only JSONL log of one run: one object per line, each with a UTC time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] = open_new(path)

    def write(self, entry: dict[str, Any]) -> None:
        """Append ``entry`` (flushed at once, so a crash loses nothing)."""
        line = {"time": datetime.now(UTC).isoformat(timespec="milliseconds"), **entry}
        self._file.write(json.dumps(line, ensure_ascii=False, default=str) + "\n")
        self._file.flush()

    def logger(self, role: str) -> Callable[[dict[str, Any]], None]:
        """A sink for :class:`ChatClient` exchanges, tagged with ``role``."""
        return lambda entry: self.write({"role": role, **entry})

    def close(self) -> None:
        """Close the file."""
        self._file.close()


class Conversation:
    """A chat with one model: the message history, replayed on every request.

    Each call's tokens and seconds go to ``usage``.
    """

    def __init__(self, client: ChatClient, role: str, transcript: Transcript, usage: UsageLog) -> None:
        self.client = dataclasses.replace(client, log=transcript.logger(role))
        self.role = role
        self.messages: list[dict[str, str]] = []
        self.usage = usage

    def ask(self, content: str) -> str:
        """Send ``content`` as the next user message; the model's reply text."""
        self.messages.append({"role": "user", "content": content})
        reply = self.client.complete(self.messages)
        self.usage.add(ModelCall.of(self.role, reply.model, reply.usage, reply.seconds))
        self.messages.append({"role": "assistant", "content": reply.text})
        return reply.text


@dataclass(frozen=True, slots=True)
class RunSettings:
    """What to generate: strategy, agent name and folder, repair budget K and the check's matches."""

    strategy: str
    name: str
    agents_dir: Path = Path("agents")
    rounds: int = 3
    check: CheckConfig = field(default_factory=CheckConfig)
    force: bool = False
    #: ``python`` (an apdp.Agent subclass) or ``java`` (a Logist AuctionBehavior class).
    language: str = "python"
    #: Checks an agent (:func:`apdp.check.gate.check_agent`'s signature); a study wraps it to run its
    #: generations' checks one at a time.
    checker: Callable[..., CheckReport] = check_agent
    #: The agent to improve (``improve``, ``evolve``).
    parent: Parent | None = None
    #: ``evolve``: the parent's results in its round's tournament, as the model reads them, and the round.
    results: str | None = None
    evolve_round: int | None = None
    #: More provenance fields of the agent (an evolve lineage's name, round...).
    lineage: Mapping[str, Any] = field(default_factory=dict)
    #: Tokens the agent's lineage spent before this run: its provenance's ``cumulative_tokens`` adds
    #: this run's (None: no such field).
    tokens_before: int | None = None
    #: The course's exercise the agent plays (reactive, deliberative, centralized; None: the auction):
    #: its prompt, and its check (:func:`apdp.check.exercise_check.check_exercise_agent`).
    exercise: str | None = None

    @property
    def lang(self) -> Language:
        """How agents of this run's language (and exercise) are prompted, extracted and written."""
        if self.exercise is not None:
            return exercise_language(self.exercise, check_timeouts(self.check))
        return language(self.language)

    def check_agent(self, path: Path, on_match: Callable[[MatchOutcome], None]) -> CheckReport:
        """Check the agent at ``path``: with ``checker`` (the exercise's check when ``checker`` is the
        auction's and the run is an exercise's)."""
        if self.exercise is not None and self.checker is check_agent:
            return check_exercise_agent(path, self.check, exercise=self.exercise)
        if self.exercise is not None:
            return self.checker(path, self.check, on_match=on_match, exercise=self.exercise)
        return self.checker(path, self.check, on_match=on_match)


@dataclass(frozen=True, slots=True)
class RunResult:
    """The end of a run: the agent kept, its last check and the transcript.

    ``rounds`` is the number of the last round played (0 = the first generation); the round of the
    agent kept is in its provenance (it is older when a failed improvement was dropped).
    """

    ok: bool
    agent: IngestedAgent | None
    report: CheckReport | None
    rounds: int
    transcript: Path


@dataclass
class _Clean:
    code: str
    agent: IngestedAgent
    report: CheckReport


class _Session:
    """The state of one run: round counter, current and last clean agent."""

    def __init__(
        self,
        settings: RunSettings,
        model: str,
        prompt_sha: str,
        extra: dict[str, Any],
        transcript: Transcript,
        say: Say,
        usage: UsageLog,
    ) -> None:
        self.settings = settings
        self.usage = usage
        self.model = model
        self.prompt_sha = prompt_sha
        self.extra = extra
        self.transcript = transcript
        self.say = say
        self.round = -1
        self.agent: IngestedAgent | None = None
        self.report: CheckReport | None = None
        self.clean: _Clean | None = None

    def settle(self, conversation: Conversation, message: str) -> bool:
        """Ask, then repair while the check fails, at most K times; True once the agent is clean."""
        return self._repair(conversation, self._exchange(conversation, message))

    def improve(self, conversation: Conversation, message: str) -> None:
        """Send an improvement request (IR, CR); keep its agent if clean, else restore the last."""
        self.round += 1
        self.say(f"round {self.round}: asking {conversation.client.model} to improve the agent")
        reply = conversation.ask(message)
        try:
            self.settings.lang.extract(reply)
        except ExtractError:
            self.transcript.write({"event": "no_improvement", "round": self.round})
            self.say(f"round {self.round}: no new code; the agent enters as it is")
            return
        if not self._repair(conversation, self._check(reply)):
            self._restore()

    def _repair(self, conversation: Conversation, feedback: str | None) -> bool:
        """Send ``feedback`` back while there is some, at most K times; True once clean."""
        repairs = 0
        while feedback is not None and repairs < self.settings.rounds:
            repairs += 1
            feedback = self._exchange(conversation, feedback)
        return feedback is None

    def _exchange(self, conversation: Conversation, message: str) -> str | None:
        """One round: ask, then ingest and check the reply's agent."""
        self.round += 1
        self.say(f"round {self.round}: asking {conversation.client.model}")
        return self._check(conversation.ask(message))

    def _check(self, reply: str) -> str | None:
        """Ingest and check one reply's agent; the feedback for the model, or None when clean."""
        lang = self.settings.lang
        try:
            code = lang.extract(reply)
        except ExtractError as exc:
            self.transcript.write({"event": "extract_error", "round": self.round, "error": str(exc)})
            self.say(f"round {self.round}: {exc}")
            return render(lang.prompt("no_code"), problem=f"{exc}.").text
        self.agent = lang.ingest(
            code,
            self.settings.name,
            agents_dir=self.settings.agents_dir,
            model=self.model,
            strategy=self.settings.strategy,
            round=self.round,
            prompt_hash=self.prompt_sha,
            extra={**self.extra, **self.spent()},
            force=True,
        )
        self.transcript.write({"event": "ingest", "round": self.round, "path": self.agent.path})
        self.say(f"round {self.round}: wrote {self.agent.path}; checking")
        self.report = self.settings.check_agent(self.agent.path, self._on_match)
        self.transcript.write(
            {
                "event": "check",
                "round": self.round,
                "ok": self.report.ok,
                "report": self.report.text(),
                "details": self.report.to_json(),
            }
        )
        self._mark(self.agent, self.report.ok)
        if self.report.ok:
            self.say(f"round {self.round}: check passed")
            self.clean = _Clean(code, self.agent, self.report)
            return None
        self.say(f"round {self.round}: check failed, {len(self.report.problems)} problem(s)")
        return render(lang.prompt("refine"), report=self.report.text().rstrip("\n")).text

    def _on_match(self, outcome: MatchOutcome) -> None:
        self.say(f"  {outcome.summary()}")

    def spent(self) -> dict[str, Any]:
        """The provenance fields of the model usage so far (with ``cumulative_tokens`` in a lineage)."""
        out = self.usage.provenance()
        if self.settings.tokens_before is not None:
            out["cumulative_tokens"] = self.settings.tokens_before + int(out["usage"]["total_tokens"])
        return out

    def _mark(self, agent: IngestedAgent, ok: bool) -> None:
        """Record the check's verdict, and the model usage so far, in the sidecar."""
        extra = {**agent.provenance.extra, **self.spent(), "check": "passed" if ok else "failed"}
        marked = dataclasses.replace(agent.provenance, extra=extra)
        write_sidecar(agent.path, marked)
        record_generated(agent.path, marked)

    def _restore(self) -> None:
        """Put the last clean agent back after a failed improvement."""
        clean = self.clean
        if clean is None:
            return
        p = clean.agent.provenance
        self.agent = self.settings.lang.ingest(
            clean.code,
            self.settings.name,
            agents_dir=self.settings.agents_dir,
            model=p.model,
            strategy=p.strategy,
            round=p.round,
            prompt_hash=p.prompt_hash,
            extra={**p.extra, **self.spent(),
                   "note": f"the improvement failed its check; round {p.round} kept"},
            force=True,
        )
        self._mark(self.agent, True)
        self.report = clean.report
        self.transcript.write({"event": "restore", "round": p.round, "path": self.agent.path})
        self.say(f"the improvement failed its check; restored the agent of round {p.round}")


#: A markdown block: its first opening fence, then everything up to the reply's last closing fence.
#: Two steps, each one pass (one pattern searched again from every opening line was quadratic).
_MARKDOWN_OPEN = re.compile(r"^```++[ \t]*+(?:markdown|md)?[ \t]*+\n", re.M)
_MARKDOWN_BODY = re.compile(r"(?P<body>.*)\n```++[ \t]*+$", re.S | re.M)


def optimised_prompt(reply: str) -> str:
    """The prompt a GEN model wrote: its fenced markdown block, else the whole reply."""
    opened = _MARKDOWN_OPEN.search(reply)
    match = _MARKDOWN_BODY.match(reply, opened.end()) if opened else None
    text = (match.group("body") if match else reply).strip()
    if not text:
        raise UserError("the model returned an empty prompt when asked to optimise the A1 prompt")
    return text + "\n"


def run(
    settings: RunSettings,
    generator: ChatClient,
    critic: ChatClient | None = None,
    say: Say = lambda _line: None,
) -> RunResult:
    """Run one strategy end to end; see the module docstring. ``say`` receives progress lines.

    Raises UserError for bad settings, an agent name already taken (without ``force``), or a chat
    endpoint that cannot answer; the transcript keeps everything up to that point.
    """
    if settings.strategy not in (*STRATEGIES, EVOLVE):
        raise UserError(f"unknown strategy {settings.strategy!r}; use one of {', '.join(STRATEGIES)}")
    parent = settings.parent
    if settings.strategy in FROM_PARENT and parent is None:
        raise UserError(f"strategy {settings.strategy} improves an agent: give it with --parent AGENT")
    if parent is not None and settings.strategy not in FROM_PARENT:
        raise UserError(f"--parent is for --strategy improve, not {settings.strategy}")
    if parent is not None and parent.language != settings.lang.name:
        raise UserError(f"the parent {parent.name} is a {parent.language} agent: its child is written in "
                        f"{parent.language} (--language {parent.language})")
    if settings.strategy == EVOLVE and settings.results is None:
        raise UserError("strategy evolve needs the parent's results (apdp codegen evolve sends them)")
    if settings.rounds < 0:
        raise UserError(f"--rounds must be >= 0, got {settings.rounds}")
    if settings.exercise is not None:
        _check_exercise(settings)
    path = settings.lang.check_free(settings.name, settings.agents_dir, None, settings.force)
    transcript = Transcript(transcript_path(path))
    try:
        return _run(settings, generator, critic, say, transcript)
    except UserError as exc:
        transcript.write({"event": "error", "error": str(exc)})
        raise
    finally:
        transcript.close()


def _check_exercise(settings: RunSettings) -> None:
    """UserError (one line) for a run of an exercise that cannot be made."""
    if settings.strategy not in EXERCISE_STRATEGIES:
        raise UserError(f"strategy {settings.strategy} is the auction's; an exercise's agent is generated with "
                        f"{' or '.join(EXERCISE_STRATEGIES)}")
    if settings.language != "python":
        raise UserError(f"an exercise's agent is generated in Python, not {settings.language} (--language python)")
    exercise_language(settings.exercise or "", check_timeouts(settings.check))  # an unknown exercise: one line


def _run(
    settings: RunSettings,
    generator: ChatClient,
    critic: ChatClient | None,
    say: Say,
    transcript: Transcript,
) -> RunResult:
    strategy = settings.strategy
    lang = settings.lang
    base = lang.strategy_prompt("a2" if strategy == "a2" else "a1")
    if settings.parent is not None:
        base = improvement_prompt(lang, settings.parent, settings.results, settings.evolve_round)
    critic = critic or generator
    extra: dict[str, Any] = {"refine_rounds": settings.rounds, "language": lang.name}
    if settings.exercise is not None:
        extra["exercise"] = settings.exercise
    if settings.parent is not None:
        extra.update(settings.parent.lineage())
    extra.update(settings.lineage)
    usage = UsageLog()
    transcript.write(
        {
            "event": "start",
            "strategy": strategy,
            "model": generator.model,
            "critic_model": critic.model if strategy == "cr" else None,
            "name": settings.name,
            "rounds": settings.rounds,
            "language": lang.name,
            "exercise": settings.exercise,
            "prompt": base.template,
            "prompt_hash": base.sha256,
            **({} if settings.parent is None else settings.parent.lineage()),
            **settings.lineage,
        }
    )
    prompt_text, sha = base.text, base.sha256
    if strategy == "gen":
        say(f"asking {generator.model} to optimise the A1 prompt")
        optimiser = Conversation(generator, "prompt-optimiser", transcript, usage)
        prompt_text = optimised_prompt(optimiser.ask(render(lang.prompt("gen"), prompt=base.text).text))
        sha = prompt_hash(prompt_text)
        extra["base_prompt_hash"] = base.sha256
        transcript.write({"event": "prompt", "prompt_hash": sha, "text": prompt_text})
    if strategy == "cr":
        extra["critic_model"] = critic.model
    session = _Session(settings, generator.model, sha, extra, transcript, say, usage)
    conversation = Conversation(generator, "generator", transcript, usage)
    clean = session.settle(conversation, prompt_text)
    if clean and strategy == "ir":
        assert session.report is not None
        session.improve(conversation, render(lang.prompt("ir"), scores=session.report.scores_text()).text)
    elif clean and strategy == "cr":
        assert session.clean is not None
        say(f"asking the critic {critic.model} for improvements")
        reviewer = Conversation(critic, "critic", transcript, usage)
        critique = reviewer.ask(
            render(
                lang.prompt("cr_critic"),
                prompt=prompt_text.rstrip("\n"),
                code=session.clean.code.rstrip("\n"),
                scores=session.clean.report.scores_text(),
            ).text
        )
        session.improve(conversation, render(lang.prompt("cr_implement"), critique=critique.strip()).text)
    ok = session.report is not None and session.report.ok
    if session.agent is not None:  # the agent kept carries everything the run spent
        session._mark(session.agent, ok)
    transcript.write(
        {
            "event": "end",
            "usage": usage.totals(),
            "ok": ok,
            "round": session.round,
            "path": session.agent.path if session.agent else None,
        }
    )
    return RunResult(ok, session.agent, session.report, session.round, transcript.path)


def improvement_prompt(lang: Language, parent: Parent, results: str | None = None,
                       evolve_round: int | None = None) -> Prompt:
    """The first prompt of ``improve`` (no ``results``) or of ``evolve`` (the parent's ``results`` in
    the tournament of round ``evolve_round``): the problem, then the parent's source."""
    problem = problem_text(lang.strategy_prompt("a1"))
    code = parent.source.rstrip("\n")
    if results is not None:
        return render(lang.prompt("evolve"), problem=problem, code=code, results=results.rstrip("\n"),
                      round="" if evolve_round is None else str(evolve_round))
    return render(lang.prompt("improve"), problem=problem, code=code)
