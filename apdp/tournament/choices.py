"""The report's choices, in a module of their own so that ``apdp report --help`` lists them
without loading the statistics: output formats and the tables of ``--format csv``."""

from __future__ import annotations

#: Output formats of ``apdp report``.
FORMATS = ("table", "markdown", "csv", "json", "html")
#: The tables, in the order ``--table`` lists them; ``standings`` is the default.
TABLES = ("standings", "networks", "groups", "grid", "pairs", "faults", "profits", "lineage", "curves")
