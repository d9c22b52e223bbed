"""Tournament in the loop (``apdp codegen evolve``): an agent plays, reads its own results, and a model
writes its next version.

Version 0 is generated (any strategy of :data:`apdp.codegen.loop.STRATEGIES` but ``improve``) or is
an existing agent (``start``). Round r (1 to R) plays a small double all-play-all of the current
version against the field (without a field: against its earlier versions; in round 1, against a copy
of itself), in a results store of the work folder; then the model receives the problem, the current
version's source and ITS OWN results (:func:`results_text`: the standings, the matches it lost with
every auction's task and bids and its plans, its faults with their messages, its CPU use), never the
opponents' code or files, and returns version r, checked and repaired like any generation
(:func:`apdp.codegen.loop.run`, strategy ``evolve``). A version still faulty after its repairs is
moved out of play (``agents/rejected/``) and the next round starts again from the last clean version.

Every version is ``NAME-vR`` in the agents folder, with its lineage in its provenance: ``parent`` and
``parent_sha256`` (the version it improves), ``lineage`` (NAME), ``evolve_round`` and
``cumulative_tokens`` (the tokens of the lineage's model calls up to it). At the end all the clean
versions and the field play one tournament (``final-...`` in the work folder), rated together by
Bradley-Terry: the curve (round, version, cumulative tokens, rating and its 95% interval) is written
to ``curve.csv`` and ``evolve.json``.

A rerun with the same name continues: a version the ledger vouches for as round r of this lineage is
kept, and each tournament's store (named after the hashes of its agents) resumes; ``force`` makes every
version again (their tournaments then have other stores: nothing is deleted).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import shutil
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from tabulate import tabulate

from apdp.agents.discovery import find_agent
from apdp.agents.files import agent_files, read_agent_file
from apdp.agents.provenance import read_provenance
from apdp.check.config import CheckConfig
from apdp.codegen.client import ChatClient
from apdp.codegen.ingest import REJECTED_DIR, reject_agent
from apdp.codegen.languages import language
from apdp.codegen.loop import EVOLVE, FROM_PARENT, STRATEGIES, RunSettings, run
from apdp.codegen.parent import read_parent
from apdp.codegen.usage import MAX_TOTAL_TOKENS, token_count
from apdp.errors import UserError
from apdp.files import write_atomically
from apdp.lookup import searched_first
from apdp.referee.record_format import MatchRecord
from apdp.tournament.config import make_config
from apdp.tournament.report import build
from apdp.tournament.run import run_tournament
from apdp.tournament.store import ResultsStore

Say = Callable[[str], None]
#: The lost matches shown in full to the model in one round (the most recent first).
LOST_SHOWN = 3
#: The most characters of results sent to the model in one round.
MAX_RESULTS_CHARS = 40_000
#: The columns of ``curve.csv``.
CURVE_FIELDS = ("round", "version", "cumulative_tokens", "rating", "rating_low", "rating_high", "win_rate")


@dataclass(frozen=True, slots=True)
class EvolveSettings:
    """An evolution: its name, rounds, field, start, where versions and results go, and the limits of
    its tournaments (``tasks`` per match on ``topology``, ``timeouts``) and of each version's check."""

    name: str
    rounds: int
    agents_dir: Path = Path("agents")
    #: The work folder: each round's results store, the final one, curve.csv and evolve.json.
    work: Path | None = None
    #: The field: the opponents (names or paths); empty: self-play.
    opponents: tuple[str, ...] = ()
    #: An existing agent as version 0 (else version 0 is generated with ``strategy``).
    start: str | None = None
    strategy: str = "a1"
    #: ``python`` or ``java`` (None: the start agent's language, else python).
    language: str | None = None
    #: Repairs per version while its check fails (Refine@K).
    repairs: int = 3
    check: CheckConfig = field(default_factory=CheckConfig)
    topology: str = "france"
    tasks: int = 10
    seed: int = 1
    timeouts: Mapping[str, float] = field(default_factory=dict)
    jobs: int = 1
    force: bool = False

    @property
    def folder(self) -> Path:
        """The work folder (default ``evolve/NAME``)."""
        return self.work if self.work is not None else Path("evolve") / self.name


@dataclass(frozen=True, slots=True)
class Version:
    """A clean version of the lineage: its round, agent name, file or folder, and the tokens of the
    lineage's model calls up to it (0 for a start agent)."""

    round: int
    name: str
    path: Path
    cumulative_tokens: int


@dataclass
class EvolveResult:
    """What an evolution made: its clean versions, the rounds whose version was rejected, the curve."""

    work: Path
    versions: list[Version] = field(default_factory=list)
    rejected: list[int] = field(default_factory=list)
    curve: list[dict[str, Any]] = field(default_factory=list)
    #: The results store of the final tournament (every version and the field).
    final: Path | None = None

    def curve_text(self) -> str:
        """The curve as a table."""
        rows = [[p["round"], p["version"], p["cumulative_tokens"], round(p["rating"]),
                 "-" if p["rating_low"] is None else f"{p['rating_low']:.0f} to {p['rating_high']:.0f}",
                 f"{p['win_rate']:.3f}"] for p in self.curve]
        return tabulate(rows, ["round", "version", "tokens", "rating", "95% CI", "win rate"], tablefmt="simple")


# -- the results a version reads --------------------------------------------------------------------


def _bid(value: Any) -> str:
    return "abstained" if value is None else f"{value:g}" if isinstance(value, int | float) else str(value)


def _plan(vehicles: Any, names: Sequence[str]) -> list[str]:
    if not isinstance(vehicles, list):
        return ["  (no plan: the agent faulted before it)"]
    out = []
    for k, actions in enumerate(vehicles):
        name = names[k] if k < len(names) else f"vehicle {k}"
        steps = ", ".join(" ".join(str(x) for x in a) if isinstance(a, list) else str(a) for a in actions or [])
        out.append(f"  - {name}: {steps or 'stays at home'}")
    return out


def _lost_match(record: MatchRecord, me: int) -> list[str]:
    """The lines of one lost match, from the agent's side: no other agent's output, code or files."""
    agents, result = record.agents, record.result
    others = [a for k, a in enumerate(agents) if k != me]
    profits = ", ".join(f"{'you' if k == me else agents[k]} {p:g}" for k, p in enumerate(result.profit))
    lines = [f"### {record.topology} seed {record.seed}: you were company {me} against "
             f"{', '.join(others)}; profits: {profits}"]
    vehicles = record.companies[me].vehicles if me < len(record.companies) else []
    lines.append("Your vehicles: " + "; ".join(
        f"{v.name} home {v.home}, capacity {v.capacity:g}, {v.cost_per_km:g} per km" for v in vehicles))
    tasks = {t.id: t for t in record.tasks}
    lines.append("Auctions (task, your bid, the other bids, winner; the lowest bid wins and is paid its bid):")
    for auction in record.auctions:
        task = tasks.get(auction.task)
        mine = auction.bids[me] if me < len(auction.bids) else None
        theirs = ", ".join(f"{agents[k]} {_bid(b)}" for k, b in enumerate(auction.bids) if k != me)
        winner = auction.winner
        won = "you" if winner == me else "nobody" if winner is None else agents[winner]
        said = "?" if task is None else f"{task.id} {task.pickup} -> {task.delivery}, weight {task.weight}"
        lines.append(f"- task {said}: you {_bid(mine)}; {theirs}; won by {won}")
    lines.append("Your plan:")
    lines += _plan(record.plans[me] if me < len(record.plans) else None, [v.name for v in vehicles])
    for fault in result.faults:
        if fault.agent == me:
            lines.append(f"Your fault: {fault.kind} in {fault.phase}"
                         + (f" on task {fault.task}" if fault.task is not None else "") + f": {fault.message}")
    return lines


def _stored(store: ResultsStore, match_id: str) -> MatchRecord | None:
    """The record of ``match_id`` in ``store``, None when it holds none it can read."""
    data = store.record(match_id)
    try:
        return None if data is None else MatchRecord.read(data)
    except ValidationError:
        return None


def results_text(folder: Path, agent: str) -> str:
    """What ``agent`` is told of its tournament in the results store ``folder``: the standings, the
    matches it lost (at most :data:`LOST_SHOWN` in full: every auction's task and bids, its plan),
    its faults with their messages and its CPU use per phase. Nothing of the other agents but their
    names, bids, wins and profits, all public in the game."""
    stats, _pooled, _context = build([folder])
    lines = [f"You are {agent}. Every pair of agents met twice, swapping companies, on the same tasks.", "",
             "## Standings", "",
             tabulate([[s.agent, s.matches, s.total_wins, s.draws, s.total_losses, f"{s.win_rate:.3f}", s.faults]
                       for s in stats.standings],
                      ["agent", "matches", "wins", "draws", "losses", "win rate", "faults"], tablefmt="github")]
    store = ResultsStore.open(folder)
    try:
        config = store.config()
        mine = [m for m in store.matches() if agent in m.agents and m.error is None]
        lost = [m for m in mine if m.winner != agent and (m.winner is not None or any(
            f.get("agent") == m.agents.index(agent) for f in m.faults))]
        faults: list[str] = []
        cpu: dict[str, list[float]] = {}
        for m in mine:
            me = m.agents.index(agent)
            faults += [f"- {m.match_id}: {f.get('kind')} in {f.get('phase')}"
                       + (f" on task {f.get('task')}" if f.get("task") is not None else "") + f": {f.get('message')}"
                       for f in m.faults if f.get("agent") == me]
            record = _stored(store, m.match_id)
            timing = ((record.timing if record is not None else None) or {}).get("agents") or []
            phases = timing[me].get("cpu") if me < len(timing) and isinstance(timing[me], dict) else None
            for phase, seconds in (phases or {}).items():
                if isinstance(seconds, int | float):
                    cpu.setdefault(phase, []).append(float(seconds))
        lines += ["", f"## Matches you lost: {len(lost)} of {len(mine)}"
                  + (f" ({LOST_SHOWN} shown in full)" if len(lost) > LOST_SHOWN else "")]
        for m in lost[:LOST_SHOWN]:
            record = _stored(store, m.match_id)
            if record is not None:
                lines += ["", *_lost_match(record, m.agents.index(agent))]
    finally:
        store.close()
    lines += ["", "## Your faults", "", *(faults or ["none"])]
    limits = (config.get("scenario") or {}).get("timeouts") or {}
    lines += ["", f"## Your CPU use: seconds per match, mean and max over {len(mine)} match(es)", ""]
    lines += [f"- {phase}: mean {statistics.fmean(v):.3f}, max {max(v):.3f}" for phase, v in sorted(cpu.items())]
    if limits:
        lines.append("Time limits (wall seconds per call): " + ", ".join(f"{k} {v:g}" for k, v in limits.items()
                                                                      if isinstance(v, int | float)))
    text = "\n".join(lines)
    if len(text) > MAX_RESULTS_CHARS:
        text = text[:MAX_RESULTS_CHARS] + "\n(the rest is cut: too long)"
    return text


# -- the evolution ---------------------------------------------------------------------------------


def _version_name(name: str, round: int) -> str:
    return f"{name}-v{round}"


def _tokens(provenance: Mapping[str, Any] | None) -> int:
    """The lineage's tokens up to a version, from its provenance (0 when unknown or not believable)."""
    return token_count((provenance or {}).get("cumulative_tokens"), MAX_TOTAL_TOKENS) or 0


def _ours(provenance: Mapping[str, Any] | None, name: str, round: int) -> bool:
    """Whether ``provenance`` (the ledger's) is that of version ``round`` of the evolution ``name``."""
    return provenance is not None and provenance.get("lineage") == name and provenance.get("evolve_round") == round


class Evolution:
    """One evolution; see the module docstring."""

    def __init__(self, settings: EvolveSettings, generator: ChatClient, say: Say) -> None:
        self.settings = settings
        self.generator = generator
        self.say = say
        self.result = EvolveResult(settings.folder)
        self.lang = language(settings.language or "python")

    # versions

    def _path(self, round: int) -> Path:
        return self.lang.check_free(_version_name(self.settings.name, round), self.settings.agents_dir, None, True)

    def _kept(self, round: int) -> Version | bool | None:
        """Version ``round`` made by an earlier run: the Version if clean, False if it was rejected,
        None if there is none; UserError if another agent has its name."""
        path = self._path(round)
        name = _version_name(self.settings.name, round)
        rejected = path.parent / REJECTED_DIR / path.name
        if self.settings.force:
            return None
        if path.exists():
            provenance = read_provenance(path)
            if not _ours(provenance, self.settings.name, round):
                raise UserError(f"{path} exists and is no version of the evolution {self.settings.name!r}; "
                                "choose another --name, or pass --force to replace it")
            assert provenance is not None
            if provenance.get("check") == "passed":
                self.say(f"round {round}: {name} kept from an earlier run")
                return Version(round, name, path, _tokens(provenance))
            return None
        if rejected.exists() and _ours(read_provenance(rejected), self.settings.name, round):
            self.say(f"round {round}: {name} was rejected by an earlier run")
            return False
        return None

    def _generate(self, round: int, parent: Version | None, results: str | None) -> Version | None:
        """Version ``round`` from the model: clean, or None (rejected, or no code)."""
        s = self.settings
        name = _version_name(s.name, round)
        settings = RunSettings(
            strategy=s.strategy if parent is None else EVOLVE, name=name, agents_dir=s.agents_dir, rounds=s.repairs,
            check=s.check, force=True, language=self.lang.name,
            parent=None if parent is None else read_parent(str(parent.path)), results=results,
            evolve_round=round, lineage={"lineage": s.name, "evolve_round": round},
            tokens_before=0 if parent is None else parent.cumulative_tokens,
        )
        result = run(settings, self.generator, say=lambda line: self.say(f"[{name}] {line}"))
        if result.agent is None:
            self.say(f"round {round}: the model returned no usable code; the next round starts from "
                     f"{parent.name if parent else 'nothing'}")
            return None
        if not result.ok:
            moved = reject_agent(result.agent.path, result.agent.provenance)
            self.say(f"round {round}: {name} still faults after its repairs; moved out of play to {moved}")
            return None
        return Version(round, name, result.agent.path, _tokens(read_provenance(result.agent.path)))

    def _start(self) -> Version:
        s = self.settings
        if s.start is not None:
            source = find_agent(s.start)
            self.say(f"round 0: {source.name} is version 0")
            return Version(0, source.name, source.path, 0)
        kept = self._kept(0)
        if isinstance(kept, Version):
            return kept
        version = None if kept is False else self._generate(0, None, None)
        if version is None:
            raise UserError(f"version 0 of {s.name} is not clean (see its transcript in {s.agents_dir}); "
                            "nothing to evolve: try again, or give --start AGENT")
        return version

    # tournaments

    def _play(self, agents: Sequence[Path | str], what: str) -> Path:
        """Play ``agents`` (paths, or the field's names) in a store of the work folder named after
        ``what`` and the agents' hashes; the store's folder."""
        s = self.settings
        paths = [str(a) if isinstance(a, str) else str(Path(a).resolve()) for a in agents]
        config = make_config(topology=s.topology, agents=paths, seed=s.seed,
                             overrides={"tasks": s.tasks, **{f"timeouts.{k}": v for k, v in s.timeouts.items()}})
        digest = hashlib.sha256("\n".join(config.agent_files).encode()).hexdigest()[:12]
        out = self.result.work / f"{what}-{digest}"
        self.say(f"{what}: {len(config.agents)} agents ({', '.join(config.agents)}), {s.tasks} tasks on {s.topology}")
        summary = run_tournament(config, out, jobs=s.jobs, progress=False)
        if summary.errors:
            raise UserError(f"{summary.errors} match(es) of {out} could not be played (see {out}/tournament.log); "
                            "rerun to play them")
        return out

    def _mirror(self, version: Version) -> Path:
        """A copy of ``version`` to play against in self-play's first round (``NAME-mirror``)."""
        folder = self.result.work / "mirror"
        target = folder / (f"{self.settings.name}-mirror" + (".py" if version.path.is_file() else ""))
        if target.is_dir():
            shutil.rmtree(target)
        for file in agent_files(version.path):
            destination = target if version.path.is_file() else target / file.relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(read_agent_file(file))
            os.chmod(destination, file.mode)
        return target

    def _opponents(self, current: Version) -> list[Path | str]:
        if self.settings.opponents:
            return list(self.settings.opponents)
        earlier: list[Path | str] = [v.path for v in self.result.versions if v.name != current.name]
        return earlier or [self._mirror(current)]

    # the whole

    def run(self) -> EvolveResult:
        """Run every round, then the final tournament; the result (also written to the work folder)."""
        s = self.settings
        if s.rounds < 1:
            raise UserError(f"--rounds must be >= 1, got {s.rounds}")
        if s.strategy not in STRATEGIES or s.strategy in FROM_PARENT:
            raise UserError(f"--strategy {s.strategy!r} cannot make version 0; use one of "
                            f"{', '.join(x for x in STRATEGIES if x not in FROM_PARENT)}, or give --start AGENT")
        self.result.work.mkdir(parents=True, exist_ok=True)
        s.agents_dir.mkdir(parents=True, exist_ok=True)
        with searched_first("APDP_AGENTS", s.agents_dir):
            if s.start is not None:  # its source must be readable before anything runs
                start = read_parent(s.start)
                if s.language is not None and self.lang.name != start.language:
                    raise UserError(f"--start {s.start} is a {start.language} agent: its versions are written in "
                                    f"{start.language} (--language {start.language})")
                self.lang = language(start.language)
            current = self._start()
            self.result.versions.append(current)
            for round in range(1, s.rounds + 1):
                kept = self._kept(round)
                if isinstance(kept, Version):
                    version: Version | None = kept
                elif kept is False:
                    version = None
                else:
                    store = self._play([current.path, *self._opponents(current)], f"round-{round}")
                    version = self._generate(round, current, results_text(store, current.name))
                if version is None:
                    self.result.rejected.append(round)
                    continue
                self.result.versions.append(version)
                current = version
            rated: list[Path | str] = [*(v.path for v in self.result.versions), *s.opponents]
            if len(rated) < 2:  # self-play whose every later version was rejected
                rated.append(self._mirror(current))
            final = self._play(rated, "final")
        self._curve(final)
        return self.result

    def _curve(self, final: Path) -> None:
        self.result.final = final
        stats, _pooled, _context = build([final])
        rows = {r.agent: r for r in stats.standings}
        for v in self.result.versions:
            r = rows[v.name]
            self.result.curve.append({
                "round": v.round, "version": v.name, "cumulative_tokens": v.cumulative_tokens, "rating": r.rating,
                "rating_low": r.rating_low, "rating_high": r.rating_high, "win_rate": r.win_rate,
            })
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, CURVE_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.result.curve)
        write_atomically(self.result.work / "curve.csv", buffer.getvalue())
        data = {
            "name": self.settings.name, "field": list(self.settings.opponents), "final": str(final),
            "rejected_rounds": self.result.rejected,
            "versions": [{**asdict(v), "path": str(v.path)} for v in self.result.versions],
            "curve": self.result.curve,
        }
        write_atomically(self.result.work / "evolve.json", json.dumps(data, indent=2) + "\n")


def evolve(settings: EvolveSettings, generator: ChatClient, say: Say = lambda _line: None) -> EvolveResult:
    """Run the evolution of ``settings`` with the model of ``generator``; see the module docstring."""
    return Evolution(settings, generator, say).run()

