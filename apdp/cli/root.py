"""The ``apdp`` command's typer app: each subcommand lives in ``apdp/cli/<name>.py`` with a
``register(app)``, and is registered here."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Annotated

import typer

try:  # typer >= 0.29 carries its own copy of click
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - older typer on top of click
    from click import exceptions as click_errors  # type: ignore[no-redef,import-not-found,unused-ignore]

from apdp.cli.examples import add_examples

__all__ = ["click_errors", "make_app", "version"]

#: Subcommand modules, in the order ``apdp --help`` lists them.
COMMAND_MODULES = (
    "new", "match", "verify", "replay", "plan", "tournament", "report", "analyze", "codegen", "study", "logist",
    "sandbox",
)

def version() -> str:
    """apdp's installed version."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("apdp")
    except PackageNotFoundError:  # run from a tree that was never installed
        return "unknown"


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"apdp {version()}")
        raise typer.Exit()


def _root(
    _version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print apdp's version and exit."),
    ] = False,
) -> None:
    """Auction, Pickup and Delivery Problem: matches, tournaments, planning and agent generation."""


def _commands(app: typer.Typer) -> set[str]:
    names = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    return names | {g.name or "" for g in app.registered_groups}


def make_app(command: str | None = None) -> typer.Typer:
    """The ``apdp`` app with every command, or, given the ``command`` a command line starts with,
    with that command's module alone when it has it (a command then loads none of the others')."""
    app = typer.Typer(
        name="apdp",
        help="Auction, Pickup and Delivery Problem: matches, tournaments, planning and agent generation.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,  # click's plain help: flags show as flags (typer's panels print `--json <bool>`)
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(_root)
    owner = None if command is None else command.split("-")[0]
    if owner in COMMAND_MODULES:
        importlib.import_module(f"apdp.cli.{owner}").register(app)
        if command in _commands(app):
            add_examples(app)
            return app
        app.registered_commands.clear()
        app.registered_groups.clear()
    for name in COMMAND_MODULES:
        module = f"apdp.cli.{name}"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module).register(app)
    add_examples(app)
    return app
