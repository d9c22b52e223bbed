"""Live standings under the progress bar: drawn on a terminal only, counting resumed matches too."""

from __future__ import annotations

import io
import re

from rich.console import Console

from apdp.tournament.progress import ProgressBar
from apdp.tournament.schedule import MatchSpec
from apdp.tournament.standings import Standings
from apdp.tournament.store import StoredMatch
from tests.records import typed_record

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def finished(bar: ProgressBar, agents: tuple[str, str], winner: int | None, faulty: tuple[int, ...] = ()) -> None:
    record = typed_record({"result": {"winner": winner, "faults": [{"agent": a, "kind": "timeout"} for a in faulty]}})
    spec = MatchSpec("france", 1, 2, agents)
    bar.on_match_finished(spec, record)
    if faulty:
        bar.on_match_faulted(spec, record)


def test_standings_drawn_under_the_bar_on_a_terminal() -> None:
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=100, height=30)
    resumed = StoredMatch("k", "france", 1, 2, ("ann", "bob"), (10.0, 5.0), "ann", ())
    bar = ProgressBar(console=console, agents=["ann", "bob", "cy"], stored=lambda: [resumed])
    bar.on_start(6, 1)
    finished(bar, ("bob", "cy"), 0)
    finished(bar, ("cy", "ann"), 1, faulty=(0,))
    finished(bar, ("ann", "cy"), None)
    bar.on_end(False)
    text = ANSI.sub("", screen.getvalue())
    last = text[text.rindex("standings so far"):]
    rows = {line.split()[1]: line.split()[2:] for line in last.splitlines()[2:] if line.strip()}
    # played, W, D, L, win rate, faults
    assert rows["ann"] == ["3", "2", "1", "0", "0.667", "-"]
    assert rows["bob"] == ["2", "1", "0", "1", "0.500", "-"]
    assert rows["cy"] == ["3", "0", "1", "2", "0.000", "1"]
    assert "4/6" in text


def test_nothing_drawn_off_a_terminal() -> None:
    screen = io.StringIO()
    bar = ProgressBar(console=Console(file=screen, force_terminal=False), agents=["ann", "bob"],
                      stored=lambda: (_ for _ in ()).throw(AssertionError("not read off a terminal")))
    bar.on_start(2, 0)
    finished(bar, ("ann", "bob"), 0)
    bar.on_end(False)
    assert screen.getvalue() == ""


def test_a_long_field_is_cut_to_the_screen() -> None:
    standings = Standings([f"agent{k:02d}" for k in range(57)])
    screen = io.StringIO()
    Console(file=screen, width=100).print(standings.table(max_rows=10))
    lines = screen.getvalue().splitlines()
    assert len(lines) == 2 + 10 and "... 48 more" in lines[-1]
