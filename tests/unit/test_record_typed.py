"""A match record has one owning type, :class:`apdp.referee.record_format.MatchRecord`: the referee
returns it, and it becomes JSON only where it is stored or written (issue 34, point 1). This test
fails when a module of apdp indexes a record as a plain dict (``record["result"]``,
``record.get("agents")``) or builds one (a dict literal with a record's header keys), outside the
record modules themselves. A record's JSON (a file, a results store's row) is read into the type
where it enters (``MatchRecord.read``), by the reader that says what is wrong with it in one line."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from tests.paths import ROOT

PACKAGE = ROOT / "apdp"

#: The record's own modules: its type (and JSON form), and the JSON it is assembled from and
#: settled by.
RECORD_MODULES = frozenset({"apdp/referee/record_format.py", "apdp/referee/record.py"})

#: A name that holds a record: ``record``, ``first_record``, ``rec``.
RECORD_NAME = re.compile(r"(^|_)(record|rec)$")
#: The keys that make a dict literal a record's header.
HEADER_KEYS = frozenset({"format", "agents", "auctions"})


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_record(node: ast.expr) -> bool:
    name = _name(node)
    return name is not None and RECORD_NAME.search(name) is not None


def _string(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _dict_uses(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Where ``tree`` indexes a record-named value with a string key, or builds a record's header."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _is_record(node.value) and _string(node.slice):
            yield node.lineno, f"{_name(node.value)}[{ast.unparse(node.slice)}]"
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and _is_record(node.func.value) and node.args and _string(node.args[0])):
            yield node.lineno, f"{_name(node.func.value)}.get({ast.unparse(node.args[0])})"
        elif isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            if keys >= HEADER_KEYS:
                yield node.lineno, "a dict literal with a record's header keys"


def _modules() -> Iterator[tuple[str, list[tuple[int, str]]]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative not in RECORD_MODULES:
            yield relative, list(_dict_uses(ast.parse(path.read_text(encoding="utf-8"))))


def test_no_module_indexes_or_builds_a_record_as_a_dict() -> None:
    found = [f"{module}:{line}: {what}" for module, uses in _modules() for line, what in uses]
    assert found == [], "records used as plain dicts (take a MatchRecord):\n" + "\n".join(found)


def test_the_scan_sees_each_way_of_using_a_record_as_a_dict() -> None:
    source = (
        'record["result"]["winner"]\n'
        'first_record.get("agents")\n'
        'self.record["plans"]\n'
        '{"format": "apdp-record/1", "agents": [], "auctions": []}\n'
        'record.result.winner\n'           # the type: fine
        'records[0]\n'                      # a list of records, by position: fine
        'fault["agent"]\n'                  # not a record
    )
    assert sorted(line for line, _ in _dict_uses(ast.parse(source))) == [1, 2, 3, 4]


def test_a_typed_record_reads_back_as_it_was_written(tmp_path: Path) -> None:
    from apdp.referee.record_format import MatchRecord
    from tests.records import typed_record

    record = typed_record({"agents": ["a", "b"], "result": {"winner": 1, "faults": [{"agent": 0}]}})
    assert MatchRecord.read(record.to_json()) == record
    assert list(record.to_json()) == ["format", "topology", "seed", "agents", "companies", "tasks", "auctions",
                                      "plans", "result"]
    assert record.result.faults[0].agent == 0 and record.faulty == {0}
