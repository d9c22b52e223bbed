"""``apdp logist``: install agents written for the Java Logist platform (a JDK 17+ is needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from apdp.errors import UserError

logist_app = typer.Typer(
    name="logist",
    help="Install Java agents written for the Logist platform: add one class, or import a project.",
    no_args_is_help=True,
)

AgentsDir = Annotated[Path, typer.Option("--agents-dir", help="Folder the agent is installed in.", file_okay=False)]
Replace = Annotated[bool, typer.Option("--replace", help="Replace an agent of the same name that apdp installed "
                                       "from elsewhere (the same source again needs no --replace).")]


@logist_app.command()
def add(
    source: Annotated[Path, typer.Argument(help="A source root folder, a folder of classes, or a .jar.")],
    class_name: Annotated[str, typer.Argument(metavar="CLASS", help="The AuctionBehavior class, e.g. "
                                              "template.AuctionTemplate (a simple name when unambiguous).")],
    name: Annotated[str | None, typer.Option(help="Agent name (default: the class's, e.g. auction-template).")]
    = None,
    param: Annotated[list[str] | None, typer.Option("--param", help="KEY=VALUE read by readProperty (repeat).")]
    = None,
    agents_dir: AgentsDir = Path("agents"),
    replace: Replace = False,
) -> None:
    """Compile CLASS and what it uses from SOURCE against apdp's Logist API; install it as an agent."""
    from apdp.agents.java.install import add_agent
    from apdp.agents.java.params import parse_param

    params = dict(parse_param(p) for p in param or [])
    agent = add_agent(source, class_name, name=name, agents_dir=agents_dir, params=params or None, replace=replace)
    typer.echo(f"installed {agent.class_name} as {agent.name!r} in {agent.folder}")
    for note in agent.notes:
        typer.echo(f"note: {note}", err=True)
    typer.echo(f"play it with: apdp match --topology france --agents {agent.name} naive")


@logist_app.command("import")
def import_(
    project: Annotated[Path, typer.Argument(help="A Logist project folder (with config/agents.xml).")],
    agents_dir: AgentsDir = Path("agents"),
    prefix: Annotated[str, typer.Option(help="Put this before each agent's name, e.g. alice- (a name taken by "
                                        "another project's agent is refused).")] = "",
    replace: Replace = False,
) -> None:
    """Install every agent of PROJECT's config/agents.xml under its name there, <set> values as parameters."""
    from apdp.agents.java.project import import_project

    result = import_project(project, agents_dir, prefix=prefix, replace=replace)
    for agent in result.installed:
        typer.echo(f"installed {agent.class_name} as {agent.name!r} in {agent.folder}")
        for note in agent.notes:
            typer.echo(f"note: {note}", err=True)
    for name, why in result.skipped:
        typer.echo(f"skipped agent {name!r}: {why}")
    for name, problem in result.failed:
        typer.echo(f"error: agent {name!r} not installed: {problem}", err=True)
    if result.failed:
        raise UserError(f"{len(result.failed)} of {len(result.failed) + len(result.installed)} agents of "
                        f"{project} not installed (see above)")


def register(app: typer.Typer) -> None:
    """Add ``apdp logist`` to the ``apdp`` command."""
    app.add_typer(logist_app, name="logist")
