"""A field of agents on one of the course's other exercises (``apdp tournament --exercise E``, and a
study whose manifest says ``exercise = "E"``): each agent plays the exercise alone, sandboxed, on
each network and seed (the course's configuration of that network with the seed as its
``rngSeed``), and is scored against the references (:mod:`apdp.exercises.scores`, through
:mod:`apdp.check.exercise_score`). A deliberative agent also plays the network's discriminating
instances, where plausible inadmissible heuristics are not optimal: optimal on all of them, it
planned as an admissible search does.

A round's batch and offers are drawn from the field's secret (``secret`` in the results folder,
made on the first run, mode 0600) and the round's seed, so no agent foresees them; a discriminating
instance is the platform's own draw of its seed, since its batch is what makes it one (a deliberative
agent is given the whole batch in its first plan call anyway).

Every round's entry (the agent, network, seed, instance, fault, score) is appended to
``exercise.jsonl`` in the results folder as it ends; a rerun skips the rounds stored (resumable),
and the table ranks the agents by the exercise's score (:mod:`apdp.tournament.exercise_table`).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apdp.agents.discovery import AgentSource, check_names_apart, find_exercise_agent, registry_params
from apdp.agents.files import agent_hash
from apdp.check.borrowed import borrowed_by
from apdp.check.exercise_check import checked_exercise, exercise_scenario, with_timeouts
from apdp.check.exercise_score import deliberative_scores, outcomes_of_record, played_on
from apdp.errors import UserError
from apdp.exercises.configuration import ExerciseConfiguration, read_exercise
from apdp.exercises.round import ReactiveEnd
from apdp.exercises.scores import discriminating_instances, score_centralized, score_reactive
from apdp.exercises.scores.instances import variant
from apdp.files import open_to_append
from apdp.reading import ReadRefused, read_regular
from apdp.sandbox.exposure import check_private
from apdp.secret import user_secret
from apdp.tournament.exercise_table import MOST_FIGURE, figure

#: The file of a field's entries in its results folder.
ENTRIES = "exercise.jsonl"
#: The file of its secret there.
SECRET = "secret"
#: The most ``exercise.jsonl`` is read to (a field writes well under a KiB a round).
MAX_ENTRIES_BYTES = 256 << 20
#: The networks' short names.
NETWORKS = {"ch": "switzerland", "fr": "france", "gb": "england", "uk": "england", "nl": "netherlands"}
#: Tasks of a deliberative discriminating instance, and instances per network.
INSTANCE_TASKS, INSTANCES = 5, 3


@dataclass(frozen=True)
class FieldSpec:
    """Where the agents play: the exercise, networks, seeds (None: the configuration's own
    ``rngSeed``), tasks (None: the configuration's), limits (seconds; empty: the configuration's)
    and the reactive round's end."""

    exercise: str
    networks: tuple[str, ...]
    seeds: tuple[int | None, ...] = (None,)
    tasks: int | None = None
    timeouts: dict[str, float] = field(default_factory=dict)
    end: ReactiveEnd = field(default_factory=ReactiveEnd)

    def fingerprint(self) -> str:
        """What makes two fields' rounds of one key the same round, as a short digest: the exercise,
        the number of tasks, the time limits and the reactive end (a resume under other settings
        plays its rounds anew instead of taking another field's)."""
        settings = [self.exercise, self.tasks, sorted(self.timeouts.items()), self.end.hours, self.end.acts]
        return hashlib.sha256(json.dumps(settings).encode()).hexdigest()[:16]

    def configuration(self, network: str, seed: int | None) -> ExerciseConfiguration:
        """The configuration of one round."""
        base = _course_configuration(self.exercise, network)
        if self.timeouts:
            base = with_timeouts(base, {**{k: v / 1000 for k, v in base.timeouts_ms.items()}, **self.timeouts})
        return variant(base, base.laws.rng_seed if seed is None else seed, self.tasks or base.tasks)


@functools.lru_cache(maxsize=16)
def _course_configuration(exercise: str, network: str) -> ExerciseConfiguration:
    """The course's configuration of ``exercise`` on ``network``, read once per process."""
    return read_exercise(exercise_scenario(exercise, network))


def network_name(name: str) -> str:
    """A network's full name from its name or code; UserError for another."""
    full = NETWORKS.get(name.lower(), name.lower())
    if full not in ("switzerland", "france", "england", "netherlands"):
        raise UserError(f"network {name!r}: an exercise plays on switzerland, france, england or netherlands "
                        "(ch, fr, gb, nl)")
    return full


def _score(spec: FieldSpec, configuration: ExerciseConfiguration, record: Any) -> dict[str, Any]:
    configuration = played_on(record, configuration)
    if spec.exercise == "reactive":
        (reactive,) = score_reactive(configuration, outcomes_of_record(record, configuration), end=spec.end)
        return {**reactive.to_json(), "ratio": reactive.ratio}
    if spec.exercise == "deliberative":
        (plans,) = deliberative_scores(record, configuration)
        return {"all_optimal": plans.all_optimal, "excess": plans.plans[0].excess if plans.plans else 0.0,
                "cost": plans.plan_cost, "optimal_cost": plans.optimal_cost, "seconds": _printed(plans.seconds),
                "nodes": _printed(plans.nodes), "plans": len(plans.plans), "plan_cpu": _plan_cpu(record)}
    (outcome,) = outcomes_of_record(record, configuration)
    central = score_centralized(configuration, outcome)
    return {**central.to_json(), "cost_vs_template": central.cost_vs_template,
            "cost_vs_planner": central.cost_vs_planner}


def _printed(value: float | None) -> float | None:
    """A figure the agent printed (or a sum of them), as an entry keeps it: within the figures a field
    writes, or None."""
    return None if value is None or not math.isfinite(value) or abs(value) >= MOST_FIGURE else value


def _plan_cpu(record: Any) -> float | None:
    """The CPU seconds the referee measured for the agent's plan calls (the printed time is the agent's
    say: it is shown, never ranked on)."""
    timing = record.timing[0] if getattr(record, "timing", ()) else {}
    cpu = timing.get("cpu") if isinstance(timing, dict) else None
    value = cpu.get("plan") if isinstance(cpu, dict) else None
    return round(float(value), 4) if isinstance(value, int | float) else None


def play_entry(spec: FieldSpec, source: AgentSource, key: dict[str, Any], secret: bytes,
               registry: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """One round of ``source`` alone, its configuration told by ``key`` (:func:`round_configuration`),
    scored: its entry (``key`` and the score). Drawn from ``secret``, but for a discriminating
    instance, the platform's draw; ``registry``: the agents' parameter files, read by the caller."""
    from apdp.referee.exercise_round import agents_params, play_exercise  # the referee, where it is used
    from apdp.sandbox.cores import core_for_a_match

    configuration = round_configuration(spec, key)
    params = agents_params(configuration, [source], registry)
    with core_for_a_match():  # the round's referee and agent on a core no other round's agent uses
        record = play_exercise(configuration, [source], exercise=spec.exercise,  # type: ignore[arg-type]
                               end=spec.end, params=params, secret=secret,
                               platform_draw=key.get("instance") is not None)
    entry: dict[str, Any] = {**key, "fault": None, "score": None}
    played = getattr(record, "agent_kinds", (spec.exercise,))[0]
    if record.referee_error is not None:  # apdp's failure, never the agent's: not stored (see run_field)
        entry["referee_error"] = (record.referee_error.splitlines() or ["?"])[0][:300]
    elif played != spec.exercise:
        entry["fault"] = f"its agent plays the {played} exercise, not the {spec.exercise} one"
    elif record.fault is not None:
        entry["fault"] = str(record.fault)
    else:
        entry["score"] = _score(spec, configuration, record)
    return entry


def _rounds(spec: FieldSpec) -> Iterator[dict[str, Any]]:
    """The key (network, seed, instance) of every round an agent plays."""
    for network in spec.networks:
        for seed in spec.seeds:
            yield {"network": network, "seed": seed, "instance": None}
        if spec.exercise == "deliberative":
            for found in _instances(spec, network):
                yield {"network": network, "seed": None, "instance": found}


def _instances(spec: FieldSpec, network: str) -> list[int]:
    """The seeds of the network's discriminating instances."""
    base = spec.configuration(network, None)
    return [found.rng_seed for found in discriminating_instances(base, tasks=INSTANCE_TASKS, count=INSTANCES)]


def round_configuration(spec: FieldSpec, key: dict[str, Any]) -> ExerciseConfiguration:
    """The configuration of the round ``key`` names: the course's of its network with its seed, or
    a discriminating instance's (its seed, :data:`INSTANCE_TASKS` tasks)."""
    if key.get("instance") is not None:
        return variant(spec.configuration(key["network"], None), int(key["instance"]), INSTANCE_TASKS)
    return spec.configuration(key["network"], key.get("seed"))


def _key(entry: dict[str, Any]) -> tuple[Any, ...]:
    return entry.get("agent"), entry.get("network"), entry.get("seed"), entry.get("instance"), entry.get("field")


def read_entries(folder: Path) -> list[dict[str, Any]]:
    """The entries stored in ``folder`` (a broken line, from a run stopped while writing it, is skipped);
    UserError when the file is no regular file or is larger than any field writes."""
    path = folder / ENTRIES
    if not path.exists():
        return []
    try:
        text = read_regular(path, MAX_ENTRIES_BYTES).decode("utf-8", "replace")
    except ReadRefused as exc:
        raise UserError(f"{path}: cannot read the stored rounds: {exc}") from None
    entries = []
    for line in text.splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if _sound(value):  # a line a field did not write (changed by hand): as if it were not there
            entries.append(value)
    return entries


def run_field(spec: FieldSpec, agents: Sequence[str], folder: Path,
              say: Callable[[str], None] = lambda _line: None, jobs: int = 1) -> list[dict[str, Any]]:
    """Play and score every agent's rounds missing from ``folder``, ``jobs`` at once (each round's
    result depends on its key and the folder's secret alone, so the order they end in does not
    matter); every entry of these agents. A round in which the referee failed (apdp's fault) is not
    stored, the others are, and then UserError says so: a rerun plays it again."""
    checked_exercise(spec.exercise)
    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}")
    spec = dataclasses.replace(spec, networks=tuple(network_name(n) for n in spec.networks))
    sources = list({s.path: s for s in (find_exercise_agent(a) for a in agents)}.values())  # each file once
    check_names_apart(sources)
    check_private([s.path for s in sources], [(folder, "--out")])
    registry = registry_params()
    folder.mkdir(parents=True, exist_ok=True)
    secret = user_secret(folder / SECRET)
    stored = {_key(e): e for e in read_entries(folder)}
    hashes = {s.name: agent_hash(s.path) for s in sources}
    borrowed = {s.name: borrowed_by(s.path) for s in sources}
    for entry in stored.values():
        played, now = entry.get("sha256"), hashes.get(str(entry["agent"]))
        if played is not None and now is not None and played != now:
            raise UserError(f"agent {entry['agent']!r}: its file changed since its rounds in {folder} were played "
                            "(give another --out, or take its lines out of " + ENTRIES + ")")
    field_ = spec.fingerprint()
    wanted = [(source, {"agent": source.name, **key, "field": field_}) for key in _rounds(spec) for source in sources]
    missing = [(source, {**key, "path": str(source.path), "sha256": hashes[source.name],
                         "borrowed": borrowed[source.name]})
               for source, key in wanted if _key(key) not in stored]
    failed: list[dict[str, Any]] = []  # rounds in which the referee failed: played again by a rerun
    with open_to_append(folder / ENTRIES) as out:
        for entry in _played(spec, missing, secret, registry, jobs):
            if entry.get("referee_error"):
                failed.append(entry)
                say(f"{entry['agent']} on {entry['network']} {_where(entry)}: the referee failed (apdp's fault)")
                continue
            out.write(json.dumps(entry) + "\n")
            out.flush()
            stored[_key(entry)] = entry
            say(f"{entry['agent']} on {entry['network']} {_where(entry)}: {entry['fault'] or 'scored'}")
    if failed:
        first = failed[0]
        raise UserError(f"the referee failed in {len(failed)} round(s) (apdp's fault, not the agents'), first "
                        f"{first['agent']} on {first['network']} {_where(first)}: {first['referee_error']}; the "
                        f"other rounds are stored in {folder}: rerun the command to play these again")
    say(f"{len(missing)} round(s) played now, {len(wanted) - len(missing)} stored")
    # this field's rounds only: a folder may hold others' (other seeds, networks, settings)
    return sorted((stored[_key(key)] for _, key in wanted), key=_order)


def _order(entry: dict[str, Any]) -> tuple[str, ...]:
    """Entries in one order whatever order they were played in."""
    return tuple(str(v) for v in _key(entry))


def _played(spec: FieldSpec, rounds: Sequence[tuple[AgentSource, dict[str, Any]]], secret: bytes,
            registry: dict[str, dict[str, Any]], jobs: int) -> Iterator[dict[str, Any]]:
    """Each round's entry as it ends: in this process (``jobs`` = 1), or ``jobs`` worker processes."""
    if jobs == 1 or len(rounds) < 2:
        for source, key in rounds:
            yield play_entry(spec, source, key, secret, registry)
        return
    from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, as_completed, wait

    from apdp.tournament.executor import worker_context

    with ProcessPoolExecutor(max_workers=min(jobs, len(rounds)), mp_context=worker_context()) as pool:
        futures = [pool.submit(play_entry, spec, source, key, secret, registry) for source, key in rounds]
        try:
            for future in as_completed(futures):
                yield future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            wait(futures, return_when=FIRST_EXCEPTION)
            raise


def _where(key: dict[str, Any]) -> str:
    if key.get("instance") is not None:
        return f"instance {key['instance']}"
    return "the course's seed" if key.get("seed") is None else f"seed {key['seed']}"


def _sound(entry: Any) -> bool:
    """Whether a stored line is an entry a field writes (its key's types, a score of figures)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("agent"), str) or not isinstance(
            entry.get("network"), str):
        return False
    if any(entry.get(k) is not None and not (isinstance(entry[k], int) and not isinstance(entry[k], bool))
           for k in ("seed", "instance")):
        return False
    score = entry.get("score")
    if entry.get("fault") is not None and not isinstance(entry["fault"], str):
        return False
    return score is None or (isinstance(score, dict) and all(
        v is None or isinstance(v, bool | str) or figure(v) for v in score.values()))
