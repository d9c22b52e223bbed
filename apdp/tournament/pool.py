"""Which stored tournaments a report pools: each once, whole or said to be incomplete, and alike.

A tournament is one network and one tournament seed of a results store. Its identity is what decides
its matches: the stored configuration (field, agent files, scenario), the network, the seed and a
fingerprint of the store's secret. A copy of a results folder, or a replay of a tournament with
its published key, is the same tournament: it is counted once (the matches of both are merged, so a
copy resumed further adds its extra matches), with a one-line note. Merged only when the matches both
stores hold agree on everything the seed and secret decide (tasks, bids, winners, plans, figures and the
kind, phase and task of each fault): two stores of one tournament whose records of a match differ
(an agent that depends on the clock or the machine's load) are refused, naming the matches and
where their records first differ; with ``mixed`` each counts as a tournament of its own, with a note
saying the same. A tournament whose stored
matches fall short of the schedule its configuration implies is reported as incomplete, naming the
missing matches. A stored match the schedule does not make (its id, network, seeds, agents, or a
winner who did not play it) is left out, with a one-line note: a store copied and given made-up
rows counts none of their wins. Tournaments whose agents (names or files), networks or task counts differ are not
pooled unless asked (``mixed``): the error says in one line what differs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from apdp.check.reproducibility import record_difference
from apdp.errors import UserError
from apdp.logist.tasks import TASK_DRAWS
from apdp.referee.record_format import MatchRecord
from apdp.text import clean_line
from apdp.tournament.schedule import MatchSpec, double_round_robin, tournament_seeds
from apdp.tournament.stats import PooledMatch
from apdp.tournament.store import ResultsStore, StoredMatch

#: Configuration keys that say which tournaments a store holds, not what one tournament is.
_STORE_LEVEL = ("topologies", "repeat", "seed")
#: Missing matches named in a note before "and N more".
_NAMED = 3
#: The most matches a stored configuration may plan (a study of 57 agents on 4 networks x 3 seeds
#: plans 38,304): listing its schedule takes about 10 microseconds a match.
MAX_PLANNED = 10_000_000


@dataclass
class Tournament:
    """One stored tournament: where it is, what decides it, and its matches by match id."""

    results: str
    topology: str
    seed: int
    fingerprint: str
    config: dict[str, Any]
    identities: dict[str, dict[str, Any]]
    matches: dict[str, StoredMatch] = field(default_factory=dict)
    #: Stored matches the referee could not finish (not in ``matches``: a resume plays them again).
    errors: dict[str, StoredMatch] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """``results/a: france seed 5``."""
        return f"{self.results}: {self.topology} seed {self.seed}"

    @property
    def agents(self) -> tuple[str, ...]:
        """The field: from the stored configuration, else the agents of the stored matches."""
        configured = self.config.get("agents")
        if isinstance(configured, list) and configured:
            return tuple(str(a) for a in configured)
        return tuple(sorted({a for m in self.matches.values() for a in m.agents}))

    def schedule(self) -> list[MatchSpec]:
        """The matches its configuration implies (its field's double all-play-all)."""
        return double_round_robin(self.agents, [self.topology], self.seed, 1)

    def missing(self) -> list[MatchSpec]:
        """Scheduled matches not finished: not stored, or stored as a referee error (without a
        configured field, only the referee errors are known)."""
        if not self.config.get("agents"):
            return [m for m in self.schedule() if m.match_id in self.errors]
        return [m for m in self.schedule() if m.match_id not in self.matches]


@dataclass
class Disagreement:
    """Two stores of one tournament (``first``, then ``other``) whose records of matches both hold differ."""

    first: Tournament
    other: Tournament
    #: the matches both hold
    shared: int
    #: (match id, where the two records first differ), in match id order
    matches: list[tuple[str, str]]

    def describe(self) -> str:
        """``results/b and results/a hold france seed 1 (same configuration, seed and secret) with
        different results in 2 of the 90 matches both hold: france/1/a/b (auctions[3].bids[0]: 812.0
        then 790.5), ...``."""
        named = ", ".join(f"{key} ({where})" for key, where in self.matches[:_NAMED])
        more = f" and {len(self.matches) - _NAMED} more" if len(self.matches) > _NAMED else ""
        return (
            f"{self.other.results} and {self.first.results} hold {self.first.topology} seed {self.first.seed} "
            f"(same configuration, seed and secret) with different results in {len(self.matches)} of the "
            f"{self.shared} matches both hold: {named}{more}"
        )


@dataclass
class Pool:
    """The tournaments a report pools, and the notes the report prints about them."""

    tournaments: list[Tournament]
    notes: list[str]
    #: tournaments with scheduled matches missing (not started ones too), and those matches
    gaps: list[tuple[Tournament, list[MatchSpec]]] = field(default_factory=list)
    #: stores of one tournament whose records of the same matches differ
    disagreements: list[Disagreement] = field(default_factory=list)

    def matches(self) -> list[PooledMatch]:
        """Every pooled match, each once, tagged with its tournament."""
        return [
            PooledMatch((t.results, t.topology, t.seed), m)
            for t in self.tournaments
            for _, m in sorted(t.matches.items())
        ]

    def errors(self) -> list[PooledMatch]:
        """Every stored match the referee could not finish (and no copy finished), tagged likewise."""
        return [
            PooledMatch((t.results, t.topology, t.seed), m)
            for t in self.tournaments
            for key, m in sorted(t.errors.items())
            if key not in t.matches
        ]



def game(record: MatchRecord) -> dict[str, Any]:
    """What the seed and secret decide in a record, as any machine records it: the tasks, every bid and
    winner, the plans, the figures, and each fault's agent, kind, phase and task (fault messages and
    tracebacks may name the machine's paths; timing, outputs and sandbox notes differ anyway)."""
    result = record.result
    return {
        "tasks": [t.model_dump(exclude_unset=True) for t in record.tasks],
        "auctions": [a.model_dump(exclude_unset=True) for a in record.auctions],
        "plans": record.plans,
        "result": {"revenue": result.revenue, "cost": result.cost, "profit": result.profit,
                   "winner": result.winner, "referee_error": result.referee_error},
        "faults": [{"agent": f.agent, "kind": f.kind, "phase": f.phase, "task": f.task} for f in result.faults],
    }


def _stored_game(store: ResultsStore, key: str) -> dict[str, Any]:
    """The :func:`game` of the record of ``key`` in ``store``; what is wrong with it, when it is none."""
    data = store.record(key)
    if data is None:
        return {"record": None}
    try:
        return game(MatchRecord.read(data))
    except ValidationError as exc:
        first = exc.errors()[0]
        return {"unreadable": f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"}


def _disagreement(first: Tournament, other: Tournament) -> Disagreement | None:
    """The matches both stores of one tournament hold whose records differ, or None if all agree."""
    shared = sorted(set(first.matches) & set(other.matches))
    if not shared:
        return None
    a, b = ResultsStore.open(first.results), ResultsStore.open(other.results)
    found: list[tuple[str, str]] = []
    try:
        for key in shared:
            where = record_difference(_stored_game(a, key), _stored_game(b, key))
            if where is not None:
                found.append((key, where))
    finally:
        a.close()
        b.close()
    return Disagreement(first, other, len(shared), found) if found else None


def _fingerprint(config: Mapping[str, Any], topology: str, seed: int, secret: bytes | None,
                 matches: Sequence[StoredMatch]) -> str:
    if config:
        decides = {
            "config": {k: v for k, v in config.items() if k not in _STORE_LEVEL},
            "topology": topology,
            "seed": seed,
            "key": None if secret is None else hashlib.sha256(secret).hexdigest(),
        }
    else:  # a store without a configuration: its results are its identity
        decides = {"results": sorted((m.match_id, m.seed, list(m.profit), m.winner) for m in matches)}
    return hashlib.sha256(json.dumps(decides, sort_keys=True).encode()).hexdigest()


def _read(folder: str | Path) -> tuple[dict[str, Any], list[Tournament], str | None]:
    store = ResultsStore.open(folder)
    try:
        config, secret, identities = store.config(), store.secret(), store.identities()
        matches = list(store.matches())
    finally:
        store.close()
    by_tournament: dict[tuple[str, int], list[StoredMatch]] = {}
    topologies = config.get("topologies")
    if isinstance(topologies, list) and isinstance(config.get("seed"), int):
        repeat = _repeat(config, topologies, folder)
        for topology in topologies:  # tournaments not started yet are listed too
            for seed in tournament_seeds(config["seed"], repeat):
                by_tournament[(str(topology), seed)] = []
    configured = set(by_tournament)  # the tournaments the configuration makes (none when it does not say)
    for m in matches:
        by_tournament.setdefault((m.topology, m.tournament_seed), []).append(m)
    tournaments, left_out = [], []
    for (topology, seed), stored in by_tournament.items():
        if configured and (topology, seed) not in configured:
            left_out += [m.match_id for m in stored]
            continue
        t = Tournament(str(folder), topology, seed, _fingerprint(config, topology, seed, secret, stored), config,
                       identities, {m.match_id: m for m in stored if m.error is None},
                       {m.match_id: m for m in stored if m.error is not None})
        left_out += _leave_unscheduled_out(t)
        tournaments.append(t)
    return config, tournaments, _left_out_note(folder, left_out)


def _repeat(config: Mapping[str, Any], topologies: Sequence[Any], folder: str | Path) -> int:
    """The configuration's tournaments per network; UserError when it plans more matches than
    :data:`MAX_PLANNED` (a crafted configuration: its schedule would never be listed)."""
    repeat, agents = config.get("repeat") or 1, config.get("agents")
    field = len(agents) if isinstance(agents, list) else 2
    if not isinstance(repeat, int) or repeat < 1 or len(topologies) * repeat * field * (field - 1) > MAX_PLANNED:
        raise UserError(f"{folder}: its stored configuration plans no tournament apdp runs (repeat "
                        f"{clean_line(repeat, 40)}, {len(topologies)} network(s), {field} agents); give the "
                        "folder `apdp tournament --out DIR` wrote")
    return repeat


def _leave_unscheduled_out(t: Tournament) -> list[str]:
    """Take out of ``t`` the stored matches its schedule does not make: an id it never gives, or
    another network, seed or company order than its match of that id, or a winner who did not play;
    their ids."""
    configured = bool(t.config.get("agents"))  # without a configured field, its matches are the tournament
    planned = {m.match_id: m for m in t.schedule()} if configured else {}
    left_out = []
    for stored in (t.matches, t.errors):
        for key, m in list(stored.items()):
            spec = planned.get(key)
            same = not configured or (spec is not None and (m.topology, m.tournament_seed, m.seed, m.agents) == (
                spec.topology, spec.tournament_seed, spec.seed, spec.agents))
            if not same or (m.winner is not None and m.winner not in m.agents):
                del stored[key]
                left_out.append(key)
    return left_out


def _left_out_note(folder: str | Path, left_out: Sequence[str]) -> str | None:
    """The note that ``folder``'s stored matches ``left_out`` are not counted."""
    if not left_out:
        return None
    named = ", ".join(clean_line(key, 100) for key in sorted(left_out)[:_NAMED])
    more = f" and {len(left_out) - _NAMED} more" if len(left_out) > _NAMED else ""
    return (f"{folder}: {len(left_out)} stored match(es) that its tournaments' schedule does not make left out "
            f"({named}{more}): a copy given rows apdp did not play counts none of them")


def _pair(m: MatchSpec) -> str:
    return f"{m.agents[0]} vs {m.agents[1]}"


def _incomplete_note(t: Tournament, missing: list[MatchSpec]) -> str:
    total = len(t.schedule())
    failed = [m for m in missing if m.match_id in t.errors and m.match_id not in t.matches]
    if len(missing) == total and not failed:
        return f"{t.label}: not started, none of its {total} matches is stored"
    named = ", ".join(_pair(m) for m in missing[:_NAMED])
    more = f" and {len(missing) - _NAMED} more" if len(missing) > _NAMED else ""
    errors = ""
    if failed:
        reason = t.errors[failed[0].match_id].error
        errors = (f", {len(failed)} of them ended in a referee error (apdp's failure, counted for nobody; "
                  f"the first: {reason})")
    return (
        f"{t.label} is incomplete: {len(missing)} of {total} matches missing ({named}{more}){errors}; "
        f"resume it with the same apdp tournament command and --out {t.results}"
    )


def _networks(config: Mapping[str, Any], tournaments: Sequence[Tournament]) -> tuple[str, ...]:
    topologies = config.get("topologies")
    if isinstance(topologies, list):
        return tuple(sorted(str(t) for t in topologies))
    return tuple(sorted({t.topology for t in tournaments}))


def _tasks(config: Mapping[str, Any]) -> int | None:
    scenario = config.get("scenario")
    tasks = scenario.get("tasks") if isinstance(scenario, dict) else None
    return tasks if isinstance(tasks, int) else None


def _draw(config: Mapping[str, Any]) -> str | None:
    """How a Logist configuration's tasks were drawn (``secret`` or ``platform``); None elsewhere."""
    scenario = config.get("scenario")
    draw = scenario.get("task_draw") if isinstance(scenario, dict) else None
    return draw if draw in TASK_DRAWS else None


def draw_note(tournaments: Sequence[Tournament]) -> str | None:
    """The report's line on how the tournaments' tasks of a Logist configuration were drawn."""
    draws = sorted({d for t in tournaments if (d := _draw(t.config)) is not None})
    if len(draws) == 1:
        return f"tasks: {TASK_DRAWS[draws[0]]}"
    return None  # none on a Logist configuration, or several draws: pooled only with --mixed, and said so


def _names(names: Sequence[str]) -> str:
    return ", ".join(names) if names else "none"


def differences(pooled: Sequence[Tournament], networks: Mapping[str, tuple[str, ...]]) -> list[str]:
    """What differs between the tournaments (each against the first): agents, agent files,
    networks, tasks per match. ``networks`` maps a results folder to its networks."""
    if not pooled:
        return []
    first = pooled[0]
    found: dict[str, str] = {}
    for t in pooled[1:]:
        if "agents" not in found and set(t.agents) != set(first.agents):
            extra = sorted(set(t.agents) - set(first.agents))
            lacking = sorted(set(first.agents) - set(t.agents))
            parts = ([f"adds {_names(extra)}"] if extra else []) + ([f"lacks {_names(lacking)}"] if lacking else [])
            found["agents"] = f"agents: {t.label} {' and '.join(parts)} (against {first.label})"
        old, new = first.config.get("agent_files"), t.config.get("agent_files")
        if "files" not in found and isinstance(old, dict) and isinstance(new, dict):
            changed = sorted(a for a in set(old) & set(new) if old[a] != new[a])
            if changed:
                found["files"] = (
                    f"agent files: {changed[0]!r} is another file in {t.results} than in {first.results} "
                    f"(sha256 {str(new[changed[0]])[:12]} vs {str(old[changed[0]])[:12]})"
                )
        if "networks" not in found and networks[t.results] != networks[first.results]:
            found["networks"] = (
                f"networks: {first.results} plays {_names(networks[first.results])}, "
                f"{t.results} plays {_names(networks[t.results])}"
            )
        if "draw" not in found and _draw(first.config) != _draw(t.config):
            found["draw"] = (
                f"task draw: {_draw(first.config) or 'apdp'} in {first.results}, {_draw(t.config) or 'apdp'} "
                f"in {t.results}"
            )
        a, b = _tasks(first.config), _tasks(t.config)
        if "tasks" not in found and a is not None and b is not None and a != b:
            found["tasks"] = f"tasks per match: {a} in {first.results}, {b} in {t.results}"
    return list(found.values())


def load_pool(folders: Sequence[str | Path], *, mixed: bool = False) -> Pool:
    """The tournaments stored in ``folders``, each once, checked for gaps and alike.

    A folder without results, or tournaments that differ when ``mixed`` is False, raise UserError.
    """
    unique = list({Path(f).resolve(): f for f in reversed(folders)}.values())[::-1]  # a folder named twice counts once
    kept: dict[str, Tournament] = {}
    networks: dict[str, tuple[str, ...]] = {}
    copies: dict[tuple[str, str], int] = {}
    disagreements: list[Disagreement] = []
    left_out: list[str] = []
    for folder in unique:
        config, tournaments, note = _read(folder)
        left_out += [note] if note else []
        networks[str(folder)] = _networks(config, tournaments)
        for t in tournaments:
            same = kept.get(t.fingerprint)
            if same is None:
                kept[t.fingerprint] = t
                continue
            disagreement = _disagreement(same, t)
            if disagreement is not None:
                disagreements.append(disagreement)
                kept[f"{t.fingerprint} {t.results}"] = t  # counted on its own (refused below unless mixed)
                continue
            if t.matches:
                copies[(t.results, same.results)] = copies.get((t.results, same.results), 0) + 1
            for key, m in t.matches.items():
                same.matches.setdefault(key, m)
            for key, m in t.errors.items():
                same.errors.setdefault(key, m)
    tournaments = list(kept.values())
    if not any(t.matches for t in tournaments):
        raise UserError(f"no finished matches in {', '.join(str(f) for f in folders)}: play its tournament first, "
                        "or resume it (the same apdp tournament command and --out)")
    if disagreements and not mixed:
        raise UserError(
            f"cannot pool stores of one tournament whose results differ: "
            f"{'; '.join(d.describe() for d in disagreements)}; the same seed and secret must give the same "
            "results (an agent that depends on the clock or the machine's load does not): report each "
            "folder alone, or pool them anyway with --mixed, which counts each as a tournament of its own"
        )
    notes_differ = [f"{d.describe()}: counted as two tournaments (--mixed)" for d in disagreements]
    notes = [
        f"{copy} holds {n} tournament(s) that {original} holds too (a copy or a replay): counted once"
        for (copy, original), n in copies.items()
    ]
    gaps = [(t, missing) for t in tournaments if (missing := t.missing())]
    notes += left_out
    notes += notes_differ
    notes += [_incomplete_note(t, missing) for t, missing in gaps]
    played = [t for t in tournaments if t.matches]
    differ = differences(played, networks)
    if differ and not mixed:
        raise UserError(f"cannot pool tournaments that differ: {'; '.join(differ)}; pool them anyway with --mixed")
    if differ:
        notes.append(f"pooled with --mixed although they differ: {'; '.join(differ)}")
    drawn = draw_note(played)
    if drawn is not None:
        notes.insert(0, drawn)
    return Pool(played, notes, gaps, disagreements)
