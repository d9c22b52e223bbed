"""``apdp sandbox``: the protections in force on this machine, each checked by trying it."""

from __future__ import annotations

from typing import Annotated

import typer


def sandbox(
    strict: Annotated[bool, typer.Option("--strict", help="Exit with status 1 if any protection is off.")] = False,
) -> None:
    """Confine a process as an agent's would be, try every attack the sandbox must refuse, and say
    which protections are on, off (the machine lacks the mechanism) or FAILED (a bug: report it).

    Example: apdp sandbox --strict
    """
    from tabulate import tabulate

    from apdp.sandbox.protections import check

    results = check()
    rows = [(p.refuses, p.mechanism, p.status, p.detail) for p in results]
    typer.echo(tabulate(rows, headers=["an agent cannot", "by", "status", "check"]))
    failed = [p for p in results if p.status == "FAILED"]
    off = [p for p in results if p.status == "off"]
    typer.echo(f"\n{len(results) - len(failed) - len(off)} on, {len(off)} off, {len(failed)} failed")
    if failed or (strict and off):
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add ``apdp sandbox``."""
    app.command("sandbox")(sandbox)
