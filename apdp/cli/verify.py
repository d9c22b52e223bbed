"""``apdp verify``: re-check a match record from its own content."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def verify(
    file: Annotated[Path, typer.Argument(help="A match record (JSON) written by apdp match --record (an "
                                              "exercise's too).")],
) -> None:
    """Check every rule and figure of a record. Exit 0 valid, 1 invalid, 2 unreadable."""
    from apdp.check.verify import UnreadableRecord, read_record, verify_record
    from apdp.cli.exercise import read_json, verify_exercise_file
    from apdp.cli.verdict import say_verdict
    from apdp.referee.exercise_record import is_exercise_record

    exercise_data = read_json(file)
    if is_exercise_record(exercise_data):
        verify_exercise_file(file, exercise_data)
        return
    try:
        data = read_record(file)
    except UnreadableRecord as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    say_verdict(file, verify_record(data), f"{len(data['tasks'])} tasks, {len(data['agents'])} agents")


def register(app: typer.Typer) -> None:
    """Add ``apdp verify``."""
    app.command("verify")(verify)
