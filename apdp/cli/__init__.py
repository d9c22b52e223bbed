"""The ``apdp`` command. Each subcommand lives in ``apdp/cli/<name>.py`` with a ``register(app)``."""

from __future__ import annotations

import importlib
import importlib.util
import signal
import sys
from typing import Annotated, NoReturn

import typer

try:  # typer >= 0.29 carries its own copy of click
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - older typer on top of click
    from click import exceptions as click_errors  # type: ignore[no-redef,import-not-found,unused-ignore]

from apdp.cli.examples import add_examples
from apdp.errors import UserError

#: Subcommand modules, in the order ``apdp --help`` lists them.
COMMAND_MODULES = (
    "new", "match", "verify", "replay", "plan", "tournament", "report", "analyze", "codegen", "study", "logist",
    "sandbox",
)

app = typer.Typer(
    name="apdp",
    help="Auction, Pickup and Delivery Problem: matches, tournaments, planning and agent generation.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # click's plain help: flags show as flags (typer's rich panels print `--json <bool>`)
    context_settings={"help_option_names": ["-h", "--help"]},
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


@app.callback()
def _root(
    _version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print apdp's version and exit."),
    ] = False,
) -> None:
    """Auction, Pickup and Delivery Problem: matches, tournaments, planning and agent generation."""


for _name in COMMAND_MODULES:
    _module = f"apdp.cli.{_name}"
    if importlib.util.find_spec(_module) is not None:
        importlib.import_module(_module).register(app)
add_examples(app)


def spread_multi_values(argv: list[str], options: tuple[str, ...] = ("--agents", "-a")) -> list[str]:
    """Let ``--agents a b c`` mean ``--agents a --agents b --agents c`` (click takes one per flag)."""
    out: list[str] = []
    option: str | None = None  # the option whose values are being read
    given = False  # whether that option got a value yet
    for arg in argv:
        if arg in options:
            option, given = arg, False
            continue
        if option is not None and not arg.startswith("-"):
            out += [option, arg]
            given = True
            continue
        if option is not None and not given:
            out.append(option)  # a bare --agents: let click report the missing value
        option = None
        out.append(arg)
    if option is not None and not given:
        out.append(option)
    return out


def _exit(code: int) -> NoReturn:
    """Exit with ``code``. The command's work is over: a Ctrl-C from now on is ignored, for it
    could only interrupt Python's own shutdown (which, once begun, would die of it silently)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(code)


def main() -> None:
    """Entry point: a user's mistake prints one line and exits 2, never a traceback."""
    args = spread_multi_values(sys.argv[1:])
    if args[:1] == ["tournament"]:
        from apdp.cli.tournament import start_early

        start_early(args[1:])  # its workers' fork server loads the referee while the options are read
    try:
        code = app(args=args, prog_name="apdp", standalone_mode=False)
    except click_errors.NoArgsIsHelpError as exc:
        print(exc.ctx.get_help() if exc.ctx else str(exc))
        _exit(0)
    except click_errors.ClickException as exc:  # a bad command line: one line, and where to look
        command = exc.ctx.command_path if isinstance(exc, click_errors.UsageError) and exc.ctx else "apdp"
        print(f"error: {exc.format_message()} (see {command} --help)", file=sys.stderr)
        _exit(2)
    except typer.Abort:
        print("interrupted", file=sys.stderr)
        _exit(130)
    except UserError as exc:  # its text may hold a file's name or an endpoint's words: no controls shown raw
        from apdp.text import clean_text

        print(f"error: {clean_text(exc)}", file=sys.stderr)
        _exit(2)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        _exit(130)
    if code == 130:  # typer turns Ctrl-C into exit code 130
        print("interrupted", file=sys.stderr)
    _exit(code if isinstance(code, int) else 0)
