"""Crafted inputs around the exercises (issue 33's second attack round): networks too large or too
long to play, a chain the platform's route set cannot order, records whose answers would replay into
millions of events, a field folder whose files are links or pipes, laws past a Java long, and the
field's ranking (admissible only where a search is optimal everywhere, ties shared, this run's
rounds only)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from apdp.bundled import BUNDLED_SCENARIOS
from apdp.errors import UserError
from apdp.exercises.round import ReactiveEnd
from apdp.tournament.exercise_field import ENTRIES, SECRET, FieldSpec, run_field
from apdp.tournament.exercise_table import summary_rows
from tests.command import apdp
from tests.exercise_pages import played


def network(cities: int, shape: str, distance: float = 10.0) -> str:
    """A TOML network of ``cities`` cities: a chain, or a star around the first."""
    out = ['name = "crafted"\n']
    out += [f'[[cities]]\nname = "C{i}"\nx = {i}\ny = {i % 7}\n' for i in range(cities)]
    for i in range(1, cities):
        a = f"C{i - 1}" if shape == "chain" else "C0"
        out.append(f'[[routes]]\nfrom = "{a}"\nto = "C{i}"\ndistance = {distance}\n')
    return "\n".join(out)


def scenario(folder: Path, net: str, home: str = "C0", reward_max: str = "99999") -> Path:
    (folder / "net.toml").write_text(net, encoding="utf-8")
    path = folder / "s.toml"
    path.write_text(f'''exercise = "reactive"
topology = "net.toml"
tasks = 3
seed = 1
[laws.probability]
distribution = "uniform"
min = 0.0
max = 1.0
[laws.reward]
distribution = "constant"
min = 1000
max = {reward_max}
[laws.weight]
distribution = "constant"
value = 1
[[companies]]
name = "A"
[[companies.vehicles]]
name = "V"
home = "{home}"
capacity = 3
cost_per_km = 1
''', encoding="utf-8")
    return path


@pytest.mark.parametrize(("net", "reward", "says"), [
    (network(400, "star"), "99999", "at most 300"), (network(3, "chain", 1e12), "99999", "road of 1e+12 km"),
    (network(3, "chain"), "1e30", "at most 1e+12"),
])
def test_a_network_or_law_no_round_could_play_is_one_line(tmp_path: Path, net: str, reward: str, says: str) -> None:
    scenario(tmp_path, net, reward_max=reward)
    done = apdp("match", "--scenario", "s.toml", "-a", "reactive", "--acts", "3", cwd=tmp_path)
    assert done.returncode == 2 and says in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_chain_of_22_cities_plays_and_verifies(tmp_path: Path) -> None:
    # the platform's route set orders such a network arbitrarily; apdp in one way, every time
    scenario(tmp_path, network(22, "chain"))
    done = apdp("match", "--scenario", "s.toml", "-a", "reactive", "--acts", "30", "--record", "r.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert apdp("verify", "r.json", cwd=tmp_path).returncode == 0


def test_answers_that_would_replay_into_more_events_than_their_record_are_stopped(tmp_path: Path) -> None:
    data = played("reactive", acts=20).to_json()
    # a configuration without a no-task law (an offer at every act), every act taking the offer: a pickup,
    # a path and a delivery each
    data["scenario"] = str(BUNDLED_SCENARIOS / "exercises" / "deliberative_france.toml")
    data["answers"][0] = [-1] * 200_000
    data["end"] = {"hours": None, "acts": 10**9}
    (tmp_path / "r.json").write_text(json.dumps(data), encoding="utf-8")
    checked = apdp("verify", "r.json", cwd=tmp_path)
    assert checked.returncode == 1 and "more events than the record's" in checked.stdout, checked.stdout
    shown = apdp("replay", "r.json", "--out", "r.html", cwd=tmp_path)
    assert shown.returncode in (0, 2) and (tmp_path / "r.html").stat().st_size < 2_000_000 if shown.returncode == 0 \
        else len(shown.stderr.strip().splitlines()) == 1
    data["events"] = 10**9
    (tmp_path / "r.json").write_text(json.dumps(data), encoding="utf-8")
    assert apdp("verify", "r.json", cwd=tmp_path).returncode == 2


def test_a_record_of_more_agents_than_its_companies_is_one_line(tmp_path: Path) -> None:
    data = played("reactive", acts=20).to_json()
    for key in ("agents", "answers", "outputs", "kinds"):
        data[key] = data[key] * 7
    (tmp_path / "r.json").write_text(json.dumps(data), encoding="utf-8")
    for command in (("verify", "r.json"), ("replay", "r.json", "--out", "r.html")):
        done = apdp(*command, cwd=tmp_path)
        assert done.returncode in (1, 2) and "Traceback" not in done.stderr and "companies" in done.stdout + done.stderr


def test_a_field_folder_s_links_and_pipes_are_refused(tmp_path: Path) -> None:
    spec = FieldSpec("reactive", ("fr",), (1,), end=ReactiveEnd(hours=None, acts=10))
    (tmp_path / "pipe").mkdir()
    os.mkfifo(tmp_path / "pipe" / SECRET)
    with pytest.raises(UserError, match="not a regular file"):
        run_field(spec, ["reactive"], tmp_path / "pipe")
    (tmp_path / "link").mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n", encoding="utf-8")
    (tmp_path / "link" / ENTRIES).symlink_to(victim)
    with pytest.raises(UserError, match="symbolic link"):
        run_field(spec, ["reactive"], tmp_path / "link")
    assert victim.read_text(encoding="utf-8") == "mine\n"


def test_a_field_returns_this_run_s_rounds_only(tmp_path: Path) -> None:
    end = ReactiveEnd(hours=None, acts=10)
    run_field(FieldSpec("reactive", ("fr",), (1, 2, 3), end=end), ["reactive"], tmp_path / "out")
    again = run_field(FieldSpec("reactive", ("fr",), (1,), end=end), ["reactive"], tmp_path / "out")
    assert [e["seed"] for e in again] == [1]
    other = run_field(FieldSpec("reactive", ("fr",), (1,), end=ReactiveEnd(hours=None, acts=12)), ["reactive"],
                      tmp_path / "out")
    assert other[0]["score"] != again[0]["score"]  # other settings: another round, not the stored one


def _deliberative(agent: str, rounds_optimal: bool, instances_optimal: bool) -> list[dict[str, object]]:
    def entry(seed: int | None, instance: int | None, optimal: bool) -> dict[str, object]:
        return {"agent": agent, "network": "switzerland", "seed": seed, "instance": instance, "fault": None,
                "score": {"all_optimal": optimal, "excess": 0.0 if optimal else 0.3, "seconds": None, "nodes": None}}

    return [entry(1, None, rounds_optimal), *(entry(None, k, instances_optimal) for k in range(3))]


def test_admissible_means_optimal_everywhere_and_equal_scores_share_a_rank() -> None:
    rows = summary_rows("deliberative", _deliberative("gamer", False, True) + _deliberative("plain", False, False)
                        + _deliberative("b-astar", True, True) + _deliberative("a-astar", True, True))
    by_name = {r["agent"]: r for r in rows}
    assert not by_name["gamer"]["admissible"] and by_name["a-astar"]["admissible"]
    assert by_name["a-astar"]["rank"] == by_name["b-astar"]["rank"] == 1
    assert by_name["gamer"]["rank"] == by_name["plain"]["rank"] == 3


def test_an_xml_file_that_declares_entities_in_utf_16_is_refused(tmp_path: Path) -> None:
    from apdp.logist.xmlfile import LogistFileError, read_xml

    doc = '<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x "hello">]>\n<a>&x;</a>\n'
    (tmp_path / "a.xml").write_bytes(doc.encode("utf-16-le"))
    with pytest.raises(LogistFileError, match="declares XML entities"):
        read_xml(tmp_path / "a.xml", "a configuration")
