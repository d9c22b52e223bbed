"""A field of exercise agents (issue 33): rounds played on several workers give what one worker gives
(each round's result depends on its key and the folder's secret alone), in one order; a stored file
that is no regular file is refused in one line."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from apdp.errors import UserError
from apdp.exercises.round import ReactiveEnd
from apdp.tournament.exercise_field import ENTRIES, SECRET, FieldSpec, read_entries, run_field

WANDERER = '''
from apdp import Move, ReactiveAgent


class Wanderer(ReactiveAgent):
    """Never takes a task: the last neighbour, always."""

    def act(self, vehicle, task):
        return Move(sorted(self.topology.neighbours(vehicle.city))[-1])
'''


def _field(tmp_path: Path, folder: str, jobs: int) -> list[dict[str, object]]:
    spec = FieldSpec("reactive", ("ch", "fr"), (5, 6), end=ReactiveEnd(hours=None, acts=40))
    return run_field(spec, ["reactive", str(tmp_path / "wanderer.py")], tmp_path / folder, jobs=jobs)


def _without_cpu(entries: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{k: v for k, v in e.items() if k != "plan_cpu"} for e in entries]


def test_a_field_on_two_workers_scores_as_on_one(tmp_path: Path) -> None:
    (tmp_path / "wanderer.py").write_text(WANDERER, encoding="utf-8")
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    (tmp_path / "one" / SECRET).write_text("ab" * 32 + "\n", encoding="ascii")
    shutil.copy(tmp_path / "one" / SECRET, tmp_path / "two" / SECRET)
    alone = _field(tmp_path, "one", 1)
    both = _field(tmp_path, "two", 2)
    assert len(alone) == 8 and all(e["fault"] is None for e in alone)
    assert _without_cpu(alone) == _without_cpu(both)
    scores = {(e["agent"], e["network"], e["seed"]): e["score"] for e in alone}
    assert all(s["reward"] == 0 for (agent, _, _), s in scores.items() if agent == "wanderer")  # type: ignore[index]
    assert len({s["optimal_reward"] for s in scores.values()}) > 1  # type: ignore[index]  # the draws differ by seed
    assert _without_cpu(_field(tmp_path, "two", 2)) == _without_cpu(both)  # a rerun plays nothing, same order


def test_a_stored_file_that_is_no_regular_file_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / ENTRIES)
    with pytest.raises(UserError, match="not a regular file"):
        read_entries(tmp_path)


def test_a_round_the_referee_failed_stops_no_other_and_is_played_again_by_a_rerun(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from apdp.referee import exercise_round

    real = exercise_round.play_exercise
    failing = [True]

    def play(configuration, *args, **kwargs):  # type: ignore[no-untyped-def]
        record = real(configuration, *args, **kwargs)
        if "france" in configuration.source and failing and "wanderer" in str(args[0][0].path):
            return dataclasses.replace(record, referee_error="KeyError: 'x'\nTraceback ...")
        return record

    monkeypatch.setattr(exercise_round, "play_exercise", play)
    (tmp_path / "wanderer.py").write_text(WANDERER, encoding="utf-8")
    failed = r"the referee failed in 2 round\(s\) \(apdp's fault.*wanderer on france.*KeyError"
    with pytest.raises(UserError, match=failed):
        _field(tmp_path, "out", 1)
    stored = read_entries(tmp_path / "out")
    assert len(stored) == 6 and not any(e["agent"] == "wanderer" and e["network"] == "france" for e in stored)
    failing.clear()  # fixed: the rerun plays the two rounds it lacks, and no other
    assert len(_field(tmp_path, "out", 1)) == 8
    assert len(read_entries(tmp_path / "out")) == 8
