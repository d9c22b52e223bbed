"""What ``apdp verify`` says of a record: valid, or each of its problems."""

from __future__ import annotations

from pathlib import Path

import typer


def say_verdict(file: Path, problems: list[str], summary: str) -> None:
    """Say that the record ``file`` is valid (``summary``: what it holds), or list its problems and exit 1."""
    if not problems:
        typer.echo(f"{file}: valid ({summary})")
        return
    typer.echo(f"{file}: {len(problems)} problem(s)")
    for problem in problems:
        typer.echo(f"- {problem}")
    raise typer.Exit(1)
