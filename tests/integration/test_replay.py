"""Replays and report pages without a browser: their data, their safety, their commands and sizes.

The pages' behaviour in a real browser is in test_pages_browser.py.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from apdp.game.company import Vehicle
from apdp.game.plan import plan_cost, plans_from_json
from apdp.pages.html import DATA_ID, embed_json
from apdp.pages.replay import replay_data, replay_html
from apdp.referee.match import play_match
from apdp.referee.record_format import MatchRecord
from apdp.scenario import make_scenario
from apdp.scenario.networks import load_topology


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A full-length match (50 tasks, the default) between two baselines that both win tasks."""
    scenario = make_scenario({"topology": "france", "seed": 11})
    return play_match(scenario, ["honest", "exp-cost-fixed-bid"]).to_json()


def page_json(html: str) -> Any:
    found = re.search(rf'<script type="application/json" id="{DATA_ID}">(.*?)</script>', html, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_steps_cost_what_the_referee_charged(record: dict[str, Any]) -> None:
    topology = load_topology("france")
    data = replay_data(MatchRecord.read(record), topology)
    assert len(data["topology"]["cities"]) == len(topology.cities)
    assert len(data["topology"]["roads"]) == len(topology.roads)
    for c, company in enumerate(record["companies"]):
        routes = data["routes"][c]
        plans = plans_from_json(record["plans"][c])
        total = 0.0
        for v, vehicle in enumerate(company["vehicles"]):
            steps = routes[v]
            assert len(steps) == len(plans[v]) + 1  # home, then one step per action
            assert steps[0][0] == topology.index[vehicle["home"]] and steps[0][3:] == [0.0, 0.0]
            assert all(0 <= s[3] <= vehicle["capacity"] for s in steps)
            assert steps[-1][3] == 0.0  # everything delivered
            expected = plan_cost(topology, Vehicle(**vehicle), plans[v])
            assert steps[-1][4] == expected
            total += steps[-1][4]
        assert total == record["result"]["cost"][c]


def test_page_is_self_contained_and_data_cannot_escape(record: dict[str, Any]) -> None:
    hostile = copy.deepcopy(record)
    hostile["agents"][1] = "</script><script>alert(1)</script><!--"
    hostile["result"]["faults"] = [{"agent": 1, "kind": "exception", "phase": "bid", "task": 0,
                                    "message": "<img src=x onerror=alert(1)> & </script>"}]
    html = replay_html(hostile)
    assert html.count("</script>") == 2  # the data's and the code's, nothing from the record
    assert "<img" not in html
    assert page_json(html)["agents"][1] == hostile["agents"][1]
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", html)
    assert "default-src 'none'" in html
    assert json.loads(embed_json({"a": "\u2028</script>&"})) == {"a": "\u2028</script>&"}


def test_fifty_task_replay_is_under_a_megabyte(record: dict[str, Any]) -> None:
    assert len(record["tasks"]) == 50
    size = len(replay_html(record).encode("utf-8"))
    assert size < 1_000_000, size


def apdp(args: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    from apdp.cli import main

    monkeypatch.setattr(sys, "argv", ["apdp", *args])
    with pytest.raises(SystemExit) as info:
        main()
    return int(info.value.code or 0)


def test_replay_command(
    record: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "match.json"
    source.write_text(json.dumps(record))
    assert apdp(["replay", str(source), "--out", str(tmp_path / "match.html")], monkeypatch) == 0
    assert "replay written to" in capsys.readouterr().out
    assert page_json((tmp_path / "match.html").read_text())["result"] == record["result"]

    broken = tmp_path / "broken.json"
    for content, message in (
        ("{", "not JSON"),
        ('{"format": "apdp-record/1", "topology": "france"}', "the record has no 'seed'"),
        (json.dumps({**record, "topology": "atlantis"}), "atlantis"),
        (json.dumps({**record, "plans": [[[["fly", 3]]], None]}), "cannot replay it"),
    ):
        broken.write_text(content)
        assert apdp(["replay", str(broken), "--out", str(tmp_path / "x.html")], monkeypatch) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and message in err and err.count("\n") == 1, err
    assert apdp(["replay", str(source), "--out", str(tmp_path / "no" / "x.html")], monkeypatch) == 2
    assert apdp(["replay", str(tmp_path), "--out", str(tmp_path / "x.html")], monkeypatch) == 2
    assert "--match KEY" in capsys.readouterr().err


def test_match_writes_its_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "m.html"
    args = ["match", "--topology", "switzerland", "--agents", "template", "naive", "--tasks", "5",
            "--seed", "2", "--quiet", "--record", str(tmp_path / "m.json"), "--replay", str(out)]
    assert apdp(args, monkeypatch) == 0
    assert page_json(out.read_text())["result"] == json.loads((tmp_path / "m.json").read_text())["result"]


def test_replay_from_a_results_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    from apdp.tournament.config import make_config
    from apdp.tournament.run import run_tournament

    config = make_config(topology="switzerland", agents=["template", "naive"], seed=5, overrides={"tasks": 4})
    assert run_tournament(config, tmp_path / "res", jobs=1, progress=False).played == 2
    key = "switzerland/5/naive/template"
    out = tmp_path / "r.html"
    assert apdp(["replay", str(tmp_path / "res"), "--match", key, "--out", str(out)], monkeypatch) == 0
    assert page_json(out.read_text())["agents"] == ["naive", "template"]
    assert apdp(["replay", str(tmp_path / "res"), "--match", "nope", "--out", str(out)], monkeypatch) == 2
    err = capsys.readouterr().err
    assert "no match 'nope'" in err and "it holds 2: " in err  # the ids it has, to copy
    assert "switzerland/5/naive/template" in err and "switzerland/5/template/naive" in err
    assert apdp(["replay", str(tmp_path / "res"), "--out", str(out)], monkeypatch) == 2  # no --match: its ids
    err = capsys.readouterr().err
    assert "add --match KEY; it holds 2: " in err and "switzerland/5/naive/template" in err


def test_report_html_needs_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert apdp(["report", str(tmp_path), "--format", "html"], monkeypatch) == 2
    assert "give its file with --out" in capsys.readouterr().err
    assert apdp(["report", str(tmp_path), "--replays"], monkeypatch) == 2
    assert "--replays is for --format html" in capsys.readouterr().err


BIG_SEED = 3358432059346614871  # above 2**53: a JavaScript number would read 3358432059346615000


def test_seeds_above_2_53_reach_the_pages_as_strings(record: dict[str, Any]) -> None:
    from apdp.tournament.report_page import report_html

    assert page_json(replay_html({**record, "seed": BIG_SEED}))["seed"] == str(BIG_SEED)
    match = {"topology": "france", "tournament_seed": BIG_SEED, "seed": BIG_SEED + 1, "agents": ["a", "b"],
             "profit": [1.0, 0.0], "winner": "a", "faults": [], "results": "r"}
    report = {"tournaments": 1, "agents": [], "pairs": [], "faults": {}, "profits": [], "matches": [match],
              "notes": [], "incomplete": [{"results": "r", "topology": "france", "seed": BIG_SEED, "missing": []}],
              "referee_errors": [], "networks": []}
    data = page_json(report_html(report))
    [shown] = data["matches"]
    assert (shown["tournament_seed"], shown["seed"]) == (str(BIG_SEED), str(BIG_SEED + 1))
    assert shown["match_id"] == f"france/{BIG_SEED}/a/b"
    assert data["incomplete"][0]["seed"] == str(BIG_SEED)
