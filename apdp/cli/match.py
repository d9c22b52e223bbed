"""``apdp match``: play one match and print it as it goes."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from apdp.cli.options import options_of
from apdp.errors import UserError
from apdp.files import check_writable
from apdp.lookup import searched_first
from apdp.secret import parse_secret

if TYPE_CHECKING:
    from apdp.game.task import Task
    from apdp.referee.record_format import MatchRecord


def _money(x: float | None) -> str:
    """A bid or a figure: a whole number (a Java long, under the platform's rules) as it is."""
    if x is None:
        return "-"
    return f"{x:,}" if isinstance(x, int) else f"{x:,.1f}"


def labels(names: list[str]) -> list[str]:
    """Agent names for display, with the company index when a name appears twice."""
    return [f"{n}#{i}" if names.count(n) > 1 else n for i, n in enumerate(names)]


def _print_result(record: MatchRecord) -> None:
    from apdp.text import clean_line

    names = labels(record.agents)
    result = record.result
    width = max(len(n) for n in names)
    typer.echo("")
    typer.echo(f"{'agent'.ljust(width)}  {'revenue':>12}  {'cost':>12}  {'profit':>12}  faults")
    for i, name in enumerate(names):
        faults = [f for f in result.faults if f.agent == i]
        shown = "; ".join(
            f"{f.kind} in {f.phase}"
            + (f" (task {f.task})" if f.task is not None else "")
            + f": {clean_line(f.message, 400)}"
            for f in faults
        )
        typer.echo(
            f"{name.ljust(width)}  {_money(result.revenue[i]):>12}  {_money(result.cost[i]):>12}"
            f"  {_money(result.profit[i]):>12}  {shown or '-'}"
        )
    for i in result.wrapped or []:
        typer.echo(f"{names[i]}: a figure went past 2**63 - 1 and wrapped around, as a Java long does on the platform")
    if record.rules == "logist" and result.faults:
        typer.echo("the first fault ended the game (the Logist platform's rule): no figures; it goes to the others")
    w = result.winner
    if w is not None:
        typer.echo(f"\nwinner: {names[w]} (company {w})")
    elif len(result.faults) >= len(names):
        typer.echo("\nno winner: every agent faulted")
    else:
        typer.echo("\nno winner: draw")


def _print_output(record: MatchRecord, show: bool, path: Path | None) -> None:
    """Each agent's captured output (``show``), or one line saying who printed and where it went."""
    names = labels(record.agents)
    outputs = record.output or []
    if show:
        for i, (name, text) in enumerate(zip(names, outputs, strict=False)):
            if text:
                typer.echo(f"\n--- output of {name} (company {i}) ---")
                typer.echo(text.rstrip("\n"))
                typer.echo(f"--- end of {name}'s output ---")
        return
    printed = [f"{name} ({len(text.encode()):,} bytes)" for name, text in zip(names, outputs, strict=False) if text]
    if printed:
        where = f"kept in {path} under \"output\"" if path is not None else "--record FILE keeps it"
        typer.echo(f"\noutput: {', '.join(printed)} printed; --show-output prints it, {where}")


def scenario_options(
    tasks: Annotated[int | None, typer.Option(help="Tasks auctioned per match (default 50).")] = None,
    scenario: Annotated[Path | None, typer.Option(help="Scenario TOML file, or a Logist configuration (.xml).")] = None,
    setup_timeout: Annotated[float | None, typer.Option(help="Seconds for setup.")] = None,
    bid_timeout: Annotated[float | None, typer.Option(help="Seconds per bid.")] = None,
    plan_timeout: Annotated[float | None, typer.Option(help="Seconds for the plan.")] = None,
    platform_tasks: Annotated[
        bool,
        typer.Option("--platform-tasks", help="With a Logist configuration: the platform's own task draw from "
                                              "its rngSeed (the same every match, foreseeable from the file; "
                                              "to compare with the platform) instead of one from the secret."),
    ] = False,
) -> tuple[Path | None, dict[str, Any]]:
    """The scenario file of ``apdp match`` or ``apdp tournament`` and the values their options set in it
    (None: the file's own)."""
    return scenario, {
        "tasks": tasks,
        "timeouts.setup": setup_timeout,
        "timeouts.bid": bid_timeout,
        "timeouts.plan": plan_timeout,
        "task_draw": "platform" if platform_tasks else None,
    }


@options_of(scenario_options, "scenario")
def match(
    agents: Annotated[list[str], typer.Option("--agents", "-a", help="Agent names or .py files, one per company.")],
    topology: Annotated[str | None, typer.Option(help="Network: ch, fr, gb, nl, a name or a .toml file.")] = None,
    seed: Annotated[
        int | None, typer.Option(help="Match seed (same seed and secret, same match; default: drawn at random).")
    ] = None,
    secret_hex: Annotated[
        str | None,
        typer.Option("--secret", "--key", help="The secret, 64 hex digits, the match is derived from "
                                               "(default: your secret file)."),
    ] = None,
    exercise: Annotated[
        str | None,
        typer.Option(help="Play the course's reactive, deliberative or centralized exercise (on --topology, "
                          "default the course's network) instead of the auction; --scenario FILE plays the "
                          "exercise a Logist configuration's mode= names."),
    ] = None,
    hours: Annotated[
        float | None,
        typer.Option(help="Reactive exercise: no act call at or after this simulated hour (default 1000, "
                          "unless --acts is given; the platform's headless run never ends)."),
    ] = None,
    acts: Annotated[
        int | None,
        typer.Option(help="Reactive exercise: stop after this many act calls over all agents."),
    ] = None,
    *,
    scenario: tuple[Path | None, dict[str, Any]],
    record: Annotated[Path | None, typer.Option(help="Write the match record (JSON) here.")] = None,
    replay: Annotated[Path | None, typer.Option(help="Write the match's HTML replay here.")] = None,
    quiet: Annotated[bool, typer.Option(help="Print only the result.")] = False,
    show_output: Annotated[
        bool, typer.Option("--show-output", help="Print what each agent printed (stdout and stderr).")
    ] = False,
    agents_dir: Annotated[
        Path | None, typer.Option("--agents-dir", help="Folder of your agents (default ./agents, $APDP_AGENTS).")
    ] = None,
) -> None:
    """Play one match, print every auction, then revenue, cost, profit and faults per agent."""
    from apdp.referee.match import play_match  # here: `apdp --help` does not load the referee
    from apdp.referee.record import write_record
    from apdp.scenario import load_scenario

    names = [n for a in agents for n in a.replace(",", " ").split()]
    scenario_file, overrides = scenario
    from apdp.cli.exercise import exercise_file, play_exercise_match

    if exercise is not None or exercise_file(scenario_file):
        with searched_first("APDP_AGENTS", agents_dir):
            play_exercise_match(exercise, scenario_file, names, topology, record, show_output, hours, acts,
                                seed=seed, secret=None if secret_hex is None else parse_secret(secret_hex),
                                overrides=overrides, replay=replay)
        return
    if hours is not None or acts is not None:
        raise UserError("--hours and --acts end a reactive exercise's round; this is an auction match")
    spec = load_scenario(scenario_file, {"topology": topology, "seed": seed} | overrides)

    from apdp.agents.discovery import find_agent, registry_params
    from apdp.sandbox.exposure import check_private
    from apdp.secret import secret_file_path

    with searched_first("APDP_AGENTS", agents_dir):  # an unknown agent or network: before anything is printed
        sources = [find_agent(n) for n in names]
        registry = registry_params()
    spec.load_topology()
    for path in (record, replay):
        if path is not None:
            check_writable(path)  # before the match, not after it
    check_private([s.path for s in sources], [(record, "--record"), (replay, "--replay"),
                                              (secret_file_path() if secret_hex is None else None, "your secret file")],
                  [(scenario_file, "--scenario")])
    secret = None if secret_hex is None else parse_secret(secret_hex)
    drawn = "seed" not in spec.model_fields_set  # neither --seed nor the scenario file chose one
    if drawn:
        spec = spec.model_copy(update={"seed": secrets.randbits(63)})
    shown_names = labels(names)

    def show(task: Task, bids: list[float | None], winner: int | None) -> None:
        shown = "  ".join(f"{shown_names[i]}={_money(b)}" for i, b in enumerate(bids))
        won = shown_names[winner] if winner is not None else "nobody"
        typer.echo(
            f"task {task.id:>3}: {task.pickup} -> {task.delivery} ({task.weight:g})  {shown}  -> {won}"
        )

    how = f" (drawn at random; --seed {spec.seed} replays it)" if drawn else ""
    typer.echo(f"match on {spec.topology}, seed {spec.seed}{how}: {' vs '.join(names)}")
    if spec.logist_tasks is not None:
        from apdp.logist.tasks import TASK_DRAWS

        typer.echo(f"tasks: {TASK_DRAWS[spec.task_draw]}")
    from apdp.sandbox.cores import core_for_a_match

    with searched_first("APDP_AGENTS", agents_dir), core_for_a_match():
        result = play_match(spec, sources, secret=secret, on_auction=None if quiet else show, registry=registry)
    from apdp.sandbox.protections import warning

    unprotected = warning((result.sandbox or {}).get("unprotected"))
    if unprotected:
        typer.echo(unprotected, err=True)
    _print_output(result, show_output, record)
    _print_result(result)
    if record is not None:
        write_record(result.to_json(), record)
        typer.echo(f"record written to {record}")
    if replay is not None and result.referee_error is None:
        from apdp.pages.replay import write_replay

        write_replay(result, replay)
        typer.echo(f"replay written to {replay}")
    failure = result.referee_error
    if failure is not None:
        typer.echo(f"error: the referee failed in this match (apdp's fault, not an agent's): {failure}", err=True)
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add ``apdp match``."""
    app.command("match")(match)
