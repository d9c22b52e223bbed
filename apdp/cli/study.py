"""``apdp study``: a whole study from one manifest: generate, check, play, report, resumable."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from apdp.cli.options import ClusterAddress
from apdp.errors import UserError

study_app = typer.Typer(
    name="study",
    help="Run a study from a manifest: generate agents with models, play them, report (resumable).",
    no_args_is_help=True,
)


@study_app.command("run")
def run_command(
    manifest: Annotated[Path, typer.Argument(help="The study's manifest (STUDY.toml).", dir_okay=False)],
    out: Annotated[
        Path | None, typer.Option(help="The study's folder; an existing one is resumed (default: studies/NAME).")
    ] = None,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="Matches played at once (default: the manifest's, or all cores).")
    ] = None,
    max_calls: Annotated[
        int | None, typer.Option(help="Make at most this many new model calls, then stop (rerun to continue).")
    ] = None,
    retry_errors: Annotated[
        bool, typer.Option(help="Run again the generations whose endpoint failed.")
    ] = False,
    quiet: Annotated[bool, typer.Option(help="No progress lines, no tables: one line at the end.")] = False,
    executor: Annotated[
        str, typer.Option(help="Where the tournaments' matches run: local (processes on this machine) or ray "
                               "(a Ray cluster; the generations' checks run here).")
    ] = "local",
    address: ClusterAddress = None,
) -> None:
    """Generate every missing agent, check it, play the tournaments, write report.json, report.html
    and funnel.csv into OUT.

    Every answered model call and finished generation is journaled in OUT/journal.jsonl and every
    match in OUT/results: rerun the same command after Ctrl-C or a crash to continue; a rerun of a
    finished study makes no model call and plays no match. API keys are read from each generator's
    api_key_env.
    """
    from apdp.cli.early import start_local_executor
    from apdp.cli.tournament import default_jobs, ray_cluster
    from apdp.study.manifest import load_manifest
    from apdp.study.run import run_study

    study = load_manifest(manifest)
    if max_calls is not None and max_calls < 0:
        raise UserError(f"--max-calls must be >= 0, got {max_calls}")
    cluster = ray_cluster(executor, address, jobs)  # a bad option, or no Ray: one line, before any work
    wanted = jobs or study.jobs or default_jobs()
    if wanted > default_jobs() and (cluster is None or address is None):
        raise UserError(f"--jobs {wanted} is more than the {default_jobs()} cores here; use {default_jobs()} or fewer")
    folder = out if out is not None else Path("studies") / study.name
    start_local_executor()  # before the generations' threads: the workers fork from it

    def say(line: str) -> None:
        if not quiet:
            typer.echo(line, err=True)

    say(f"study {study.name!r} in {folder} (rerun with --out {folder} to resume)")
    started = time.monotonic()
    result = run_study(study, folder, base=manifest.resolve().parent, say=say, max_calls=max_calls,
                       retry_errors=retry_errors, jobs=wanted, progress=not quiet, ray=cluster)
    seconds = time.monotonic() - started
    calls = f"{result.new_calls} model call(s) made, {result.replayed_calls} replayed from the journal"
    if result.stopped is not None:
        typer.echo(f"stopped: {result.stopped} ({calls}); funnel so far in {folder / 'funnel.csv'}")
        raise typer.Exit(3)
    if not quiet:
        typer.echo(result.report_text)
    played = result.tournament
    if played is None:  # an exercise's study: each agent scored alone
        typer.echo(f"study {study.name!r} ({study.exercise} exercise): {result.generated} agent(s) generated now, "
                   f"{calls}; {len(result.agents)} agent(s) scored; {folder}/report.html, report.json, funnel.csv "
                   f"({seconds:.1f} s)")
        return
    typer.echo(
        f"study {study.name!r}: {result.generated} agent(s) generated now, {calls}; {played.played} match(es) "
        f"played now, {played.skipped} stored already; {folder}/report.html, report.json, funnel.csv "
        f"({seconds:.1f} s)"
    )


def register(app: typer.Typer) -> None:
    """Add ``apdp study`` to the CLI."""
    app.add_typer(study_app, name="study")
