"""An exercise agent that imports apdp's own solvers is told apart (the attack round: the scorer's
exact search, imported, was ranked first and admissible)."""

from __future__ import annotations

from pathlib import Path

from apdp.check.borrowed import borrowed_solvers
from apdp.tournament.exercise_table import summary_rows

CHEAT = '''
import importlib
from apdp import DeliberativeAgent, Move
from apdp.exercises.optimal_plan import farthest_task, search_plan
from apdp.exercises.topology import LogistTopology
import apdp.baselines.planning as planning
mdp = importlib.import_module("apdp.exercises.reactive_mdp")
'''


def test_imports_of_apdp_s_solvers_are_found_and_the_course_s_helpers_are_not() -> None:
    assert borrowed_solvers(CHEAT) == ["apdp.exercises.optimal_plan", "apdp.baselines.planning",
                                       "apdp.exercises.reactive_mdp"]
    assert borrowed_solvers("from apdp import Move\nfrom apdp.game.plan import Action\n") == []
    assert borrowed_solvers("def broken(:\n") == []


def test_a_field_ranks_an_agent_that_borrows_behind_one_that_does_not() -> None:
    def entry(agent: str, ratio: float, borrowed: list[str]) -> dict[str, object]:
        return {"agent": agent, "network": "france", "seed": None, "instance": None, "fault": None,
                "borrowed": borrowed, "score": {"reward_per_km": ratio, "optimal_reward_per_km": 1.0, "ratio": ratio}}

    rows = summary_rows("reactive", [entry("own", 0.8, []), entry("copy", 1.0, ["apdp.exercises.reactive_mdp"])])
    assert [(r["agent"], r["borrows"]) for r in rows] == [("own", False), ("copy", True)]


def test_a_computed_import_counts_as_borrowing_and_the_course_s_helpers_do_not() -> None:
    from apdp.check.borrowed import COMPUTED

    sneaky = 'import importlib\nsolver = importlib.import_module("apdp" + ".exercises.optimal_plan")\n'
    assert borrowed_solvers(sneaky) == [COMPUTED]
    assert borrowed_solvers("x = __import__(name)\n") == [COMPUTED]
    assert borrowed_solvers("from apdp.exercises import topology, optimal_plan\n") == ["apdp.exercises.optimal_plan"]
    assert borrowed_solvers("from apdp.exercises import naive_plan\nimport apdp.exercises.topology\n") == []


def test_a_source_too_large_is_not_parsed_in_apdp_s_process(tmp_path: Path) -> None:
    # a 16 MiB list literal took the referee 8 GB and 40 s to parse for its kind, 1 MiB of one-letter lines 0.9 GB
    from apdp.agents.exercise_kind import python_kind
    from apdp.check.borrowed import UNREAD, borrowed_by

    big = tmp_path / "big.py"
    big.write_text("from apdp import ReactiveAgent\n_X = [" + "0," * 300_000 + "]\n"
                   "class Big(ReactiveAgent):\n    pass\n", encoding="utf-8")
    assert python_kind(big) == "reactive" and borrowed_by(big) == []  # read by its tokens, not parsed
    huge = tmp_path / "huge.py"
    huge.write_text("from apdp import ReactiveAgent\n_X = [" + "0," * 1_000_000 + "]\n", encoding="utf-8")
    assert borrowed_by(huge) == [UNREAD]  # more than a token reading takes a second or two for
    small = tmp_path / "small.py"
    small.write_text("from apdp import ReactiveAgent\nclass Small(ReactiveAgent):\n    pass\n", encoding="utf-8")
    assert python_kind(small) == "reactive" and borrowed_by(small) == []


#: Ways around a check of imports alone (attack round 5: the first ranked first, unmarked).
UNREAD_CODE = {
    "an importer passed on": 'import importlib\nload = importlib.import_module\n'
                             'solver = load("apdp" + ".exercises" + ".optimal_plan")\n',
    "an importer renamed": 'from importlib import import_module as im\nim("apdp" + ".baselines.planning")\n',
    "code from a file": 'exec(open("solver.txt").read())\n',
    "code compiled": 'code = compile(text, "solver", "exec")\n',
    "a pickle (it imports by name)": 'import pickle\nsolve = pickle.loads(blob)\n',
    "a process of its own": 'import os\nos.system("python3 solve.py")\n',
    "a process started otherwise": 'from os import execv\n',
    "the loaders": 'from importlib import util\nspec = util.spec_from_file_location("s", "s.txt")\n',
    "a changed path": 'import sys\nsys.path.insert(0, "/tmp")\nimport solver\n',
    "the loaded modules": 'import sys\nsolver = sys.modules[name]\n',
    "the builtins": 'import builtins\nrun = getattr(builtins, "ex" + "ec")\n',
}


def test_code_that_the_source_does_not_show_counts_as_borrowing() -> None:
    from apdp.check.borrowed import COMPUTED

    for why, source in UNREAD_CODE.items():
        assert borrowed_solvers(source)[:1] == [COMPUTED], why


#: Imports past a reading by lines (attack round 6: each ranked first, unmarked).
HIDDEN_IMPORTS = {
    "a bracketed list": "from apdp.exercises import (topology as t,\n                            optimal_plan as op)\n",
    "after another statement": "pass; import apdp.exercises.optimal_plan as op\n",
    "in a compound statement": "if True: import apdp.exercises.optimal_plan as op\n",
    "a continued line": "from apdp.exercises.optimal_plan \\\n    import search_plan\n",
    "a relative name": 'from importlib import import_module\nop = import_module(".exercises.optimal_plan", "apdp")\n',
    "lines ended by CR alone": "x = 1\rimport apdp.exercises.optimal_plan as op\r",
}


def test_an_import_is_read_wherever_python_reads_it() -> None:
    for why, source in HIDDEN_IMPORTS.items():
        assert borrowed_solvers(source) == ["apdp.exercises.optimal_plan"], why


def test_a_source_is_read_as_python_decodes_it_and_names_as_python_normalises_them(tmp_path: Path) -> None:
    from apdp.check.borrowed import COMPUTED, borrowed_by

    utf7 = tmp_path / "utf7.py"
    utf7.write_bytes(b"# coding: utf-7\n+AGk-mport apdp.exercises.optimal+AF8-plan as op\n")
    assert borrowed_by(utf7) == ["apdp.exercises.optimal_plan"]
    wide = tmp_path / "wide.py"
    wide.write_text('\uff45\uff58\uff45\uff43("import apdp.exercises." + "optimal_plan")\n', encoding="utf-8")
    assert borrowed_by(wide) == [COMPUTED]  # fullwidth letters: Python runs it as exec


def test_words_in_comments_and_strings_and_an_agent_s_own_names_are_no_code() -> None:
    honest = ('"""Not `from apdp.exercises.optimal_plan import search_plan`: our own search."""\n'
              "import re\nimport sys\nimport importlib.metadata\nfrom re import compile as pattern\n"
              "# we exec nothing, eval nothing, pickle nothing ('apdp.exercises.optimal_plan')\n"
              'NOTE = "exec eval compile pickle subprocess"\nPATTERN = re.compile("[a-z]+")\n'
              "first = sys.path[0]\n"
              "class Agent:\n    def eval(self, state):\n        return self.eval\n"
              "def cost(plan, globals=None):\n    return globals\n")
    assert borrowed_solvers(honest) == []


def test_a_name_of_its_own_elsewhere_hides_no_builtin() -> None:
    from apdp.check.borrowed import COMPUTED

    assert borrowed_solvers('def f(exec):\n    return exec\nexec("import apdp.exercises.optimal_plan")\n') == \
        [COMPUTED]


def test_a_source_too_large_to_parse_is_read_by_its_tokens() -> None:
    from apdp.check.borrowed import COMPUTED

    table = "TABLE = [" + "0," * 40_000 + "]\n"  # past what apdp parses
    assert borrowed_solvers(table + "pass; import apdp.exercises.optimal_plan\n") == ["apdp.exercises.optimal_plan"]
    assert borrowed_solvers(table + 'exec("x")\n') == [COMPUTED]
    assert borrowed_solvers(table + "class A:\n    def eval(self):\n        return self.eval\n") == []


def test_a_folder_s_compiled_code_and_too_many_files_count_as_borrowing(tmp_path: Path) -> None:
    from apdp.check.borrowed import COMPILED, MOST_FILES, UNREAD, borrowed_by

    folder = tmp_path / "agent"
    (folder / "__pycache__").mkdir(parents=True)
    (folder / "agent.py").write_text("from apdp import DeliberativeAgent\nimport helper\n")
    (folder / "helper.py").write_text("X = 1\n")
    (folder / "__pycache__" / "helper.cpython-311.pyc").write_bytes(b"\0" * 16)  # never run: sources are
    assert borrowed_by(folder) == []
    (folder / "solver.pyc").write_bytes(b"\0" * 16)  # imported as `solver`, read by no one
    assert borrowed_by(folder) == [COMPILED]
    (folder / "solver.pyc").unlink()
    for n in range(MOST_FILES):
        (folder / f"a{n:03}.py").write_text("X = 1\n")
    assert borrowed_by(folder) == [UNREAD]


def test_what_an_agent_program_runs_with_python_is_read_whatever_its_name(tmp_path: Path) -> None:
    from apdp.check.borrowed import borrowed_by

    folder = tmp_path / "program"
    folder.mkdir()
    (folder / "agent.toml").write_text('command = ["python3", "{dir}/solve"]\n')
    (folder / "solve").write_text("from apdp.exercises.optimal_plan import search_plan\n")
    assert borrowed_by(folder) == ["apdp.exercises.optimal_plan"]
    (folder / "agent.toml").write_text('command = ["python3", "-c", "import apdp.baselines.planning"]\n')
    assert borrowed_by(folder) == ["apdp.baselines.planning"]


def test_what_was_found_reads_after_the_agent_s_name() -> None:
    from apdp.check.borrowed import COMPUTED, describe

    assert describe(["apdp.exercises.optimal_plan", "apdp.baselines.planning"]) == \
        "imports apdp's own apdp.exercises.optimal_plan, apdp.baselines.planning"
    assert describe([COMPUTED, "apdp.exercises.reactive_mdp"]) == \
        f"imports apdp's own apdp.exercises.reactive_mdp; {COMPUTED}"
