"""``apdp tournament``: double all-play-all tournaments on all cores, resumable, with a report."""

from __future__ import annotations

import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer

from apdp.errors import UserError
from tournament.config import make_config
from tournament.report import report
from tournament.run import run_tournament


def default_jobs() -> int:
    """The number of cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def new_results_folder(root: Path = Path("results")) -> Path:
    """A new dated folder under ``root`` (``results/2024-05-01_142501``), not yet created."""
    stamp = datetime.now().strftime("%Y-%m-%d_%H%M%S")
    folder, n = root / stamp, 1
    while folder.exists():
        n += 1
        folder = root / f"{stamp}-{n}"
    return folder


def _agent_names(agents: list[str] | None) -> list[str] | None:
    if not agents:
        return None
    return [n for a in agents for n in a.replace(",", " ").split()]


def tournament(
    topology: Annotated[
        str | None,
        typer.Option(help="Network (name, code or .toml file), several comma-separated, or 'all'."),
    ] = None,
    agents: Annotated[
        list[str] | None,
        typer.Option("--agents", "-a", help="Agents, comma-separated (default: every shipped agent)."),
    ] = None,
    repeat: Annotated[
        int, typer.Option(help="Tournaments per network, with seeds SEED, SEED+1, ...")
    ] = 1,
    seed: Annotated[int, typer.Option(help="Seed of the first tournament.")] = 0,
    tasks: Annotated[int | None, typer.Option(help="Tasks auctioned per match (default 50).")] = None,
    scenario: Annotated[Path | None, typer.Option(help="Scenario TOML file.")] = None,
    setup_timeout: Annotated[float | None, typer.Option(help="Seconds for setup.")] = None,
    bid_timeout: Annotated[float | None, typer.Option(help="Seconds per bid.")] = None,
    plan_timeout: Annotated[float | None, typer.Option(help="Seconds for the plan.")] = None,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="Matches played at once (default: all cores).")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Results folder; an existing one is resumed (default: results/<date>)."),
    ] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar and no report: one line at the end.")] = False,
) -> None:
    """Play a double all-play-all: every pair twice, companies swapped, on the same tasks.

    Each match is stored as it ends; run the same command with the same --out to resume.
    """
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}")
    if jobs > default_jobs():
        raise UserError(
            f"--jobs {jobs} is more than the {default_jobs()} cores here: agents would share cores and "
            f"run out of time unfairly; use --jobs {default_jobs()} or fewer"
        )
    config = make_config(
        topology=topology,
        agents=_agent_names(agents),
        seed=seed,
        repeat=repeat,
        scenario_file=str(scenario) if scenario is not None else None,
        overrides={
            "tasks": tasks,
            "timeouts.setup": setup_timeout,
            "timeouts.bid": bid_timeout,
            "timeouts.plan": plan_timeout,
        },
    )
    folder = out if out is not None else new_results_folder()
    if not quiet:
        typer.echo(f"results in {folder} (rerun with --out {folder} to resume)", err=True)
    summary = run_tournament(config, folder, jobs=jobs, progress=not quiet)
    if summary.errors:
        for message in summary.error_messages[:10]:
            typer.echo(f"not played: {message}", err=True)
        typer.echo(
            f"error: {summary.errors} match(es) could not be played (see {folder}/tournament.log); "
            "rerun the same command to play them",
            err=True,
        )
        sys.exit(1)
    if quiet:
        typer.echo(
            f"{summary.total} matches in {folder} ({summary.played} played now, "
            f"{summary.skipped} resumed, {summary.faulted} with faults)"
        )
    else:
        typer.echo(report([folder], "table"))


def register(app: typer.Typer) -> None:
    """Add ``apdp tournament`` to the CLI."""
    app.command()(tournament)
