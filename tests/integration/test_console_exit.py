"""The installed ``apdp`` entry point ends its process without tearing the interpreter down: what a
normal exit would do for the user must still happen (exit status, exit handlers, every byte written,
threads still running waited for)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.integration


def console_with(main_body: str) -> subprocess.CompletedProcess[str]:
    """Run ``apdp.cli.console`` in a fresh interpreter, its ``main`` replaced by ``main_body``."""
    script = textwrap.dedent("""
        import atexit, sys, threading, time
        import apdp.cli as cli

        def main():
        {body}

        cli.main = main
        cli.console()
        """).format(body=textwrap.indent(textwrap.dedent(main_body), "    "))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # buffered, as a user's shell has it
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=env)


@pytest.mark.parametrize(("ending", "status", "stderr"), [
    ("pass", 0, ""),
    ("sys.exit(0)", 0, ""),
    ("sys.exit(None)", 0, ""),
    ("sys.exit(2)", 2, ""),
    ("sys.exit(130)", 130, ""),
    ("sys.exit('error: a message')", 1, "error: a message\n"),
])
def test_exit_status_as_python_would_give_it(ending: str, status: int, stderr: str) -> None:
    run = console_with(ending)
    assert (run.returncode, run.stderr) == (status, stderr)


def test_everything_written_reaches_a_pipe_and_exit_handlers_run() -> None:
    # stdout to a pipe is block-buffered: lines still in the buffer at exit must be flushed
    run = console_with("""
        atexit.register(lambda: print("exit handler ran", file=sys.stderr))
        for n in range(20000):
            print(f"line {n}")
        sys.stdout.write("no newline at the end")
        sys.exit(3)
    """)
    lines = run.stdout.split("\n")
    assert run.returncode == 3
    assert lines[:-1] == [f"line {n}" for n in range(20000)]
    assert lines[-1] == "no newline at the end"
    assert run.stderr == "exit handler ran\n"


def test_a_thread_still_running_is_waited_for() -> None:
    run = console_with("""
        threading.Thread(target=lambda: (time.sleep(0.5), print("thread done", flush=True))).start()
        sys.exit(4)
    """)
    assert (run.returncode, run.stdout) == (4, "thread done\n")


def test_the_installed_script_is_the_console_entry_point() -> None:
    from importlib.metadata import entry_points

    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "apdp"]
    assert script.value == "apdp.cli:console"
