"""Groups of options that several commands share.

Typer makes one option of each parameter of a command. A group is declared once, as the parameters
of the function that makes what the commands need of them (``apdp match`` and ``apdp tournament``:
a scenario's file and overrides; ``apdp codegen check`` and ``run``: the check's configuration);
:func:`options_of` shows that function's options in place of one parameter of a command and passes
the command what the function made of them.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

Command = TypeVar("Command", bound=Callable[..., Any])


def _evaluated(function: Callable[..., Any], skip: str = "") -> list[inspect.Parameter]:
    """``function``'s parameters, their annotations evaluated in its module (as ``inspect.signature``
    with ``eval_str`` would, but for ``skip``, whose type may be imported only for type checkers)."""
    out = []
    for p in inspect.signature(function).parameters.values():
        if p.name != skip and isinstance(p.annotation, str):
            p = p.replace(annotation=eval(p.annotation, function.__globals__))
        out.append(p)
    return out


def options_of(group: Callable[..., Any], name: str) -> Callable[[Command], Command]:
    """Decorate a command: its parameter ``name`` becomes ``group``'s options and gets what ``group`` makes of them."""

    def decorate(command: Command) -> Command:
        grouped = _evaluated(group)
        parameters: list[inspect.Parameter] = []
        for p in _evaluated(command, skip=name):
            parameters += grouped if p.name == name else [p]
        # typer passes every value by name: keyword-only, the options may stand in any order
        parameters = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in parameters]

        @functools.wraps(command)
        def run(**values: Any) -> Any:
            values[name] = group(**{p.name: values.pop(p.name) for p in grouped})
            return command(**values)

        run.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in parameters}
        return run  # type: ignore[return-value]

    return decorate


#: ``--address``, of the commands whose matches may run on a Ray cluster (``--executor ray``).
ClusterAddress = Annotated[
    str | None,
    typer.Option(help="With --executor ray: the cluster's address, or auto for the one this machine "
                      "joined with `ray start` (default: a new cluster of this machine alone)."),
]
