"""``apdp report``: the study's tables over any number of tournament results folders."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tournament.report import FORMATS, report


def report_command(
    folders: Annotated[list[Path], typer.Argument(help="Results folders of `apdp tournament`.")],
    format: Annotated[
        str, typer.Option("--format", "-f", help=f"Output format: {', '.join(FORMATS)}.")
    ] = "table",
    group_by: Annotated[
        str | None,
        typer.Option(help="Also pool agents by origin: model, strategy or provenance (both)."),
    ] = None,
) -> None:
    """Standings with ratings, pairwise grid, pairings by side, faults and profits, pooled."""
    typer.echo(report(folders, format.lower(), group_by.lower() if group_by else None))


def register(app: typer.Typer) -> None:
    """Add ``apdp report`` to the CLI."""
    app.command("report")(report_command)
