"""Tournaments: double all-play-all schedules, parallel runs, a resumable results store, reports.

Running and analysing are separate: :func:`apdp.tournament.run.run_tournament` plays the matches of a
:class:`apdp.tournament.config.TournamentConfig` and streams each finished match into the SQLite store of
its output folder; :mod:`apdp.tournament.report` builds every table from stores afterwards.
"""
