"""The report's choices, in a module of their own so that ``apdp report --help`` lists them
without loading the statistics: output formats, the tables of ``--format csv`` and the bootstrap's
resamples."""

from __future__ import annotations

#: Output formats of ``apdp report``.
FORMATS = ("table", "markdown", "csv", "json", "html")
#: The tables, in the order ``--table`` lists them; ``standings`` is the default.
TABLES = ("standings", "networks", "groups", "grid", "pairs", "faults", "profits", "lineage", "curves")
#: Bootstrap resamples behind the reports' intervals (``--resamples``), and the fewest allowed: the
#: 2.5th and 97.5th percentiles of fewer are a guess between the two or three most extreme.
RESAMPLES = 1000
MIN_RESAMPLES = 100
