"""No function of apdp outside its command line (apdp/cli) is longer than MAX_LINES lines, from its
``def`` to its last line, docstring and comments included: a longer one is split into named steps
(issue 34, point 5). Functions still longer are listed in LONG, which must only shrink."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.paths import ROOT

MAX_LINES = 80
#: Functions over MAX_LINES not split yet, as "path/from/apdp.py:qualified.name". This list must only
#: shrink: remove a function once it is split, never add one (split the new function instead).
LONG: frozenset[str] = frozenset()


def long_functions(root: Path = ROOT) -> dict[str, int]:
    """Each function (or method) of ``root``/apdp outside apdp/cli longer than MAX_LINES, with its
    length."""
    found: dict[str, int] = {}
    for path in sorted((root / "apdp").rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if relative.startswith("apdp/cli/"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), relative)
        stack: list[tuple[ast.AST, str]] = [(tree, "")]
        while stack:
            node, prefix = stack.pop()
            for child in ast.iter_child_nodes(node):
                name = prefix
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    name = f"{prefix}{child.name}."
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = (child.end_lineno or child.lineno) - child.lineno + 1
                    if lines > MAX_LINES:
                        found[f"{relative}:{name[:-1]}"] = lines
                stack.append((child, name))
    return found


def test_no_function_is_longer_than_80_lines_but_those_listed() -> None:
    found = long_functions()
    new = {name: lines for name, lines in found.items() if name not in LONG}
    assert not new, f"functions over {MAX_LINES} lines (split them into named steps): {new}"


def test_the_list_of_long_functions_only_shrinks() -> None:
    gone = LONG - set(long_functions())
    assert not gone, f"no longer over {MAX_LINES} lines (or gone): remove them from LONG: {sorted(gone)}"


def test_the_count_sees_long_functions_and_methods_outside_the_command_line(tmp_path: Path) -> None:
    def body(lines: int) -> str:
        return "".join(f"        x = {k}\n" for k in range(lines))

    (tmp_path / "apdp" / "cli").mkdir(parents=True)
    (tmp_path / "apdp" / "game.py").write_text(
        f"class Match:\n    def play(self) -> None:\n{body(MAX_LINES)}\n"
        f"    def short(self) -> None:\n{body(MAX_LINES - 1)}\n"  # MAX_LINES lines: allowed
        f"def play() -> None:\n    def inner() -> None:\n{body(MAX_LINES)}", encoding="utf-8")
    (tmp_path / "apdp" / "cli" / "main.py").write_text(f"def main() -> None:\n{body(2 * MAX_LINES)}", encoding="utf-8")
    assert long_functions(tmp_path) == {"apdp/game.py:Match.play": MAX_LINES + 1,
                                        "apdp/game.py:play": MAX_LINES + 2, "apdp/game.py:play.inner": MAX_LINES + 1}
