"""Token figures from a chat endpoint, a provenance file or a study's journal: only sane whole numbers
are believed; anything else (1.7e308, NaN, infinity, a fraction, a string) is unknown, never a crash."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from apdp.codegen.usage import MAX_CALL_TOKENS, MAX_TOTAL_TOKENS, ModelCall, UsageLog, clean_usage, token_count
from apdp.study.funnel import funnel_csv, funnel_rows, funnel_text
from apdp.study.generate import Job
from apdp.study.journal import Journal
from apdp.study.manifest import Generator, Price
from apdp.tournament.stats import Standing
from apdp.tournament.usage import agent_usage

HOSTILE: list[Any] = [1.7e308, math.inf, -math.inf, math.nan, -1, 2.5, "100", None, True, [], {},
                      MAX_CALL_TOKENS + 1, 10**400]


@pytest.mark.parametrize("value", HOSTILE)
def test_a_figure_that_is_no_sane_whole_number_is_unknown(value: Any) -> None:
    assert token_count(value) is None


def test_whole_numbers_up_to_the_bound_are_kept() -> None:
    assert [token_count(v) for v in (0, 1, 1500, 1500.0, MAX_CALL_TOKENS)] == [0, 1, 1500, 1500, MAX_CALL_TOKENS]
    assert token_count(10**12) is None and token_count(10**12, MAX_TOTAL_TOKENS) == 10**12
    assert isinstance(token_count(12.0), int)


def test_a_response_usage_keeps_only_believable_figures() -> None:
    usage = {"prompt_tokens": 1.7e308, "completion_tokens": 20, "total_tokens": 1.7e308, "extra": "x"}
    assert clean_usage(usage) == {"prompt_tokens": None, "completion_tokens": 20, "total_tokens": None}
    assert clean_usage([1, 2]) is None and clean_usage(None) is None
    log = UsageLog()
    for _ in range(2):  # the usage server's two replies: summed, 3.4e308 overflowed a report
        log.add(ModelCall.of("generator", "m", {k: 1.7e308 for k in ("prompt_tokens", "completion_tokens",
                                                                    "total_tokens")}, 1.0))
    log.add(ModelCall.of("generator", "m", {"prompt_tokens": 100, "completion_tokens": 20}, 1.0))
    totals = log.totals()
    assert (totals["prompt_tokens"], totals["completion_tokens"], totals["total_tokens"]) == (100, 20, 120)
    assert log.calls[0].total_tokens is None


def _standing(agent: str, wins: int) -> Standing:
    return Standing(agent=agent, avg_wins=float(wins), sd_wins=None, avg_losses=0.0, sd_losses=None,
                    total_wins=wins, total_losses=0, draws=0, win_rate=1.0, faults=0, rating=0.0,
                    rating_low=None, rating_high=None, matches=wins, tournaments=1)


@pytest.mark.parametrize("value", [3.4e308, math.inf, math.nan, 10**400, -5, "lots", 2.5])
def test_an_edited_provenance_makes_no_report_crash(value: Any) -> None:
    """A sidecar or ledger holds what anyone wrote there: the report shows the figure as unknown."""
    provenance = {"model": "m", "usage": {"calls": value, "prompt_tokens": value, "completion_tokens": value,
                                          "total_tokens": value, "seconds": value}}
    [usage] = agent_usage([_standing("gen", 3)], lambda _agent: provenance)
    assert (usage.calls, usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (None,) * 4
    assert usage.seconds == (2.5 if value == 2.5 else None) and usage.tokens_per_win is None  # 2.5 s is fine
    json.dumps(usage.tokens_per_win, allow_nan=False)


def test_a_sane_provenance_still_counts() -> None:
    provenance = {"model": "m", "usage": {"calls": 2, "total_tokens": 1500, "seconds": 3.5}}
    [usage] = agent_usage([_standing("gen", 3)], lambda _agent: provenance)
    assert (usage.calls, usage.total_tokens, usage.seconds, usage.tokens_per_win) == (2, 1500, 3.5, 500.0)


def test_an_edited_journal_makes_no_funnel_crash(tmp_path: Path) -> None:
    generator = Generator(model="m", base_url="http://127.0.0.1:9/v1", strategies=["a1"],
                          price=Price(prompt=2.5, completion=10.0))
    job = Job(generator, "a1", 1)
    path = tmp_path / "journal.jsonl"
    calls = [
        {"usage": {"prompt_tokens": 1.7e308, "completion_tokens": 1.7e308, "total_tokens": 1.7e308}, "seconds": 1.0},
        {"usage": {"prompt_tokens": "NaN", "total_tokens": [1]}, "seconds": "slow"},
        {"usage": [1, 2, 3], "seconds": 1e999},
        {"usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}, "seconds": 2.0},
    ]
    lines = [json.dumps({"kind": "call", "job": job.id, "key": str(k), **c}) for k, c in enumerate(calls)]
    lines.append(json.dumps({"kind": "job", "job": job.id, "status": "clean", "first_clean": 0,
                             "replies": 1e308, "replies_with_code": "x", "seconds": math.nan}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    journal = Journal(path)
    try:
        [row] = funnel_rows([job], journal)
    finally:
        journal.close()
    assert (row["calls"], row["prompt_tokens"], row["completion_tokens"], row["tokens"]) == (4, 100, 20, 120)
    assert row["cost"] == pytest.approx((100 * 2.5 + 20 * 10.0) / 1e6)
    assert row["model_seconds"] == 3.0 and row["seconds"] == 0.0 and row["tokens_per_clean"] == 120.0
    assert "inf" not in funnel_csv([row]).lower() and "nan" not in funnel_text([row]).lower()
