"""The analysis of results stores: every finished match read once, analysed on ``jobs`` cores.

The stores are pooled as the reports pool them (:func:`apdp.tournament.pool.load_pool`: a copy of a
tournament counts once; tournaments of other fields may be pooled, for every figure is a match's
own). Matches are analysed in worker processes, at most a few records in flight per worker, and
their figures put back in match id order, so that the result is the same for any ``jobs``. A run
of a few seconds or more shows its progress: a bar on a terminal, a plain line now and then
otherwise (as ``apdp tournament`` does).
"""

from __future__ import annotations

import math
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from apdp.analysis.figures import MatchAnalysis, analyse_record
from apdp.analysis.summary import Analysis, summarise
from apdp.errors import UserError
from apdp.tournament.eta_column import EtaColumn
from apdp.tournament.pool import load_pool
from apdp.tournament.progress_lines import LINES, clock_text, eta_seconds
from apdp.tournament.stats import PooledMatch
from apdp.tournament.store import ResultsStore

#: Records in flight per worker process.
IN_FLIGHT = 4
#: Seconds an analysis runs before, off a terminal, it prints where it is.
QUIET_FOR = 3.0


class AnalysisProgress:
    """Matches analysed of all: rich's bar on a terminal, else a plain line every few matches once
    the run has taken :data:`QUIET_FOR` seconds, on ``stream`` (stderr); nothing unless ``enabled``."""

    def __init__(self, total: int, enabled: bool = True, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        console = Console(file=self.stream)
        self.total = total
        self.done = 0
        self.started = time.monotonic()
        self.every = max(1, math.ceil(total / LINES))
        self.lines = enabled and not console.is_terminal
        self.bar: Progress | None = None
        if enabled and console.is_terminal and total:
            self.bar = Progress(TextColumn("[bold]analysis"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                TextColumn("ETA"), EtaColumn(), console=console, transient=True)
            self.task = self.bar.add_task("", total=total, resumed=0)
            self.bar.start()

    def advance(self) -> None:
        """One more match analysed."""
        self.done += 1
        if self.bar is not None:
            self.bar.update(self.task, advance=1)
        elif self.lines and (self.done % self.every == 0 or self.done == self.total):
            elapsed = time.monotonic() - self.started
            if elapsed < QUIET_FOR:
                return
            eta = clock_text(eta_seconds(self.done, elapsed, self.total - self.done))
            self.stream.write(f"analysis: {self.done}/{self.total} matches, {clock_text(elapsed)} elapsed, ETA {eta}\n")
            self.stream.flush()

    def close(self) -> None:
        """Take the bar off the screen."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def _analyse(match_id: str, record: dict[str, Any]) -> MatchAnalysis:
    """A worker's job (a module-level function: it is pickled by name)."""
    return analyse_record(record, match_id)


def _records(pooled: Sequence[PooledMatch]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(match id, record) of every pooled match, in order, each store opened once."""
    stores: dict[str, ResultsStore] = {}
    try:
        for p in pooled:
            folder = p.tournament[0]
            store = stores.get(folder)
            if store is None:
                store = stores[folder] = ResultsStore.open(folder)
            record = store.record(p.match.match_id)
            if record is None:
                raise UserError(f"{folder}: match {p.match.match_id} is gone from the store; run the analysis again")
            yield p.match.match_id, record
    finally:
        for store in stores.values():
            store.close()


def analyse_matches(
    records: Iterator[tuple[str, dict[str, Any]]], jobs: int = 1, advance: Callable[[], None] = lambda: None
) -> list[MatchAnalysis]:
    """The figures of every (match id, record), in the order given; on ``jobs`` worker processes
    (1: in this process). ``advance`` is called as each match is done."""
    if jobs <= 1:
        out = []
        for match_id, record in records:
            out.append(_analyse(match_id, record))
            advance()
        return out
    found: dict[int, MatchAnalysis] = {}
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        running: dict[Future[MatchAnalysis], int] = {}
        try:
            for index, (match_id, record) in enumerate(records):
                running[pool.submit(_analyse, match_id, record)] = index
                while len(running) >= jobs * IN_FLIGHT:
                    _collect(running, found, advance)
            while running:
                _collect(running, found, advance)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return [found[k] for k in range(len(found))]


def _collect(running: dict[Future[MatchAnalysis], int], found: dict[int, MatchAnalysis],
             advance: Callable[[], None]) -> None:
    finished, _ = wait(running, return_when=FIRST_COMPLETED)
    for future in finished:
        found[running.pop(future)] = future.result()
        advance()


def analyse(folders: Sequence[str | Path], *, jobs: int = 1, progress: bool = False) -> Analysis:
    """The analysis of every finished match stored in ``folders`` (see :mod:`apdp.analysis`).

    A folder that is no results store, a damaged store, or stores without a finished match raise
    UserError (one line, saying what to do).
    """
    pool = load_pool(folders, mixed=True)
    pooled = pool.matches()
    errors = [MatchAnalysis(p.match.match_id, p.match.agents, excluded="referee_error") for p in pool.errors()]
    bar = AnalysisProgress(len(pooled), enabled=progress)
    try:
        analyses = analyse_matches(_records(pooled), jobs, bar.advance)
    finally:
        bar.close()
    return summarise(analyses + errors, pool.notes)
