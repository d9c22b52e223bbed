"""``apdp new NAME``: start an agent from the course's template, in a clone or outside one."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

from apdp.agents.discovery import AgentNotFound, find_agent
from apdp.bundled import BUNDLED_TEMPLATE
from apdp.codegen.ingest import agent_path
from apdp.errors import UserError
from apdp.files import write_atomically

_TEMPLATE_CLASS = "class Template(Agent):"


def class_name(name: str) -> str:
    """The agent's class name from its file name: ``my-agent`` -> ``MyAgent``."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[-_]+", name) if part)


def agent_from_template(name: str) -> str:
    """The template agent's source with its class renamed for agent ``name``."""
    try:
        source = BUNDLED_TEMPLATE.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot read the template agent {BUNDLED_TEMPLATE} ({exc.strerror}); reinstall apdp") from None
    return source.replace(_TEMPLATE_CLASS, f"class {class_name(name)}(Agent):", 1)


def new(
    name: Annotated[str, typer.Argument(help="Your agent's name: a letter, then letters, digits, '-' or '_'.")],
    agents_dir: Annotated[
        Path, typer.Option("--agents-dir", help="Folder of your agents.", file_okay=False)
    ] = Path("agents"),
    exercise: Annotated[
        str | None, typer.Option(help="Start from the template of the course's reactive, deliberative or "
                                      "centralized exercise instead of the auction's.")
    ] = None,
) -> None:
    """Write agents/NAME.py from the course's template agent, ready to edit and play."""
    path = agent_path(name, agents_dir)
    if path.exists():
        raise UserError(f"{path} already exists; choose another name, or remove it first")
    try:
        other = find_agent(name)
    except AgentNotFound:
        pass
    else:
        raise UserError(f"an agent named {name!r} already exists ({other.path}); choose another name")
    agents_dir.mkdir(parents=True, exist_ok=True)
    if exercise is not None:
        from apdp.cli.exercise import exercise_template

        source, template_class = exercise_template(exercise)
        base = template_class.removesuffix("Template") + "Agent"
        renamed = source.replace(f"class {template_class}({base}):", f"class {class_name(name)}({base}):", 1)
        write_atomically(path, renamed)
        where = "" if agents_dir == Path("agents") else f" --agents-dir {agents_dir}"
        typer.echo(f"wrote {path} (class {class_name(name)}, the {exercise} exercise's template); play it with")
        typer.echo(f"  apdp match --exercise {exercise} --agents {name}{where}")
        return
    write_atomically(path, agent_from_template(name))
    typer.echo(f"wrote {path} (class {class_name(name)}): fill in bid() and plan(), then play it with")
    where = "" if agents_dir == Path("agents") else f" --agents-dir {agents_dir}"
    typer.echo(f"  apdp match --topology france --agents {name} template{where}")


def register(app: typer.Typer) -> None:
    """Add ``apdp new``."""
    app.command("new")(new)
