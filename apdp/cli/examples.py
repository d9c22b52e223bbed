"""The examples at the end of each command's ``--help``: one or two command lines a user can copy.

Kept in one table so that they read alike; :func:`add_examples` puts them under every registered
command (and the test suite checks that no command is left without one).
"""

from __future__ import annotations

import typer

#: Command path (``"codegen prompt"``) -> example command lines.
EXAMPLES: dict[str, tuple[str, ...]] = {
    "new": ("apdp new me                      # agents/me.py, from the template",),
    "match": (
        "apdp match --topology france --agents me template",
        "apdp match --agents me honest --seed 3 --record me.json --show-output",
    ),
    "verify": ("apdp verify me.json",),
    "replay": (
        "apdp replay me.json --out me.html",
        "apdp replay results/2024-05-01_142501 --match KEY --out match.html",
    ),
    "plan": (
        "apdp plan instance.json --time-limit 10",
        "apdp plan instance.json --backend ortools --json",
    ),
    "tournament": (
        "apdp tournament --topology france --agents me,naive,honest",
        "apdp tournament --topology all --repeat 3 --jobs 2 --out results/study",
    ),
    "tournament-secret": ("apdp tournament-secret results/study",),
    "tournament-repair": ("apdp tournament-repair results/study",),
    "report": (
        "apdp report results/* --format markdown",
        "apdp report results/study --group-by model,strategy",
        "apdp report results/study --analysis --format html --out report.html",
    ),
    "analyze": (
        "apdp analyze results/study",
        "apdp analyze results/study --format json --out analysis.json --jobs 4",
    ),
    "codegen": (
        "apdp codegen prompt --strategy a1 --out prompt.md",
        "apdp codegen ingest reply.md --name gpt-a1 --model gpt-x --strategy a1",
    ),
    "codegen prompt": ("apdp codegen prompt --strategy a1 --out prompt.md",),
    "codegen ingest": ("apdp codegen ingest reply.md --name gpt-a1 --model gpt-x --strategy a1",),
    "codegen check": ("apdp codegen check gpt-a1",),
    "codegen run": (
        "apdp codegen run --model M --base-url URL --strategy a1 --rounds 3 --name gen-a1",
        "apdp codegen run --model M --base-url URL --strategy improve --parent winner --name winner-2",
    ),
    "codegen evolve": (
        "apdp codegen evolve --model M --base-url URL --name evo --rounds 5 --field naive,honest",
        "apdp codegen evolve --model M --base-url URL --name evo --rounds 3 --start me   # self-play",
    ),
    "study": ("apdp study run pilot.toml --out studies/pilot",),
    "study run": (
        "apdp study run pilot.toml --out studies/pilot",
        "apdp study run pilot.toml --out studies/pilot --max-calls 20   # spend at most 20 calls now",
    ),
    "logist": (
        "apdp logist add ~/logist/src template.AuctionTemplate",
        "apdp logist import ~/logist-project",
    ),
    "logist add": ("apdp logist add ~/logist/src template.AuctionTemplate --name my-template",),
    "logist import": ("apdp logist import ~/logist-project",),
    "sandbox": ("apdp sandbox", "apdp sandbox --strict"),
}


def epilog(lines: tuple[str, ...]) -> str:
    """The ``--help`` epilog for ``lines`` (``\\b`` keeps click from re-wrapping them)."""
    return "Examples:\n\n\b\n" + "\n".join(f"  {line}" for line in lines)


def _name(info: typer.models.CommandInfo) -> str:
    if info.name:
        return info.name
    callback = info.callback
    return getattr(callback, "__name__", "").replace("_", "-")


def add_examples(app: typer.Typer, prefix: str = "") -> None:
    """Give every command of ``app`` (and of its sub-apps) its examples, where it has some."""
    for command in app.registered_commands:
        lines = EXAMPLES.get(prefix + _name(command))
        if lines and not command.epilog:
            command.epilog = epilog(lines)
    for group in app.registered_groups:
        sub = group.typer_instance
        name = group.name or (sub.info.name if sub is not None else None)
        if sub is None or not isinstance(name, str):
            continue
        lines = EXAMPLES.get(prefix + name)
        if lines and not group.epilog:
            group.epilog = epilog(lines)
        add_examples(sub, f"{prefix}{name} ")
