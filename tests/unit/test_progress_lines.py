"""Progress a user can trust: an ETA from the run's own pace (none before a few matches), and plain
lines off a terminal. Matches end in bursts of ``jobs``, which fooled rich's estimate."""

from __future__ import annotations

import io

from rich.progress import Progress, TimeRemainingColumn

from apdp.tournament.eta_column import EtaColumn
from apdp.tournament.events import failed
from apdp.tournament.progress_lines import ProgressLines
from apdp.tournament.schedule import MatchSpec
from tests.records import typed_record

MATCH = MatchSpec("france", 0, 1, ("a", "b"))
RECORD = typed_record({"result": {"faults": []}})


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def seconds(text: str) -> int:
    h, m, s = (int(x) for x in text.split(":"))
    return 3600 * h + 60 * m + s


def test_the_eta_follows_the_runs_pace_not_the_last_burst() -> None:
    """30 matches, 2 at a time, each pair ending 10 s after the previous one: 150 s in all."""
    clock = Clock()
    ours, richs = EtaColumn(), TimeRemainingColumn()
    progress = Progress(ours, richs, get_time=clock, auto_refresh=False)
    task_id = progress.add_task("", total=30, resumed=0)
    task = progress.tasks[0]
    seen = []
    for pair in range(1, 4):
        for k in range(2):
            clock.now = 10.0 * pair + 0.01 * k
            progress.update(task_id, advance=1)
        truth = (30 - 2 * pair) / 2 * 10
        seen.append((str(ours.render(task)), str(richs.render(task)), truth))
    (ours_1, richs_1, _), (ours_2, richs_2, truth_2), (ours_3, _, truth_3) = seen
    assert ours_1 == "-:--:--"  # 2 matches: too early to say
    assert seconds(richs_1) < 5  # rich's estimate from a burst: wildly off (the true answer is 140 s)
    assert abs(seconds(ours_2) - truth_2) <= 0.05 * truth_2
    assert abs(seconds(ours_3) - truth_3) <= 0.05 * truth_3
    assert seconds(richs_2) < 0.7 * truth_2  # rich's: a third short


def test_the_eta_counts_only_what_this_run_played() -> None:
    clock = Clock()
    column = EtaColumn()
    progress = Progress(column, get_time=clock, auto_refresh=False)
    task_id = progress.add_task("", total=40, completed=30, resumed=30)  # a resume: 30 stored
    for k in range(1, 4):
        clock.now = 5.0 * k
        progress.update(task_id, advance=1)
    assert seconds(str(column.render(progress.tasks[0]))) == 35  # 5 s a match, 7 left


def test_off_a_terminal_a_plain_line_every_few_matches() -> None:
    clock, out = Clock(), io.StringIO()
    lines = ProgressLines(out, clock=clock)
    lines.on_start(total=44, done=4)  # a resume: 40 to play, a line every 2
    for k in range(1, 41):
        clock.now = 3.0 * k
        if k == 7:
            lines.on_match_error(MATCH, failed(MATCH, "its worker process died"))
        else:
            faults = [{"kind": "timeout"}] if k == 9 else []
            lines.on_match_finished(MATCH, typed_record({"result": {"faults": faults}}))
    text = out.getvalue().splitlines()
    assert len(text) == 20
    assert text[0] == "tournament: 6/44 matches (13%), 0 faults, 0:00:06 elapsed, ETA -:--:--"
    assert text[-1].startswith("tournament: 43/44 matches (97%), 1 faults, 1 not played, 0:02:00 elapsed")
    assert text[9] == "tournament: 23/44 matches (52%), 1 faults, 1 not played, 0:01:00 elapsed, ETA 0:01:03"


def test_nothing_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Terminal()
    lines = ProgressLines(out)
    lines.on_start(total=2, done=0)
    lines.on_match_finished(MATCH, RECORD)
    lines.on_match_finished(MATCH, RECORD)
    assert out.getvalue() == ""


def test_a_finished_run_has_nothing_left_not_an_unknown_eta() -> None:
    """Two matches (fewer than an ETA needs): the last line reads 100% and ETA 0:00:00."""
    clock = Clock()
    out = io.StringIO()
    lines = ProgressLines(out, every=1, clock=clock)
    lines.on_start(2, 0)
    for _ in range(2):
        clock.now += 5
        lines.on_match_finished(MATCH, RECORD)
    last = out.getvalue().splitlines()[-1]
    assert "2/2 matches (100%)" in last and last.endswith("ETA 0:00:00"), last
