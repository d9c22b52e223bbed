"""What a tournament starts before the command is even loaded: the agents' zygote (and, for a
command that runs threads, its workers' fork server), each a fresh interpreter that loads its part
of apdp while this one loads the command. Light to import on purpose: :func:`apdp.cli.main` calls
it first thing."""

from __future__ import annotations


def start_early(args: list[str]) -> None:
    """Start a tournament's zygote before the command line is even parsed, unless the arguments
    ask for Ray or for help (a bad command line just leaves it unused). Its workers need no fork
    server: they are forked from this process, which starts no thread before them."""
    if any(a in ("--executor", "-h", "--help") or a.startswith("--executor=") for a in args):
        return
    start_zygote()


def start_zygote() -> None:
    """Start this run's zygote (it loads apdp for the agents, and the workers fork theirs from it),
    unless it runs already."""
    from apdp.sandbox.zygote_link import Zygote

    Zygote.get()


def start_local_executor() -> None:
    """Start the fork server (it loads the referee for the workers of a command that runs threads
    of its own) and the run's zygote (it loads apdp for the agents, and the workers fork theirs
    from it) while this process reads the options."""
    from apdp.tournament.executor import start_fork_server

    start_fork_server()
    start_zygote()
