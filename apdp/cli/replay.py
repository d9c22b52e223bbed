"""``apdp replay``: the HTML replay of a match, from a record file or a results folder."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Annotated

import typer

from apdp.errors import UserError
from apdp.files import check_writable


def stored_ids(folder: Path) -> list[str]:
    """The match ids of the results folder ``folder`` (UserError if its store is damaged)."""
    from apdp.tournament.store import ResultsStore

    store = ResultsStore.open(folder)
    try:
        return [m.match_id for m in store.matches()]
    finally:
        store.close()


def stored_record(folder: Path, key: str) -> dict[str, object]:
    """The record of match ``key`` in the results folder ``folder`` (UserError if it has none)."""
    from apdp.tournament.store import ResultsStore

    store = ResultsStore.open(folder)
    try:
        record = store.record(key)
        ids = [] if record is not None else [m.match_id for m in store.matches()]
    finally:
        store.close()
    if record is None:
        raise UserError(f"{folder}: no match {key!r} (match ids are topology/seed/agent/agent); {known_ids(ids, key)}")
    return record


#: Match ids a wrong ``--match`` lists at most.
SHOWN_IDS = 12


def known_ids(ids: list[str], key: str) -> str:
    """The ids a results folder has, the nearest to ``key`` first, at most SHOWN_IDS of them."""
    if not ids:
        return "the folder holds no match"
    near = difflib.get_close_matches(key, ids, n=SHOWN_IDS, cutoff=0.5)
    shown = near + [i for i in ids if i not in near][: SHOWN_IDS - len(near)]
    more = f" and {len(ids) - len(shown)} more" if len(ids) > len(shown) else ""
    return f"it holds {len(ids)}: {', '.join(shown)}{more}"


def replay(
    record: Annotated[Path, typer.Argument(help="A match record (apdp match --record) or a results folder.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The HTML file to write.")],
    match: Annotated[
        str | None, typer.Option(help="In a results folder: the match's id (topology/seed/agent/agent).")
    ] = None,
) -> None:
    """Write a self-contained HTML replay of a match: map, auction, plans step by step, result."""
    from apdp.pages.replay import replay_file, write_replay

    check_writable(out)
    from apdp.cli.exercise import read_json, replay_exercise_file
    from apdp.referee.exercise_record import is_exercise_record

    exercise_data = None if record.is_dir() else read_json(record)
    if is_exercise_record(exercise_data):
        replay_exercise_file(record, exercise_data, out)
        typer.echo(f"replay written to {out}")
        return
    if record.is_dir():
        if match is None:
            from apdp.tournament.store import STORE_FILE

            held = f"; {known_ids(stored_ids(record), '')}" if (record / STORE_FILE).is_file() else ""
            raise UserError(f"{record} is a folder: to replay a match of a results folder add --match KEY{held}")
        size = write_replay(stored_record(record, match), out, source=f"{record} {match}")
    else:
        if match is not None:
            raise UserError("--match is for a results folder; a record file holds one match")
        size = replay_file(record, out)
    typer.echo(f"replay written to {out} ({size / 1024:,.0f} KiB)")


def register(app: typer.Typer) -> None:
    """Add ``apdp replay``."""
    app.command("replay")(replay)
