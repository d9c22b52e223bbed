"""The ``apdp`` command (its app: :mod:`apdp.cli.root`; each subcommand in ``apdp/cli/<name>.py``).

This module stays light: :func:`main` starts what a tournament needs in another process (the
agents' zygote) before it loads the app and its commands, so that both load at once.
"""

from __future__ import annotations

import atexit
import gc
import os
import signal
import sys
import threading
from typing import Any, NoReturn


def __getattr__(name: str) -> Any:
    """``apdp.cli.app``, loaded on first use (importing this package loads no command)."""
    if name == "app":
        from apdp.cli.root import make_app

        app = globals()["app"] = make_app()
        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    # Loading a command makes many long-lived objects and hardly any garbage: the collector would
    # walk them again and again (a tenth of a second of a tournament's start). Off until it is
    # loaded; what it loaded then stays out of the collector's sight (a tournament lets it back
    # once its workers are forked: apdp.tournament.executor.Workers).
    gc.disable()
    try:
        args = spread_multi_values(sys.argv[1:])
        from apdp.sandbox.environment import ONE_THREAD, safe_module_path

        for name, value in ONE_THREAD.items():  # before numpy loads, here and in the processes started here
            os.environ.setdefault(name, value)
        safe_module_path()
        if args[:1] == ["tournament"]:
            from apdp.cli.early import start_early

            start_early(args[1:])  # the agents' zygote loads apdp while this process loads the command
        import typer

        from apdp.cli.root import click_errors, make_app
        from apdp.errors import UserError

        cli = make_app(args[0] if args else None)
        gc.freeze()
    finally:
        gc.enable()
    try:
        code = cli(args=args, prog_name="apdp", standalone_mode=False)
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


def console() -> NoReturn:
    """The installed ``apdp`` command: :func:`main`, then an exit that skips the interpreter's
    teardown once the command's own exit work is done.

    Tearing down an interpreter that loaded numpy, pydantic and the referee (freeing every module
    and object one by one) takes 40-60 ms, a tenth of a short tournament as a user times it. The
    exit handlers still run (logs, stores and worker processes are closed by then), and both standard
    streams are flushed; then the process ends. Left to Python when another thread still runs: its
    normal exit waits for such threads. (:func:`main` itself raises SystemExit, for callers in a
    Python process of their own, such as tests.)
    """
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = _status(exc.code)
    if threading.active_count() > 1:
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe, a closed stream: nothing more can be said there
            code = code or 120  # what Python's own exit returns when it cannot flush
    os._exit(code)


def _status(code: object) -> int:
    """The exit status of ``sys.exit(code)``, as Python's own exit would make it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1
