"""``apdp report``: the study's tables over any number of tournament results folders."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tournament.report import FORMATS, build, check_options, render, report
from tournament.tidy import TABLES


def report_command(
    folders: Annotated[list[Path], typer.Argument(help="Results folders of `apdp tournament`.")],
    format: Annotated[
        str, typer.Option("--format", "-f", help=f"Output format: {', '.join(FORMATS)}.")
    ] = "table",
    group_by: Annotated[
        str | None,
        typer.Option(help="Also pool agents by origin: model, strategy or provenance (both)."),
    ] = None,
    table: Annotated[
        str | None,
        typer.Option(help=f"csv: the one table to write: {', '.join(TABLES)} (default standings)."),
    ] = None,
    mixed: Annotated[
        bool,
        typer.Option(help="Pool tournaments even when their agents, networks or task counts differ."),
    ] = False,
) -> None:
    """Standings with ratings, pairwise grid, pairings by side, faults and profits, pooled."""
    fmt = format.lower()
    grouping = group_by.lower() if group_by else None
    if fmt == "csv":  # a table alone, its notes on stderr
        check_options(fmt, grouping, table)
        stats, pooled, context = build(folders, grouping, mixed=mixed)
        text = render(stats, pooled, fmt, grouping, context, table)
        for note in context.notes:
            typer.echo(f"note: {note}", err=True)
    else:
        text = report(folders, fmt, grouping, mixed=mixed, table=table)
    typer.echo(text)


def register(app: typer.Typer) -> None:
    """Add ``apdp report`` to the CLI."""
    app.command("report")(report_command)
