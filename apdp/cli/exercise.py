"""The course's other exercises on the command line: ``apdp match --exercise E`` (or ``--scenario``
an exercise's configuration), ``apdp verify`` and ``apdp replay`` of an exercise record, ``apdp new
NAME --exercise E``. The auction's commands call in here when what they are given is an exercise's.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

from apdp.bundled import BUNDLED_AGENTS, BUNDLED_SCENARIOS
from apdp.errors import UserError

#: The networks' short names.
NETWORKS = {"ch": "switzerland", "fr": "france", "gb": "england", "uk": "england", "nl": "netherlands",
            "switzerland": "switzerland", "france": "france", "england": "england", "netherlands": "netherlands",
            "great britain": "england"}


def exercise_file(path: Path | None) -> bool:
    """Whether ``path`` is an exercise's configuration (a Logist XML whose mode= is one of the three,
    or an apdp TOML with ``exercise``), read within a configuration's bounds; False for anything else
    (the auction's reader judges it, and says what is wrong)."""
    if path is None or not path.is_file():
        return False
    from apdp.exercises.configuration import EXERCISES
    from apdp.logist.xmlfile import MAX_XML_BYTES, LogistFileError, read_xml
    from apdp.reading import ReadRefused, read_regular

    try:
        if path.suffix.lower() == ".xml":
            return read_xml(path, "a configuration").get("mode") in EXERCISES
        if path.suffix.lower() == ".toml":
            return "exercise" in tomllib.loads(read_regular(path, MAX_XML_BYTES).decode("utf-8"))
    except (LogistFileError, ReadRefused, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return False
    return False


def default_scenario(exercise: str, topology: str | None) -> Path:
    """The shipped configuration of ``exercise`` on ``topology`` (default: the course's network)."""
    from apdp.check.exercise_check import COURSE_NETWORK

    network = COURSE_NETWORK[exercise] if topology is None else NETWORKS.get(topology.lower())
    if network is None:
        raise UserError(f"--topology {topology!r}: an exercise plays on ch, fr, gb or nl (or give --scenario FILE)")
    path = BUNDLED_SCENARIOS / "exercises" / f"{exercise}_{network}.toml"
    if not path.is_file():
        raise UserError(f"{path}: the shipped scenario is missing; reinstall apdp")
    return path


def _print(record: Any) -> None:
    for s in record.statistics:
        typer.echo(f"{s.rank}. {s.agent}: {s.total_tasks} tasks, {s.total_distance:g} km, cost {s.total_cost}, "
                   f"reward {s.total_reward}, profit {s.total_profit}")
    if record.fault is not None:
        typer.echo(f"fault: {record.agents[record.fault.agent]} (agent {record.fault.agent}): {record.fault}")
        typer.echo("the round stopped there, as the Logist platform stops its run")


def reactive_end(hours: float | None, acts: int | None) -> Any:
    """The reactive round's end of ``--hours`` and ``--acts`` (apdp's default, 1000 simulated hours,
    when neither is given; either alone bounds the round by itself)."""
    from apdp.exercises.round import ReactiveEnd

    if hours is not None and not (0 < hours < float("inf")):
        raise UserError(f"--hours {hours:g}: give a positive number of simulated hours")
    if acts is not None and acts < 1:
        raise UserError(f"--acts {acts}: give a positive number of act calls")
    return ReactiveEnd() if hours is None and acts is None else ReactiveEnd(hours, acts)


def _end_text(end: Any) -> str:
    bounds = ([f"{end.hours:g} simulated hours"] if end.hours is not None else []) + (
        [f"{end.acts} act calls"] if end.acts is not None else [])
    return " or ".join(bounds)


def configured(configuration: Any, overrides: dict[str, Any]) -> Any:
    """``configuration`` with what ``apdp match``'s scenario options set (``--tasks``, ``--setup-timeout``,
    ``--plan-timeout``); ``--bid-timeout`` is refused: an exercise has no bids."""
    import dataclasses

    from apdp.check.exercise_check import with_timeouts

    if overrides.get("timeouts.bid") is not None:
        raise UserError("--bid-timeout: an exercise has no bids; its calls have --setup-timeout and --plan-timeout")
    tasks = overrides.get("tasks")
    if tasks is not None:
        if not 1 <= tasks <= 100_000:
            raise UserError(f"--tasks {tasks}: give a number of tasks from 1 to 100000")
        configuration = dataclasses.replace(configuration, tasks=tasks)
    timeouts = {k: overrides.get(f"timeouts.{k}") for k in ("setup", "plan")}
    for key, seconds in timeouts.items():
        if seconds is not None and not 0 < seconds <= 3600:
            raise UserError(f"--{key}-timeout {seconds:g}: give seconds above 0, at most 3600")
    if any(v is not None for v in timeouts.values()):
        configuration = with_timeouts(configuration, {k: configuration.timeouts_ms[k] / 1000 if v is None else v
                                                      for k, v in timeouts.items()})
    return configuration


def play_exercise_match(exercise: str | None, scenario: Path | None, names: Sequence[str], topology: str | None,
                        record: Path | None, show_output: bool, hours: float | None = None,
                        acts: int | None = None, *, seed: int | None = None, secret: bytes | None = None,
                        overrides: dict[str, Any] | None = None, replay: Path | None = None) -> None:
    """``apdp match`` of an exercise: play one round, print its statistics, write its record and its
    replay page (``replay``: made by playing the record again, as ``apdp replay`` does). Its
    batch and offers come from ``secret`` (the user's) and ``seed`` (the file's ``rngSeed`` when
    None), or are the platform's own draw (``--platform-tasks``)."""
    from apdp.agents.discovery import find_exercise_agent
    from apdp.check.exercise_check import checked_exercise
    from apdp.exercises.configuration import read_exercise
    from apdp.files import check_writable
    from apdp.referee.exercise_round import agents_kinds, play_exercise
    from apdp.referee.record import write_record
    from apdp.sandbox.exposure import check_private
    from apdp.secret import secret_file_path

    overrides = overrides or {}
    kind = None if exercise is None else checked_exercise(exercise, "--exercise")
    path = scenario if scenario is not None else default_scenario(kind or "", topology) if kind else None
    if path is None:
        raise UserError("give --exercise reactive|deliberative|centralized or --scenario FILE")
    try:
        configuration = read_exercise(path)
    except Exception as exc:  # the reader's own one-line errors (ScenarioError, LogistFileError)
        raise UserError(str(exc).splitlines()[0] if str(exc) else f"{path}: cannot read it") from None
    configuration = configured(configuration, overrides)
    sources = [find_exercise_agent(n) for n in names]
    for out in (record, replay):
        if out is not None:
            check_writable(out)  # before the round, not after it
    check_private([s.path for s in sources], [(record, "--record"), (replay, "--replay"),
                                              (secret_file_path() if secret is None else None, "your secret file")],
                  [(path, "--scenario")])
    kind = kind or configuration.exercise
    kinds = agents_kinds(sources, kind)  # type: ignore[arg-type]
    kind = kind or next((k for k in kinds if k is not None), None)
    if kind is None:
        raise UserError(f"{path}: names no exercise (mode= reactive, deliberative or centralized) and its agents "
                        "do not say theirs; give one with --exercise")
    end = reactive_end(hours, acts)
    if (hours is not None or acts is not None) and "reactive" not in kinds:
        raise UserError("--hours and --acts end a reactive round; no agent of this one is reactive")
    platform_draw = overrides.get("task_draw") == "platform"
    seed = configuration.laws.rng_seed if seed is None else seed
    shown = ", ".join(n if k in (kind, None) else f"{n} ({k})" for n, k in zip(names, kinds, strict=True))
    until = f", until {_end_text(end)}" if "reactive" in kinds else ""
    typer.echo(f"{kind} exercise on {configuration.network.name} ({path}): {shown}{until}")
    typer.echo("tasks: the platform's own draw from the file's rngSeed (--platform-tasks: foreseeable by anyone "
               "with the file)" if platform_draw else
               f"tasks: drawn from your secret and seed {seed} under the file's laws (no agent foresees them; "
               "--platform-tasks draws them as the platform does)")
    from apdp.sandbox.cores import core_for_a_match

    with core_for_a_match():  # as an auction match: the referee and its agents on a core of their own
        result = play_exercise(configuration, sources, exercise=kind, end=end, seed=seed,  # type: ignore[arg-type]
                               secret=secret, platform_draw=platform_draw)
    if show_output:
        for name, output in zip(result.agents, result.outputs, strict=True):
            typer.echo(f"--- {name} printed:\n{output}")
    _print(result)
    if record is not None:
        write_record(result.to_json(), record)
        typer.echo(f"record written to {record}")
    if replay is not None and result.referee_error is None:
        from apdp.pages.exercise_replay import write_exercise_replay

        write_exercise_replay(result, replay, source=f"the round's record ({result.scenario})")
        typer.echo(f"replay written to {replay}")
    if result.referee_error is not None:
        typer.echo(f"error: the referee failed (apdp's fault, not an agent's): {result.referee_error}", err=True)
        raise typer.Exit(1)


def verify_exercise_file(file: Path, data: object) -> None:
    """``apdp verify`` of an exercise record. Exit 0 consistent, 1 not, 2 unreadable."""
    from apdp.check.exercise_verify import verify_exercise_record
    from apdp.cli.verdict import say_verdict
    from apdp.referee.exercise_record import ExerciseRecordError, exercise_record_from_json

    try:
        record = exercise_record_from_json(data)
    except ExerciseRecordError as exc:
        typer.echo(f"error: {file}: {exc}", err=True)
        raise typer.Exit(2) from None
    say_verdict(file, verify_exercise_record(record),
                f"{record.exercise} exercise, {record.events} events, {len(record.agents)} "
                f"agent{'s' if len(record.agents) != 1 else ''}")


def replay_exercise_file(file: Path, data: object, out: Path) -> None:
    """``apdp replay`` of an exercise record: its round, played again, written as a page (map,
    events step by step, figures), and a few lines on the terminal."""
    from apdp.files import write_atomically
    from apdp.pages.exercise_replay import exercise_page, replay_summary, replayed_data
    from apdp.referee.exercise_record import ExerciseRecordError, exercise_record_from_json

    try:
        record = exercise_record_from_json(data)
    except ExerciseRecordError as exc:
        raise UserError(f"{file}: cannot replay it: {str(exc)[:200]}") from None
    page = replayed_data(record, str(file))
    write_atomically(out, exercise_page(page))
    typer.echo(f"{record.exercise} exercise, {record.scenario}: {', '.join(record.agents)}, "
               f"{len(page['events']['time'])} events")
    for line in replay_summary(page):
        typer.echo(line)
    _print(record)


def read_json(file: Path) -> object:
    """The JSON object of the record file ``file``, read within a record's bounds; None when it is
    none (the match record's reader then says why, in one line)."""
    from apdp.check.verify import UnreadableRecord, read_record_json

    try:
        return read_record_json(file)
    except UnreadableRecord:
        return None


def exercise_template(exercise: str) -> tuple[str, str]:
    """The template of ``exercise``: its source and its class's name."""
    from apdp.check.exercise_check import checked_exercise

    path = BUNDLED_AGENTS / "exercises" / f"{checked_exercise(exercise, '--exercise')}.py"
    try:
        return path.read_text(encoding="utf-8"), f"{exercise.capitalize()}Template"
    except OSError as exc:
        raise UserError(f"cannot read the {exercise} template {path} ({exc.strerror}); reinstall apdp") from None
