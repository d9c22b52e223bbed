"""``apdp analyze``: why an agent wins, its bidding apart from its planning (:mod:`apdp.analysis`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from apdp.errors import UserError
from apdp.files import write_atomically

#: The output formats of ``apdp analyze``.
ANALYZE_FORMATS = ("table", "json")


def analyze_command(
    folders: Annotated[list[Path], typer.Argument(
        help="Results folders of `apdp tournament`, or a study's folder (its results/).")],
    format: Annotated[str, typer.Option("--format", "-f", help="Output format: table or json.")] = "table",
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="Matches analysed at once (default: one per core).")
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the analysis to this file.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress on stderr.")] = False,
) -> None:
    """Planning gap, markups, money left on the table and matches lost on planning, per agent."""
    fmt = format.lower()
    if fmt not in ANALYZE_FORMATS:
        raise UserError(f"unknown format {format!r}; choose one of: {', '.join(ANALYZE_FORMATS)}")
    if jobs is not None and jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}")
    from apdp.analysis.run import analyse  # here: --help stays quick
    from apdp.analysis.summary import to_json, to_text
    from apdp.cli.report import results_folders
    from apdp.cli.tournament import default_jobs

    analysis = analyse(results_folders(folders), jobs=jobs or default_jobs(), progress=not quiet)
    text = json.dumps(to_json(analysis), indent=2) if fmt == "json" else to_text(analysis)
    if out is None:
        typer.echo(text)
    else:
        write_atomically(out, text + "\n")
        typer.echo(f"analysis written to {out}")


def register(app: typer.Typer) -> None:
    """Add ``apdp analyze`` to the CLI."""
    app.command("analyze")(analyze_command)
