"""The ``apdp`` command. Each subcommand lives in ``apdp/commands/<name>.py`` with a ``register(app)``."""

from __future__ import annotations

import importlib
import importlib.util
import sys

import typer

from apdp.errors import UserError

#: Subcommand modules, in the order ``apdp --help`` lists them.
COMMAND_MODULES = ("match", "verify", "plan", "tournament", "report", "codegen")

app = typer.Typer(
    name="apdp",
    help="Auction, Pickup and Delivery Problem: matches, tournaments, planning and agent generation.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Auction, Pickup and Delivery Problem: matches, tournaments, planning and agent generation."""


for _name in COMMAND_MODULES:
    _module = f"apdp.commands.{_name}"
    if importlib.util.find_spec(_module) is not None:
        importlib.import_module(_module).register(app)


def spread_multi_values(argv: list[str], options: tuple[str, ...] = ("--agents", "-a")) -> list[str]:
    """Let ``--agents a b c`` mean ``--agents a --agents b --agents c`` (click takes one per flag)."""
    out: list[str] = []
    option: str | None = None
    for arg in argv:
        if arg in options:
            option = arg
            continue
        if option is not None and not arg.startswith("-"):
            out += [option, arg]
            continue
        if option is not None and arg.startswith("-") and out[-2:-1] != [option]:
            out.append(option)  # a bare --agents: let click report the missing value
        option = None
        out.append(arg)
    if option is not None and out[-2:-1] != [option]:
        out.append(option)
    return out


def main() -> None:
    """Entry point: a user's mistake prints one line and exits 2, never a traceback."""
    try:
        app(args=spread_multi_values(sys.argv[1:]), prog_name="apdp")
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
