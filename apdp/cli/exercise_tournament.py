"""``apdp tournament --exercise E``: every agent plays the exercise alone on each network and seed,
scored against the references, the table ranked by the exercise's score
(:mod:`apdp.tournament.exercise_field`); resumable in its results folder."""

from __future__ import annotations

from pathlib import Path

import typer

from apdp.errors import UserError
from apdp.lookup import searched_first


def exercise_tournament(exercise: str, topology: str | None, agents: list[str] | None, seed: int | None,
                        repeat: int, folder: Path, agents_dir: Path | None, quiet: bool,
                        jobs: int = 1) -> None:
    """Play and rank the field, ``jobs`` rounds at once; see the module docstring."""
    from apdp.check.exercise_check import COURSE_NETWORK, checked_exercise
    from apdp.tournament.exercise_field import FieldSpec, run_field
    from apdp.tournament.exercise_table import ranking_text, summary_rows

    kind = checked_exercise(exercise.lower())
    if not agents:
        raise UserError(f"--exercise {kind}: name the agents with --agents a,b (e.g. apdp new me --exercise {kind})")
    if repeat < 1:
        raise UserError(f"--repeat must be >= 1, got {repeat}")
    if repeat > 1 and seed is None:
        raise UserError("--repeat with --exercise needs --seed: the seeds SEED, SEED+1, ... replace the course's")
    networks = (COURSE_NETWORK[kind],) if topology is None else tuple(
        n.strip() for n in topology.split(",") if n.strip())
    if topology is not None and topology.strip().lower() == "all":
        networks = ("switzerland", "france", "england", "netherlands")
    seeds = (None,) if seed is None else tuple(range(seed, seed + repeat))
    if not quiet:
        typer.echo(f"results in {folder}\n  (rerun with --out {folder} to resume)", err=True)
    say = (lambda _line: None) if quiet else (lambda line: typer.echo(line, err=True))
    with searched_first("APDP_AGENTS", agents_dir):
        entries = run_field(FieldSpec(kind, networks, seeds), agents, folder, say, jobs)
    typer.echo(ranking_text(kind, summary_rows(kind, entries)))
