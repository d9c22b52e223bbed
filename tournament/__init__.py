"""Tournaments: double all-play-all schedules, parallel runs, a resumable results store, reports.

Running and analysing are separate: :func:`tournament.run.run_tournament` plays the matches of a
:class:`tournament.config.TournamentConfig` and streams each finished match into the SQLite store of
its output folder; :mod:`tournament.report` builds every table from stores afterwards.
"""
