"""What an exercise agent prints, or a hand-edited file, cannot break a field, verify or replay
(issue 33's attack round): printed figures are read within bounds, stored lines a field did not
write are left out, records of the wrong types are one line, agents of one name are kept apart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apdp.bundled import BUNDLED_AGENTS
from apdp.check.exercise_score import reported_search
from apdp.errors import UserError
from apdp.tournament.exercise_field import ENTRIES, FieldSpec, read_entries, run_field
from apdp.tournament.exercise_table import summary_rows
from tests.command import apdp
from tests.exercise_pages import played

BRAGGART = '''
from apdp import DeliberativeAgent
from apdp.exercises.naive_plan import naive_plan
from apdp.exercises.topology import LogistTopology


class Braggart(DeliberativeAgent):
    """The course's naive plan, and a search report of no sane size."""

    def plan(self, vehicle, tasks):
        print("9" * 5000 + " nodes in 1 ms", flush=True)
        print("9" * 400 + " nodes in " + "9" * 400 + " s", flush=True)
        print("1" + "0" * 30 + " nodes in 5 ms", flush=True)
        return naive_plan(LogistTopology.of(self.topology), vehicle.city, tasks)
'''


def test_printed_figures_are_read_within_bounds() -> None:
    assert reported_search("9" * 49_000) == [] and reported_search("9" * 5000 + " nodes in 1 ms") == []
    assert reported_search("12 nodes in " + "9" * 30 + " s") == [(None, 12)]
    assert reported_search("A* expanded 1,200 nodes in 35 ms") == [(0.035, 1200)]


def test_a_braggart_s_report_neither_breaks_nor_poisons_a_field(tmp_path: Path) -> None:
    (tmp_path / "braggart.py").write_text(BRAGGART, encoding="utf-8")
    spec = FieldSpec("deliberative", ("ch",), (1,), tasks=4)
    entries = run_field(spec, [str(tmp_path / "braggart.py")], tmp_path / "out", jobs=1)
    assert entries and all(e["fault"] is None for e in entries), entries
    assert all(e["score"]["nodes"] is None and e["score"]["seconds"] is None for e in entries)
    with (tmp_path / "out" / ENTRIES).open("a", encoding="utf-8") as out:  # lines no field writes
        out.write(json.dumps({**entries[0], "seed": 2, "score": {"nodes": 10**30}}) + "\n")
        out.write('{"agent": "braggart", "network": "switzerland", "seed": 3, "score": {"seconds": Infinity}}\n')
        out.write('{"agent": ["x"], "network": 1}\n')
    assert len(read_entries(tmp_path / "out")) == len(entries)
    (row,) = summary_rows("deliberative", read_entries(tmp_path / "out"))
    assert row["agent"] == "braggart" and row["faults"] == 0


def test_agents_of_one_name_or_a_changed_file_are_not_mixed_up(tmp_path: Path) -> None:
    mine = tmp_path / "a" / "reactive.py"
    mine.parent.mkdir()
    mine.write_text((BUNDLED_AGENTS / "exercises" / "reactive.py").read_text(encoding="utf-8") + "\n# mine\n")
    spec = FieldSpec("reactive", ("fr",), (1,))
    with pytest.raises(UserError, match="names apdp reads as one"):
        run_field(spec, ["reactive", str(mine)], tmp_path / "out")
    run_field(spec, [str(mine)], tmp_path / "out")
    mine.write_text(mine.read_text(encoding="utf-8") + "# changed\n", encoding="utf-8")
    with pytest.raises(UserError, match="its file changed since its rounds"):
        run_field(spec, [str(mine)], tmp_path / "out")


@pytest.mark.parametrize(("path", "value"), [
    (("end", "hours"), "soon"), (("end", "hours"), float("nan")), (("seconds",), float("nan")),
    (("seed",), 10**40), (("referee_error",), {"x": 1}), (("answers", 0, 0), {"call": "act", "plans": [[]]}),
    (("answers", 0, 0), {"call": "act", "plans": []}), (("statistics", 0, "total_profit"), float("nan")),
    (("fault",), {"agent": 5, "kind": "timeout", "phase": "act", "task": None, "message": "m"}),
])
def test_a_record_of_the_wrong_types_is_one_line(tmp_path: Path, path: tuple[object, ...], value: object) -> None:
    data = played("reactive", acts=20).to_json()
    target = data
    for key in path[:-1]:
        target = target[key]  # type: ignore[index]
    target[path[-1]] = value  # type: ignore[index]
    (tmp_path / "r.json").write_text(json.dumps(data), encoding="utf-8")
    for command in (("verify", "r.json"), ("replay", "r.json", "--out", "r.html")):
        done = apdp(*command, cwd=tmp_path)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_vehicle_too_slow_to_play_is_refused(tmp_path: Path) -> None:
    from apdp.bundled import BUNDLED_SCENARIOS

    text = (BUNDLED_SCENARIOS / "exercises" / "reactive_france.toml").read_text(encoding="utf-8")
    (tmp_path / "slow.toml").write_text(text.replace("speed = 220", "speed = 0.001"), encoding="utf-8")
    done = apdp("match", "--scenario", "slow.toml", "-a", "reactive", "--acts", "5", cwd=tmp_path)
    assert done.returncode == 2 and "speed" in done.stderr and len(done.stderr.strip().splitlines()) == 1
