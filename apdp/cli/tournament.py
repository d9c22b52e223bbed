"""``apdp tournament``: double all-play-all tournaments on all cores, resumable, with a report."""

from __future__ import annotations

import os
import secrets
import sys
import textwrap
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from apdp.agents.discovery import is_bundled
from apdp.cli.early import start_zygote
from apdp.cli.match import scenario_options
from apdp.cli.options import ClusterAddress, options_of
from apdp.errors import UserError
from apdp.lookup import searched_first
from apdp.secret import parse_secret

if TYPE_CHECKING:
    from apdp.tournament.ray_executor import RayCluster

# apdp.tournament.config, .run, .report and .store are imported where used: `apdp --help` and the other
# commands do not load pydantic, numpy and the statistics.


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


def _stored_seed(folder: Path) -> int | None:
    """The tournament seed stored in ``folder``'s results, or None when there are none."""
    from apdp.tournament.store import STORE_FILE, ResultsStore

    if not (folder / STORE_FILE).is_file():
        return None
    store = ResultsStore.open(folder)
    try:
        seed = store.config().get("seed")
    finally:
        store.close()
    return seed if isinstance(seed, int) else None


def every_agent_found(names: Sequence[str], paths: Sequence[str]) -> str:
    """The line that says who plays when no --agents was given: the shipped agents and the user's."""
    shipped = [n for n, p in zip(names, paths, strict=True) if is_bundled(p)]
    yours = [n for n, p in zip(names, paths, strict=True) if not is_bundled(p)]
    line = f"no --agents: every agent found plays, {len(shipped)} shipped ({', '.join(shipped) or 'none'})"
    line += f" and {len(yours)} of yours ({', '.join(yours)})" if yours else " and none of yours"
    return textwrap.fill(line, width=100, break_on_hyphens=False, subsequent_indent="  ")


def ray_cluster(executor: str, address: str | None, jobs: int | None) -> RayCluster | None:
    """The Ray cluster the options ask for (None: the local executor); bad options raise UserError.

    ``--jobs`` is at most this machine's cores, except on a cluster given by ``--address``, where
    it caps the matches at once (default: one per CPU of the cluster).
    """
    if executor not in ("local", "ray"):
        raise UserError(f"--executor must be local or ray, got {executor!r}")
    if jobs is not None and jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}")
    if address is not None and executor != "ray":
        raise UserError("--address is for --executor ray")
    if jobs is not None and jobs > default_jobs() and address is None:
        raise UserError(
            f"--jobs {jobs} is more than the {default_jobs()} cores here: agents would share cores and "
            f"run out of time unfairly; use --jobs {default_jobs()} or fewer"
        )
    if executor == "local":
        return None
    from apdp.tournament.ray_executor import RayCluster, import_ray

    import_ray(local=address is None)  # one line saying how to install it, when it is missing
    if address is None:
        return RayCluster(None, cpus=jobs or default_jobs(), jobs=jobs)
    return RayCluster(address, jobs=jobs)


@options_of(scenario_options, "scenario")
def tournament(
    topology: Annotated[
        str | None,
        typer.Option(help="Network (name, code or .toml file), several comma-separated, or 'all'."),
    ] = None,
    agents: Annotated[
        list[str] | None,
        typer.Option(
            "--agents", "-a",
            help="Agents, comma-separated (default: every agent found: the shipped ones and yours, in ./agents, "
                 "--agents-dir and $APDP_AGENTS).",
        ),
    ] = None,
    repeat: Annotated[
        int, typer.Option(help="Tournaments per network, with seeds SEED, SEED+1, ...")
    ] = 1,
    seed: Annotated[
        int | None,
        typer.Option(help="Seed of the first tournament (default: the stored one, or drawn at random)."),
    ] = None,
    *,
    scenario: tuple[Path | None, dict[str, Any]],
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="Matches played at once (default: all cores).")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Results folder; an existing one is resumed (default: results/<date>)."),
    ] = None,
    secret_hex: Annotated[
        str | None,
        typer.Option("--secret", "--key", help="The secret, 64 hex digits, of a published tournament to replay "
                                               "(default: the stored one, or a new one)."),
    ] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar and no report: one line at the end.")] = False,
    executor: Annotated[
        str, typer.Option(help="Where matches run: local (processes on this machine) or ray (a Ray cluster).")
    ] = "local",
    address: ClusterAddress = None,
    agents_dir: Annotated[
        Path | None, typer.Option("--agents-dir", help="Folder of your agents (default ./agents, $APDP_AGENTS).")
    ] = None,
    exercise: Annotated[
        str | None,
        typer.Option(help="reactive, deliberative or centralized: each agent plays that exercise alone on each "
                          "network (default: the course's) and seed (default: the course's), ranked by its score."),
    ] = None,
) -> None:
    """Play a double all-play-all: every pair twice, companies swapped, on the same tasks.

    Each match is stored as it ends; run the same command with the same --out to resume.
    """
    from apdp.tournament.config import make_config
    from apdp.tournament.run import run_tournament

    if exercise is not None:
        from apdp.cli.exercise_tournament import exercise_tournament

        if jobs is not None and not 1 <= jobs <= default_jobs():
            raise UserError(f"--jobs {jobs}: give 1 to {default_jobs()} (the cores here): a round's agent needs "
                            "a core of its own")
        exercise_tournament(exercise, topology, _agent_names(agents), seed, repeat, out or new_results_folder(),
                            agents_dir, quiet, jobs or default_jobs())
        return

    cluster = ray_cluster(executor, address, jobs)
    if cluster is None:
        start_zygote()
    jobs = default_jobs() if jobs is None else jobs
    secret = None if secret_hex is None else parse_secret(secret_hex)
    folder = out if out is not None else new_results_folder()
    if seed is None:
        stored = _stored_seed(folder)
        seed = secrets.randbits(62) if stored is None else stored  # < 2**62, as make_config wants
    scenario_file, overrides = scenario
    with searched_first("APDP_AGENTS", agents_dir):
        config = make_config(
            topology=topology,
            agents=_agent_names(agents),
            seed=seed,
            repeat=repeat,
            scenario_file=str(scenario_file) if scenario_file is not None else None,
            overrides=overrides,
        )
    from apdp.sandbox.exposure import check_private

    check_private(config.agent_paths, [(folder, "--out")], [(scenario_file, "--scenario")])  # before a word is printed
    if not quiet:
        if not agents:
            typer.echo(every_agent_found(config.agents, config.agent_paths), err=True)
        typer.echo(f"results in {folder}, seed {seed}\n  (rerun with --out {folder} to resume)", err=True)
    from apdp.tournament.sandbox_notice import SandboxNotice

    observers = [] if quiet else [SandboxNotice(lambda line: typer.echo(line, err=True))]
    summary = run_tournament(config, folder, jobs=jobs, progress=not quiet, secret=secret, ray=cluster,
                             observers=observers)
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
            f"{summary.total} matches in {folder}, seed {seed} ({summary.played} played now, "
            f"{summary.skipped} resumed, {summary.faulted} with faults)"
        )
    else:
        from apdp.tournament.report import report

        typer.echo(report([folder], "table"))


def tournament_secret(
    folder: Annotated[Path, typer.Argument(help="Results folder of `apdp tournament`.")],
) -> None:
    """Print a tournament's secret (hex), to publish it once the tournament is over.

    With the secret and the seed anyone can replay it (apdp tournament --seed S --secret HEX) and
    also predict its tasks: publish the secret only when no match of it is still to be played.
    """
    from apdp.tournament.store import ResultsStore

    store = ResultsStore.open(folder)
    try:
        secret = store.secret()
    finally:
        store.close()
    if secret is None:
        raise UserError(f"{folder}: no secret stored (results from before secrets); resume the run to make one")
    typer.echo(secret.hex())


def tournament_repair(
    folder: Annotated[Path, typer.Argument(help="Results folder whose store is damaged.")],
) -> None:
    """Keep every readable match of a damaged results store; the damaged file stays beside it.

    Rerun the tournament with the same --out afterwards: it plays the matches that were lost.
    """
    from apdp.tournament.repair import repair

    done = repair(folder)
    lost = ", some unreadable rows left out" if done.unreadable is None else ""
    lost = f", {done.unreadable} unreadable row(s) left out" if done.unreadable else lost
    typer.echo(
        f"{folder}: kept {done.matches} match(es){lost}; the damaged store is now {done.damaged.name}; "
        f"rerun the tournament with --out {folder} to play the missing ones"
    )


def register(app: typer.Typer) -> None:
    """Add ``apdp tournament``, ``apdp tournament-secret`` (also ``tournament-key``, its name in
    apdp 0.1) and ``apdp tournament-repair`` to the CLI."""
    app.command()(tournament)
    app.command("tournament-secret")(tournament_secret)
    app.command("tournament-key", hidden=True)(tournament_secret)
    app.command("tournament-repair")(tournament_repair)
