"""The progress bars' ETA column (rich): the run's own pace, as :mod:`apdp.tournament.progress_lines`
works it out, for the tournament's bar and the analysis's. Apart from the plain lines so that a run
off a terminal never loads rich."""

from __future__ import annotations

from rich.progress import ProgressColumn, Task
from rich.text import Text

from apdp.tournament.progress_lines import clock_text, eta_seconds


class EtaColumn(ProgressColumn):
    """The progress bar's ETA: :func:`eta_seconds` of the task (its ``resumed`` field holds the
    matches already stored when the run started, which this run did not play)."""

    def render(self, task: Task) -> Text:
        played = int(task.completed) - int(task.fields.get("resumed", 0))
        left = int((task.total or 0) - task.completed)
        return Text(clock_text(eta_seconds(played, task.elapsed or 0.0, left)), style="progress.remaining")
